"""Waiting on what happens outside the event loop: processes, files."""

import os
from collections.abc import Callable
from pathlib import Path

import anyio

TIMEOUT = 90  # seconds; generous: a loaded 2-core machine takes 10-15 s to import wavehost


def proc_status(pid: int | str, field: str) -> str:
    """The first value of a field of /proc/PID/status (`self` for this process)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return line.split()[1]
    raise KeyError(field)


def alive(pid: int) -> bool:
    """Whether `pid` runs; a zombie waiting for its parent counts as gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def until(condition: Callable[[], bool], limit: float = TIMEOUT) -> None:
    """Wait for something outside the event loop (a process, a file) to become true."""
    with anyio.fail_after(limit):
        while not condition():
            await anyio.sleep(0.02)
