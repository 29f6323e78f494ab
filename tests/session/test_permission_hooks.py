"""PermissionRequest hooks deciding for the user (exit 2 / JSON `decision.behavior`), and
Notification hooks when the agent waits for permission (`permission_prompt`) or sits idle
(`idle_prompt`) — seed 000 "权限请求 Hook" and the PermissionRequest row of the exit-code table."""

import json
from pathlib import Path

import anyio

from tests.hooks_doc import hooks_for, merge
from tests.processes import TIMEOUT, until
from tests.session.chat import ChatRunner, lines, notices, record, tools, turn
from wavehost.session.permissions import PermissionAnswer, PermissionPrompt, refused_by_hook

TOUCH = ("Bash", {"command": "touch made"})


async def never_asked(prompt: PermissionPrompt) -> PermissionAnswer:
    raise AssertionError("a PermissionRequest hook decided: nobody is asked")


async def test_permission_request_input_and_a_json_allow_runs_the_tool_without_asking(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "asked.jsonl"
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    hooks = hooks_for(
        "PermissionRequest", f"{record(log)}; echo '{json.dumps(allow)}'", matcher="Bash"
    )
    await chat([turn("", TOUCH), turn("ok")], "go", hooks=hooks, mode="default", ask=never_asked)

    [asked] = lines(log)
    assert asked["hook_event_name"] == "PermissionRequest"
    assert (asked["tool_name"], asked["tool_input"]) == ("Bash", {"command": "touch made"})
    assert asked["permission_mode"] == "default"
    assert (project / "made").exists()


async def test_a_json_deny_refuses_with_its_message_for_the_model(
    chat: ChatRunner, project: Path
) -> None:
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no shell on Fridays"},
        }
    }
    hooks = hooks_for("PermissionRequest", f"echo '{json.dumps(deny)}'")
    result = await chat(
        [turn("", TOUCH), turn("ok")], "go", hooks=hooks, mode="default", ask=never_asked
    )

    assert not (project / "made").exists()
    assert tools(result.messages)[0].error == refused_by_hook("Bash", "no shell on Fridays")


async def test_exit_2_denies_and_shows_stderr_to_the_user_only(
    chat: ChatRunner, project: Path
) -> None:
    hooks = hooks_for("PermissionRequest", "echo 'blocked by policy' >&2; exit 2")
    result = await chat(
        [turn("", TOUCH), turn("ok")], "go", hooks=hooks, mode="default", ask=never_asked
    )

    assert not (project / "made").exists()
    assert [(n.level, n.text) for n in notices(result.messages)] == [("error", "blocked by policy")]
    # seed: the stderr is for the user only — the model's tool result does not carry it
    assert tools(result.messages)[0].error == refused_by_hook("Bash", None)
    assert "blocked by policy" not in result.llm.request_texts()[1]


async def test_notification_hooks_hear_when_the_agent_waits_for_permission_and_when_idle(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "notified.jsonl"
    hooks = merge(
        hooks_for("Notification", record(log), matcher="permission_prompt"),
        hooks_for("Notification", record(log), matcher="idle_prompt"),
    )

    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        await until(lambda: len(lines(log)) == 1)  # fired while the question is open
        return PermissionAnswer(allow=True)

    async with chat.open(
        [turn("", TOUCH), turn("ok")],
        hooks=hooks,
        mode="default",
        ask=ask,
        config={"idle_notify_after": 0.05},
    ) as running:
        running.session.send("go")
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()
        await until(lambda: len(lines(log)) == 2)

    waiting, idle = lines(log)
    assert (waiting["notification_type"], waiting["message"]) == (
        "permission_prompt",
        "Wave needs your permission to use Bash",
    )
    assert (idle["notification_type"], idle["message"]) == (
        "idle_prompt",
        "Wave is waiting for your input",
    )
    assert (project / "made").exists()
