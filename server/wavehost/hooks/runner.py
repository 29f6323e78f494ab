"""Runs one hook command as a real process and reports exactly what happened.

`sh -c <command>` in its own process group (`plumbing.children`); the payload on stdin, then
closed; stdout and stderr captured up to a cap each. On timeout the whole group gets SIGTERM,
then SIGKILL after a short grace, and the result comes back at once even if a grandchild still
holds the pipes.
"""

import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from wavehost.hooks.config import HookHandler
from wavehost.plumbing.children import OUTPUT_CAP, Child, run_child

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 600.0  # seconds, as Claude Code
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

    @cached_property
    def _base_env(self) -> dict[str, str]:
        # Copying os.environ decodes every entry: do it once per context, not once per hook.
        env = dict(os.environ if self.base_env is None else self.base_env)
        root = str(self.project_dir if self.project_dir is not None else self.spawn_dir())
        env["WAVE_PROJECT_DIR"] = env["CLAUDE_PROJECT_DIR"] = root
        return env

    def env_for(self, handler: HookHandler) -> dict[str, str]:
        env = dict(self._base_env)
        if handler.plugin_root is not None:
            env["WAVE_PLUGIN_ROOT"] = env["CLAUDE_PLUGIN_ROOT"] = str(handler.plugin_root)
        return env


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
        child = Child.spawn(
            [SHELL, "-c", handler.command], cwd=context.spawn_dir(), env=context.env_for(handler)
        )
    except OSError as err:
        message = f"could not start hook: {err.strerror or err}"
        return HookRun(handler, None, "", "", elapsed(), timeout, spawn_error=message)
    done = await run_child(child, stdin, timeout, output_cap)
    run = HookRun(
        handler,
        done.returncode,
        done.stdout,
        done.stderr,
        elapsed(),
        timeout,
        timed_out=done.timed_out,
    )
    log.debug("hook %s exited %s in %.0f ms", handler.command, run.exit_code, run.duration_ms)
    return run
