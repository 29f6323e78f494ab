"""asyncRewake delivery edge cases (seed 000 "异步 Hook 回灌唤醒", scenarios 2 and 5, and the
edge cases on which session is woken)."""

import json
import logging
from pathlib import Path

import anyio
import pytest

from tests.processes import TIMEOUT, alive, until
from tests.session.chat import ChatRunner, metas, tools, turn, users
from wavehost.hooks.engine import Rewake
from wavehost.hooks.outcome import system_reminder


def rewake(event: str, command: str, matcher: str | None = None) -> dict[str, object]:
    group: dict[str, object] = {
        "hooks": [{"type": "command", "command": command, "asyncRewake": True}]
    }
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


async def test_a_wake_up_while_busy_joins_the_running_turn(chat: ChatRunner, project: Path) -> None:
    gate = project.parent / "gate"
    # Fires in the background as the Bash call starts; the call runs until the test opens the
    # gate, which it does once the wake-up waits for the model (so the turn is surely busy).
    hooks = rewake("PreToolUse", "echo 'scan found a key' >&2; exit 2", "Bash")
    call = ("Bash", {"command": f"until [ -f {gate} ]; do sleep 0.02; done"})
    async with chat.open([turn("", call), turn("fixing the key")], hooks=hooks) as running:
        running.session.send("go")
        await until(lambda: bool(running.session.inbox.news))
        gate.touch()
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()

    assert len(running.llm.requests) == 2  # no turn of its own: it went into the running one
    assert "scan found a key" in running.llm.request_texts()[1]
    assert metas(running.messages) == [system_reminder("scan found a key")]


async def test_a_new_user_message_does_not_cancel_a_running_rewake_hook(
    chat: ChatRunner, project: Path
) -> None:
    gate, once = project.parent / "gate", project.parent / "once"
    command = (
        f"[ -f {once} ] && exit 0; touch {once}; while [ ! -f {gate} ]; do sleep 0.02; done; "
        "echo 'tests were deleted' >&2; exit 2"
    )
    script = [turn("first"), turn("second"), turn("restoring the tests")]
    async with chat.open(script, hooks=rewake("Stop", command)) as running:
        session = running.session
        session.send("one")
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()
        await until(once.exists)  # the first Stop hook runs (the second one then exits at once)
        session.send("two")  # a new user turn while the hook still runs
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()
        gate.touch()
        await until(lambda: len(running.llm.requests) == 3)
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()

    assert [m.content for m in users(running.messages)] == [
        "one",
        "two",
        system_reminder("tests were deleted"),
    ]
    assert running.messages[-1].text() == "restoring the tests"


async def test_a_user_interrupt_kills_the_rewake_hook_and_nothing_is_delivered(
    chat: ChatRunner, project: Path
) -> None:
    pid, gate = project.parent / "pid", project.parent / "gate"
    command = f"echo $$ > {pid}; while [ ! -f {gate} ]; do sleep 0.02; done; echo late >&2; exit 2"
    call = ("Bash", {"command": "sleep 60"})
    async with chat.open(
        [turn("", call), turn("never")], hooks=rewake("UserPromptSubmit", command)
    ) as running:
        running.session.send("go")
        await until(lambda: pid.exists() and bool(pid.read_text().strip()))
        await until(lambda: tools(running.messages) != [])
        running.session.cancel()
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()
        await until(lambda: not alive(int(pid.read_text())))
        gate.touch()

    assert len(running.llm.requests) == 1
    assert metas(running.messages) == []


async def test_wake_ups_go_only_to_the_session_that_ran_the_hook(
    chat: ChatRunner, project: Path
) -> None:
    command = (
        "python3 -c \"import json,os,sys; d=json.load(sys.stdin); m='" + str(project.parent) + "/'"
        "+d['session_id']; os.path.exists(m) and sys.exit(0); open(m,'w').close(); "
        "print('for '+d['session_id'], file=sys.stderr); sys.exit(2)\""
    )
    async with (
        chat.open([turn("a1"), turn("a2")], hooks=rewake("Stop", command)) as first,
        chat.open([turn("b1"), turn("b2")]) as second,
    ):
        for running in (first, second):
            running.session.send("hello")
        await until(lambda: len(first.llm.requests) == len(second.llm.requests) == 2)
        for running in (first, second):
            with anyio.fail_after(TIMEOUT):
                await running.session.wait_idle()

    for running in (first, second):
        own = running.session.id
        assert metas(running.messages) == [system_reminder(f"for {own}")]


async def test_a_wake_up_for_a_closed_session_is_dropped_with_a_log_line(
    chat: ChatRunner, caplog: pytest.LogCaptureFixture
) -> None:
    async with chat.open([turn("hi")]) as running:
        running.session.send("hello")
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()
    session = running.session
    # Closing kills running hooks, so a late wake-up can only come from outside; deliver one the
    # way BackgroundHooks does.
    with caplog.at_level(logging.INFO):
        session.inbox.rewake(Rewake(session.id, "Stop", "scan.sh", "too late"))

    assert f"session {session.id} is closed; dropped the news from scan.sh" in caplog.text
    assert metas(session.messages) == []
    assert json.loads(session.transcript_path.read_text())["sessionId"] == session.id
