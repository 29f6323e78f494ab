"""Matcher regexes bounded in time and memory, with exactly Python `re`'s semantics.

Every dialect's matcher regexes (Wave's and Copilot's, Snow's globs) are compiled here. A pattern
is parsed by Python's own parser — what is valid, and what it means, stays `re`'s — and where
RE2 can say the same thing it is translated into RE2 syntax and run by RE2: time linear in the
subject, memory bounded by `RE2_MEMORY`, the GIL released. What RE2 cannot express (lookaround,
backreferences, conditionals, atomic groups, possessive or >1,000 repeats), and the few subjects
on which RE2's answer could differ from `re`'s (`_Sensitive`), go to a worker process that runs
`re` itself (`pattern_worker.py`) with a CPU budget the kernel enforces: a pattern over it
kills the worker, is remembered as over budget (`over_budget`), matches nothing from then on, and
is a diagnostic in every later load. Callers bound their wait with `deadline`: a lookup whose
deadline passed is `cut` (undecided patterns answered no, and the caller must not memoise it).

Compiling is bounded too: a pattern is at most `MAX_LENGTH` characters, and each config source
gets a `CompileBudget` of distinct patterns and characters, so a hostile file cannot make a
listing slow (Python's parser costs about 1.5 µs a character).
"""

import contextlib
import functools
import importlib
import json
import logging
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import re2  # type: ignore[import-untyped]

log = logging.getLogger(__name__)

Mode = Literal["search", "match", "fullmatch"]

MAX_LENGTH = 10_000  # characters in one pattern
SOURCE_PATTERNS = 2_000  # distinct patterns one config source may compile
SOURCE_CHARACTERS = 200_000  # their characters together
SOURCE_INSTRUCTIONS = 500_000  # their RE2 programs' instructions together
RE2_MEMORY = 1 << 20  # bytes one RE2 program and its DFA caches may use
PATTERN_CPU = 0.05  # CPU seconds `re` may spend on one pattern and one subject (compile included)
LOOKUP_WAIT = 0.5  # seconds a caller waits for the worker by default (all its patterns together)
STUCK_AFTER = 30.0  # seconds of waiting after which a worker nobody waits for is stopped

_parser: Any = importlib.import_module("re._parser")  # Python's own regex parser (3.11+)
_WORKER = Path(__file__).with_name("pattern_worker.py")
_ANCHORS: dict[Mode, Any] = {
    "search": re2._re2.RE2.Anchor.UNANCHORED,
    "match": re2._re2.RE2.Anchor.ANCHOR_START,
    "fullmatch": re2._re2.RE2.Anchor.ANCHOR_BOTH,
}
_NO_MATCH = (-1, -1)
_SURROGATES = range(0xD800, 0xE000)
_MAX_CODE = 0x10FFFF
_RE2_REPEAT = 1000  # RE2's largest repeat count


class PatternError(ValueError):
    """Not a valid pattern (`over_budget` False), or one too costly to compile or run."""

    def __init__(self, message: str, over_budget: bool = False) -> None:
        super().__init__(message)
        self.over_budget = over_budget


# -- subjects RE2 could answer differently ---------------------------------------------------

_UNICODE = 1  # categories, \b \B or ignore-case: RE2 is exact on ASCII subjects only
_NEWLINE = 2  # a `$` that is not last: Python's also matches before a final newline
_EMPTY = 4  # \B: Python before 3.14 never matches it in an empty string, RE2 does


def _needs_re(sensitive: int, subject: str) -> bool:
    if sensitive & _UNICODE and not subject.isascii():
        return True
    if sensitive & _NEWLINE and "\n" in subject:
        return True
    return bool(sensitive & _EMPTY) and not subject


# -- translation into RE2 ---------------------------------------------------------------------


class _NotRE2Error(Exception):
    """RE2 cannot say this the way Python means it."""


def _char(code: int) -> str:
    char = chr(code)
    return char if char.isascii() and char.isalnum() else f"\\x{{{code:X}}}"


_NOTHING = f"[^\\x{{0}}-\\x{{{_MAX_CODE:X}}}]"  # a class no character is in
_ANYTHING = f"[\\x{{0}}-\\x{{{_MAX_CODE:X}}}]"


def _ranges_text(ranges: list[tuple[int, int]]) -> str:
    return "".join(_char(a) if a == b else f"{_char(a)}-{_char(b)}" for a, b in ranges)


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, start = [], 0
    for a, b in sorted(ranges):
        if a > start:
            out.append((start, a - 1))
        start = max(start, b + 1)
    if start <= _MAX_CODE:
        out.append((start, _MAX_CODE))
    return out


def _without_surrogates(a: int, b: int) -> list[tuple[int, int]]:
    """RE2 matches UTF-8, which has no surrogates; subjects holding one go to `re` anyway."""
    parts = [(a, min(b, _SURROGATES.start - 1)), (max(a, _SURROGATES.stop), b)]
    return [(x, y) for x, y in parts if x <= y]


class _Translator:
    """Python's parse tree → an RE2 pattern meaning the same on every subject `_needs_re` lets
    through. Flags are tracked as Python scopes them and written as RE2 scopes (`(?i:…)`)."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.sensitive = 0
        self.c = _parser  # the opcode constants live in the parser module

    def sequence(self, items: Any, flags: int, tail: bool) -> str:
        last = len(items) - 1
        return "".join(
            self.item(op, av, flags, tail and i == last) for i, (op, av) in enumerate(items)
        )

    def item(self, op: Any, av: Any, flags: int, tail: bool) -> str:
        c = self.c
        if op is c.LITERAL:
            return self.literal(av, flags)
        if op is c.NOT_LITERAL:
            if av in _SURROGATES:
                return _ANYTHING
            self.cased(flags, av)
            return f"[^{_char(av)}]"
        if op is c.ANY:
            return "."
        if op is c.IN:
            return self.klass(av, flags)
        if op is c.BRANCH:
            return "(?:" + "|".join(self.sequence(alt, flags, tail) for alt in av[1]) + ")"
        if op is c.SUBPATTERN:
            _group, add, remove, body = av
            inner = (flags | add) & ~remove
            on = "".join(f for f, bit in _RE2_FLAGS if add & bit)
            off = "".join(f for f, bit in _RE2_FLAGS if remove & bit)
            return f"(?{on}{'-' + off if off else ''}:{self.sequence(body, inner, tail)})"
        if op is c.MAX_REPEAT or op is c.MIN_REPEAT:  # greediness never changes *whether*
            low, high, body = av
            if low > _RE2_REPEAT or (high != c.MAXREPEAT and high > _RE2_REPEAT):
                raise _NotRE2Error
            upper = "" if high == c.MAXREPEAT else str(high)
            bounds = f"{{{low}}}" if low == high else f"{{{low},{upper}}}"
            return f"(?:{self.sequence(body, flags, False)}){bounds}"
        if op is c.AT:
            return self.at(av, flags, tail)
        raise _NotRE2Error  # lookaround, backreferences, conditionals, atomic groups, possessive

    def cased(self, flags: int, *codes: int) -> None:
        if flags & re.IGNORECASE:
            if any(code > 0x7F for code in codes):
                raise _NotRE2Error  # Python's and RE2's case folding differ beyond ASCII (İ, ſ, …)
            self.sensitive |= _UNICODE

    def literal(self, code: int, flags: int) -> str:
        if code in _SURROGATES:
            return _NOTHING
        self.cased(flags, code)
        return _char(code)

    def at(self, where: Any, flags: int, tail: bool) -> str:
        c = self.c
        if where is c.AT_BEGINNING:
            return "(?m:^)" if flags & re.MULTILINE else "\\A"
        if where is c.AT_BEGINNING_STRING:
            return "\\A"
        if where is c.AT_END_STRING:
            return "\\z"
        if where is c.AT_END:
            if flags & re.MULTILINE:
                return "(?m:$)"
            if tail:  # nothing follows: end, or a final newline left over
                return "\\z" if self.mode == "fullmatch" else "\\n?\\z"
            self.sensitive |= _NEWLINE
            return "\\z"
        if where is c.AT_BOUNDARY:
            self.sensitive |= _UNICODE
            return "\\b"
        if where is c.AT_NON_BOUNDARY:
            self.sensitive |= _UNICODE | _EMPTY
            return "\\B"
        raise _NotRE2Error

    def klass(self, items: Any, flags: int) -> str:
        c = self.c
        negate = False
        ranges: list[tuple[int, int]] = []
        for op, av in items:
            if op is c.NEGATE:
                negate = True
            elif op is c.LITERAL:
                self.cased(flags, av)
                ranges += _without_surrogates(av, av)
            elif op is c.RANGE:
                self.cased(flags, av[0], av[1])
                ranges += _without_surrogates(*av)
            elif op is c.CATEGORY:
                self.sensitive |= _UNICODE
                ranges += self.category(av, flags)
            else:
                raise _NotRE2Error
        if not ranges:
            return _ANYTHING if negate else _NOTHING
        return f"[{'^' if negate else ''}{_ranges_text(ranges)}]"

    def category(self, category: Any, flags: int) -> list[tuple[int, int]]:
        """`re`'s classes on ASCII (subjects beyond it go to `re`): `\\s` is also \\x1c-\\x1f
        unless (?a)."""
        c = self.c
        space = [(0x09, 0x0D), (0x20, 0x20)]
        if not flags & re.ASCII:
            space.append((0x1C, 0x1F))
        sets = {
            c.CATEGORY_DIGIT: [(0x30, 0x39)],
            c.CATEGORY_WORD: [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
            c.CATEGORY_SPACE: space,
        }
        opposite = {
            c.CATEGORY_NOT_DIGIT: c.CATEGORY_DIGIT,
            c.CATEGORY_NOT_WORD: c.CATEGORY_WORD,
            c.CATEGORY_NOT_SPACE: c.CATEGORY_SPACE,
        }
        if category in sets:
            return sets[category]
        if category in opposite:
            return _complement(sets[opposite[category]])
        raise _NotRE2Error


_RE2_FLAGS = (("i", re.IGNORECASE), ("m", re.MULTILINE), ("s", re.DOTALL))


def _check_lookbehinds(items: Any) -> None:
    """The one error Python's compiler adds to its parser's: a look-behind must be fixed-width."""
    c = _parser
    for op, av in items:
        if op in (c.ASSERT, c.ASSERT_NOT):
            direction, body = av
            low, high = body.getwidth()
            if direction < 0 and low != high:
                raise re.error("look-behind requires fixed-width pattern")
            _check_lookbehinds(body)
        elif op is c.BRANCH:
            for alternative in av[1]:
                _check_lookbehinds(alternative)
        elif op in (c.SUBPATTERN,):
            _check_lookbehinds(av[-1])
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            _check_lookbehinds(av[2])
        elif op is c.ATOMIC_GROUP:
            _check_lookbehinds(av)
        elif op is c.GROUPREF_EXISTS:
            for branch in av[1:]:
                if branch is not None:
                    _check_lookbehinds(branch)


# -- compiled patterns ----------------------------------------------------------------------


@dataclass(eq=False)
class Pattern:
    """One compiled pattern: `test(subject)` is `re.<mode>(pattern, subject, flags)` is not None,
    bounded. `pattern` is the source, as `re.Pattern.pattern`."""

    pattern: str
    flags: int
    mode: Mode
    _re2: Any = None  # the RE2 program, when RE2 can say it
    _sensitive: int = 0
    over: bool = field(default=False)  # over its CPU budget in the worker: matches nothing

    @property
    def instructions(self) -> int:
        """The size of its RE2 program (what compiling it cost)."""
        return int(self._re2.ProgramSize()) if self._re2 is not None else 0

    @property
    def engine(self) -> Literal["re2", "re"]:
        """What answers most subjects (`re`: the bounded worker)."""
        return "re2" if self._re2 is not None else "re"

    def test(self, subject: str) -> bool:
        if self.over:
            return False
        if self._re2 is not None and not _needs_re(self._sensitive, subject):
            try:
                text = subject.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: only `re` can say
                pass
            else:
                spans = self._re2.Match(_ANCHORS[self.mode], text, 0, len(text))
                return bool(spans[0] != _NO_MATCH)
        answer = _worker.ask(self, subject)
        return answer is True


@functools.lru_cache(maxsize=4096)
def _compiled(source: str, flags: int, mode: Mode) -> Pattern | PatternError:
    """Parse, validate, translate; cached, errors included (a hostile file is read again and
    again, its patterns parsed once)."""
    if len(source) > MAX_LENGTH:
        return PatternError(
            f"the pattern is {len(source):,} characters long; at most {MAX_LENGTH:,} are allowed",
            over_budget=True,
        )
    try:
        parsed = _parser.parse(source, flags)
        _check_lookbehinds(parsed)
    except re.error as err:
        return PatternError(str(err))
    except (OverflowError, RecursionError) as err:  # a repeat over 4 billion, 1,000 nested ( …
        return PatternError(str(err) or type(err).__name__)
    translator = _Translator(mode)
    try:
        translated = translator.sequence(parsed, parsed.state.flags, True)
        prefix = "".join(f for f, bit in _RE2_FLAGS if parsed.state.flags & bit)
        program = re2._re2.RE2(
            (f"(?{prefix})" if prefix else "").encode() + translated.encode("utf-8"), _OPTIONS
        )
    except (_NotRE2Error, RecursionError):
        return Pattern(source, flags, mode)
    if not program.ok():  # nested repeats over 1,000, or over RE2_MEMORY: `re` will do
        return Pattern(source, flags, mode)
    return Pattern(source, flags, mode, program, translator.sensitive)


def _options() -> Any:
    options = re2.Options()
    options.max_mem = RE2_MEMORY
    options.log_errors = False
    options.never_capture = True
    return options


_OPTIONS = _options()


@dataclass
class CompileBudget:
    """What one config source (a file, or a folder tree of them) may compile: distinct patterns,
    their characters (Python's parser: about 1.5 µs each) and their RE2 instructions (about 1 µs
    each to compile). Repeats are free. Deterministic: the same files always get the same
    diagnostics, whatever is cached."""

    patterns: int = SOURCE_PATTERNS
    characters: int = SOURCE_CHARACTERS
    instructions: int = SOURCE_INSTRUCTIONS
    _seen: set[tuple[str, int, Mode]] = field(default_factory=set)

    def before(self, key: tuple[str, int, Mode]) -> bool:
        """Charge a pattern about to be compiled; False: seen already (free)."""
        if key in self._seen:
            return False
        if len(self._seen) >= self.patterns or len(key[0]) > self.characters:
            raise self._over()
        self._seen.add(key)
        self.characters -= len(key[0])
        return True

    def after(self, pattern: Pattern) -> None:
        self.instructions -= pattern.instructions
        if self.instructions < 0:
            raise self._over()

    def _over(self) -> PatternError:
        return PatternError(
            "over the compile budget: one config file's matchers may hold at most "
            f"{SOURCE_PATTERNS:,} distinct patterns, {SOURCE_CHARACTERS:,} characters and "
            f"{SOURCE_INSTRUCTIONS:,} RE2 instructions in all",
            over_budget=True,
        )


def compile(
    source: str, flags: int = 0, mode: Mode = "search", budget: CompileBudget | None = None
) -> Pattern:
    """The bounded pattern; raises `PatternError` (invalid, or over a budget)."""
    key = (source, flags, mode)
    charged = budget is not None and budget.before(key)
    if key in _over:
        raise PatternError(_over[key], over_budget=True)
    found = _compiled(source, flags, mode)
    if isinstance(found, PatternError):  # a new one: the cached one keeps no traceback
        raise PatternError(str(found), found.over_budget)
    if charged:
        assert budget is not None
        budget.after(found)
    return found


# -- patterns found over budget ----------------------------------------------------------------

_over: dict[tuple[str, int, Mode], str] = {}
_over_lock = threading.Lock()


def _mark_over(pattern: Pattern) -> None:
    pattern.over = True
    message = (
        f"matching took over {PATTERN_CPU * 1000:.0f} ms of CPU on one subject, so the "
        "pattern matches nothing from now on"
    )
    with _over_lock:
        _over[(pattern.pattern, pattern.flags, pattern.mode)] = message
    log.warning("matcher %r is over its budget: %s", pattern.pattern[:200], message)


def over_budget() -> int:
    """How many patterns were found over budget so far: changes when a listing may change."""
    return len(_over)


# -- deadlines ---------------------------------------------------------------------------------


@dataclass
class Deadline:
    at: float
    outer: "Deadline | None" = None
    cut: bool = False  # some pattern was left undecided (answered no)

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def undecided(self) -> None:
        deadline: Deadline | None = self
        while deadline is not None:
            deadline.cut = True
            deadline = deadline.outer


_local = threading.local()


@contextlib.contextmanager
def deadline(seconds: float | None = None) -> Iterator[Deadline]:
    """Bound the time this thread's patterns may wait for the worker, all together (nested
    deadlines end no later than the outer one); `LOOKUP_WAIT` by default."""
    outer: Deadline | None = getattr(_local, "deadline", None)
    at = time.monotonic() + (LOOKUP_WAIT if seconds is None else seconds)
    current = Deadline(min(at, outer.at) if outer is not None else at, outer)
    _local.deadline = current
    try:
        yield current
    finally:
        _local.deadline = outer


# -- the worker ------------------------------------------------------------------------------


class _Worker:
    """One `re` process, started on first need, used by one thread at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None

    def ask(self, pattern: Pattern, subject: str) -> bool | None:
        """True / False, or None: undecided (the deadline passed) or over budget."""
        current: Deadline | None = getattr(_local, "deadline", None)
        with deadline() if current is None else contextlib.nullcontext(current) as limit:
            answer = self._ask(pattern, subject, limit)
            if answer is None and not pattern.over:
                limit.undecided()
            return answer

    def _ask(self, pattern: Pattern, subject: str, limit: Deadline) -> bool | None:
        left = limit.remaining()
        if left <= 0 or not self._lock.acquire(timeout=left):
            return None
        handed_on = False
        try:
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = self._start()
            assert process.stdin is not None
            assert process.stdout is not None
            request = [pattern.pattern, pattern.flags, pattern.mode, subject]
            try:
                process.stdin.write(json.dumps(request).encode() + b"\n")
                process.stdin.flush()
            except OSError:
                self._ended(pattern)
                return None
            ready, _, _ = select.select([process.stdout], [], [], max(0.0, limit.remaining()))
            if not ready:
                # The caller's time is up, not necessarily the pattern's: on a busy machine the
                # worker may not have had its CPU budget yet. Its verdict is read on a thread
                # (the budget bounds it), so an over-budget pattern is still found over budget.
                threading.Thread(target=self._finish, args=(process, pattern), daemon=True).start()
                handed_on = True
                return None
            return self._verdict(process, pattern)
        finally:
            if not handed_on:
                self._lock.release()

    def _finish(self, process: "subprocess.Popen[bytes]", pattern: Pattern) -> None:
        """Off the caller's thread, holding the worker: the verdict of a pattern its caller
        stopped waiting for (a worker that takes no CPU for long is stuck: stopped)."""
        try:
            assert process.stdout is not None
            ready, _, _ = select.select([process.stdout], [], [], STUCK_AFTER)
            if ready:
                self._verdict(process, pattern)
            else:
                self._stop()
        finally:
            self._lock.release()

    def _verdict(self, process: "subprocess.Popen[bytes]", pattern: Pattern) -> bool | None:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            self._ended(pattern)
            return None
        if line.startswith(b"!"):
            log.warning("matcher %r: %s", pattern.pattern[:200], line[1:].decode().strip())
            return False
        return line.strip() == b"1"

    def _ended(self, pattern: Pattern) -> None:
        process = self._process
        code = process.wait() if process is not None else None
        self._process = self._start()  # starting while the caller goes on: ready sooner
        if code == -signal.SIGPROF:
            _mark_over(pattern)
        else:
            log.warning("the matcher worker ended (exit %s)", code)

    def _start(self) -> "subprocess.Popen[bytes]":
        return subprocess.Popen(
            [sys.executable, "-I", "-S", str(_WORKER), str(PATTERN_CPU)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            env={"PATH": os.environ.get("PATH", "")},
        )

    def _stop(self) -> None:
        process, self._process = self._process, self._start()
        if process is not None:
            process.kill()
            process.wait()


_worker = _Worker()
