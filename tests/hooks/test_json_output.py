"""The seed's JSON-output stories: additionalContext, systemMessage, decision, permissions."""

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc
from wavehost.hooks.outcome import system_reminder

WRITE = {"tool_name": "Write", "tool_input": {"file_path": "/p/a.txt", "content": "x"}}


def prints(document: dict[str, Any], *, exit_code: int = 0, stderr: str = "") -> str:
    """A hook command printing `document` as JSON, optionally with stderr and an exit code."""
    command = f"printf '%s' {shlex.quote(json.dumps(document))}"
    if stderr:
        command += f"; echo {shlex.quote(stderr)} >&2"
    return command + f"; exit {exit_code}"


def context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def payload(event: str, project: Path) -> dict[str, Any]:
    fields: dict[str, dict[str, Any]] = {
        "PreToolUse": WRITE,
        "PostToolUse": {**WRITE, "tool_response": {"success": True}},
        "UserPromptSubmit": {"prompt": "hi"},
        "SessionStart": {"source": "startup"},
        "Stop": {},
        "SubagentStop": {"agent_id": "a", "agent_type": "Plan"},
    }
    return common(event, project, **fields[event])


# --- additionalContext ------------------------------------------------------------------------


@pytest.mark.parametrize("event", ["PostToolUse", "PreToolUse", "SessionStart"])
async def test_additional_context_is_injected_wrapped_without_any_error(
    fire, project, event: str
) -> None:
    outcome = await fire(
        hooks_doc(event, prints(context(event, "auth path touched"))), payload(event, project)
    )
    label = f"{event}:Write" if event != "SessionStart" else event  # tool events name the tool
    assert outcome.meta_messages == [
        system_reminder(f"{label} hook additional context: auth path touched")
    ]
    assert outcome.meta_messages[0].startswith("<system-reminder>")
    assert outcome.meta_messages[0].endswith("</system-reminder>")
    assert outcome.notices == []
    assert not outcome.blocked  # exit 0 never blocks: PreToolUse lets the tool run
    assert outcome.tool_error is None


async def test_user_prompt_submit_json_injects_the_value_not_the_json(fire, project) -> None:
    command = prints(context("UserPromptSubmit", "branch is release/2.1"))
    outcome = await fire(
        hooks_doc("UserPromptSubmit", command), payload("UserPromptSubmit", project)
    )
    assert outcome.meta_messages == [
        system_reminder("UserPromptSubmit hook additional context: branch is release/2.1")
    ]
    assert "hookSpecificOutput" not in outcome.meta_messages[0]


async def test_user_prompt_submit_plain_text_is_injected_as_before(fire, project) -> None:
    outcome = await fire(
        hooks_doc("UserPromptSubmit", "echo 'plain context'"), payload("UserPromptSubmit", project)
    )
    assert outcome.meta_messages == ["plain context"]


async def test_exit2_keeps_its_behaviour_and_additional_context_is_injected_too(
    fire, project
) -> None:
    command = prints(
        context("PostToolUse", "see CONTRIBUTING"), exit_code=2, stderr="format failed"
    )
    outcome = await fire(hooks_doc("PostToolUse", command), payload("PostToolUse", project))
    assert outcome.meta_messages == [
        f'PostToolUse:Write hook blocking error from command: "{command}": format failed',
        system_reminder("PostToolUse:Write hook additional context: see CONTRIBUTING"),
    ]


async def test_hook_event_name_mismatch_is_a_non_blocking_error_and_injects_nothing(
    fire, project
) -> None:
    command = prints(context("PreToolUse", "wrong event"))
    outcome = await fire(hooks_doc("PostToolUse", command), payload("PostToolUse", project))
    assert outcome.meta_messages == []
    assert len(outcome.notices) == 1
    assert outcome.notices[0].level == "error"
    assert "hookEventName" in outcome.notices[0].text
    assert not outcome.blocked


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
async def test_stop_events_do_not_support_additional_context(fire, project, event: str) -> None:
    command = prints(context(event, "ignored"), exit_code=2, stderr="keep going")
    outcome = await fire(hooks_doc(event, command), payload(event, project))
    assert outcome.meta_messages == ["keep going"]  # only the exit-2 stderr takes effect


async def test_empty_additional_context_counts_as_absent(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PostToolUse", prints(context("PostToolUse", ""))),
        payload("PostToolUse", project),
    )
    assert outcome.meta_messages == []
    assert outcome.notices == []


async def test_contexts_of_several_hooks_are_joined_in_config_order(fire, project) -> None:
    doc = hooks_doc(
        "PreToolUse",
        "sleep 0.2; " + prints(context("PreToolUse", "one")),
        prints(context("PreToolUse", "two")),
    )
    outcome = await fire(doc, payload("PreToolUse", project))
    assert outcome.meta_messages == [
        system_reminder("PreToolUse:Write hook additional context: one\ntwo")
    ]


# --- decision: block --------------------------------------------------------------------------


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
async def test_decision_block_with_reason_continues_the_turn(fire, project, event: str) -> None:
    command = prints({"decision": "block", "reason": "继续干活"})
    outcome = await fire(hooks_doc(event, command), payload(event, project))
    assert outcome.blocked
    assert outcome.meta_messages == ["继续干活"]


@pytest.mark.parametrize("reason", [None, "", "   "])
async def test_decision_block_without_a_reason_does_not_block(
    fire, project, reason: str | None
) -> None:
    document: dict[str, Any] = {"decision": "block"}
    if reason is not None:
        document["reason"] = reason
    outcome = await fire(hooks_doc("Stop", prints(document)), payload("Stop", project))
    assert not outcome.blocked
    assert outcome.meta_messages == []


@pytest.mark.parametrize("event", ["PostToolUse", "UserPromptSubmit"])
async def test_decision_is_ignored_on_other_events(fire, project, event: str) -> None:
    outcome = await fire(
        hooks_doc(event, prints({"decision": "block", "reason": "no"})), payload(event, project)
    )
    assert not outcome.blocked
    assert outcome.meta_messages == []


async def test_exit2_wins_over_decision_and_system_message_still_shows(fire, project) -> None:
    document = {"decision": "block", "reason": "from json", "systemMessage": "round 2"}
    command = prints(document, exit_code=2, stderr="from stderr")
    outcome = await fire(hooks_doc("Stop", command), payload("Stop", project))
    assert outcome.meta_messages == ["from stderr"]
    assert [(n.level, n.text) for n in outcome.notices] == [("info", "round 2")]


async def test_stop_plain_stdout_neither_blocks_nor_injects(fire, project) -> None:
    outcome = await fire(hooks_doc("Stop", "echo 'decision: block'"), payload("Stop", project))
    assert not outcome.blocked
    assert outcome.meta_messages == []
    assert outcome.notices == []  # plain text is never a systemMessage


# --- systemMessage ----------------------------------------------------------------------------


async def test_system_message_with_exit2_shows_the_user_and_feeds_the_model(fire, project) -> None:
    command = prints(
        {"systemMessage": "🔄 第 2 轮 | 想停：/cancel"}, exit_code=2, stderr="loop again"
    )
    outcome = await fire(hooks_doc("Stop", command), payload("Stop", project))
    assert [(n.level, n.text) for n in outcome.notices] == [("info", "🔄 第 2 轮 | 想停：/cancel")]
    assert outcome.meta_messages == ["loop again"]
    assert all("第 2 轮" not in m for m in outcome.meta_messages)


@pytest.mark.parametrize("event", ["Stop", "PreToolUse", "PostToolUse", "UserPromptSubmit"])
async def test_system_message_with_exit0_shows_and_injects_nothing(
    fire, project, event: str
) -> None:
    outcome = await fire(
        hooks_doc(event, prints({"systemMessage": "formatted 3 files"})), payload(event, project)
    )
    assert [(n.level, n.text) for n in outcome.notices] == [("info", "formatted 3 files")]
    assert outcome.meta_messages == []


@pytest.mark.parametrize("message", ["", "  \n "])
async def test_blank_system_message_shows_nothing(fire, project, message: str) -> None:
    outcome = await fire(
        hooks_doc("Stop", prints({"systemMessage": message})), payload("Stop", project)
    )
    assert outcome.notices == []


async def test_invalid_field_types_are_a_non_blocking_error(fire, project) -> None:
    outcome = await fire(hooks_doc("Stop", prints({"systemMessage": 42})), payload("Stop", project))
    assert [n.level for n in outcome.notices] == ["error"]
    assert "systemMessage" in outcome.notices[0].text


# --- PreToolUse permissionDecision ------------------------------------------------------------


def decision(value: str, reason: str | None = None) -> dict[str, Any]:
    specific: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": value}
    if reason is not None:
        specific["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": specific}


async def test_permission_deny_blocks_the_tool_with_the_reason(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PreToolUse", prints(decision("deny", "outside the repo"))),
        payload("PreToolUse", project),
    )
    assert outcome.blocked
    assert outcome.permission_decision == "deny"
    assert outcome.tool_error == "outside the repo"  # Claude Code: the reason as it is


async def test_permission_deny_without_reason_uses_claude_codes_text(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PreToolUse", prints(decision("deny"))), payload("PreToolUse", project)
    )
    assert outcome.tool_error == "Hook PreToolUse:Write denied this tool"


@pytest.mark.parametrize(
    ("decisions", "expected"),
    [(["allow", "ask"], "ask"), (["ask", "deny", "allow"], "deny"), (["allow"], "allow")],
)
async def test_permission_decisions_merge_deny_over_ask_over_allow(
    fire, project, decisions: list[str], expected: str
) -> None:
    doc = hooks_doc("PreToolUse", *(prints(decision(d, f"because {d}")) for d in decisions))
    outcome = await fire(doc, payload("PreToolUse", project))
    assert outcome.permission_decision == expected
    assert outcome.permission_reason == f"because {expected}"
    assert outcome.blocked == (expected == "deny")


async def test_permission_allow_does_not_block(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PreToolUse", prints(decision("allow", "safe path"))),
        payload("PreToolUse", project),
    )
    assert not outcome.blocked
    assert outcome.permission_decision == "allow"
    assert outcome.tool_error is None


async def test_claude_codes_legacy_pre_tool_use_decisions_still_work(fire, project) -> None:
    doc = hooks_doc("PreToolUse", prints({"decision": "block", "reason": "legacy no"}))
    outcome = await fire(doc, payload("PreToolUse", project))
    assert outcome.tool_error == "legacy no"
    assert outcome.permission_decision == "deny"
    outcome = await fire(
        hooks_doc("PreToolUse", prints({"decision": "approve"})), payload("PreToolUse", project)
    )
    assert outcome.permission_decision == "allow"
    assert not outcome.blocked


# --- PermissionRequest: hookSpecificOutput.decision.behavior ---------------------------------


def behaves(behavior: str, message: str | None = None) -> dict[str, Any]:
    answer: dict[str, Any] = {"behavior": behavior}
    if message is not None:
        answer["message"] = message
    return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": answer}}


@pytest.mark.parametrize(
    ("hooks", "expected", "reason"),
    [
        ([behaves("allow")], "allow", None),
        ([behaves("deny", "not on main")], "deny", "not on main"),
        ([behaves("allow"), behaves("deny", "no")], "deny", "no"),
    ],
)
async def test_permission_request_json_behavior_allows_or_denies_for_the_user(
    fire, project, hooks: list[dict[str, Any]], expected: str, reason: str | None
) -> None:
    doc = hooks_doc("PermissionRequest", *(prints(h) for h in hooks))
    outcome = await fire(doc, common("PermissionRequest", project, **WRITE))
    assert outcome.permission_decision == expected
    assert outcome.permission_reason == reason
    assert outcome.blocked == (expected == "deny")
    assert outcome.notices == []
