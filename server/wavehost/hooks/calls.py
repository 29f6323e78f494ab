"""Hooks that run without a process of ours: Claude Code's `http`, `prompt`, `agent` and
`mcp_tool` handler types.

A dialect hands the engine a `Call` for such a hook (`Dialect.call`): a coroutine that does the
work (a POST, a model call, a subagent, an MCP call) and reports it as a `HookRun`, the same raw
result a process gives, so `interpret` reads every handler type the same way. `StartedCall` runs
it bounded by the hook's timeout; several run side by side with the hooks' processes.
"""

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import anyio

from wavehost.hooks.config import HookHandler
from wavehost.hooks.runner import HookRun


@dataclass(frozen=True, slots=True)
class Call:
    """What to run for one hook that starts no process, and for how long at most (seconds)."""

    run: Callable[[], Awaitable[HookRun]]
    timeout: float


def failed(handler: HookHandler, error: str, timeout: float = 0.0) -> HookRun:
    """A run that produced no answer: a non-blocking error with this text."""
    return HookRun(handler, None, "", "", 0.0, timeout, spawn_error=error)


def answered(
    handler: HookHandler, exit_code: int, stdout: str = "", stderr: str = "", timeout: float = 0.0
) -> HookRun:
    """A run that answered as a command hook would have: its exit code and outputs."""
    return HookRun(handler, exit_code, stdout, stderr, 0.0, timeout)


class StartedCall:
    """One `Call` for one hook: `run()` does it (once), `result()` is its run. Over its timeout it
    is cancelled and reports `timed_out`, as a process past its time would."""

    def __init__(self, handler: HookHandler, call: Call) -> None:
        self.handler = handler
        self.call = call
        self._run: HookRun | None = None

    async def run(self) -> None:
        if self._run is not None:
            return
        started = time.monotonic()
        timeout = self.call.timeout
        run: HookRun | None = None
        with anyio.move_on_after(timeout):
            run = await self.call.run()
        elapsed = (time.monotonic() - started) * 1000
        if run is None:
            run = HookRun(self.handler, None, "", "", elapsed, timeout, timed_out=True)
        self._run = replace(run, handler=self.handler, duration_ms=elapsed, timeout=timeout)

    async def result(self) -> HookRun:
        await self.run()
        assert self._run is not None
        return self._run
