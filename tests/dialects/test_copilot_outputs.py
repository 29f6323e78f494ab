"""What Copilot hook outputs do (seed 002 "事件选择" 输出能力; the observed contract otherwise)."""

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.dialects.conftest import Dispatch, bash, copilot_file, lines, record
from wavehost import paths

BASH_CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
BASH_DONE = {**BASH_CALL, "tool_response": {"success": True}, "result_text": "a.txt"}


def say(document: Any, exit_code: int = 0, stderr: str = "") -> str:
    """A hook printing `document` as JSON (or text), writing `stderr`, exiting `exit_code`."""
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    command = f"printf '%s' {shlex.quote(text)}"
    if stderr:
        command += f"; echo {shlex.quote(stderr)} >&2"
    return command + f"; exit {exit_code}"


def hooks(project: Path, key: str, *entries: dict[str, Any]) -> Path:
    return copilot_file(paths.copilot_project_hooks(project), "a.json", {key: list(entries)})


# --- preToolUse -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "text"),
    [
        ({"permissionDecision": "deny", "permissionDecisionReason": "R"},
         "Denied by preToolUse hook: R"),
        ({"permissionDecision": "deny"}, "Denied by preToolUse hook: No reason provided"),
    ],
)  # fmt: skip
async def test_pre_tool_use_deny_blocks_the_tool_with_copilots_text(
    dispatch: Dispatch, project: Path, output: dict[str, str], text: str
) -> None:
    hooks(project, "preToolUse", bash(say(output)))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.blocked
    assert outcome.tool_error == text
    assert outcome.permission_decision == "deny"


async def test_the_first_deny_ends_the_chain(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "ran.log"
    hooks(
        project,
        "preToolUse",
        bash(f"echo one >> {log}; " + say({"permissionDecision": "deny"})),
        bash(f"echo two >> {log}; " + say({"permissionDecision": "allow"})),
    )
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert log.read_text().split() == ["one"]
    assert outcome.blocked
    assert len(outcome.runs) == 1


async def test_modified_args_are_chained_and_the_last_one_wins(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks(
        project,
        "preToolUse",
        bash(say({"modifiedArgs": {"command": "ls -a"}})),
        bash(record(seen) + "; " + say({"modifiedArgs": json.dumps({"command": "ls -la"})})),
    )
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert lines(seen)[0]["toolArgs"] == {"command": "ls -a"}  # the second hook saw the first's
    assert outcome.updated_input == {"command": "ls -la"}  # a JSON string works too
    assert not outcome.blocked


async def test_modified_args_come_back_in_wavehosts_fields(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "preToolUse", bash(say({"modifiedArgs": {"path": "/p/b", "file_text": "y"}})))
    outcome = await dispatch(
        "PreToolUse", tool_name="Write", tool_input={"file_path": "/p/a", "content": "x"}
    )
    assert outcome.updated_input == {"file_path": "/p/b", "content": "y"}


async def test_camel_case_updated_input_and_hook_specific_output_are_ignored(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(
        project,
        "preToolUse",
        bash(say({"updatedInput": {"command": "x"},
                  "hookSpecificOutput": {"permissionDecision": "deny"}})),
    )  # fmt: skip
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.updated_input is None
    assert not outcome.blocked


async def test_pascal_case_reads_hook_specific_output(dispatch: Dispatch, project: Path) -> None:
    specific = {"permissionDecision": "deny", "permissionDecisionReason": "no",
                "updatedInput": {"command": "y"}}  # fmt: skip
    hooks(project, "PreToolUse", bash(say({"hookSpecificOutput": specific})))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.tool_error == "Denied by preToolUse hook: no"


async def test_pascal_updated_input_and_context(dispatch: Dispatch, project: Path) -> None:
    specific = {"updatedInput": {"command": "y"}, "additionalContext": "mind the gap"}
    hooks(project, "PreToolUse", bash(say({"hookSpecificOutput": specific})))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.updated_input == {"command": "y"}
    # after the call, once it is over (the session adds it then)
    assert outcome.after_call == ["Additional context from preToolUse hook:\nmind the gap"]


async def test_ask_and_allow_are_decisions_for_the_permission_step(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "preToolUse", bash(say({"permissionDecision": "ask",
                                           "permissionDecisionReason": "sure?"})))  # fmt: skip
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert (outcome.permission_decision, outcome.permission_reason) == ("ask", "sure?")
    assert not outcome.blocked


@pytest.mark.parametrize(
    ("command", "text"),
    [
        (say({"permissionDecision": "allow"}, 2),
         "Denied by preToolUse hook: hook exited with code 2"),
        (say({"permissionDecisionReason": "from stdout"}, 2, stderr="not used"),
         "Denied by preToolUse hook: from stdout"),
        (say("", 1), 'Denied by preToolUse hook from ".github/hooks/a.json" (hook errored)'),
        (say("", 3), 'Denied by preToolUse hook from ".github/hooks/a.json" (hook errored)'),
    ],
)  # fmt: skip
async def test_exit_2_denies_and_any_other_failure_fails_closed(
    dispatch: Dispatch, project: Path, command: str, text: str
) -> None:
    hooks(project, "preToolUse", bash(command))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.blocked
    assert outcome.tool_error == text


async def test_a_user_hook_that_errors_is_named_by_its_absolute_path(
    dispatch: Dispatch, home: Path, project: Path
) -> None:
    path = copilot_file(paths.copilot_user_hooks(home), "u.json", {"preToolUse": [bash("exit 1")]})
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.tool_error == f'Denied by preToolUse hook from "{path}" (hook errored)'


async def test_a_missing_cwd_is_an_error_and_fails_closed(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "preToolUse", bash("true", cwd="no/such/dir"))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert (
        outcome.tool_error == 'Denied by preToolUse hook from ".github/hooks/a.json" (hook errored)'
    )


async def test_a_timeout_fails_open_even_on_pre_tool_use(dispatch: Dispatch, project: Path) -> None:
    command = """echo '{"permissionDecision": "deny"}'; sleep 5"""
    hooks(project, "preToolUse", bash(command, timeoutSec=0.3))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert not outcome.blocked  # what it printed before the timeout does not count
    assert outcome.logs == [f"Hook command timed out after 0.3 seconds: {command[:80]}"]


async def test_non_json_or_two_objects_count_as_no_output(
    dispatch: Dispatch, project: Path
) -> None:
    deny = json.dumps({"permissionDecision": "deny"})
    hooks(project, "preToolUse", bash(f"echo log line; echo '{deny}'"), bash(say(deny + deny)))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert not outcome.blocked


async def test_progress_lines_are_shown_and_removed_before_parsing(
    dispatch: Dispatch, project: Path
) -> None:
    progress = json.dumps({"type": "progress", "message": "checking…"})
    deny = json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "R"})
    hooks(project, "preToolUse", bash(f"echo '{progress}'; echo '{deny}'"))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert [n.text for n in outcome.notices] == ["checking…"]
    assert outcome.tool_error == "Denied by preToolUse hook: R"


# --- postToolUse / postToolUseFailure ---------------------------------------------------------


async def test_post_tool_use_modified_result_replaces_the_result(
    dispatch: Dispatch, project: Path
) -> None:
    modified = {"resultType": "success", "textResultForLlm": "rewritten"}
    hooks(project, "postToolUse", bash(say({"modifiedResult": modified})))
    outcome = await dispatch("PostToolUse", **BASH_DONE)
    assert outcome.tool_result == "rewritten"


async def test_post_tool_use_context_is_appended_to_the_result_in_copilots_words(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(
        project,
        "postToolUse",
        bash(say({"additionalContext": "A"})),
        bash(say({"additionalContext": "B"})),
    )
    outcome = await dispatch("PostToolUse", **BASH_DONE)
    assert outcome.tool_result == (
        'a.txt\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\nA\n\nB'
    )


async def test_pascal_post_tool_use_block_replaces_the_result(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "PostToolUse", bash(say({"decision": "block", "reason": "secret"})))
    outcome = await dispatch("PostToolUse", **BASH_DONE)
    assert outcome.tool_result == "Tool result blocked: secret"


async def test_post_tool_use_exit_2_warns_and_still_applies_stdout(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "postToolUse",
          bash(say({"additionalContext": "still"}, 2, stderr="careful")))  # fmt: skip
    outcome = await dispatch("PostToolUse", **BASH_DONE)
    assert [(n.level, n.text) for n in outcome.notices] == [("warning", "careful")]
    assert outcome.tool_result is not None
    assert outcome.tool_result.endswith("postToolUse hooks:\nstill")


async def test_post_tool_use_exit_1_is_ignored(dispatch: Dispatch, project: Path) -> None:
    hooks(project, "postToolUse", bash(say({"additionalContext": "x"}, 1, stderr="e")))
    outcome = await dispatch("PostToolUse", **BASH_DONE)
    assert outcome.tool_result is None
    assert outcome.notices == []


@pytest.mark.parametrize(
    "command",
    [say({"additionalContext": "try a path that exists"}),
     say({"additionalContext": "ignored"}, 2, stderr="try a path that exists")],
)  # fmt: skip
async def test_post_tool_use_failure_gives_recovery_advice(
    dispatch: Dispatch, project: Path, command: str
) -> None:
    hooks(project, "postToolUseFailure", bash(command))
    outcome = await dispatch(
        "PostToolUseFailure", tool_name="Read", tool_input={"file_path": "/x"}, error="Nope"
    )
    assert outcome.meta_messages == [
        'Tool "view" failed. Additional guidance from postToolUseFailure hooks:\n'
        "try a path that exists"
    ]


# --- prompts and sessions ---------------------------------------------------------------------


async def test_session_start_context_is_its_own_message(dispatch: Dispatch, project: Path) -> None:
    hooks(project, "sessionStart", bash(say({"additionalContext": "repo uses pnpm"})))
    outcome = await dispatch("SessionStart", source="startup")
    assert outcome.meta_messages == ["repo uses pnpm"]


async def test_user_prompt_submitted_modified_prompt_is_ignored_for_file_hooks(
    dispatch: Dispatch, project: Path
) -> None:
    """Seed 002: modifiedPrompt takes effect only for SDK programmatic hooks."""
    hooks(project, "userPromptSubmitted",
          bash(say({"modifiedPrompt": "something else", "additionalContext": "ctx"})))  # fmt: skip
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert outcome.prompt is None
    assert outcome.prompt_suffix == ["\n\n<system_reminder>\nctx\n</system_reminder>"]
    assert any("modifiedPrompt" in line for line in outcome.logs)


async def test_user_prompt_submit_pascal_block_and_exit_codes(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "UserPromptSubmit", bash(say({"decision": "block", "reason": "not today"})))
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert outcome.blocked
    assert [n.text for n in outcome.notices] == ["not today"]
    hooks(project, "userPromptSubmitted", bash(say("", 2, stderr="warned")), bash("exit 1"))
    outcome = await dispatch("UserPromptSubmit", prompt="hi")
    assert not outcome.blocked
    assert [(n.level, n.text) for n in outcome.notices] == [("warning", "warned")]


async def test_user_prompt_transformed_is_not_chained_and_the_last_rewrite_wins(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    hooks(
        project,
        "userPromptTransformed",
        bash(say({"modifiedTransformedPrompt": "first"})),
        bash(record(seen) + "; " + say({"modifiedTransformedPrompt": "second"})),
    )
    outcome = await dispatch("UserPromptTransformed", prompt="hi", transformed_prompt="hi")
    assert lines(seen)[0]["transformedPrompt"].endswith("</current_datetime>\n\nhi")
    assert outcome.prompt == "second"


@pytest.mark.parametrize("key", ["agentStop", "Stop"])
async def test_agent_stop_block_continues_with_the_reason(
    dispatch: Dispatch, project: Path, key: str
) -> None:
    hooks(project, key, bash(say({"decision": "block", "reason": "run the tests"})))
    outcome = await dispatch("Stop")
    assert outcome.blocked
    assert outcome.meta_messages == ["run the tests"]


async def test_agent_stop_exit_2_only_warns(dispatch: Dispatch, project: Path) -> None:
    hooks(project, "agentStop", bash(say("", 2, stderr="hm")))
    outcome = await dispatch("Stop")
    assert not outcome.blocked
    assert [n.level for n in outcome.notices] == ["warning"]


async def test_subagent_start_context_goes_before_its_prompt(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "subagentStart", bash(say({"additionalContext": "X"})))
    outcome = await dispatch("SubagentStart", agent_id="a", agent_type="Explore", prompt="task")
    assert outcome.prompt_prefix == ["X"]
    assert not outcome.blocked  # it cannot stop the subagent


async def test_subagent_stop_rewrites_last_wins_and_a_block_beats_it(
    dispatch: Dispatch, project: Path
) -> None:
    stop = {"agent_id": "a", "agent_type": "Explore", "last_assistant_message": "r"}
    hooks(project, "subagentStop", bash(say({"modifiedResponse": "one"})),
          bash(say({"modifiedResponse": "two"})))  # fmt: skip
    assert (await dispatch("SubagentStop", **stop)).response == "two"
    hooks(project, "subagentStop", bash(say({"modifiedResponse": "one"})),
          bash(say({"decision": "block", "reason": "keep going"})))  # fmt: skip
    outcome = await dispatch("SubagentStop", **stop)
    assert outcome.blocked
    assert outcome.response is None
    assert outcome.meta_messages == ["keep going"]


async def test_the_hook_that_denies_or_asks_is_named_for_the_chat_and_its_settings_row(
    dispatch: Dispatch, project: Path
) -> None:
    deny, ask = say({"permissionDecision": "deny"}), say({"permissionDecision": "ask"})
    for commands, named in (
        ((say({}), deny), deny),  # the one that denied, not the first that ran
        ((say({}), ask), ask),
        ((say("", 1),), say("", 1)),  # fails closed: the errored hook is behind the denial
    ):
        hooks(project, "preToolUse", *(bash(c) for c in commands))
        outcome = await dispatch("PreToolUse", **BASH_CALL)
        assert outcome.decided_by is not None
        assert (outcome.decided_by.event, outcome.decided_by.command) == ("preToolUse", named)
        assert outcome.decided_by.source == "project"
    hooks(project, "preToolUse", bash(say({})))
    assert (await dispatch("PreToolUse", **BASH_CALL)).decided_by is None  # nothing decided


# --- permissionRequest ------------------------------------------------------------------------

PERMISSION = {**BASH_CALL, "asking": True}


async def test_permission_request_runs_every_hook_and_the_last_decision_wins(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "ran.log"
    hooks(
        project,
        "permissionRequest",
        bash(f"echo one >> {log}; " + say({"behavior": "deny", "message": "no"})),
        bash(f"echo two >> {log}; " + say({"behavior": "allow"})),
    )
    outcome = await dispatch("PermissionRequest", **PERMISSION)
    assert log.read_text().split() == ["one", "two"]
    assert outcome.permission_decision == "allow"
    assert not outcome.blocked
    assert outcome.decided_by is not None
    assert outcome.decided_by.command.startswith("echo two")


async def test_permission_request_deny_interrupt_stops_the_agent(
    dispatch: Dispatch, project: Path
) -> None:
    hooks(project, "permissionRequest",
          bash(say({"behavior": "deny", "message": "m", "interrupt": True})))  # fmt: skip
    outcome = await dispatch("PermissionRequest", **PERMISSION)
    assert outcome.blocked
    assert outcome.halt
    assert outcome.tool_error == "Permission denied by a PermissionRequest hook: m"


@pytest.mark.parametrize(
    ("command", "decision", "message"),
    [
        (say({"message": "merged"}, 2), "deny", "merged"),
        (say({"behavior": "allow"}, 1), "deny", "Permission request hook failed"),
    ],
)
async def test_permission_request_exit_codes(
    dispatch: Dispatch, project: Path, command: str, decision: str, message: str
) -> None:
    hooks(project, "permissionRequest", bash(command))
    outcome = await dispatch("PermissionRequest", **PERMISSION)
    assert (outcome.permission_decision, outcome.permission_reason) == (decision, message)


# --- big outputs: passed whole, except the postToolUse guidance (cut at 10,240) ---------------

BIG = 200_000  # characters of one string a hook prints (well under the runner's 1 MB per stream)


def big_output(document: dict[str, Any], tmp_path: Path) -> str:
    """A real hook printing `document`, where the string "FLOOD" stands for BIG `x`s."""
    path = tmp_path / "out.json"
    path.write_text(json.dumps(document).replace("FLOOD", "x" * BIG))
    return f"cat {path}"


FLOOD = "x" * BIG
FLOODED = [
    ("preToolUse", "PreToolUse", BASH_CALL,
     {"permissionDecision": "deny", "permissionDecisionReason": "FLOOD"},
     lambda o: o.tool_error, f"Denied by preToolUse hook: {FLOOD}"),
    ("preToolUse", "PreToolUse", BASH_CALL, {"additionalContext": "FLOOD"},
     lambda o: o.after_call, [f"Additional context from preToolUse hook:\n{FLOOD}"]),
    ("postToolUse", "PostToolUse", BASH_DONE,
     {"modifiedResult": {"resultType": "success", "textResultForLlm": "FLOOD"}},
     lambda o: o.tool_result, FLOOD),
    ("postToolUse", "PostToolUse", BASH_DONE, {"additionalContext": "FLOOD"},
     lambda o: o.tool_result,
     'a.txt\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\n'
     + FLOOD[:10_240]),
    ("subagentStop", "SubagentStop",
     {"agent_id": "a", "agent_type": "Explore", "last_assistant_message": "r"},
     {"modifiedResponse": "FLOOD"}, lambda o: o.response, FLOOD),
    ("permissionRequest", "PermissionRequest", PERMISSION,
     {"behavior": "deny", "message": "FLOOD"},
     lambda o: o.tool_error, f"Permission denied by a PermissionRequest hook: {FLOOD}"),
    ("sessionStart", "SessionStart", {"source": "startup"}, {"additionalContext": "FLOOD"},
     lambda o: o.meta_messages, [FLOOD]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "event", "fields", "document", "seen", "expected"),
    FLOODED,
    ids=[f"{row[0]}-{'-'.join(row[3])}" for row in FLOODED],
)
async def test_a_copilot_hooks_texts_reach_the_model_whole_but_post_tool_guidance(
    dispatch: Dispatch,
    project: Path,
    tmp_path: Path,
    key: str,
    event: str,
    fields: dict[str, Any],
    document: dict[str, Any],
    seen: Any,
    expected: Any,
) -> None:
    hooks(project, key, bash(big_output(document, tmp_path)))
    outcome = await dispatch(event, **fields)
    assert seen(outcome) == expected


async def test_a_copilot_hooks_flood_of_stderr_reaches_the_model_whole(
    dispatch: Dispatch, project: Path
) -> None:
    flood = f"head -c {BIG} /dev/zero | tr '\\0' x >&2; exit 2"
    hooks(project, "postToolUseFailure", bash(flood))
    outcome = await dispatch(
        "PostToolUseFailure", tool_name="Read", tool_input={"file_path": "/x"}, error="Nope"
    )
    assert outcome.meta_messages == [
        f'Tool "view" failed. Additional guidance from postToolUseFailure hooks:\n{FLOOD}'
    ]
