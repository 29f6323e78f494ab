"""Snow hooks: what each type reads, its environment, and what each exit code does (seed 004)."""

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.dialects.conftest import Dispatch, action, envs, lines, record, rule, write
from wavehost import paths
from wavehost.hooks.dialects.snow.outcome import CONTEXT_CAP

BASH_CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
DONE = {
    **BASH_CALL,
    "tool_response": {"success": True},
    "result_text": "a.txt",
    "tool_use_id": "t1",
}


def snow(project: Path, hook_type: str, *rules: Any) -> Path:
    return write(paths.snow_project_hooks(project) / f"{hook_type}.json", list(rules))


def emit(stdout: Any = "", exit_code: int = 0, stderr: str = "") -> str:
    text = stdout if isinstance(stdout, str) else json.dumps(stdout, ensure_ascii=False)
    command = f"printf '%s' {shlex.quote(text)}" if text else "true"
    if stderr:
        command += f"; printf '%s' {shlex.quote(stderr)} >&2"
    return f"{command}; exit {exit_code}"


# --- what hooks read ------------------------------------------------------------------------------

STDIN_CASES: list[tuple[str, str, dict[str, Any], list[str]]] = [
    ("onSessionStart", "SessionStart", {"source": "startup"},
     ["messages", "messageCount", "cwd", "isResume", "platform", "sessionId", "session_id"]),
    ("onUserMessage", "UserPromptSubmit", {"prompt": "hi", "message_count": 3},
     ["message", "imageCount", "source", "cwd", "messageCount", "platform", "sessionId",
      "session_id"]),
    ("beforeToolCall", "PreToolUse", BASH_CALL, ["toolName", "args", "platform", "cwd"]),
    ("toolConfirmation", "PermissionRequest", BASH_CALL,
     ["toolName", "args", "isSensitive", "platform", "cwd"]),
    ("afterToolCall", "PostToolUse", DONE, ["toolName", "args", "result", "error", "platform",
                                            "cwd"]),
    ("beforeSubAgentStart", "SubagentStart", {"agent_id": "a1", "agent_type": "Explore",
                                              "prompt": "look"},
     ["agentId", "agentName", "prompt", "cwd", "platform", "sessionId", "session_id"]),
    ("onSubAgentComplete", "SubagentStop", {"agent_id": "a1", "agent_type": "Explore",
                                            "last_assistant_message": "found it"},
     ["agentId", "agentName", "content", "success", "platform", "cwd"]),
    ("beforeCompress", "PreCompact", {"trigger": "auto"},
     ["messages", "conversationJson", "platform", "cwd"]),
    ("onStop", "Stop", {}, ["messages", "platform", "cwd"]),
]  # fmt: skip


@pytest.mark.parametrize(("hook_type", "event", "fields", "keys"), STDIN_CASES)
async def test_each_type_reads_its_context_enriched(
    dispatch: Dispatch,
    project: Path,
    tmp_path: Path,
    hook_type: str,
    event: str,
    fields: dict[str, Any],
    keys: list[str],
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(project, hook_type, rule(action(record(seen))))
    await dispatch(event, **fields)
    (stdin,) = lines(seen)
    assert list(stdin) == keys
    assert stdin["platform"] == "snow"
    assert stdin["cwd"] == str(project)
    if "sessionId" in stdin:
        assert stdin["sessionId"] == stdin["session_id"] == "s1"


async def test_tool_contexts_in_snows_words(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(project, "beforeToolCall", rule(action(record(seen))))
    snow(project, "afterToolCall", rule(action(record(seen))))
    snow(project, "toolConfirmation", rule(action(record(seen))))
    write_call = {"tool_name": "Write", "tool_input": {"file_path": "/p/a", "content": "x"}}
    await dispatch("PreToolUse", **write_call)
    await dispatch("PermissionRequest", **write_call)
    await dispatch("PostToolUse", **write_call, tool_response={"success": False},
                   result_text="disk full", tool_use_id="t9")  # fmt: skip
    before, confirm, after = lines(seen)
    assert (before["toolName"], before["args"]) == (
        "filesystem-create", {"filePath": "/p/a", "content": "x"}
    )  # fmt: skip
    assert json.loads(confirm["args"]) == {"filePath": "/p/a", "content": "x"}  # a JSON string
    assert confirm["isSensitive"] is False
    assert after["result"] == {"tool_call_id": "t9", "role": "tool", "content": "disk full"}
    assert after["error"] == "disk full"


async def test_session_identity_environment(
    dispatch: Dispatch, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(project, "onStop", rule(action(record(seen))))
    snow(project, "beforeToolCall", rule(action(record(seen))))
    await dispatch("Stop")
    monkeypatch.setenv("TRELLIS_CONTEXT_ID", "mine")
    monkeypatch.setenv("SNOW_PLATFORM", "other")
    monkeypatch.setenv("SNOW_SESSION_ID", "stale")
    await dispatch("PreToolUse", **BASH_CALL)
    first, second = envs(seen)
    assert first["SNOW_SESSION_ID"] == "s1"
    assert first["TRELLIS_CONTEXT_ID"] == "snow-s1"
    assert first["SNOW_PLATFORM"] == "snow"
    assert first["SNOW_CWD"] == str(project)
    assert first["LANG"] == first["LC_ALL"] == "en_US.UTF-8"
    # SNOW_SESSION_ID is always the session's; the other two only where the parent left none
    assert (second["SNOW_SESSION_ID"], second["TRELLIS_CONTEXT_ID"], second["SNOW_PLATFORM"]) == (
        "s1", "mine", "other"
    )  # fmt: skip


# --- beforeToolCall -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (emit("out", 1, stderr="not at night"), "not at night"),
        (emit("only stdout", 1), "only stdout"),
        ("exit 1", "[beforeToolCall Hook Warning] Command: exit 1 exited with code 1"),
    ],
)
async def test_before_tool_call_exit_1_blocks_the_tool_and_the_ai_goes_on(
    dispatch: Dispatch, project: Path, command: str, text: str
) -> None:
    snow(project, "beforeToolCall", rule(action(command)))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.blocked
    assert outcome.tool_error == text
    assert not outcome.halt


async def test_before_tool_call_exit_2_stops_the_flow_and_shows_the_user(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "beforeToolCall", rule(action(emit("", 2, stderr="stop everything"))))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.blocked
    assert outcome.halt
    assert [(n.level, n.text) for n in outcome.notices] == [("error", "stop everything")]


async def test_exit_2_ends_the_chain_and_the_first_failure_decides(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "ran.log"
    snow(
        project,
        "beforeToolCall",
        rule(action(emit("", 1, stderr="FIRST-SOFT")), action(emit("", 2, stderr="HARD"))),
        rule(action(f"echo later >> {log}")),
    )
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert not log.exists()  # 2+ aborted what came after it
    assert outcome.tool_error == "FIRST-SOFT"  # the first failed command's handling: exit 1
    assert not outcome.halt


async def test_a_timeout_is_a_soft_exit_1(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "ran.log"
    snow(project, "beforeToolCall",
         rule(action("sleep 5", timeout=300), action(f"echo after >> {log}")))  # fmt: skip
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.tool_error == "Process killed by signal SIGTERM"
    assert log.read_text().split() == ["after"]  # later actions still run


async def test_exit_0_lets_the_tool_run(dispatch: Dispatch, project: Path) -> None:
    snow(project, "beforeToolCall", rule(action(emit("all good"))))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert not outcome.blocked
    assert outcome.tool_error is None
    assert outcome.decided_by is None


async def test_the_hook_that_blocks_or_answers_is_named_for_the_chat_and_its_settings_row(
    dispatch: Dispatch, project: Path
) -> None:
    soft, hard = emit("", 1, stderr="SOFT"), emit("", 2, stderr="HARD")
    snow(project, "beforeToolCall", rule(action(emit("fine")), action(soft), action(hard)))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.decided_by is not None  # the first failure decides, and is named
    assert (outcome.decided_by.event, outcome.decided_by.command) == ("beforeToolCall", soft)
    assert outcome.decided_by.source == "project"
    for answer, command in (("reject", emit("reject")), ("", hard)):
        snow(project, "toolConfirmation", rule(action(command)))
        outcome = await dispatch("PermissionRequest", **CONFIRM)
        assert outcome.permission_decision == "deny", answer
        assert outcome.decided_by is not None
        assert (outcome.decided_by.event, outcome.decided_by.command) == (
            "toolConfirmation",
            command,
        )


# --- askuser auto-answer --------------------------------------------------------------------------

QUESTION = {
    "tool_name": "AskUserQuestion",
    "tool_input": {"questions": [{"question": "您希望使用哪种部署方式？", "header": "Deploy",
                                  "options": [{"label": "Docker"}, {"label": "Kubernetes"}],
                                  "multiSelect": False}]},
}  # fmt: skip


@pytest.mark.parametrize(
    ("stdout", "selected", "custom"),
    [
        ("选项A", ["选项A"], None),
        ({"selected": "Docker", "customInput": "补充说明"}, ["Docker"], "补充说明"),
        ({"selected": ["Docker", "Kubernetes"]}, ["Docker", "Kubernetes"], None),
        (["Docker", "Kubernetes"], ["Docker", "Kubernetes"], None),
    ],
)
async def test_askuser_is_answered_by_a_before_tool_call_hook(
    dispatch: Dispatch,
    project: Path,
    tmp_path: Path,
    stdout: Any,
    selected: list[str],
    custom: str | None,
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(
        project,
        "beforeToolCall",
        rule(action(record(seen) + "; " + emit(stdout)), matcher="askuser-ask_question"),
    )
    outcome = await dispatch("PreToolUse", **QUESTION)
    assert outcome.answer is not None
    assert (outcome.answer.selected, outcome.answer.custom_input) == (selected, custom)
    (stdin,) = lines(seen)
    assert stdin["toolName"] == "askuser-ask_question"
    assert stdin["args"] == {
        "question": "您希望使用哪种部署方式？",
        "options": ["Docker", "Kubernetes"],
    }


@pytest.mark.parametrize("command", [emit(""), emit({"other": 1}), emit("Docker", 1)])
async def test_no_answer_when_stdout_is_empty_unusable_or_the_exit_is_not_0(
    dispatch: Dispatch, project: Path, command: str
) -> None:
    snow(project, "beforeToolCall", rule(action(command), matcher="askuser-ask_question"))
    outcome = await dispatch("PreToolUse", **QUESTION)
    assert outcome.answer is None


# --- toolConfirmation -----------------------------------------------------------------------------

CONFIRM = {**BASH_CALL, "asking": True}


@pytest.mark.parametrize(
    ("stdout", "decision", "always", "reason"),
    [
        ("approve", "allow", False, None),
        ("APPROVE_ALWAYS\n", "allow", True, None),
        ("reject", "deny", False, "Rejected by toolConfirmation hook"),
        ("reject_with_reply", "deny", False, "Rejected by toolConfirmation hook"),
        ({"result": "approve"}, "allow", False, None),
        ({"result": "approve_always"}, "allow", True, None),
        ({"result": "reject"}, "deny", False, "Rejected by toolConfirmation hook"),
        ({"result": "reject_with_reply", "reason": "命令包含危险操作"}, "deny", False,
         "命令包含危险操作"),
    ],
)  # fmt: skip
async def test_tool_confirmation_answers_for_the_user(
    dispatch: Dispatch,
    project: Path,
    stdout: Any,
    decision: str,
    always: bool,
    reason: str | None,
) -> None:
    snow(project, "toolConfirmation", rule(action(emit(stdout)), matcher="terminal-execute"))
    outcome = await dispatch("PermissionRequest", **CONFIRM)
    assert (outcome.permission_decision, outcome.permission_always) == (decision, always)
    assert outcome.permission_reason == reason
    assert outcome.blocked is (decision == "deny")


async def test_tool_confirmation_without_an_answer_leaves_it_to_the_user(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "toolConfirmation", rule(action(emit("maybe"))), rule(action(emit("ok", 1))))
    outcome = await dispatch("PermissionRequest", **CONFIRM)
    assert outcome.permission_decision is None
    assert [n.level for n in outcome.notices] == ["warning"]  # exit 1: a warning, UI shown


async def test_tool_confirmation_exit_2_rejects(dispatch: Dispatch, project: Path) -> None:
    snow(project, "toolConfirmation", rule(action(emit("approve", 2))))
    outcome = await dispatch("PermissionRequest", **CONFIRM)
    assert outcome.permission_decision == "deny"


async def test_tool_confirmation_fires_only_when_a_confirmation_is_shown(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(project, "toolConfirmation", rule(action(record(seen))))
    await dispatch("PermissionRequest", **BASH_CALL, asking=False)
    assert lines(seen) == []


# --- afterToolCall --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (emit("out", 1, stderr="lint failed"), "lint failed"),
        (emit("stdout instead", 1), "stdout instead"),
        ("exit 1", "[afterToolCall Hook Warning] Command: exit 1 exited with code 1"),
    ],
)
async def test_after_tool_call_exit_1_replaces_the_result(
    dispatch: Dispatch, project: Path, command: str, text: str
) -> None:
    snow(project, "afterToolCall", rule(action(command)))
    outcome = await dispatch("PostToolUse", **DONE)
    assert outcome.tool_result == text
    assert not outcome.halt


async def test_after_tool_call_exit_2_stops_the_flow(dispatch: Dispatch, project: Path) -> None:
    snow(project, "afterToolCall", rule(action(emit("", 2, stderr="broken build"))))
    outcome = await dispatch("PostToolUse", **DONE)
    assert outcome.halt
    assert [n.text for n in outcome.notices] == ["broken build"]


async def test_after_tool_call_also_hears_of_a_blocked_call(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    snow(project, "afterToolCall", rule(action(record(seen))))
    await dispatch("PostToolUse", **{**DONE, "result_text": "blocked text"}, blocked=True)
    (stdin,) = lines(seen)
    assert stdin["result"]["content"] == "blocked text"
    assert stdin["error"] is None


# --- injection: onUserMessage, onSessionStart, beforeSubAgentStart --------------------------------


async def test_on_user_message_contexts_are_prepended_in_order(
    dispatch: Dispatch, project: Path
) -> None:
    snow(
        project,
        "onUserMessage",
        rule(action(emit({"additionalContext": "UMS-CTX"})),
             action(emit({"hookSpecificOutput": {"additionalContext": "UMS-CTX-2"}})),
             {"type": "context", "content": "STATIC-CTX", "enabled": True},
             action(emit("a log line, not JSON"))),
    )  # fmt: skip
    outcome = await dispatch("UserPromptSubmit", prompt="run echo")
    assert outcome.prompt_prefix == ["UMS-CTX\n\nUMS-CTX-2\n\nSTATIC-CTX"]
    assert outcome.prompt is None


async def test_a_context_action_may_already_be_the_protocols_json(
    dispatch: Dispatch, project: Path
) -> None:
    content = json.dumps({"additionalContext": "from json", "display": "shown"})
    snow(project, "onUserMessage", rule({"type": "context", "content": content, "enabled": True}))
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert outcome.prompt_prefix == ["from json"]
    assert [(n.level, n.text) for n in outcome.notices] == [("info", "shown")]


async def test_on_user_message_exit_1_replaces_the_model_input(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "onUserMessage", rule(action(emit("x", 1, stderr="REPLACED"))))
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert outcome.prompt == "REPLACED"
    assert outcome.clear_pending
    assert outcome.prompt_prefix == []


async def test_on_user_message_exit_2_blocks_the_message(dispatch: Dispatch, project: Path) -> None:
    snow(project, "onUserMessage", rule(action(emit("", 2, stderr="not sent"))))
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert outcome.blocked
    assert [n.text for n in outcome.notices] == ["not sent"]


async def test_context_is_capped_at_8_kb(dispatch: Dispatch, project: Path) -> None:
    big = "x" * (CONTEXT_CAP + 500)
    snow(project, "onSessionStart", rule({"type": "context", "content": big, "enabled": True}))
    outcome = await dispatch("SessionStart", source="startup")
    assert outcome.pending_context == "x" * CONTEXT_CAP
    assert any("truncated" in line for line in outcome.logs)


async def test_session_start_context_goes_to_the_pending_buffer(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "onSessionStart",
         rule(action(emit({"additionalContext": "SSS-CTX"})), action(emit("", 1))))  # fmt: skip
    outcome = await dispatch("SessionStart", source="startup")
    assert outcome.pending_context == "SSS-CTX"  # a failing sibling keeps the context
    assert outcome.meta_messages == []
    assert [n.level for n in outcome.notices] == ["warning"]


@pytest.mark.parametrize(
    ("stdout", "prompt", "prefix"),
    [
        ({"prompt": "REPLACED", "additionalContext": "ignored"}, "REPLACED", []),
        ({"additionalContext": "PROJECT_CONTEXT"}, None, ["PROJECT_CONTEXT"]),
    ],
)
async def test_before_sub_agent_start_replaces_or_prepends_the_prompt(
    dispatch: Dispatch, project: Path, stdout: Any, prompt: str | None, prefix: list[str]
) -> None:
    snow(project, "beforeSubAgentStart", rule(action(emit(stdout))))
    outcome = await dispatch("SubagentStart", agent_id="a", agent_type="Explore", prompt="task")
    assert (outcome.prompt, outcome.prompt_prefix) == (prompt, prefix)


async def test_before_sub_agent_start_fails_open(dispatch: Dispatch, project: Path) -> None:
    snow(project, "beforeSubAgentStart", rule(action(emit({"prompt": "X"}, 2))))
    outcome = await dispatch("SubagentStart", agent_id="a", agent_type="Explore", prompt="task")
    assert (outcome.blocked, outcome.halt, outcome.prompt) == (False, False, None)


# --- onStop / onSubAgentComplete / beforeCompress -------------------------------------------------


@pytest.mark.parametrize(
    ("command", "message"),
    [(emit("out", 2, stderr="fix the tests first"), "fix the tests first"),
     (emit("from stdout", 2), "from stdout"), ("exit 2", "未知错误")],
)  # fmt: skip
@pytest.mark.parametrize(
    ("hook_type", "event", "fields"),
    [("onStop", "Stop", {}),
     ("onSubAgentComplete", "SubagentStop", {"agent_id": "a", "agent_type": "Explore"})],
)  # fmt: skip
async def test_exit_2_of_stop_hooks_becomes_a_message_and_the_agent_goes_on(
    dispatch: Dispatch,
    project: Path,
    hook_type: str,
    event: str,
    fields: dict[str, Any],
    command: str,
    message: str,
) -> None:
    snow(project, hook_type, rule(action(command)))
    outcome = await dispatch(event, **fields)
    assert outcome.blocked
    assert outcome.meta_messages == [message]


async def test_a_prompt_action_asks_the_user_with_its_placeholders_filled(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "onSubAgentComplete",
         rule({"type": "prompt", "prompt": "上下文数据: $SUBAGENTRESULT$ 是否继续？",
               "enabled": True}))  # fmt: skip
    outcome = await dispatch(
        "SubagentStop", agent_id="a1", agent_type="Explore", last_assistant_message="done"
    )
    expected = {"agentId": "a1", "agentName": "Explore", "content": "done", "success": True,
                "usage": None}  # fmt: skip
    assert outcome.ask_user == (
        "上下文数据: " + json.dumps(expected, ensure_ascii=False, separators=(",", ":"))
        + " 是否继续？"
    )  # fmt: skip
    assert outcome.runs[0].exit_code == 0


async def test_stop_prompt_fills_stopsession_with_the_messages(
    dispatch: Dispatch, project: Path
) -> None:
    snow(project, "onStop", rule({"type": "prompt", "prompt": "$STOPSESSION$", "enabled": True}))
    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    outcome = await dispatch("Stop", history=lambda: history)
    assert outcome.ask_user is not None
    assert json.loads(outcome.ask_user) == history


async def test_placeholders_in_commands_are_shell_quoted_json(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "tools.json"
    snow(project, "beforeToolCall", rule(action(f"printf '%s' $TOOLSRESULT$ > {out}")))
    await dispatch("PreToolUse", tool_name="Bash", tool_input={"command": "echo $(whoami) 'q'"})
    assert json.loads(out.read_text()) == {
        "toolName": "terminal-execute",
        "args": {"command": "echo $(whoami) 'q'"},  # data, never run by the hook's shell
    }


@pytest.mark.parametrize(("code", "blocked", "halt"), [(1, False, False), (2, True, True)])
async def test_before_compress_exit_codes(
    dispatch: Dispatch, project: Path, code: int, blocked: bool, halt: bool
) -> None:
    snow(project, "beforeCompress", rule(action(emit("", code, stderr="no"))))
    outcome = await dispatch("PreCompact", trigger="auto")
    assert (outcome.blocked, outcome.halt) == (blocked, halt)


# --- SNOW_DEBUG_HOOKS -----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", "true", "YES", "on"])
async def test_snow_debug_hooks_appends_an_injection_summary(
    dispatch: Dispatch, project: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("SNOW_DEBUG_HOOKS", value)
    snow(project, "onUserMessage", rule({"type": "context", "content": "BREADCRUMB",
                                         "enabled": True}))  # fmt: skip
    await dispatch("UserPromptSubmit", prompt="hi")
    await dispatch("UserPromptSubmit", prompt="again")
    log = paths.snow_inject_log(project)
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(entries) == 2
    assert entries[0]["hookType"] == "onUserMessage"
    assert entries[0]["length"] == len("BREADCRUMB")
    assert len(entries[0]["hash"]) == 12
    assert entries[0]["sessionId"] == "s1"


async def test_no_debug_log_without_the_switch(dispatch: Dispatch, project: Path) -> None:
    snow(project, "onUserMessage", rule({"type": "context", "content": "B", "enabled": True}))
    await dispatch("UserPromptSubmit", prompt="hi")
    assert not paths.snow_inject_log(project).exists()
