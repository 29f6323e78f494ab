"""Runs one hook command as a real process and reports exactly what happened.

`sh -c <command>` in its own process group; the payload on stdin, then closed; stdout and stderr
captured up to a cap each. On timeout the whole group gets SIGTERM, then SIGKILL after a short
grace, and the result comes back at once even if a grandchild still holds the pipes.
"""

import contextlib
import logging
import os
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.lowlevel
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

from wavehost.hooks.config import HookHandler

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 600.0  # seconds, as Claude Code
OUTPUT_CAP = 1024 * 1024  # bytes kept per stream
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
DRAIN_AFTER_EXIT = 0.5  # seconds to collect output still in the pipes after the shell exits
SHELL = "/bin/sh"


@dataclass(frozen=True, slots=True)
class HookRun:
    """The raw result of one hook process."""

    handler: HookHandler
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: float
    timeout: float
    timed_out: bool = False
    spawn_error: str | None = None


@dataclass(frozen=True)
class HookContext:
    """Where hooks run. `project_dir` is the session root: it never follows `cd` or worktrees."""

    cwd: Path
    project_dir: Path | None = None
    base_env: Mapping[str, str] | None = None

    def spawn_dir(self) -> Path:
        if self.cwd.is_dir() or self.project_dir is None:
            return self.cwd
        return self.project_dir

    def env_for(self, handler: HookHandler) -> dict[str, str]:
        env = dict(os.environ if self.base_env is None else self.base_env)
        root = str(self.project_dir if self.project_dir is not None else self.spawn_dir())
        env["WAVE_PROJECT_DIR"] = env["CLAUDE_PROJECT_DIR"] = root
        if handler.plugin_root is not None:
            env["WAVE_PLUGIN_ROOT"] = env["CLAUDE_PLUGIN_ROOT"] = str(handler.plugin_root)
        return env


class _Capture:
    """Reads a stream to its end, keeping at most `cap` bytes so a runaway hook can't eat memory."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = 0
        self.done = anyio.Event()

    async def drain(self, stream: ByteReceiveStream) -> None:
        try:
            async for chunk in stream:
                room = self.cap - self.kept
                if room > 0:
                    self.chunks.append(chunk[:room])
                    self.kept += min(room, len(chunk))
                self.dropped += max(0, len(chunk) - max(room, 0))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            self.done.set()

    def text(self) -> str:
        text = b"".join(self.chunks).decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n… [output truncated: {self.dropped} more bytes]"
        return text


async def _feed(stream: ByteSendStream, data: bytes) -> None:
    """Write the payload and close stdin; a hook that never reads it is fine."""
    try:
        await stream.send(data)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
        return
    with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
        await stream.aclose()


def _signal_group(process: Process, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


async def _stop_group(process: Process) -> None:
    _signal_group(process, signal.SIGTERM)
    with anyio.move_on_after(KILL_GRACE):
        await process.wait()
    _signal_group(process, signal.SIGKILL)  # also stragglers that ignored SIGTERM


async def run_hook(
    handler: HookHandler,
    stdin: bytes,
    context: HookContext,
    *,
    output_cap: int = OUTPUT_CAP,
) -> HookRun:
    """Run one hook to completion (or timeout). Cancelling the caller kills the hook's group."""
    timeout = handler.timeout or DEFAULT_TIMEOUT
    started = time.monotonic()

    def elapsed() -> float:
        return (time.monotonic() - started) * 1000

    try:
        process = await anyio.open_process(
            [SHELL, "-c", handler.command],
            cwd=context.spawn_dir(),
            env=context.env_for(handler),
            start_new_session=True,  # own process group: a timeout kills the whole tree
        )
    except OSError as err:
        message = f"could not start hook: {err.strerror or err}"
        return HookRun(handler, None, "", "", elapsed(), timeout, spawn_error=message)

    out, err_out = _Capture(output_cap), _Capture(output_cap)
    timed_out = False
    try:
        async with anyio.create_task_group() as group:
            assert process.stdin
            assert process.stdout
            assert process.stderr
            group.start_soon(_feed, process.stdin, stdin)
            group.start_soon(out.drain, process.stdout)
            group.start_soon(err_out.drain, process.stderr)
            with anyio.move_on_after(timeout) as deadline:
                await process.wait()
            if deadline.cancelled_caught:
                timed_out = True
                await _stop_group(process)
            else:
                with anyio.move_on_after(DRAIN_AFTER_EXIT):
                    await out.done.wait()
                    await err_out.done.wait()
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None:
                _signal_group(process, signal.SIGKILL)
                await process.wait()
            await process.aclose()  # closes the pipes too, even if a grandchild still holds them
            # Let the loop run the pipes' connection_lost callbacks so the transport is closed now,
            # not garbage-collected later (perhaps after its loop is gone).
            for _ in range(3):
                await anyio.lowlevel.checkpoint()
    run = HookRun(
        handler,
        process.returncode,
        out.text(),
        err_out.text(),
        elapsed(),
        timeout,
        timed_out=timed_out,
    )
    log.debug("hook %s exited %s in %.0f ms", handler.command, run.exit_code, run.duration_ms)
    return run
