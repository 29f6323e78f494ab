"""Shell processes for the Bash tool: own process group, bounded output, killed with their tree.

Each command gets its own process group so a timeout or a user interrupt kills what it started
too, and so the result does not wait on a background grandchild that still holds the pipes.
"""

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
from anyio.abc import ByteReceiveStream, Process

SHELL = shutil.which("bash") or "/bin/sh"
OUTPUT_CAP = 1024 * 1024  # bytes kept per stream
DRAIN_AFTER_EXIT = 0.5  # seconds to collect output still in the pipes once the shell exited
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL on timeout


@dataclass(frozen=True)
class Finished:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool


def kill_group(process: Process, sig: signal.Signals = signal.SIGKILL) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()
        self.done = anyio.Event()

    async def drain(self, stream: ByteReceiveStream) -> None:
        try:
            async for chunk in stream:
                room = OUTPUT_CAP - len(self.data)
                if room > 0:
                    self.data += chunk[:room]
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            self.done.set()

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


async def open_shell(
    script: str, cwd: Path, env: Mapping[str, str], *, stdout: int | None = subprocess.PIPE
) -> Process:
    return await anyio.open_process(
        [SHELL, "-c", script],
        cwd=cwd,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE if stdout == subprocess.PIPE else subprocess.STDOUT,
        start_new_session=True,
    )


async def run_shell(script: str, cwd: Path, env: Mapping[str, str], limit: float) -> Finished:
    """Run to completion or for `limit` seconds; cancelling the caller kills the process group."""
    process = await open_shell(script, cwd, env)
    out, err = _Sink(), _Sink()
    timed_out = False
    try:
        async with anyio.create_task_group() as group:
            assert process.stdout is not None
            assert process.stderr is not None
            group.start_soon(out.drain, process.stdout)
            group.start_soon(err.drain, process.stderr)
            with anyio.move_on_after(limit) as deadline:
                await process.wait()
            if deadline.cancelled_caught:
                timed_out = True
                kill_group(process, signal.SIGTERM)
                with anyio.move_on_after(KILL_GRACE):
                    await process.wait()
            with anyio.move_on_after(DRAIN_AFTER_EXIT):
                await out.done.wait()
                await err.done.wait()
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None or timed_out:
                kill_group(process)
                await process.wait()
            await process.aclose()
    return Finished(process.returncode, out.text(), err.text(), timed_out)
