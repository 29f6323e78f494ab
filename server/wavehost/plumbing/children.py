"""Child processes that do not outlive their use: each in its own process group, output read up
to a cap, the whole tree signalled on timeout or cancellation. Hooks and the Bash tool both run
this way.

On timeout the group gets SIGTERM, then SIGKILL after a grace; a cancelled caller kills the group
at once. Results come back as soon as the child exited, even if a grandchild still holds the
pipes (what is left in them is collected for a short while only).

`subprocess` directly, not asyncio's subprocess transport: that costs about four times as much per
process here, and hooks are spawned on every tool call. The exit is awaited without a thread: a
pidfd polled by the event loop (Linux), else a worker thread blocked in waitpid.
"""

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import anyio
from anyio import to_thread

OUTPUT_CAP = 1024 * 1024  # bytes kept per stream
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
DRAIN_AFTER_EXIT = 0.5  # seconds to collect output still in the pipes once the child exited
USE_PIDFD = hasattr(os, "pidfd_open")  # Linux ≥ 5.3
PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL
STDOUT = subprocess.STDOUT


@dataclass(frozen=True, slots=True)
class Finished:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool = False  # some output was over the cap and dropped


class Capture:
    """Reads a pipe to its end, keeping at most `cap` bytes so a runaway child can't eat memory."""

    def __init__(self, cap: int = OUTPUT_CAP) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = 0
        self.done = anyio.Event()

    async def drain(self, fd: int) -> None:
        try:
            while True:
                await anyio.wait_readable(fd)
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    return
                room = max(self.cap - self.kept, 0)
                self.chunks.append(chunk[:room])
                self.kept += min(room, len(chunk))
                self.dropped += len(chunk) - min(room, len(chunk))
        except OSError:
            return
        finally:
            self.done.set()

    def text(self) -> str:
        text = b"".join(self.chunks).decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n… [output truncated: {self.dropped} more bytes]"
        return text


def _write_some(pipe: IO[bytes], view: memoryview) -> memoryview:
    """Write what the pipe takes now; b"" once all is written or the child stopped reading."""
    try:
        return view[os.write(pipe.fileno(), view) :]
    except BlockingIOError:
        return view
    except OSError:  # EPIPE: the child exited or closed its stdin without reading it all
        return memoryview(b"")


async def _feed(pipe: IO[bytes], view: memoryview) -> None:
    """Write the rest of the input, then close stdin; a child that never reads it is fine."""
    try:
        while view:
            await anyio.wait_writable(pipe.fileno())
            view = _write_some(pipe, view)
    finally:
        with contextlib.suppress(OSError):
            pipe.close()


class Child:
    """One child process in its own process group."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.pidfd: int | None = None
        if USE_PIDFD:
            with contextlib.suppress(OSError):
                self.pidfd = os.pidfd_open(process.pid)

    @classmethod
    def spawn(
        cls,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        stdin: int = PIPE,
        stdout: int = PIPE,
        stderr: int = PIPE,
    ) -> "Child":
        """Start it (OSError if it cannot be); its pipes are non-blocking."""
        process = subprocess.Popen(
            list(argv),
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=dict(env),
            start_new_session=True,  # own process group: a timeout kills the whole tree
        )
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                os.set_blocking(pipe.fileno(), False)
        return cls(process)

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    async def wait(self) -> None:
        if self.process.returncode is not None:
            return
        if self.pidfd is not None:
            await anyio.wait_readable(self.pidfd)
        else:
            await to_thread.run_sync(self.process.wait, abandon_on_cancel=True)
        self.process.wait()  # reaps it: it has exited

    def signal_group(self, sig: signal.Signals) -> None:
        """Signal the whole tree; SIGKILL also reaches stragglers of a child that has exited."""
        if self.process.returncode is None or sig == signal.SIGKILL:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    async def stop_group(self) -> None:
        self.signal_group(signal.SIGTERM)
        with anyio.move_on_after(KILL_GRACE):
            await self.wait()
        self.signal_group(signal.SIGKILL)  # also stragglers that ignored SIGTERM
        await self.wait()

    async def killed(self) -> None:
        """SIGKILL the tree if it still runs, and reap it; safe to call from a cancelled scope."""
        with anyio.CancelScope(shield=True):
            if self.process.returncode is None:
                self.signal_group(signal.SIGKILL)
                await self.wait()

    def close(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()


async def run_child(
    child: Child, stdin: bytes | None, limit: float, output_cap: int = OUTPUT_CAP
) -> Finished:
    """Feed `stdin`, read both outputs, wait for the exit (or `limit` seconds, then stop the
    group: `timed_out`). Cancelling the caller kills the group. The child is closed afterwards."""
    process = child.process
    out, err = Capture(output_cap), Capture(output_cap)
    timed_out = False
    try:
        async with anyio.create_task_group() as group:
            if process.stdin is not None:
                rest = _write_some(process.stdin, memoryview(stdin or b""))  # usually all of it
                if rest:
                    group.start_soon(_feed, process.stdin, rest)
                else:
                    process.stdin.close()
            for capture, pipe in ((out, process.stdout), (err, process.stderr)):
                if pipe is not None:
                    group.start_soon(capture.drain, pipe.fileno())
                else:
                    capture.done.set()
            with anyio.move_on_after(limit) as deadline:
                await child.wait()
            if deadline.cancelled_caught:
                timed_out = True
                await child.stop_group()
            # Collect what is still in the pipes, but not what a grandchild may yet write.
            with anyio.move_on_after(DRAIN_AFTER_EXIT):
                await out.done.wait()
                await err.done.wait()
            group.cancel_scope.cancel()
    finally:
        await child.killed()  # the caller was cancelled: the user interrupted
        child.close()
    return Finished(
        process.returncode,
        out.text(),
        err.text(),
        timed_out,
        truncated=bool(out.dropped or err.dropped),
    )
