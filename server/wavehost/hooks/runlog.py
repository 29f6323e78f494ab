"""The hook run log: what each hook did when it last ran, and which events happened, per project.

It is what observes the engine (`hooks.observe.RunObserver`: every session's engine and "Test
this hook" tell it each dispatch); the settings page reads it (a hook's history, "Why didn't my
hook fire?").

One JSON-lines file per project in the user's folder (`paths.run_log`), appended to by every
server and CLI run of that project. Bounded everywhere: a record keeps the first lines of the
hook's output; the file is compacted (per hook the newest `per_hook` runs, per event the newest
`per_event` events) once it grows past `max_bytes`; reading looks only at its last `max_bytes`.
A damaged line is skipped. Writing never fails a session: a file that cannot be written is
logged and the run goes unrecorded. Runs are recorded under their hook's identity (its file and
content, not its position: deleting another hook leaves its history where it is), each with the
id of the input it received, kept beside the log (`run_inputs`) so it can be run again.

Written on every tool call, so cheaply: an event and the runs of its dispatch go in as one
appending write once it ended (`dispatched`), a line is built from the record's fields directly,
and compaction keeps the lines it keeps as they were, parsing only the lines of other writers to
know whose they are (a log remembers whose the lines it wrote are). The write and the compaction
(its fsync) happen on a disk thread (`plumbing.disk`), never on the event loop; reading waits for
the writes this process has made so far.
"""

import contextlib
import json
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

from wavehost.hooks.catalogue import event_of
from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.outcome import Outcome, subject_of
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.run_inputs import RunInputs, inputs_path
from wavehost.hooks.runner import HookRun
from wavehost.plumbing import disk
from wavehost.plumbing.atomic import write_temp
from wavehost.plumbing.locks import locked_directory

log = logging.getLogger(__name__)

Trigger = Literal["session", "test"]
OUTPUT_LINES = 20  # lines of stdout / stderr kept per run
OUTPUT_CHARS = 2000  # and at most this many characters of each
PER_HOOK = 20
PER_EVENT = 30
MAX_BYTES = 512 * 1024
APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC


def first_lines(text: str, lines: int = OUTPUT_LINES, chars: int = OUTPUT_CHARS) -> str:
    """The start of a hook's output, saying what was cut."""
    if not text:  # most runs print nothing
        return text
    kept = text.splitlines()[:lines]
    short = "\n".join(kept)[:chars]
    more = len(text.rstrip("\n")) - len(short)
    return f"{short}\n… [{more} more characters]" if more > 0 else short


@dataclass(frozen=True, slots=True)
class RunRecord:
    hook_id: str
    at: float  # seconds since the epoch
    event: str
    subject: str | None  # what the matcher was tested against (tool name, source, …)
    session_id: str | None
    trigger: Trigger
    exit_code: int | None
    duration_ms: float
    timed_out: bool
    spawn_error: str | None
    blocked: bool  # this run alone blocked what the event was about
    stdout: str
    stderr: str
    input: str | None = None  # the id of the input it received (`RunInputs`), if kept
    cancelled: bool = False  # the user stopped it (written only then: lines stay as they were)


@dataclass(frozen=True, slots=True)
class EventSeen:
    at: float
    event: str
    subject: str | None
    session_id: str


def _record_of(raw: Any) -> RunRecord | EventSeen | None:
    if not isinstance(raw, dict):
        return None
    kind = raw.pop("kind", None)
    try:
        if kind == "run":
            return RunRecord(**raw)
        if kind == "event":
            return EventSeen(**raw)
    except TypeError:
        return None
    return None


_FIELDS = {
    kind: tuple(f.name for f in fields(cls))
    for kind, cls in (("run", RunRecord), ("event", EventSeen))
}


_KEYS = {kind: frozenset(("kind", *names)) for kind, names in _FIELDS.items()}
_CANCELLED = _KEYS["run"]
_RUN_KEYS = (  # with `cancelled` (a cancelled run), without; before inputs were kept
    _CANCELLED,
    _CANCELLED - {"cancelled"},
    _CANCELLED - {"cancelled", "input"},
)
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # one encoder, not one per line


def _line(doc: dict[str, object]) -> bytes:
    return (_ENCODE(doc) + "\n").encode("utf-8")


Owner = tuple[str, str]  # ("run", hook key) or ("event", event name)


def key_of(handler: HookHandler) -> str:
    """What a hook's runs are recorded under: its identity (its id, for a hook without one)."""
    return handler.identity or handler.id


def _owner(raw_line: bytes) -> Owner | None:
    """Whose a line is — ("run", hook id) or ("event", event name) — if it is a record at all
    (the fields `_record_of` would take, no more, no fewer); without building the record."""
    try:
        raw = json.loads(raw_line)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, dict):
        return None
    kind = raw.get("kind")
    if kind == "run" and raw.keys() in _RUN_KEYS:
        return "run", str(raw["hook_id"])
    if kind == "event" and raw.keys() == _KEYS["event"]:
        return "event", str(raw["event"])
    return None


class RunLog:
    """The run log of one project; also the engine's `RunObserver` for sessions of it."""

    def __init__(
        self,
        path: Path,
        *,
        per_hook: int = PER_HOOK,
        per_event: int = PER_EVENT,
        max_bytes: int = MAX_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.per_hook = per_hook
        self.per_event = per_event
        self.max_bytes = max_bytes
        self._clock = clock
        self._lock = threading.Lock()
        self._cache: tuple[tuple[int, int] | None, list[RunRecord | EventSeen]] = (None, [])
        # Whose each line this log wrote (or kept) is, by its bytes: compaction then parses only
        # other writers' lines (parsing all took ~15 ms per compaction). Bounded: see `_remember`.
        self._owners: dict[bytes, Owner] = {}
        self._owners_bytes = 0
        self._lane = disk.lane(path)  # shared with every other log of this file in the process
        self.inputs = RunInputs(inputs_path(path))

    # -- recording (RunObserver) ------------------------------------------------------------

    def ran(
        self,
        payload: HookInput,
        run: HookRun,
        trigger: Trigger = "session",
        stdin: str | None = None,
    ) -> RunRecord:
        """One run (a background hook's, a test's): with its input (`stdin`: what a test sent
        instead of the payload's own rendering)."""
        kept = self.inputs.keep(payload, stdin)
        doc = self._run(payload, run, trigger, self._clock(), subject_of(payload), input_id=kept)
        self._append([(("run", key_of(run.handler)), _line(doc))])
        record = _record_of(dict(doc))
        assert isinstance(record, RunRecord)
        return record

    def dispatched(self, payload: HookInput, runs: Sequence[HookRun], outcome: Outcome) -> None:
        """The event, and the foreground runs of its dispatch, in one write. A run is marked
        `blocked` only when the event was (`outcome`) and the run alone would have blocked it."""
        at, subject = self._clock(), subject_of(payload)
        seen: dict[str, object] = {
            "kind": "event",
            "at": at,
            "event": payload.hook_event_name,
            "subject": subject,
            "session_id": payload.session_id,
        }
        lines: list[tuple[Owner, bytes]] = [(("event", payload.hook_event_name), _line(seen))]
        # Not blocked: no run did it. Blocked by one run: that one. Else each is worked out.
        blocked = None if outcome.blocked and len(runs) > 1 else outcome.blocked
        kept = self.inputs.keep(payload) if runs else None
        for run in runs:
            doc = self._run(payload, run, "session", at, subject, blocked, kept)
            lines.append((("run", key_of(run.handler)), _line(doc)))
        self._append(lines)

    def _run(
        self,
        payload: HookInput,
        run: HookRun,
        trigger: Trigger,
        at: float,
        subject: str | None,
        blocked: bool | None = None,
        input_id: str | None = None,
    ) -> dict[str, object]:
        """A run's line, as the fields of a `RunRecord` (and its kind), built directly: written on
        every tool call. `blocked`: None to work out whether this run alone blocks the event."""
        if blocked is None:
            blocked = DIALECTS[run.handler.dialect].interpret(payload, [run]).blocked
        line: dict[str, object] = {
            "kind": "run",
            "hook_id": key_of(run.handler),
            "at": at,
            "event": event_of(payload).name,
            "subject": subject,
            "session_id": payload.session_id if trigger == "session" else None,
            "trigger": trigger,
            "exit_code": run.exit_code,
            "duration_ms": round(run.duration_ms, 1),
            "timed_out": run.timed_out,
            "spawn_error": run.spawn_error,
            "blocked": blocked,
            "stdout": first_lines(run.stdout),
            "stderr": first_lines(run.stderr),
            "input": input_id,
        }
        if run.cancelled:
            line["cancelled"] = True
        return line

    # -- reading ----------------------------------------------------------------------------

    def history(self, *keys: str) -> list[RunRecord]:
        """The runs of one hook, newest first: recorded under its identity (`key_of`), or under
        its id (lines written before identities)."""
        runs = [r for r in self._items() if isinstance(r, RunRecord) and r.hook_id in keys]
        return runs[::-1][: self.per_hook]

    def last_runs(self) -> dict[str, RunRecord]:
        last: dict[str, RunRecord] = {}
        for item in self._items():
            if isinstance(item, RunRecord):
                last[item.hook_id] = item
        return last

    def recent_events(self, event: str, session_id: str | None = None) -> list[EventSeen]:
        """The newest dispatches of `event` (of one session, if given), newest first."""
        seen = [
            e
            for e in self._items()
            if isinstance(e, EventSeen)
            and e.event == event
            and (session_id is None or e.session_id == session_id)
        ]
        return seen[::-1][: self.per_event]

    # -- the file ---------------------------------------------------------------------------

    def _stat(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns)

    def flush(self) -> None:
        """Block until what this process recorded in the file so far is written."""
        self._lane.wait()

    def _items(self) -> list[RunRecord | EventSeen]:
        self.flush()  # what this process recorded is in the file
        with self._lock:
            state = self._stat()
            if state is not None and self._cache[0] == state:
                return self._cache[1]
            items = list(self._read()) if state is not None else []
            self._cache = (state, items)
            return items

    def _lines(self) -> list[bytes]:
        """The lines of the file's last `max_bytes`."""
        try:
            with open(self.path, "rb") as file:
                size = os.fstat(file.fileno()).st_size
                if size > self.max_bytes:
                    file.seek(size - self.max_bytes)
                    file.readline()  # the rest of a line cut in the middle
                data = file.read(self.max_bytes)
        except OSError as err:
            log.warning("cannot read the hook run log %s: %s", self.path, err)
            return []
        return data.splitlines()

    def _read(self) -> Iterable[RunRecord | EventSeen]:
        for raw_line in self._lines():
            try:
                item = _record_of(json.loads(raw_line))
            except (ValueError, UnicodeDecodeError):
                continue
            if item is not None:
                yield item

    def _append(self, lines: list[tuple[Owner, bytes]]) -> None:
        with self._lock:
            self._remember((line[:-1], owner) for owner, line in lines)
        self._lane.submit(lambda: self._write(b"".join(line for _, line in lines)))

    def _write(self, data: bytes) -> None:
        """On the disk thread, one O_APPEND write: lines of concurrent writers (other servers)
        never interleave."""
        try:
            try:
                fd = os.open(self.path, APPEND, 0o666)
            except FileNotFoundError:  # the first record of this project
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, APPEND, 0o666)
            try:
                os.write(fd, data)
                size = os.fstat(fd).st_size
            finally:
                os.close(fd)
            if size > self.max_bytes:
                self._compact()
        except OSError as err:
            log.warning("cannot write the hook run log %s: %s", self.path, err)

    def _compact(self) -> None:
        """Keep per hook and per event only the newest entries (under the folder's lock)."""
        with locked_directory(self.path.parent), self._lock:
            self._cache = (None, [])
            limits = {"run": self.per_hook, "event": self.per_event}
            newest: dict[Owner, deque[int]] = {}  # whose → indexes of its newest lines
            order = self._lines()
            owners = [self._owners.get(line) or _owner(line) for line in order]
            for index, owner in enumerate(owners):
                if owner is not None:
                    if owner not in newest:
                        newest[owner] = deque(maxlen=limits[owner[0]])
                    newest[owner].append(index)
            kept = sorted(index for indexes in newest.values() for index in indexes)
            lines = [order[index] + b"\n" for index in kept]
            total = sum(map(len, lines))
            start = 0
            while total > self.max_bytes // 2:  # many hooks: the oldest go, whoever they are
                total -= len(lines[start])
                start += 1
            data = b"".join(lines[start:])
            with contextlib.suppress(FileNotFoundError):
                temp, _ = write_temp(self.path, data, os.stat(self.path))
                os.replace(temp, self.path)
            self._owners.clear()
            self._owners_bytes = 0
            self._remember((order[i], owner) for i in kept[start:] if (owner := owners[i]))

    def _remember(self, owned: Iterable[tuple[bytes, Owner]]) -> None:
        """Note whose lines are (under `_lock`). Other writers may compact the file under us, so
        what is noted can outlive its lines: past twice the file's cap it is forgotten."""
        for line, owner in owned:
            self._owners[line] = owner
            self._owners_bytes += len(line)
        if self._owners_bytes > 2 * self.max_bytes:
            self._owners.clear()
            self._owners_bytes = 0
