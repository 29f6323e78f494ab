"""The hooks of a session that are running now, as a page watches them: each one's last stderr
lines as they come, and a way to cancel it.

A hook joins once it has run long enough to have its pipes watched
(`plumbing.children.WATCH_PIPES_AFTER`): most hooks are over before, and cost nothing here. From
then on its stderr is tapped as it is read (`Capture.tap`); the hook's result keeps its output
as it always did (bounded by the output cap). What is shown is bounded apart: the last
`LINES` complete lines, each cut at `LINE_CHARS` characters, the line still being written (at
most `PENDING_BYTES` of it), and how many lines came before those. A chunk is counted in C
(`bytes.count`) and only its last lines are decoded, so a hook printing 100,000 lines costs a
pass over its bytes, not a string per line.

Whoever shows them is told at most every `INTERVAL` seconds (`on_change`), however fast the
output comes; a hook that joins and ends between two tells is never told of at all. A hook that
ends, or is cancelled, is told at once. `cancel(id)` stops a hook's process tree as its timeout
would (`Running.cancel`): its run reads as `cancelled`, which every dialect interprets as it
does a timeout (docs/hooks.md, "Cancelling a running hook").
"""

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from wavehost.hooks.config import HookHandler
from wavehost.plumbing.children import Running

LINES = 20  # complete stderr lines shown per hook
LINE_CHARS = 300  # characters of one line shown
PENDING_BYTES = 4096  # bytes kept of a line still being written
SHOWN = 8  # hooks listed at most (the others are counted)
INTERVAL = 0.25  # seconds between two tells of new output


@dataclass(frozen=True, slots=True)
class LiveView:
    """One running hook as a page shows it."""

    id: str
    handler: HookHandler
    elapsed_ms: int
    lines: tuple[str, ...]  # its last stderr lines, oldest first (the one being written last)
    more_lines: int  # lines it printed before those
    cancelling: bool  # the user cancelled it; it is being stopped


def _line(raw: bytes) -> str:
    text = raw[: LINE_CHARS * 4].decode("utf-8", errors="replace").rstrip("\r")
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS] + "…"


class LiveHook:
    """A hook that is running: its last stderr lines, counted and bounded."""

    __slots__ = (
        "_pending", "cancelling", "handler", "id", "lines", "running", "seen", "started", "told",
    )  # fmt: skip

    def __init__(self, hook_id: str, handler: HookHandler, running: Running, started: float):
        self.id = hook_id
        self.handler = handler
        self.running = running
        self.started = started  # time.monotonic()
        self.lines: deque[str] = deque(maxlen=LINES)
        self.seen = 0  # complete lines so far
        self._pending = b""  # the line being written (bounded)
        self.cancelling = False
        self.told = False  # a page has been told of it

    def feed(self, chunk: bytes) -> None:
        newlines = chunk.count(b"\n")
        if not newlines:
            if len(self._pending) < PENDING_BYTES:
                self._pending = (self._pending + chunk)[:PENDING_BYTES]
            return
        self.seen += newlines
        if newlines > LINES:  # only its last lines are split off; the others are only counted
            parts = chunk.rsplit(b"\n", LINES + 1)
            lines = parts[1:-1]
        else:
            parts = chunk.split(b"\n")
            parts[0] = self._pending + parts[0]
            lines = parts[:-1]
        self._pending = parts[-1][:PENDING_BYTES]
        self.lines.extend(_line(raw) for raw in lines)

    def view(self, now: float) -> LiveView:
        lines = tuple(self.lines)
        if self._pending:
            lines += (_line(self._pending),)
        return LiveView(
            self.id,
            self.handler,
            round((now - self.started) * 1000),
            lines,
            self.seen - len(self.lines),
            self.cancelling,
        )


class LiveHooks:
    """One session's running hooks, by id; `on_change` is told when what `views()` says changed
    (throttled: see the module)."""

    def __init__(self, on_change: Callable[[], None], interval: float = INTERVAL) -> None:
        self._on_change = on_change
        self._interval = interval
        self._hooks: dict[str, LiveHook] = {}
        self._ids = itertools.count(1)
        self._timer: asyncio.Handle | None = None
        self._last = -interval  # when it last told (the loop's clock)
        self._gone = False  # a hook it told of has ended since

    def started(self, handler: HookHandler, running: Running, started: float) -> None:
        """A hook has run a while: show it (its stderr from its start: the pipe held it). It is
        first told of `interval` from now, so a hook over by then is never shown."""
        hook = LiveHook(f"hook-{next(self._ids)}", handler, running, started)
        self._hooks[hook.id] = hook

        def feed(chunk: bytes) -> None:
            hook.feed(chunk)
            self._changed()

        running.err.tap = feed
        running.on_end(lambda: self._ended(hook))
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self._interval, self._tell)

    def _ended(self, hook: LiveHook) -> None:
        hook.running.err.tap = None
        if self._hooks.pop(hook.id, None) is not None and hook.told:
            self._gone = True
            self._changed(at_once=True)

    def cancel(self, hook_id: str) -> bool:
        """Stop the hook `hook_id` as its timeout would; False: no such hook is running (it
        ended, or is being stopped already)."""
        hook = self._hooks.get(hook_id)
        if hook is None or not hook.running.cancel():
            return False
        hook.cancelling = True
        self._changed(at_once=True)
        return True

    def views(self) -> tuple[tuple[LiveView, ...], int]:
        """The hooks running now, oldest first (at most `SHOWN`), and how many more there are."""
        now = time.monotonic()
        shown = tuple(hook.view(now) for hook in itertools.islice(self._hooks.values(), SHOWN))
        return shown, max(len(self._hooks) - SHOWN, 0)

    def _changed(self, *, at_once: bool = False) -> None:
        loop = asyncio.get_running_loop()
        if self._timer is not None:
            if not at_once:
                return  # it goes out with what is scheduled
            self._timer.cancel()
        wait = 0.0 if at_once else self._last + self._interval - loop.time()
        self._timer = loop.call_soon(self._tell) if wait <= 0 else loop.call_later(wait, self._tell)

    def _tell(self) -> None:
        self._timer = None
        if not self._hooks and not self._gone:
            return  # they joined and ended between two tells: nothing to say
        self._gone = False
        self._last = asyncio.get_running_loop().time()
        for hook in self._hooks.values():
            hook.told = True
        self._on_change()
