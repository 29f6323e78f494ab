"""The hook engine: matches an event against the configuration and runs what matched.

Matching is indexed per event (exact names in a dict, regexes in a list, match-alls apart) and
memoised per queried name, so an event with no matching hook costs a dictionary lookup.
"""

import functools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import anyio

from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import HookConfig, HookHandler
from wavehost.hooks.observe import RunObserver
from wavehost.hooks.outcome import Outcome, interpret, subject_of, system_reminder
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext, HookRun, run_hook
from wavehost.plumbing.task_group import OwnedTaskGroup

log = logging.getLogger(__name__)

_CACHE_LIMIT = 512
_EMPTY = {event: Outcome(event=event.name) for event in Event}


@dataclass
class _EventIndex:
    uses_matcher: bool
    everything: list[tuple[int, HookHandler]] = field(default_factory=list)
    always: list[tuple[int, HookHandler]] = field(default_factory=list)
    by_name: dict[str, list[tuple[int, HookHandler]]] = field(default_factory=dict)
    patterns: list[tuple[int, HookHandler]] = field(default_factory=list)
    cache: dict[str | None, tuple[HookHandler, ...]] = field(default_factory=dict)

    def add(self, order: int, handler: HookHandler) -> None:
        entry = (order, handler)
        self.everything.append(entry)
        matcher = handler.matcher
        if matcher.names is not None:
            for name in matcher.names:
                self.by_name.setdefault(name, []).append(entry)
        elif matcher.pattern is not None:
            self.patterns.append(entry)
        else:
            self.always.append(entry)

    def lookup(self, subject: str | None) -> tuple[HookHandler, ...]:
        key = subject if self.uses_matcher else None
        found = self.cache.get(key)
        if found is None:
            found = self._compute(key)
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()
            self.cache[key] = found
        return found

    def _compute(self, subject: str | None) -> tuple[HookHandler, ...]:
        if subject is None:
            entries = self.everything if not self.uses_matcher else self.always
        else:
            entries = sorted(
                self.always
                + self.by_name.get(subject, [])
                + [e for e in self.patterns if e[1].matcher.matches(subject)],
                key=lambda e: e[0],
            )
        return _dedupe(handler for _, handler in entries)


def dedupe_key(handler: HookHandler) -> tuple[str, str | None]:
    """What makes two hooks of one event "the same": they run once (the first in order)."""
    return (handler.command, str(handler.plugin_root) if handler.plugin_root else None)


def _dedupe(handlers: Iterable[HookHandler]) -> tuple[HookHandler, ...]:
    """The same command for the same event from several sources runs once (first wins)."""
    seen: set[tuple[str, str | None]] = set()
    kept: list[HookHandler] = []
    for handler in handlers:
        key = dedupe_key(handler)
        if key not in seen:
            seen.add(key)
            kept.append(handler)
    return tuple(kept)


@dataclass(frozen=True)
class Rewake:
    """An asyncRewake hook exited 2: its text wakes the session that started it."""

    session_id: str
    event: str
    command: str
    text: str

    @property
    def reminder(self) -> str:
        return system_reminder(self.text)


class BackgroundHooks(OwnedTaskGroup):
    """Runs one owner's `async` / `asyncRewake` hooks in the background.

    Leaving the context waits for hooks still running; `cancel_all` (a user interrupt, the
    session's end) kills them and delivers nothing.
    """

    def __init__(self, on_rewake: Callable[[Rewake], None]) -> None:
        super().__init__()
        self._on_rewake = on_rewake
        self._scopes: set[anyio.CancelScope] = set()

    def start(
        self,
        handler: HookHandler,
        stdin: bytes,
        context: HookContext,
        session_id: str,
        report: Callable[[HookRun], object] | None = None,
    ) -> None:
        """Run `handler` in the background; `report` gets its result unless it is cancelled."""
        self.start_soon(self._run, handler, stdin, context, session_id, report)

    def cancel_all(self) -> None:
        for scope in list(self._scopes):
            scope.cancel()

    async def _run(
        self,
        handler: HookHandler,
        stdin: bytes,
        context: HookContext,
        session_id: str,
        report: Callable[[HookRun], object] | None,
    ) -> None:
        with anyio.CancelScope() as scope:
            self._scopes.add(scope)
            try:
                run = await run_hook(handler, stdin, context)
            finally:
                self._scopes.discard(scope)
        if scope.cancel_called:
            log.info("background hook cancelled: %s", handler.command)
            return
        if report is not None:
            report(run)
        log.info(
            "background %s hook %r exited %s%s\nstdout: %s\nstderr: %s",
            handler.event.name,
            handler.command,
            run.exit_code,
            " (timed out)"
            if run.timed_out
            else (run.spawn_error and f" ({run.spawn_error})") or "",
            run.stdout,
            run.stderr,
        )
        if handler.async_rewake and run.exit_code == 2 and not run.timed_out:
            text = run.stderr.strip() or run.stdout.strip()
            text = text or f'{handler.event.name} hook "{handler.command}" exited with code 2'
            self._on_rewake(Rewake(session_id, handler.event.name, handler.command, text))


class HookEngine:
    """Matches events against one loaded configuration and runs the hooks that match."""

    def __init__(self, config: HookConfig, observer: RunObserver | None = None) -> None:
        self.config = config
        self.observer = observer  # told of every event and every run (the run log)
        self._index = {event: _EventIndex(event.spec.matcher_field is not None) for event in Event}
        for order, handler in enumerate(config.runnable()):
            self._index[handler.event].add(order, handler)

    def has_hooks(self, event: Event) -> bool:
        return bool(self._index[event].everything)

    def matching(self, event: Event, subject: str | None = None) -> tuple[HookHandler, ...]:
        return self._index[event].lookup(subject)

    async def dispatch(
        self, payload: HookInput, context: HookContext, background: BackgroundHooks
    ) -> Outcome:
        """Run every hook matching this event: foreground ones together, then interpret them."""
        event = event_of(payload)
        observer = self.observer
        if observer is not None:
            observer.event(payload)
        handlers = self._index[event].lookup(subject_of(payload))
        if not handlers:
            return _EMPTY[event]
        stdin = payload.to_stdin()
        report = functools.partial(observer.ran, payload) if observer is not None else None
        foreground: list[HookHandler] = []
        for handler in handlers:
            if handler.in_background:
                background.start(handler, stdin, context, payload.session_id, report)
            else:
                foreground.append(handler)
        runs = await run_all(foreground, stdin, context)
        if report is not None:
            for run in runs:
                report(run)
        return interpret(payload, runs)


async def run_all(
    handlers: Sequence[HookHandler], stdin: bytes, context: HookContext
) -> list[HookRun]:
    """Run hooks concurrently; results keep config order."""
    results: list[HookRun | None] = [None] * len(handlers)

    async def one(index: int, handler: HookHandler) -> None:
        results[index] = await run_hook(handler, stdin, context)

    async with anyio.create_task_group() as group:
        for index, handler in enumerate(handlers):
            group.start_soon(one, index, handler)
    return [run for run in results if run is not None]
