"""The seed's exit-code tables, each row fired through real hook processes."""

from pathlib import Path
from typing import Any

import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc

WRITE = {"tool_name": "Write", "tool_input": {"file_path": "/p/a.txt", "content": "x"}}
WRITE_DONE = {**WRITE, "tool_response": {"success": True, "filePath": "/p/a.txt"}}


def payload(event: str, project: Path) -> dict[str, Any]:
    extra: dict[str, dict[str, Any]] = {
        "PreToolUse": WRITE,
        "PostToolUse": WRITE_DONE,
        "PostToolUseFailure": {**WRITE, "error": "Exit code 1"},
        "UserPromptSubmit": {"prompt": "hello"},
        "Stop": {},
        "SubagentStop": {"agent_id": "a1", "agent_type": "Explore"},
        "SubagentStart": {"agent_id": "a1", "agent_type": "Explore"},
        "PermissionRequest": WRITE,
        "Notification": {"message": "m", "notification_type": "idle_prompt"},
        "SessionStart": {"source": "startup"},
        "SessionEnd": {"reason": "other"},
        "PreCompact": {"trigger": "manual"},
        "PostCompact": {"trigger": "auto", "compact_summary": "sum"},
        "WorktreeCreate": {"name": "feature"},
        "WorktreeRemove": {"worktree_path": "/tmp/wt"},
        "CwdChanged": {"old_cwd": "/a", "new_cwd": "/b"},
    }
    return common(event, project, **extra[event])


# --- exit code 0 ------------------------------------------------------------------------------


async def test_user_prompt_submit_exit0_stdout_becomes_an_injected_message(fire, project) -> None:
    outcome = await fire(
        hooks_doc("UserPromptSubmit", "echo 'use pnpm'"), payload("UserPromptSubmit", project)
    )
    assert outcome.meta_messages == ["use pnpm"]
    assert not outcome.blocked
    assert outcome.notices == []


@pytest.mark.parametrize(
    "event", ["PreToolUse", "PostToolUse", "Stop", "PostCompact", "CwdChanged"]
)
async def test_other_events_exit0_stdout_is_ignored(fire, project, event: str) -> None:
    outcome = await fire(hooks_doc(event, "echo visible-to-nobody"), payload(event, project))
    assert outcome.meta_messages == []
    assert outcome.notices == []
    assert outcome.tool_error is None
    assert not outcome.blocked


async def test_exit0_stderr_is_ignored_and_execution_continues(fire, project) -> None:
    doc = hooks_doc("UserPromptSubmit", "echo context; echo noise >&2")
    outcome = await fire(doc, payload("UserPromptSubmit", project))
    assert outcome.meta_messages == ["context"]
    assert outcome.notices == []


async def test_empty_output_exit0_changes_nothing(fire, project) -> None:
    outcome = await fire(
        hooks_doc("UserPromptSubmit", "true"), payload("UserPromptSubmit", project)
    )
    assert outcome.meta_messages == []
    assert outcome.notices == []
    assert [run.exit_code for run in outcome.runs] == [0]


# --- exit code 2 ------------------------------------------------------------------------------


async def test_pre_tool_use_exit2_blocks_the_tool_with_claude_codes_text(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PreToolUse", "echo 'no writes here' >&2; exit 2"), payload("PreToolUse", project)
    )
    assert outcome.blocked
    assert outcome.tool_error == "PreToolUse:Write hook error: no writes here"
    assert outcome.meta_messages == []


async def test_pre_tool_use_text_names_the_mcp_tool_as_the_model_sent_it(fire, project) -> None:
    event = common("PreToolUse", project, tool_name="mcp__github__create_issue", tool_input={})
    outcome = await fire(
        hooks_doc("PreToolUse", "echo nope >&2; exit 2", matcher="mcp__github__.*"), event
    )
    assert outcome.tool_error == "PreToolUse:mcp__github__create_issue hook error: nope"


async def test_post_tool_use_exit2_feeds_back_with_the_command_text(fire, project) -> None:
    command = "echo 'lint failed: E501' >&2; exit 2"
    outcome = await fire(hooks_doc("PostToolUse", command), payload("PostToolUse", project))
    assert outcome.meta_messages == [
        f'PostToolUse:Write hook blocking error from command: "{command}": lint failed: E501'
    ]
    assert outcome.tool_error is None  # the tool ran; its result is not rewritten
    assert not outcome.blocked


async def test_post_tool_use_failure_exit2_feeds_back_too(fire, project) -> None:
    command = "echo retry-with-sudo >&2; exit 2"
    outcome = await fire(
        hooks_doc("PostToolUseFailure", command), payload("PostToolUseFailure", project)
    )
    assert outcome.meta_messages == [
        f'PostToolUseFailure:Write hook blocking error from command: "{command}": retry-with-sudo'
    ]


async def test_user_prompt_submit_exit2_blocks_and_shows_stderr_to_the_user_only(
    fire, project
) -> None:
    doc = hooks_doc("UserPromptSubmit", "echo context; echo 'secret detected' >&2; exit 2")
    outcome = await fire(doc, payload("UserPromptSubmit", project))
    assert outcome.blocked
    assert [(n.level, n.text) for n in outcome.notices] == [("error", "secret detected")]
    assert outcome.meta_messages == []  # nothing reaches the model


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
async def test_stop_exit2_refuses_to_stop_and_feeds_stderr_to_the_model(
    fire, project, event: str
) -> None:
    outcome = await fire(
        hooks_doc(event, "echo 'tests still failing' >&2; exit 2"), payload(event, project)
    )
    assert outcome.blocked
    assert outcome.meta_messages == ["tests still failing"]
    assert outcome.notices == []


async def test_permission_request_exit2_denies_and_tells_the_user(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PermissionRequest", "echo 'not on main' >&2; exit 2"),
        payload("PermissionRequest", project),
    )
    assert outcome.blocked
    assert outcome.permission_decision == "deny"
    assert [(n.level, n.text) for n in outcome.notices] == [("error", "not on main")]
    assert outcome.meta_messages == []


async def test_pre_compact_exit2_is_silent_and_compaction_continues(fire, project) -> None:
    outcome = await fire(
        hooks_doc("PreCompact", "echo dropped >&2; exit 2"), payload("PreCompact", project)
    )
    assert not outcome.blocked
    assert outcome.notices == []
    assert outcome.meta_messages == []


@pytest.mark.parametrize(
    "event",
    ["PostCompact", "SessionStart", "SessionEnd", "CwdChanged", "SubagentStart", "Notification"],
)
async def test_exit2_on_other_events_shows_stderr_to_the_user_only(
    fire, project, event: str
) -> None:
    outcome = await fire(hooks_doc(event, "echo 'heads up' >&2; exit 2"), payload(event, project))
    assert not outcome.blocked
    assert [(n.level, n.text) for n in outcome.notices] == [("error", "heads up")]
    assert outcome.meta_messages == []


async def test_several_exit2_hooks_on_a_tool_event_first_in_config_order_wins(
    fire, project
) -> None:
    doc = hooks_doc("PreToolUse", "sleep 0.3; echo first >&2; exit 2", "echo second >&2; exit 2")
    outcome = await fire(doc, payload("PreToolUse", project))
    assert outcome.tool_error == "PreToolUse:Write hook error: first"
    doc = hooks_doc("PostToolUse", "sleep 0.3; echo first >&2; exit 2", "echo second >&2; exit 2")
    outcome = await fire(doc, payload("PostToolUse", project))
    assert len(outcome.meta_messages) == 1
    assert outcome.meta_messages[0].endswith(": first")


# --- other exit codes -------------------------------------------------------------------------


@pytest.mark.parametrize("event", ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"])
async def test_other_exit_codes_show_stderr_to_the_user_and_continue(
    fire, project, event: str
) -> None:
    outcome = await fire(
        hooks_doc(event, "echo out; echo 'linter crashed' >&2; exit 1"), payload(event, project)
    )
    assert not outcome.blocked
    assert outcome.tool_error is None
    assert outcome.meta_messages == []  # neither stdout nor stderr reaches the model
    assert [(n.level, n.text, n.exit_code) for n in outcome.notices] == [
        ("error", "linter crashed", 1)
    ]


async def test_a_failing_hook_does_not_stop_the_others(fire, project) -> None:
    doc = hooks_doc("UserPromptSubmit", "exit 3", "echo still-runs")
    outcome = await fire(doc, payload("UserPromptSubmit", project))
    assert outcome.meta_messages == ["still-runs"]
    assert [n.exit_code for n in outcome.notices] == [3]


# --- worktrees --------------------------------------------------------------------------------


async def test_worktree_create_takes_the_path_from_the_first_successful_hook(fire, project) -> None:
    doc = hooks_doc(
        "WorktreeCreate", "echo failing >&2; exit 1", "echo preparing; echo /tmp/wt/feature"
    )
    outcome = await fire(doc, payload("WorktreeCreate", project))
    assert outcome.worktree_path == "/tmp/wt/feature"
    assert not outcome.blocked


async def test_worktree_create_is_blocked_when_all_hooks_fail_or_print_nothing(
    fire, project
) -> None:
    doc = hooks_doc("WorktreeCreate", "echo 'disk full' >&2; exit 2", "true")
    outcome = await fire(doc, payload("WorktreeCreate", project))
    assert outcome.blocked
    assert outcome.worktree_path is None
    assert outcome.reason is not None
    assert "disk full" in outcome.reason


async def test_worktree_remove_failures_are_only_logged(fire, project) -> None:
    outcome = await fire(
        hooks_doc("WorktreeRemove", "echo busy >&2; exit 2"), payload("WorktreeRemove", project)
    )
    assert not outcome.blocked
    assert outcome.notices == []
    assert any("busy" in line for line in outcome.logs)


async def test_pre_compact_stdout_becomes_compaction_instructions(fire, project) -> None:
    doc = hooks_doc("PreCompact", "echo 'keep the API decisions'", "echo 'and the open TODOs'")
    outcome = await fire(doc, payload("PreCompact", project))
    assert outcome.compact_instructions == "keep the API decisions\nand the open TODOs"
