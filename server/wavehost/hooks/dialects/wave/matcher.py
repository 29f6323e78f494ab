"""Matchers with Claude Code's semantics.

`*`, `""`, blank or absent: everything. Only letters, digits, `_`, `-`, spaces, `,` and `|`: an
exact name or a list of names. Anything else: a case-sensitive regex, searched (unanchored), with
Python `re`'s syntax and meaning, bounded in time and memory (`hooks.patterns`).
"""

import re
from dataclasses import dataclass

from wavehost.hooks import patterns
from wavehost.hooks.matcher import Matcher

_NAME_LIST = re.compile(r"[A-Za-z0-9_\- ,|]*")
_SEPARATORS = re.compile(r"[|,]")


@dataclass(frozen=True, slots=True)
class WaveMatcher(Matcher):
    exact: frozenset[str] | None = None  # exact names; None means "not a name list"
    pattern: patterns.Pattern | None = None

    @property
    def names(self) -> frozenset[str] | None:
        return self.exact

    @property
    def matches_all(self) -> bool:
        return self.exact is None and self.pattern is None

    def matches(self, subject: str) -> bool:
        if self.exact is not None:
            return subject in self.exact
        if self.pattern is not None:
            return self.pattern.test(subject)
        return True


def compile_matcher(
    source: str | None, budget: patterns.CompileBudget | None = None
) -> WaveMatcher:
    """Compile a matcher string; raises `patterns.PatternError` for an invalid regex, or one
    over a budget."""
    if source is None or source.strip() in ("", "*"):
        return WaveMatcher(source)
    if _NAME_LIST.fullmatch(source):
        names = frozenset(part.strip() for part in _SEPARATORS.split(source) if part.strip())
        return WaveMatcher(source, exact=names)
    return WaveMatcher(source, pattern=patterns.compile(source, budget=budget))
