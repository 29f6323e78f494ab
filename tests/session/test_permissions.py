"""Permission modes decide; PermissionRequest hooks run first; then the user is asked."""

import json
from pathlib import Path

import pytest

from tests.hooks_doc import hooks_for
from tests.session.chat import ChatRunner, tools, turn
from wavehost.session.permissions import (
    PermissionAnswer,
    PermissionPrompt,
    mode_verdict,
    with_hook_decision,
)


@pytest.mark.parametrize(
    ("mode", "read", "edit", "execute"),
    [
        ("default", "allow", "ask", "ask"),
        ("acceptEdits", "allow", "allow", "ask"),
        ("plan", "allow", "deny", "deny"),
        ("dontAsk", "allow", "deny", "deny"),
        ("bypassPermissions", "allow", "allow", "allow"),
    ],
)
def test_each_mode_decides_by_tool_kind(mode: str, read: str, edit: str, execute: str) -> None:
    verdicts = [mode_verdict(mode, kind) for kind in ("read", "edit", "execute")]  # type: ignore[arg-type]
    assert verdicts == [read, edit, execute]


def test_a_pre_tool_use_allow_skips_the_question_but_not_a_mode_deny() -> None:
    assert with_hook_decision("ask", "allow") == "allow"
    assert with_hook_decision("allow", "ask") == "ask"
    assert with_hook_decision("deny", "allow") == "deny"


async def test_the_user_is_asked_and_a_yes_runs_the_tool(chat: ChatRunner, project: Path) -> None:
    prompts: list[PermissionPrompt] = []

    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        prompts.append(prompt)
        return PermissionAnswer(allow=prompt.tool_name == "Write")

    calls = [("Write", {"file_path": "a.txt", "content": "x"}), ("Bash", {"command": "touch b"})]
    result = await chat([turn("", *calls), turn("ok")], "go", mode="default", ask=ask)

    assert [p.tool_name for p in prompts] == ["Write", "Bash"]
    assert (project / "a.txt").exists()
    assert not (project / "b").exists()
    bash = tools(result.messages)[1]
    assert bash.status == "error"
    assert bash.error is not None
    assert bash.error.startswith("The user doesn't want to proceed with this tool use.")


async def test_plan_mode_refuses_edits_without_asking(chat: ChatRunner, project: Path) -> None:
    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        raise AssertionError("plan mode never asks")

    call = ("Edit", {"file_path": "a.txt", "old_string": "", "new_string": "x"})
    result = await chat([turn("", call), turn("ok")], "go", mode="plan", ask=ask)
    assert not (project / "a.txt").exists()
    error = tools(result.messages)[0].error
    assert error is not None
    assert "plan mode" in error


async def test_a_pre_tool_use_allow_decision_skips_the_question(
    chat: ChatRunner, project: Path
) -> None:
    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        raise AssertionError("the hook allowed it")

    allow = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    hooks = hooks_for("PreToolUse", f"echo '{allow}'")
    await chat(
        [turn("", ("Bash", {"command": "touch made"})), turn("ok")],
        "go",
        hooks=hooks,
        mode="default",
        ask=ask,
    )
    assert (project / "made").exists()


async def test_a_question_a_pre_tool_use_hook_asked_names_that_hook(
    chat: ChatRunner, project: Path
) -> None:
    prompts: list[PermissionPrompt] = []

    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        prompts.append(prompt)
        return PermissionAnswer(allow=False)

    output = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "touching the build",
        }
    }
    asking = f"echo '{json.dumps(output)}'"
    hooks = hooks_for("PreToolUse", asking, matcher="Bash")
    call = ("Bash", {"command": "rm -rf build"})
    await chat([turn("", call), turn("ok")], "go", mode="bypassPermissions", ask=ask, hooks=hooks)

    [prompt] = prompts
    assert prompt.reason == "touching the build"
    assert prompt.asked_by is not None
    assert (prompt.asked_by.event, prompt.asked_by.matcher) == ("PreToolUse", "Bash")
    assert prompt.asked_by.command == asking


async def test_a_question_nobody_hooked_names_no_hook(chat: ChatRunner, project: Path) -> None:
    prompts: list[PermissionPrompt] = []

    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        prompts.append(prompt)
        return PermissionAnswer(allow=False)

    hooks = hooks_for("PreToolUse", "true", matcher="Bash")
    call = ("Bash", {"command": "ls"})
    await chat([turn("", call), turn("ok")], "go", mode="default", ask=ask, hooks=hooks)

    assert [p.asked_by for p in prompts] == [None]
