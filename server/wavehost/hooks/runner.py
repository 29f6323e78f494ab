"""Runs one hook command as a real process and reports exactly what happened.

What to start is a `Launch` (argv, cwd, environment, timeout), which the hook's dialect decides;
the Wave default is `sh -c <command>`. The process runs in its own process group; the payload on
stdin, then closed; stdout and stderr captured up to a cap each. On timeout the whole group gets
SIGTERM, then SIGKILL after a short grace, and the result comes back at once even if a
grandchild still holds the pipes.
"""

import contextlib
import logging
import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import IO

import anyio
from anyio import to_thread

from wavehost.hooks.config import HookHandler

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 600.0  # seconds, as Claude Code
OUTPUT_CAP = 1024 * 1024  # bytes kept per stream
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
DRAIN_AFTER_EXIT = 0.5  # seconds to collect output still in the pipes after the shell exits
SHELL = "/bin/sh"
USE_PIDFD = hasattr(os, "pidfd_open")  # Linux ≥ 5.3


@dataclass(frozen=True, slots=True)
class HookRun:
    """The raw result of one hook process (or of an action that starts none: Snow's context)."""

    handler: HookHandler
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: float
    timeout: float
    timed_out: bool = False
    spawn_error: str | None = None
    truncated: bool = False  # some output was over the cap and dropped


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start one hook process."""

    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str]
    timeout: float  # seconds
    output_cap: int = OUTPUT_CAP  # bytes kept per stream


# The environment names hooks see, each with its Claude Code twin (docs/hooks.md lists them).
SESSION_ID_VARS = ("WAVE_SESSION_ID", "CLAUDE_CODE_SESSION_ID")
ENTRYPOINT_VARS = ("WAVE_ENTRYPOINT", "CLAUDE_CODE_ENTRYPOINT")
EFFORT_VARS = ("WAVE_EFFORT", "CLAUDE_EFFORT")
ENV_FILE_VARS = ("WAVE_ENV_FILE", "CLAUDE_ENV_FILE")


@dataclass(frozen=True)
class HookContext:
    """Where hooks run. `project_dir` is the session root: it never follows `cd` or worktrees."""

    cwd: Path
    project_dir: Path | None = None
    base_env: Mapping[str, str] | None = None
    session_id: str | None = None  # $CLAUDE_CODE_SESSION_ID / $WAVE_SESSION_ID
    entrypoint: str | None = None  # $CLAUDE_CODE_ENTRYPOINT / $WAVE_ENTRYPOINT: who runs it
    effort: str | None = None  # $CLAUDE_EFFORT / $WAVE_EFFORT
    env_file: Path | None = None  # $CLAUDE_ENV_FILE / $WAVE_ENV_FILE (SessionStart hooks)

    def spawn_dir(self) -> Path:
        if self.cwd.is_dir() or self.project_dir is None:
            return self.cwd
        return self.project_dir

    @cached_property
    def _base_env(self) -> dict[str, str]:
        # Copying os.environ decodes every entry: do it once per context, not once per hook.
        env = dict(os.environ if self.base_env is None else self.base_env)
        root = str(self.project_dir if self.project_dir is not None else self.spawn_dir())
        env["WAVE_PROJECT_DIR"] = env["CLAUDE_PROJECT_DIR"] = root
        return env

    @cached_property
    def _claude_env(self) -> dict[str, str]:
        """The Wave (Claude Code) dialect's names on top: what Claude Code's hooks see."""
        env = dict(self._base_env)
        env["CLAUDECODE"] = "1"  # hooks written for Claude Code check it to know where they run
        for names, value in (
            (SESSION_ID_VARS, self.session_id),
            (ENTRYPOINT_VARS, self.entrypoint),
            (EFFORT_VARS, self.effort),
            (ENV_FILE_VARS, None if self.env_file is None else str(self.env_file)),
        ):
            for name in names:
                if value is None:
                    env.pop(name, None)  # never one inherited from whoever started wavehost
                else:
                    env[name] = value
        return env

    def env_for(self, handler: HookHandler, *, claude: bool = False) -> dict[str, str]:
        env = dict(self._claude_env if claude else self._base_env)
        if handler.plugin_root is not None:
            env["WAVE_PLUGIN_ROOT"] = env["CLAUDE_PLUGIN_ROOT"] = str(handler.plugin_root)
        return env

    @property
    def root(self) -> Path:
        """The session root: what relative hook `cwd`s resolve against."""
        return self.project_dir if self.project_dir is not None else self.spawn_dir()


def wave_launch(handler: HookHandler, context: HookContext) -> Launch:
    """The Wave (Claude Code) way: `sh -c <command>` where the agent is, 600 s by default."""
    return Launch(
        (SHELL, "-c", handler.command),
        context.spawn_dir(),
        context.env_for(handler, claude=True),
        handler.timeout or DEFAULT_TIMEOUT,
    )


class _Capture:
    """Reads a pipe to its end, keeping at most `cap` bytes so a runaway hook can't eat memory."""

    def __init__(self, cap: int) -> None:
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
    """Write what the pipe takes now; b"" once everything is written or the hook stopped reading."""
    try:
        return view[os.write(pipe.fileno(), view) :]
    except BlockingIOError:
        return view
    except OSError:  # EPIPE: the hook exited or closed its stdin without reading it all
        return memoryview(b"")


async def _feed(pipe: IO[bytes], view: memoryview) -> None:
    """Write the rest of the payload, then close stdin; a hook that never reads it is fine."""
    try:
        while view:
            await anyio.wait_writable(pipe.fileno())
            view = _write_some(pipe, view)
    finally:
        with contextlib.suppress(OSError):
            pipe.close()


def _spawn(launch: Launch) -> subprocess.Popen[bytes]:
    """Start the hook. `subprocess` directly, not asyncio's subprocess transport: that costs about
    four times as much per process here, and hooks are spawned on every tool call."""
    process = subprocess.Popen(
        launch.argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=launch.cwd,
        env=dict(launch.env),
        start_new_session=True,  # own process group: a timeout kills the whole tree
    )
    for pipe in (process.stdin, process.stdout, process.stderr):
        assert pipe is not None
        os.set_blocking(pipe.fileno(), False)
    return process


class _Exit:
    """Waits for a process to exit without a thread: a pidfd polled by the event loop (Linux),
    else a worker thread blocked in waitpid."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.pidfd: int | None = None
        if USE_PIDFD:
            with contextlib.suppress(OSError):
                self.pidfd = os.pidfd_open(process.pid)

    async def wait(self) -> None:
        if self.process.returncode is not None:
            return
        if self.pidfd is not None:
            await anyio.wait_readable(self.pidfd)
        else:
            await to_thread.run_sync(self.process.wait, abandon_on_cancel=True)
        self.process.wait()  # reaps it: it has exited

    def signal_group(self, sig: signal.Signals) -> None:
        if self.process.returncode is None or sig == signal.SIGKILL:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    async def stop_group(self) -> None:
        self.signal_group(signal.SIGTERM)
        with anyio.move_on_after(KILL_GRACE):
            await self.wait()
        self.signal_group(signal.SIGKILL)  # also stragglers that ignored SIGTERM
        await self.wait()

    def close(self) -> None:
        if self.pidfd is not None:
            os.close(self.pidfd)


async def run_hook(
    handler: HookHandler,
    stdin: bytes,
    context: HookContext,
    *,
    output_cap: int = OUTPUT_CAP,
    launch: Launch | None = None,
) -> HookRun:
    """Run one hook to completion (or timeout). Cancelling the caller kills the hook's group."""
    launch = launch or wave_launch(handler, context)
    timeout = launch.timeout
    output_cap = min(output_cap, launch.output_cap)
    started = time.monotonic()

    def elapsed() -> float:
        return (time.monotonic() - started) * 1000

    try:
        process = _spawn(launch)
    except OSError as err:
        message = f"could not start hook: {err.strerror or err}"
        return HookRun(handler, None, "", "", elapsed(), timeout, spawn_error=message)

    assert process.stdin is not None
    assert process.stdout is not None
    assert process.stderr is not None
    exit_ = _Exit(process)
    out, err_out = _Capture(output_cap), _Capture(output_cap)
    timed_out = False
    try:
        async with anyio.create_task_group() as group:
            rest = _write_some(process.stdin, memoryview(stdin))  # usually all of it: no task
            if rest:
                group.start_soon(_feed, process.stdin, rest)
            else:
                process.stdin.close()
            group.start_soon(out.drain, process.stdout.fileno())
            group.start_soon(err_out.drain, process.stderr.fileno())
            with anyio.move_on_after(timeout) as deadline:
                await exit_.wait()
            if deadline.cancelled_caught:
                timed_out = True
                await exit_.stop_group()
            else:  # collect what is still in the pipes, but not what a grandchild may yet write
                with anyio.move_on_after(DRAIN_AFTER_EXIT):
                    await out.done.wait()
                    await err_out.done.wait()
            group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None:  # the caller was cancelled: the user interrupted
                exit_.signal_group(signal.SIGKILL)
                await exit_.wait()
        exit_.close()
        for pipe in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                pipe.close()
    run = HookRun(
        handler,
        process.returncode,
        out.text(),
        err_out.text(),
        elapsed(),
        timeout,
        timed_out=timed_out,
        truncated=bool(out.dropped or err_out.dropped),
    )
    log.debug("hook %s exited %s in %.0f ms", handler.command, run.exit_code, run.duration_ms)
    return run
