"""What Copilot hooks read on stdin: each event, both naming styles, key sets, order and types,
and the environment (seed 002 "输入命名格式"; the observed contract where the seed is silent)."""

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.dialects.conftest import Dispatch, bash, copilot_file, envs, lines, record
from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects.copilot import COPILOT

WRITE = {"tool_name": "Write", "tool_input": {"file_path": "/p/a.txt", "content": "x"}}
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

# (catalogue event, its fields, camelCase key, camel keys after the common three,
#  PascalCase key or None, Pascal keys after the common four)
CASES: list[tuple[str, dict[str, Any], str, list[str], str | None, list[str]]] = [
    ("SessionStart", {"source": "startup"}, "sessionStart", ["source"], "SessionStart",
     ["source"]),
    ("SessionEnd", {"reason": "other"}, "sessionEnd", ["reason"], "SessionEnd", ["reason"]),
    ("UserPromptSubmit", {"prompt": "hi"}, "userPromptSubmitted", ["prompt"], "UserPromptSubmit",
     ["prompt"]),
    ("UserPromptTransformed", {"prompt": "hi", "transformed_prompt": "ctx\n\nhi"},
     "userPromptTransformed", ["prompt", "transformedPrompt"], None, []),
    ("PreToolUse", WRITE, "preToolUse", ["toolName", "toolArgs"], "PreToolUse",
     ["tool_name", "tool_input"]),
    ("PostToolUse", {**WRITE, "tool_response": {"success": True}}, "postToolUse",
     ["toolName", "toolArgs", "toolResult"], "PostToolUse",
     ["tool_name", "tool_input", "tool_result"]),
    ("PostToolUseFailure", {**WRITE, "error": "Path does not exist"}, "postToolUseFailure",
     ["toolName", "toolArgs", "error"], "PostToolUseFailure", ["tool_name", "tool_input", "error"]),
    ("Stop", {}, "agentStop", ["transcriptPath", "stopReason", "stop_hook_active"], "Stop",
     ["transcript_path", "stop_reason", "stop_hook_active"]),
    ("SubagentStop", {"agent_id": "a1", "agent_type": "Explore", "last_assistant_message": "r"},
     "subagentStop", ["transcriptPath", "agentId", "agentType", "agentName", "response",
                      "stopReason", "stop_hook_active", "parentAgentId"],
     "SubagentStop", ["agent_id", "agent_type", "parent_agent_id", "transcript_path",
                      "agent_name", "last_assistant_message", "stop_reason", "stop_hook_active"]),
    ("ErrorOccurred", {"error": {"message": "boom", "name": "ProviderError"}}, "errorOccurred",
     ["errorContext", "recoverable", "error"], "ErrorOccurred",
     ["error", "error_context", "recoverable"]),
    ("PreCompact", {"trigger": "manual"}, "preCompact",
     ["transcriptPath", "trigger", "customInstructions"], "PreCompact",
     ["transcript_path", "trigger", "custom_instructions"]),
]  # fmt: skip


@pytest.mark.parametrize(("event", "fields", "camel", "camel_keys", "pascal", "pascal_keys"), CASES)
async def test_camel_and_pascal_payloads_have_their_keys_in_order(
    dispatch: Dispatch,
    project: Path,
    tmp_path: Path,
    event: str,
    fields: dict[str, Any],
    camel: str,
    camel_keys: list[str],
    pascal: str | None,
    pascal_keys: list[str],
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {camel: [bash(record(seen))]}
    if pascal is not None:
        hooks[pascal] = [bash(record(seen))]
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    await dispatch(event, **fields)
    found = lines(seen)
    assert list(found[0]) == ["sessionId", "timestamp", "cwd", *camel_keys]
    # The session saves its transcript before a Copilot hook only where the payload names it.
    named = "transcriptPath" in camel_keys or "transcript_path" in pascal_keys
    assert COPILOT.names_transcript(Event[event]) == named
    assert isinstance(found[0]["timestamp"], int)
    assert found[0]["sessionId"] == "s1"
    assert found[0]["cwd"] == str(project)
    if pascal is None:
        assert len(found) == 1
        return
    assert list(found[1]) == ["hook_event_name", "session_id", "timestamp", "cwd", *pascal_keys]
    assert found[1]["hook_event_name"] == pascal
    assert ISO.match(found[1]["timestamp"])
    instant = datetime.fromisoformat(found[1]["timestamp"].replace("Z", "+00:00"))
    assert int(instant.timestamp() * 1000) == found[0]["timestamp"]  # the same instant


async def test_tool_events_speak_copilots_tool_names_camel_and_claudes_pascal_keeping_its_keys(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {"preToolUse": [bash(record(seen))], "PreToolUse": [bash(record(seen))]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    cases = [
        ("Bash", {"command": "ls"}, "bash", {"command": "ls"}),
        ("Read", {"file_path": "/p/a"}, "view", {"path": "/p/a"}),
        ("Write", {"file_path": "/p/a", "content": "x"}, "create",
         {"path": "/p/a", "file_text": "x"}),
        ("Edit", {"file_path": "/p/a", "old_string": "a", "new_string": "b"}, "edit",
         {"path": "/p/a", "old_str": "a", "new_str": "b"}),
    ]  # fmt: skip
    for tool, wave_input, name, args in cases:
        seen.unlink(missing_ok=True)
        await dispatch("PreToolUse", tool_name=tool, tool_input=wave_input)
        camel, pascal = lines(seen)
        assert (camel["toolName"], camel["toolArgs"]) == (name, args)
        # PascalCase names the Claude tool, its input keeps Copilot's own keys (observed)
        assert (pascal["tool_name"], pascal["tool_input"]) == (tool, args)


async def test_tool_results_and_failures(dispatch: Dispatch, project: Path, tmp_path: Path) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {
        "postToolUse": [bash(record(seen))],
        "PostToolUse": [bash(record(seen))],
        "postToolUseFailure": [bash(record(seen))],
    }
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    done = {
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_response": {"success": True},
    }
    await dispatch("PostToolUse", **done, result_text="a.txt")
    camel, pascal = lines(seen)
    assert camel["toolResult"] == {"resultType": "success", "textResultForLlm": "a.txt"}
    assert pascal["tool_result"] == {"result_type": "success", "text_result_for_llm": "a.txt"}
    seen.unlink()
    await dispatch("PostToolUseFailure", tool_name="Read", tool_input={"file_path": "/x"},
                   error="Path does not exist")  # fmt: skip
    (failure,) = lines(seen)
    assert (failure["toolName"], failure["error"]) == ("view", "Path does not exist")


async def test_post_tool_use_hooks_hear_only_of_successes(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    copilot_file(
        paths.copilot_project_hooks(project), "a.json", {"postToolUse": [bash(record(seen))]}
    )
    failed = {"tool_name": "Bash", "tool_input": {}, "tool_response": {"success": False}}
    await dispatch("PostToolUse", **failed)
    await dispatch("PostToolUse", **{**failed, "tool_response": {"success": True}}, blocked=True)
    assert lines(seen) == []


async def test_permission_request_has_one_camel_payload_for_both_keys_and_fires_unasked(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {"permissionRequest": [bash(record(seen))], "PermissionRequest": [bash(record(seen))]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    await dispatch("PermissionRequest", tool_name="Bash",
                   tool_input={"command": "ls", "description": "list"}, asking=False)  # fmt: skip
    camel, pascal = lines(seen)
    assert camel == pascal
    assert list(camel) == ["hookName", "sessionId", "timestamp", "cwd", "toolName", "toolInput",
                           "permissionSuggestions"]  # fmt: skip
    assert (camel["hookName"], camel["toolName"]) == ("permissionRequest", "bash")
    assert camel["toolInput"] == {"command": "ls"}
    assert camel["permissionSuggestions"] == []


async def test_subagent_start_payloads_and_the_general_purpose_exception(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {"subagentStart": [bash(record(seen))], "SubagentStart": [bash(record(seen))]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    await dispatch("SubagentStart", agent_id="a1", agent_type="general-purpose")
    assert lines(seen) == []  # seed 002: the built-in general-purpose emits no subagent hooks
    await dispatch("SubagentStart", agent_id="a1", agent_type="Explore")
    camel, hybrid = lines(seen)
    assert list(camel) == ["sessionId", "timestamp", "cwd", "transcriptPath", "agentName",
                           "agentId", "agentType", "parentAgentId"]  # fmt: skip
    assert camel["agentName"] == "Explore"
    assert list(hybrid)[:5] == ["sessionId", "timestamp", "cwd", "transcriptPath", "agentName"]
    assert list(hybrid)[5:] == ["agent_id", "agent_type", "parent_agent_id"]
    assert COPILOT.names_transcript(Event.SubagentStart)


async def test_session_sources_and_end_reasons_in_copilots_words(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {"sessionStart": [bash(record(seen))], "sessionEnd": [bash(record(seen))]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    for source in ("startup", "resume", "clear", "compact"):
        await dispatch("SessionStart", source=source)
    await dispatch("SessionEnd", reason="other")
    await dispatch("SessionEnd", reason="clear")
    assert [d.get("source", d.get("reason")) for d in lines(seen)] == [
        "startup",
        "resume",
        "new",
        "complete",
        "user_exit",
    ]  # fmt: skip  (no sessionStart on compaction)


async def test_notification_has_one_payload(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks = {"notification": [bash(record(seen))], "Notification": [bash(record(seen))]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    await dispatch("Notification", message="done", title="Wave", notification_type="idle_prompt")
    camel, pascal = lines(seen)
    assert camel == pascal
    assert list(camel) == ["sessionId", "timestamp", "cwd", "message", "title",
                           "hook_event_name", "notification_type"]  # fmt: skip


async def test_environment_of_a_copilot_hook(
    dispatch: Dispatch, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "secret")
    monkeypatch.setenv("COPILOT_PROVIDER_TOKEN", "secret")
    monkeypatch.setenv("GH_TOKEN", "kept")
    seen = tmp_path / "seen.jsonl"
    literal = {"A": "$HOME", "B": "${HOME}", "C": "~"}
    path = copilot_file(
        paths.copilot_project_hooks(project) / "sub", "a.json",
        {"agentStop": [bash(record(seen), env=literal)]},
    )  # fmt: skip
    await dispatch("Stop")
    (env,) = envs(seen)
    assert env["COPILOT_CLI"] == "1"
    assert env["COPILOT_PROJECT_DIR"] == env["CLAUDE_PROJECT_DIR"] == str(project)
    assert env["COPILOT_HOOK_DIR"] == str(path.parent)
    assert (env["A"], env["B"], env["C"]) == ("$HOME", "${HOME}", "~")  # never expanded
    assert "OPENAI_API_KEY" not in env
    assert "COPILOT_PROVIDER_TOKEN" not in env
    assert env["GH_TOKEN"] == "kept"


async def test_cwd_is_the_session_root_and_a_relative_cwd_resolves_against_it(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    (project / "tools").mkdir()
    out = tmp_path / "cwd.txt"
    hooks = {"agentStop": [bash(f"pwd >> {out}"), bash(f"pwd >> {out}", cwd="tools")]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", hooks)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    await dispatch("Stop", cwd=elsewhere)
    assert out.read_text().split() == [str(project), str(project / "tools")]


async def test_exec_runs_without_a_shell_and_reads_the_same_stdin(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "exec.txt"
    script = tmp_path / "show.py"
    script.write_text(
        "import sys\nopen(sys.argv[1], 'w').write(sys.argv[2] + '|' + sys.stdin.read())\n"
    )
    entry = {"exec": "python3", "args": [str(script), str(out), "$HOME; not a shell"]}
    copilot_file(paths.copilot_project_hooks(project), "a.json", {"agentStop": [entry]})
    await dispatch("Stop")
    arg, stdin = out.read_text().split("|", 1)
    assert arg == "$HOME; not a shell"
    assert '"stopReason":"end_turn"' in stdin


async def test_bash_wins_over_command_and_runs_under_bash(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "shell.txt"
    entry = {"bash": f'echo "bash:$BASH_VERSION" > {out}', "command": f"echo command > {out}"}
    copilot_file(paths.copilot_project_hooks(project), "a.json", {"agentStop": [entry]})
    await dispatch("Stop")
    text = out.read_text().strip()
    assert text.startswith("bash:")
    assert text != "bash:"
