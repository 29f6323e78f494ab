"""Stop-hook loops: the consecutive-block cap, and queued user messages going before a restart
(seed 000 "用户排队消息优先于 Stop hook 的重启", all four scenarios)."""

from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.hooks_doc import hooks_for
from tests.processes import TIMEOUT
from tests.session.chat import ChatRunner, lines, metas, notices, record, turn
from wavehost.session.agent_loop import block_cap_notice
from wavehost.session.providers.scripted import ScriptedTurn

ALWAYS_BLOCK = "echo 'again' >&2; exit 2"


def stop_hooks(log: Path, blocker: str) -> dict[str, Any]:
    return {
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": record(log)},
                    {"type": "command", "command": blocker},
                ]
            }
        ]
    }


def replies(index: int, body: dict[str, Any]) -> ScriptedTurn:
    return turn(f"reply {index}")


async def test_a_hook_that_always_blocks_gets_8_continuations_then_a_visible_notice(
    chat: ChatRunner, project: Path
) -> None:
    """As Claude Code 2.1.197 counts it: the reason fed 8 times, 9 model calls, the 9th block
    overridden."""
    log = project.parent / "stop.jsonl"
    result = await chat([], "loop", hooks=stop_hooks(log, ALWAYS_BLOCK), respond=replies)

    assert len(result.llm.requests) == 9
    assert [i["stop_hook_active"] for i in lines(log)] == [False] + [True] * 8
    # The 9th block is overridden: its feedback is not fed to a model that is not asked again.
    assert metas(result.messages) == ["again"] * 8
    cap = [n for n in notices(result.messages) if n.level == "warning"]
    assert [n.text for n in cap] == [block_cap_notice(9)]
    assert cap[0].text == (
        "A hook blocked the turn from ending 9 consecutive times — overriding and ending turn. "
        "For Stop/SubagentStop hooks, check stop_hook_active in the input and return success "
        "while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit."
    )
    assert cap[0] in list(result.messages[-1].notices())  # on the last reply, where users look


async def test_the_block_cap_is_configurable(chat: ChatRunner, project: Path) -> None:
    log = project.parent / "stop.jsonl"
    result = await chat(
        [],
        "loop",
        hooks=stop_hooks(log, ALWAYS_BLOCK),
        respond=replies,
        config={"stop_block_cap": 2},
    )

    assert len(result.llm.requests) == 3
    assert [n.text for n in notices(result.messages)] == [block_cap_notice(3)]


async def test_the_block_cap_comes_from_claude_codes_variable(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = project.parent / "stop.jsonl"
    monkeypatch.setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "1")
    result = await chat([], "loop", hooks=stop_hooks(log, ALWAYS_BLOCK), respond=replies)

    assert len(result.llm.requests) == 2
    assert [n.text for n in notices(result.messages)] == [block_cap_notice(2)]


async def test_a_queued_user_message_ends_the_turn_and_the_loop_resumes_after_it(
    chat: ChatRunner, project: Path
) -> None:
    """Scenarios 1, 3 and 4: the interjection runs before any restart; with the queue empty the
    hook restarts the turn again, until the cap ends it."""
    log = project.parent / "stop.jsonl"
    sessions: list[Any] = []

    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        if index == 0:
            sessions[0].send("interjection")  # typed while the first reply streams
        return turn(f"reply {index}")

    async with chat.open(
        hooks=stop_hooks(log, ALWAYS_BLOCK), respond=respond, config={"stop_block_cap": 3}
    ) as running:
        sessions.append(running.session)
        running.session.send("start the loop")
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()

    texts = running.llm.request_texts()
    assert len(texts) == 5
    assert "interjection" not in texts[0]
    assert "interjection" in texts[1]  # scenario 1: no restart; the queued message goes first
    assert "reply 1" in texts[2]  # scenarios 3 and 4: the loop resumes within that turn
    assert [i["stop_hook_active"] for i in lines(log)] == [False, False, True, True, True]
    assert [n.text for n in notices(running.messages)] == [block_cap_notice(4)]


async def test_a_queued_background_notification_does_not_stop_a_restart(
    chat: ChatRunner, project: Path
) -> None:
    """Scenario 2: news from a finished background command is not the user speaking."""
    gate, pid = project.parent / "gate", project.parent / "pid"
    background = f"echo $$ > {pid}; while [ ! -f {gate} ]; do sleep 0.02; done; echo finished"
    # Lets the background command finish, waits until it is gone, then blocks (once).
    blocker = (
        f"[ -f {gate} ] && exit 0; touch {gate}; "
        f"while kill -0 $(cat {pid}) 2>/dev/null; do sleep 0.02; done; echo 'again' >&2; exit 2"
    )
    log = project.parent / "stop.jsonl"
    call = ("Bash", {"command": background, "run_in_background": True})
    result = await chat(
        [turn("", call), turn("waiting"), turn("done")],
        "go",
        hooks=stop_hooks(log, blocker),
    )

    texts = result.llm.request_texts()
    assert len(texts) == 3
    assert "again" in texts[2]
    assert "<task-notification>" in texts[2]
    assert "completed (exit code 0)" in texts[2]
    assert [i["stop_hook_active"] for i in lines(log)] == [False, True]  # one turn, restarted


async def test_stop_hook_sees_the_mode_the_turn_ran_in(chat: ChatRunner, project: Path) -> None:
    log = project.parent / "stop.jsonl"
    await chat([turn("ok")], "go", hooks=hooks_for("Stop", record(log)), mode="acceptEdits")
    [stop] = lines(log)
    assert stop["permission_mode"] == "acceptEdits"
    assert "stop_hook_active" in stop
