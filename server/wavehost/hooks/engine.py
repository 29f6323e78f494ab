"""The hook engine: matches an event against the configuration and runs what matched.

Matching is indexed per event (exact names in a dict, other static matchers in a list, match-alls
apart) and memoised per queried subject, so an event with no matching hook costs a dictionary
lookup; hooks whose matcher or condition needs the whole payload are checked on each dispatch.
Any lookup that has a matcher to test runs in a worker thread, within `patterns.LOOKUP_WAIT`
(`hooks.patterns` bounds each matcher): never on the event loop. One cut short by that deadline
is not memoised.
Each dialect's matching hooks run as that dialect runs them (Wave's together, Copilot's and
Snow's one after another); the dialects themselves run side by side, and their outcomes merge in
the documented order: Wave, Copilot, Snow.
"""

import functools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import anyio
from anyio import to_thread

from wavehost.hooks import patterns
from wavehost.hooks.calls import StartedCall
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import HookConfig, HookHandler
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.dialects.base import Dialect
from wavehost.hooks.observe import RunObserver
from wavehost.hooks.outcome import Outcome, merge, subject_of, system_reminder
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext, HookRun, StartedHook, run_hook
from wavehost.plumbing.task_group import OwnedTaskGroup

log = logging.getLogger(__name__)

_CACHE_LIMIT = 512
_EMPTY = {event: Outcome(event=event.name) for event in Event}

Entry = tuple[int, HookHandler]


@dataclass
class _EventIndex:
    uses_matcher: bool
    everything: list[Entry] = field(default_factory=list)
    always: list[Entry] = field(default_factory=list)
    by_name: dict[str, list[Entry]] = field(default_factory=dict)
    by_key: dict[str, list[Entry]] = field(default_factory=dict)  # case-folded, then confirmed
    patterns: list[Entry] = field(default_factory=list)
    dynamic: list[Entry] = field(default_factory=list)  # matchers that need the whole payload
    # per subject: the entries its matchers select, and whether any has a condition to check;
    # without one (and with no payload matcher), the handlers to run, deduplicated once
    cache: dict[str | None, tuple[tuple[Entry, ...], bool, tuple[HookHandler, ...]]] = field(
        default_factory=dict
    )

    def add(self, order: int, handler: HookHandler) -> None:
        entry = (order, handler)
        self.everything.append(entry)
        matcher = handler.matcher
        if matcher.dynamic:
            self.dynamic.append(entry)
        elif not self.uses_matcher or matcher.matches_all:
            self.always.append(entry)  # matchers mean nothing on an event without a subject
        elif matcher.names is not None:
            for name in matcher.names:
                self.by_name.setdefault(name, []).append(entry)
        elif matcher.keys is not None:
            for key in matcher.keys:
                self.by_key.setdefault(key, []).append(entry)
        else:
            self.patterns.append(entry)

    def ready(self, subject: str | None) -> bool:
        """Whether `lookup` has no matcher (nor `if` rule) to test: then it is dictionary work
        and a few flags."""
        if self.dynamic:
            return False
        cached = self.cache.get(subject if self.uses_matcher else None)
        return cached is not None and not (cached[1] and any(e[1].if_rule for e in cached[0]))

    def lookup(
        self, subject: str | None, payload: HookInput | None = None
    ) -> tuple[HookHandler, ...]:
        key = subject if self.uses_matcher else None
        cached = self.cache.get(key)
        if cached is None:
            cached = self._compute(key)
        found, conditional, handlers = cached
        if conditional or self.dynamic:
            return _dedupe(handler for _, handler in self._decide(found, key, payload))
        return handlers

    def _compute(
        self, subject: str | None
    ) -> tuple[tuple[Entry, ...], bool, tuple[HookHandler, ...]]:
        """What the matchers select for `subject`, memoised unless the deadline cut it short."""
        with patterns.deadline() as limit:
            if subject is None:
                entries = self.always
            else:
                candidates = self.patterns + self.by_key.get(subject.casefold(), [])
                entries = (
                    self.always
                    + self.by_name.get(subject, [])
                    + [e for e in candidates if e[1].matcher.matches(subject)]
                )
        ordered = tuple(sorted(entries, key=lambda e: e[0]))
        conditional = any(e[1].condition is not None for e in ordered)
        computed = ordered, conditional, _dedupe(handler for _, handler in ordered)
        if not limit.cut:
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()
            self.cache[subject] = computed
        return computed

    def _decide(
        self, found: tuple[Entry, ...], subject: str | None, payload: HookInput | None
    ) -> tuple[Entry, ...]:
        """Conditions and payload matchers, on this payload (without one, they say no)."""
        kept = [e for e in found if _condition_holds(e[1], payload)]
        with patterns.deadline():
            extra = [
                e
                for e in self.dynamic
                if _condition_holds(e[1], payload)
                and payload is not None
                and e[1].matcher.matches_payload(subject, payload)
            ]
        if extra:
            return tuple(sorted((*kept, *extra), key=lambda e: e[0]))
        return tuple(kept)


def _condition_holds(handler: HookHandler, payload: HookInput | None) -> bool:
    if handler.condition is None:
        return True
    return payload is not None and handler.condition(payload)


DedupeKey = tuple[str, tuple[str, ...], str | None, str | None]


def dedupe_key(handler: HookHandler) -> DedupeKey:
    """What makes two hooks of one event "the same": they run once (the first in order). As in
    Claude Code: a command's text, exec form's argument list (`python3 x.py` in a shell is not
    `python3` with `["x.py"]`) and its shell; what a type that runs no process says is its own
    (an http hook's URL, a prompt hook's prompt); then the `if` rule and the plugin."""
    root = str(handler.plugin_root) if handler.plugin_root else None
    if handler.spec is not None:
        identity = handler.spec.identity()
    else:
        argv = () if handler.argv is None else ("\0exec", *handler.argv)
        identity = (handler.command, handler.shell or "", *argv)
    return (handler.kind, identity, handler.if_rule, root)


def _dedupe(handlers: Iterable[HookHandler]) -> tuple[HookHandler, ...]:
    """The same Wave command for the same event from several sources runs once (first wins).
    Other dialects run what their files say, duplicates included."""
    seen: set[DedupeKey] = set()
    kept: list[HookHandler] = []
    for handler in handlers:
        if handler.dialect != "wave":
            kept.append(handler)
            continue
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
    session's end) kills them and delivers nothing. `settled()` waits until none is left (each
    is bounded by its own timeout): a one-shot run waits so before it ends.
    """

    def __init__(self, on_rewake: Callable[[Rewake], None]) -> None:
        super().__init__()
        self._on_rewake = on_rewake
        self._scopes: set[anyio.CancelScope] = set()
        self._pending = 0
        self._none_left: anyio.Event | None = None  # while some are pending

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
        self._pending += 1  # counted now: `settled()` right after this must wait for it

    async def settled(self) -> None:
        """Return once no background hook is running or about to (wake-ups already delivered)."""
        while self._pending:
            if self._none_left is None:
                self._none_left = anyio.Event()
            await self._none_left.wait()

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
        try:
            await self._run_one(handler, stdin, context, session_id, report)
        finally:
            self._pending -= 1
            if not self._pending and self._none_left is not None:
                self._none_left.set()
                self._none_left = None

    async def _run_one(
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
            else " (cancelled)"
            if run.cancelled
            else (run.spawn_error and f" ({run.spawn_error})") or "",
            run.stdout,
            run.stderr,
        )
        if handler.async_rewake and run.exit_code == 2 and not run.stopped:
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

    def nothing(self, event: Event) -> Outcome:
        """The outcome of an event no hook is configured for."""
        return _EMPTY[event]

    def has_hooks(self, event: Event, dialect: DialectName | None = None) -> bool:
        entries = self._index[event].everything
        if dialect is None:
            return bool(entries)
        return any(h.dialect == dialect for _, h in entries)

    def matching(
        self, event: Event, subject: str | None = None, payload: HookInput | None = None
    ) -> tuple[HookHandler, ...]:
        """The hooks to run, decided in this thread (blocking: for threads and the CLI)."""
        return self._index[event].lookup(subject, payload)

    async def select(
        self, event: Event, subject: str | None = None, payload: HookInput | None = None
    ) -> tuple[HookHandler, ...]:
        """The hooks to run; any matcher to test is tested in a worker thread."""
        index = self._index[event]
        if index.ready(subject):
            return index.lookup(subject, payload)
        return await to_thread.run_sync(index.lookup, subject, payload)

    def selected(self, event: Event, subject: str | None) -> tuple[HookHandler, ...]:
        """What the matchers and deduplication choose for `subject`, before any condition on the
        payload (PostToolUse "only after a tool that ran", …): the question the explainer asks of
        a past event, "does my matcher take this tool?"."""
        index = self._index[event]
        return index._compute(subject if index.uses_matcher else None)[2]

    async def dispatch(
        self,
        payload: HookInput,
        context: HookContext,
        background: BackgroundHooks,
        handlers: tuple[HookHandler, ...] | None = None,
    ) -> Outcome:
        """Run every hook matching this event (`handlers`, when the caller selected them
        already), each dialect its way, and interpret them."""
        event = event_of(payload)
        observer = self.observer
        runs: list[HookRun] = []
        outcome = _EMPTY[event]
        try:
            if handlers is None:  # `select`, inlined: this is every dispatch's path
                index, subject = self._index[event], subject_of(payload)
                if index.ready(subject):
                    handlers = index.lookup(subject, payload)
                else:
                    handlers = await to_thread.run_sync(index.lookup, subject, payload)
            if handlers:
                outcome = await self._run(handlers, payload, context, background, runs)
        finally:  # the run log: the event, and every run (foreground and chained), in one write
            if observer is not None:
                observer.dispatched(payload, runs, outcome)
        return outcome

    async def dispatch_apart(
        self,
        payload: HookInput,
        context: HookContext,
        background: BackgroundHooks,
        handlers: tuple[HookHandler, ...] | None = None,
        *,
        only: DialectName | None = None,
        given: Mapping[DialectName, Outcome] | None = None,
    ) -> Outcome:
        """`dispatch` with one dialect's hooks alone (`only`), or without the dialects whose
        outcome for this event is already known (`given`: their hooks ran earlier, or are held
        back), which is merged in their place. Kept apart, so `dispatch` stays as lean as it is."""
        known = given or {}
        if handlers is None:
            handlers = await self.select(event_of(payload), subject_of(payload), payload)
        handlers = tuple(
            h for h in handlers if h.dialect not in known and only in (None, h.dialect)
        )
        runs: list[HookRun] = []
        outcome = _EMPTY[event_of(payload)]
        try:
            if handlers or known:
                outcome = await self._run(handlers, payload, context, background, runs, known)
        finally:
            if self.observer is not None:
                self.observer.dispatched(payload, runs, outcome)
        return outcome

    async def _run(
        self,
        handlers: Sequence[HookHandler],
        payload: HookInput,
        context: HookContext,
        background: BackgroundHooks,
        runs: list[HookRun],
        given: Mapping[DialectName, Outcome] | None = None,
    ) -> Outcome:
        """Each dialect's hooks its way; their runs go into `runs` as they end."""
        report = None if self.observer is None else functools.partial(self.observer.ran, payload)
        groups: dict[DialectName, list[HookHandler]] = {}
        for handler in handlers:
            groups.setdefault(handler.dialect, []).append(handler)
        if len(groups) == 1 and not given:
            ((name, group),) = groups.items()
            dialect = DIALECTS[name]
            return await _run_dialect(dialect, group, payload, context, background, report, runs)
        outcomes: dict[DialectName, Outcome] = dict(given or {})

        async def one(name: DialectName, group: list[HookHandler]) -> None:
            outcomes[name] = await _run_dialect(
                DIALECTS[name], group, payload, context, background, report, runs
            )

        async with anyio.create_task_group() as tasks:
            for name, group in groups.items():
                tasks.start_soon(one, name, group)
        return merge([outcomes[name] for name in DIALECTS if name in outcomes])


async def _run_dialect(
    dialect: Dialect,
    handlers: Sequence[HookHandler],
    payload: HookInput,
    context: HookContext,
    background: BackgroundHooks,
    report: Callable[[HookRun], object] | None,
    ran: list[HookRun],
) -> Outcome:
    """`report`: told of each background run; `ran`: where the foreground runs go too."""
    if dialect.concurrent:
        stdin = dialect.stdin(handlers[0], payload)
        foreground: list[HookHandler] = []
        for handler in handlers:
            if handler.in_background:
                background.start(handler, stdin, context, payload.session_id, report)
            else:
                foreground.append(handler)
        runs = await run_all(foreground, stdin, context, dialect, payload)
    else:
        runs = await run_chain(handlers, payload, context, dialect)
    ran.extend(runs)
    outcome = dialect.interpret(payload, runs)
    dialect.after(payload, outcome, context)
    return outcome


Started = StartedHook | StartedCall | HookRun


def start_one(
    handler: HookHandler, stdin: bytes, context: HookContext, dialect: Dialect, payload: HookInput
) -> Started:
    """Start the hook's process; or its call, when its type runs none (an http or prompt hook:
    started by `run_all`, or at once by its `result()`); or its run, when its dialect needs
    neither (Snow's context)."""
    done = dialect.immediate(handler, payload)
    if done is not None:
        return done
    call = dialect.call(handler, payload, stdin, context)
    if call is not None:
        return StartedCall(handler, call)
    launch = dialect.launch(handler, payload, context)
    return StartedHook(handler, stdin, context, launch=launch)


async def run_one(
    handler: HookHandler, stdin: bytes, context: HookContext, dialect: Dialect, payload: HookInput
) -> HookRun:
    started = start_one(handler, stdin, context, dialect, payload)
    return started if isinstance(started, HookRun) else await started.result()


async def run_chain(
    handlers: Sequence[HookHandler], payload: HookInput, context: HookContext, dialect: Dialect
) -> list[HookRun]:
    """One after another; each sees the payload `advance` made of the one before, and the chain
    ends early when `advance` says so."""
    runs: list[HookRun] = []
    current: HookInput | None = payload
    for handler in handlers:
        if current is None:
            break
        run = await run_one(handler, dialect.stdin(handler, current), context, dialect, current)
        runs.append(run)
        current = dialect.advance(current, run)
    return runs


async def run_all(
    handlers: Sequence[HookHandler],
    stdin: bytes,
    context: HookContext,
    dialect: Dialect | None = None,
    payload: HookInput | None = None,
) -> list[HookRun]:
    """Run hooks concurrently; results keep config order. Every process starts first, then each
    result is awaited in turn (they all run meanwhile); hooks that run no process make their
    calls side by side meanwhile. Cancelling kills (and cancels) every one."""
    started: list[Started] = [
        StartedHook(handler, stdin, context)
        if dialect is None or payload is None
        else start_one(handler, stdin, context, dialect, payload)
        for handler in handlers
    ]
    processes = [one for one in started if isinstance(one, StartedHook)]
    try:
        calls = [one for one in started if isinstance(one, StartedCall)]
        if calls:
            async with anyio.create_task_group() as tasks:
                for call in calls:
                    tasks.start_soon(call.run)
                await StartedHook.all_over(processes)
        else:
            await StartedHook.all_over(processes)
        return [one if isinstance(one, HookRun) else await one.result() for one in started]
    finally:
        for process in processes:
            await process.stop()
