"""Runs one hook command as a real process and reports exactly what happened.

What to start is a `Launch` (argv, cwd, environment, timeout), which the hook's dialect decides;
the Wave default is `sh -c <command>`. The process runs in its own process group
(`plumbing.children`); the payload on stdin, then closed; stdout and stderr captured up to a cap
each. On timeout the whole group gets SIGTERM, then SIGKILL after a short grace, and the result
comes back at once even if a grandchild still holds the pipes. A hook the user cancels
(`hooks.live`) is stopped the same way and reads as `cancelled`.
"""

import functools
import logging
import os
import re
import shutil
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from wavehost import environment, paths
from wavehost.hooks.config import HookHandler
from wavehost.hooks.models import HookModels
from wavehost.plumbing.children import OUTPUT_CAP, Child, Running

if TYPE_CHECKING:
    from wavehost.hooks.live import LiveHooks

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 600.0  # seconds, as Claude Code
SHELL = "/bin/sh"


@dataclass(frozen=True, slots=True)
class HookRun:
    """The raw result of one hook process, or of a hook that starts none (Snow's context, an
    http or prompt hook: `hooks.calls`), read as a process's would be."""

    handler: HookHandler
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: float
    timeout: float
    timed_out: bool = False
    spawn_error: str | None = None  # why it gave no answer: could not start, an HTTP error, …
    truncated: bool = False  # some output was over the cap and dropped
    cancelled: bool = False  # the user stopped it while it ran (`hooks.live`)

    @property
    def stopped(self) -> bool:
        """It did not end by itself: its time was up, or the user cancelled it. Its output is
        then no answer (Claude Code: a timed-out hook's output is discarded)."""
        return self.timed_out or self.cancelled


@dataclass(frozen=True, slots=True)
class Launch:
    """How to start one hook process."""

    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str]
    timeout: float  # seconds
    output_cap: int = OUTPUT_CAP  # bytes kept per stream
    error: str | None = None  # why it cannot start (then nothing is spawned)
    new_session: bool = True  # a session of its own (Claude Code's way), else a process group


# The environment names hooks see, each with its Claude Code twin (docs/hooks.md lists them).
SESSION_ID_VARS = ("WAVE_SESSION_ID", "CLAUDE_CODE_SESSION_ID")
ENTRYPOINT_VARS = ("WAVE_ENTRYPOINT", "CLAUDE_CODE_ENTRYPOINT")
EFFORT_VARS = ("WAVE_EFFORT", "CLAUDE_EFFORT")
ENV_FILE_VARS = ("WAVE_ENV_FILE", "CLAUDE_ENV_FILE")
PLUGIN_VARS = ("WAVE_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT", "WAVE_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA")


# What a session lends `mcp_tool` hooks: call `tool` of the MCP server `server` with these
# arguments; (True, the result's text) or (False, why there is none: an error result, a server
# that is not connected). None in a HookContext: no MCP client (outside a session).
McpToolCaller = Callable[[str, str, dict[str, Any]], Awaitable[tuple[bool, str]]]


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
    mcp: McpToolCaller | None = None  # the session's MCP client, for `mcp_tool` hooks
    models: "HookModels | None" = None  # what prompt and agent hooks ask (the session's model)
    live: "LiveHooks | None" = None  # where a hook that runs a while is shown (and cancelled)

    def spawn_dir(self) -> Path:
        if self.project_dir is None or os.path.isdir(self._cwd_text):  # (each hook asks)
            return self.cwd
        return self.project_dir

    @cached_property
    def _cwd_text(self) -> str:
        return str(self.cwd)

    @cached_property
    def _envs(self) -> dict[tuple[bool, Path | None], MappingProxyType[str, str]]:
        return {}

    @cached_property
    def _base_env(self) -> dict[str, str]:
        # Copying os.environ decodes every entry: do it once per context, not once per hook.
        env = dict(environment.inherited() if self.base_env is None else self.base_env)
        for name in PLUGIN_VARS:  # only a plugin's own hooks get these (wavehost run by one…)
            env.pop(name, None)
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

    def env_for(self, handler: HookHandler, *, claude: bool = False) -> Mapping[str, str]:
        """The hook's environment: read-only, one per context and plugin, shared by their hooks
        (so `plumbing.spawn` converts it once)."""
        key = (claude, handler.plugin_root)
        shared = self._envs.get(key)
        if shared is None:
            env = dict(self._claude_env if claude else self._base_env)
            if handler.plugin_root is not None:
                env["WAVE_PLUGIN_ROOT"] = env["CLAUDE_PLUGIN_ROOT"] = str(handler.plugin_root)
                data = paths.plugin_data_dir(handler.plugin_root)
                try:  # made on first use, as Claude Code does; a hook may rely on it existing
                    data.mkdir(mode=0o700, parents=True, exist_ok=True)
                except OSError as err:
                    log.warning("cannot create the plugin data folder %s: %s", data, err)
                env["WAVE_PLUGIN_DATA"] = env["CLAUDE_PLUGIN_DATA"] = str(data)
            shared = self._envs[key] = MappingProxyType(env)
        return shared

    @property
    def root(self) -> Path:
        """The session root: what relative hook `cwd`s resolve against."""
        return self.project_dir if self.project_dir is not None else self.spawn_dir()


def wave_launch(handler: HookHandler, context: HookContext) -> Launch:
    """The Wave (Claude Code) way: `sh -c <command>` where the agent is, 600 s by default; in
    exec form (`args`) the program itself, its placeholders filled in."""
    env = context.env_for(handler, claude=True)
    timeout = handler.timeout or DEFAULT_TIMEOUT
    if handler.argv is not None:
        argv = tuple(filled(arg, env) for arg in handler.argv)
    elif handler.shell == "powershell":
        pwsh = powershell_on(env.get("PATH"))
        if pwsh is None:
            error = (
                f"Hook \"{handler.command}\" has shell: 'powershell' but no PowerShell executable "
                "(pwsh or powershell) was found on PATH. Install PowerShell, or remove "
                '"shell": "powershell" to use sh.'
            )
            return Launch((), context.spawn_dir(), env, timeout, error=error)
        argv = (pwsh, "-NoProfile", "-NonInteractive", "-Command", handler.command)
    else:
        argv = (SHELL, "-c", handler.command)
    return Launch(argv, context.spawn_dir(), env, timeout)


@functools.lru_cache(maxsize=8)
def powershell_on(path: str | None) -> str | None:
    """PowerShell as Claude Code finds it: `pwsh`, else `powershell`, on the hook's PATH."""
    return shutil.which("pwsh", path=path) or shutil.which("powershell", path=path)


# The path placeholders (and their Wave twins) exec form fills in, from the hook's environment.
PLACEHOLDER = re.compile(r"\$\{((?:CLAUDE|WAVE)_(?:PROJECT_DIR|PLUGIN_ROOT|PLUGIN_DATA))\}")


def filled(text: str, env: Mapping[str, str]) -> str:
    """`text` with each `${NAME}` of `PLACEHOLDER` the environment has replaced by its value as a
    plain string, as Claude Code does in exec form: no shell is there to expand it (nor to split
    a path with a space in it). One pass: a value is never read again for placeholders. Any
    other `$` stays as written."""
    if "${" not in text:
        return text
    return PLACEHOLDER.sub(lambda found: env.get(found[1], found[0]), text)


class StartedHook:
    """A hook whose process is running (or that could not start): `result()` awaits its run.

    Starting every matching hook first and then awaiting each result in turn runs them all at
    once without a task per hook (`plumbing.children.Running` serves each by callbacks)."""

    def __init__(
        self,
        handler: HookHandler,
        stdin: bytes,
        context: HookContext,
        *,
        output_cap: int = OUTPUT_CAP,
        launch: Launch | None = None,
    ) -> None:
        launch = launch or wave_launch(handler, context)
        self.handler = handler
        self.timeout = launch.timeout
        self.started = time.monotonic()
        self.running: Running | None = None
        self.spawn_error: str | None = launch.error
        if launch.error is not None:
            return
        try:
            child = Child.spawn(
                launch.argv, cwd=launch.cwd, env=launch.env, new_session=launch.new_session
            )
        except OSError as err:
            self.spawn_error = f"could not start hook: {err.strerror or err}"
            return
        except ValueError as err:  # a NUL byte in its command or environment: C cannot carry it
            self.spawn_error = f"could not start hook: {err}"
            return
        self.running = Running(child, stdin, self.timeout, min(output_cap, launch.output_cap))
        self._live = context.live
        if self._live is not None:  # shown once it has run a while (most are over before)
            self.running.watcher = self._running_a_while

    def _running_a_while(self, running: Running) -> None:
        assert self._live is not None
        self._live.started(self.handler, running, self.started)

    async def result(self) -> HookRun:
        """Its run, once over. Cancelling the caller kills the hook's group."""
        handler, running = self.handler, self.running
        if running is None:
            elapsed = (time.monotonic() - self.started) * 1000
            return HookRun(
                handler, None, "", "", elapsed, self.timeout, spawn_error=self.spawn_error
            )
        done = await running.finished()
        ended = running.ended_at if running.ended_at is not None else time.monotonic()
        run = HookRun(
            handler,
            done.returncode,
            done.stdout,
            done.stderr,
            (ended - self.started) * 1000,
            self.timeout,
            timed_out=done.timed_out,
            truncated=done.truncated,
            cancelled=done.cancelled,
        )
        log.debug("hook %s exited %s in %.0f ms", handler.command, run.exit_code, run.duration_ms)
        return run

    @staticmethod
    async def all_over(started: Iterable["StartedHook"]) -> None:
        """Return once every one has ended (their `result()`s are then at hand)."""
        await Running.all_over(one.running for one in started if one.running is not None)

    async def stop(self) -> None:
        """Kill it unless it is over (safe when cancelled); its result is not wanted."""
        if self.running is not None:
            await self.running.stop()


async def run_hook(
    handler: HookHandler,
    stdin: bytes,
    context: HookContext,
    *,
    output_cap: int = OUTPUT_CAP,
    launch: Launch | None = None,
) -> HookRun:
    """Run one hook to completion (or timeout). Cancelling the caller kills the hook's group."""
    return await StartedHook(handler, stdin, context, output_cap=output_cap, launch=launch).result()
