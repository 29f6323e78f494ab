"""Matchers with Claude Code's semantics.

`*`, `""`, blank or absent: everything. Only letters, digits, `_`, `-`, spaces, `,` and `|`: an
exact name or a list of names. Anything else: a case-sensitive regex, searched (unanchored).
"""

import re
from dataclasses import dataclass

_NAME_LIST = re.compile(r"[A-Za-z0-9_\- ,|]*")
_SEPARATORS = re.compile(r"[|,]")


@dataclass(frozen=True, slots=True)
class Matcher:
    source: str | None
    names: frozenset[str] | None = None  # exact names; None means "not a name list"
    pattern: re.Pattern[str] | None = None

    @property
    def matches_all(self) -> bool:
        return self.names is None and self.pattern is None

    def matches(self, value: str) -> bool:
        if self.names is not None:
            return value in self.names
        if self.pattern is not None:
            return self.pattern.search(value) is not None
        return True


def compile_matcher(source: str | None) -> Matcher:
    """Compile a matcher string; raises `re.error` for an invalid regex."""
    if source is None or source.strip() in ("", "*"):
        return Matcher(source)
    if _NAME_LIST.fullmatch(source):
        names = frozenset(part.strip() for part in _SEPARATORS.split(source) if part.strip())
        return Matcher(source, names=names)
    return Matcher(source, pattern=re.compile(source))
