"""Session crons: CronCreate / CronList / CronDelete, due prompts delivered to the session (idle: a
new turn; busy: queued), and Stop's `session_crons` (seed 000 "Stop Hook 后台工作感知" #5)."""

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio

from tests.hooks_doc import hooks_for, merge
from tests.processes import TIMEOUT, until
from tests.session.chat import ChatRunner, lines, record, tools, turn, users
from tests.session.clock import ManualClock
from wavehost.session.providers.scripted import ScriptedTurn

START = datetime(2026, 1, 1, 10, 0, 30)


def cron(schedule: str, prompt: str, recurring: bool = True) -> tuple[str, dict[str, Any]]:
    return ("CronCreate", {"cron": schedule, "prompt": prompt, "recurring": recurring})


async def test_cron_tools_create_list_and_delete_and_stop_lists_the_jobs(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "stop.jsonl"

    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        if index == 0:
            return turn(
                "", cron("*/5 * * * *", "check the build"), cron("30 14 * * *", "lunch", False)
            )
        if index == 1:
            return turn("scheduled")
        if index == 2:
            job = re.search(r"Scheduled recurring job (\w+)", str(body["messages"]))
            assert job
            return turn("", ("CronDelete", {"id": job[1]}), ("CronList", {}))
        return turn("deleted")

    clock = ManualClock(START)
    result = await chat(
        [],
        "schedule",
        "delete the build check",
        hooks=hooks_for("Stop", record(log)),
        respond=respond,
        config={"clock": clock},
    )

    first, second = (stop["session_crons"] for stop in lines(log))
    assert [(c["schedule"], c["recurring"], c["prompt"]) for c in first] == [
        ("*/5 * * * *", True, "check the build"),
        ("30 14 * * *", False, "lunch"),
    ]
    assert all(re.fullmatch(r"[0-9a-f]{8}", c["id"]) for c in first)
    assert second == first[1:]
    created, _, deleted, listed = tools(result.messages)
    assert created.result is not None
    assert "next run 2026-01-01 10:05" in created.result
    assert deleted.result == f"Cancelled job {first[0]['id']}."
    assert listed.result == f"{first[1]['id']} — 30 14 * * * (one-shot): lunch"


async def test_due_prompts_start_a_turn_when_idle_and_queue_behind_a_busy_turn(
    chat: ChatRunner, project: Path
) -> None:
    log, prompts = project.parent / "stop.jsonl", project.parent / "prompts.jsonl"
    clock = ManualClock(START)

    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        if index == 0:
            return turn("", cron("* * * * *", "tick"), cron("2 10 * * *", "once", False))
        if index == 3:  # the user's "work" turn is running: both jobs fall due now
            clock.advance_to(datetime(2026, 1, 1, 10, 2))
        return turn(f"reply {index}")

    hooks = merge(hooks_for("Stop", record(log)), hooks_for("UserPromptSubmit", record(prompts)))
    async with chat.open(hooks=hooks, respond=respond, config={"clock": clock}) as running:
        session = running.session
        session.send("schedule")
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()
        clock.advance_to(datetime(2026, 1, 1, 10, 1))  # idle: "tick" starts a turn of its own
        await until(lambda: len(lines(log)) == 2)
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()
        session.send("work")
        await until(lambda: len(lines(log)) == 5)
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()

    assert [p["prompt"] for p in lines(prompts)] == ["schedule", "tick", "work", "tick", "once"]
    assert [m.content for m in users(running.messages)] == [
        "schedule",
        "tick",
        "work",
        "tick",
        "once",
    ]
    # Queued behind the running turn, each then a turn of its own: one request per prompt.
    assert len(running.llm.requests) == 6
    crons = [[c["prompt"] for c in stop["session_crons"]] for stop in lines(log)]
    assert crons == [["tick", "once"]] * 2 + [["tick"]] * 3  # the one-shot is gone once fired


async def test_a_sessions_crons_end_with_it(chat: ChatRunner, project: Path) -> None:
    prompts = project.parent / "prompts.jsonl"
    clock = ManualClock(START)
    script = [turn("", cron("* * * * *", "tick")), turn("scheduled")]
    hooks = hooks_for("UserPromptSubmit", record(prompts))
    with anyio.fail_after(TIMEOUT):  # the session's end waits for nothing of its own
        async with chat.open(script, hooks=hooks, config={"clock": clock}) as running:
            running.session.send("schedule")
            await running.session.wait_idle()
            await until(lambda: clock.sleepers == 1)  # the job waits for 10:01

    assert clock.sleepers == 0  # the scheduler went with the session
    clock.advance_to(datetime(2026, 1, 1, 10, 5))
    await anyio.sleep(0.2)
    assert [p["prompt"] for p in lines(prompts)] == ["schedule"]


async def test_an_invalid_cron_expression_is_a_tool_error(chat: ChatRunner) -> None:
    script = [turn("", cron("* * * *", "x"), cron("61 * * * *", "y")), turn("ok")]
    result = await chat(script, "go", config={"clock": ManualClock(START)})

    four, bad = tools(result.messages)
    assert four.error == (
        "Invalid cron expression '* * * *': expected 5 fields "
        "(minute hour day-of-month month day-of-week)"
    )
    assert bad.error is not None
    assert bad.error.startswith("Invalid cron expression '61 * * * *'")
