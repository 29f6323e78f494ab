"""`plumbing.disk`: a file's writes run on disk threads in the order submitted, one at a time;
waiting for them never blocks the event loop; a failing write is logged and the next still
runs."""

import logging
import threading
import time
from pathlib import Path

import anyio
import pytest

from wavehost.plumbing import disk


async def test_jobs_run_in_order_off_the_loop_and_settled_waits_for_them(tmp_path: Path) -> None:
    lane = disk.lane(tmp_path / "a")
    ran: list[tuple[int, bool]] = []
    loop_thread = threading.get_ident()

    def job(n: int) -> None:
        time.sleep(0.01)  # a slow disk
        ran.append((n, threading.get_ident() == loop_thread))

    for n in range(5):
        lane.submit(lambda n=n: job(n))
    ticks = 0
    async with anyio.create_task_group() as group:

        async def tick() -> None:  # the loop keeps running meanwhile
            nonlocal ticks
            while True:
                ticks += 1
                await anyio.lowlevel.checkpoint()

        group.start_soon(tick)
        await lane.settled()
        group.cancel_scope.cancel()
    assert ran == [(n, False) for n in range(5)]
    assert ticks > 0
    await lane.settled()  # nothing pending: returns at once


def test_one_lane_per_file_while_someone_holds_it(tmp_path: Path) -> None:
    held = disk.lane(tmp_path / "a")
    assert disk.lane(tmp_path / "a") is held
    assert disk.lane(tmp_path / "b") is not held


def test_a_failing_job_is_logged_and_the_next_runs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lane = disk.lane(tmp_path / "a")
    ran: list[str] = []

    def broken() -> None:
        raise OSError("disk full")

    with caplog.at_level(logging.ERROR):
        lane.submit(broken)
        lane.submit(lambda: ran.append("after"))
        lane.wait()
    assert ran == ["after"]
    assert f"writing {tmp_path / 'a'} failed" in caplog.text
    assert "disk full" in caplog.text


async def test_a_cancelled_waiter_leaves_the_lane_working(tmp_path: Path) -> None:
    lane = disk.lane(tmp_path / "a")
    gate = threading.Event()
    lane.submit(lambda: gate.wait(10))
    with anyio.move_on_after(0.05):
        await lane.settled()
    gate.set()
    ran: list[int] = []
    lane.submit(lambda: ran.append(1))
    with anyio.fail_after(10):
        await lane.settled()
    assert ran == [1]
