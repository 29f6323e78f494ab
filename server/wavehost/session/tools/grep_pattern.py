"""Grep's regular expressions: ripgrep's syntax, as Claude Code's Grep tool (ripgrep) reads them,
run by RE2 — time linear in the line, memory bounded, the GIL released while it matches.

The model writes the pattern, and it may come from anything the model read: Python's `re`
backtracks (`(a+)+$` against a line of 40 `a` and a `!` takes 2^40 steps) and holds the GIL
while it does, which froze the whole server. ripgrep's engine (Rust's `regex`) is a finite
automaton, as RE2 is, and the two syntaxes are nearly one: no look-around, no backreferences
(ripgrep refuses them too, unless run with `-P`), the same classes, repeats, groups, flags and
escapes. Where they differ, ripgrep's meaning is kept:

- `\\d`, `\\w`, `\\s` are Unicode-aware in ripgrep, ASCII-only in RE2: they become Unicode
  classes (outside a bracket class, and inside one for the positive forms; `[\\D]`, `[\\W]`,
  `[\\S]` stay RE2's ASCII meaning);
- `\\u007F`, `\\u{7F}`, `\\U0000007F` are written as RE2's `\\x{…}`.

What remains different: `\\b` and `\\B` are ASCII word boundaries; ripgrep's class set operations
(`[a-z&&[^aeiou]]`), nested classes and `(?x)` are not understood (a clear error, or `[` as a
literal inside a class); a counted repeat goes to 1,000 at most; RE2's own `\\C` and `\\Q…\\E`
are accepted.
"""

from dataclasses import dataclass
from typing import Any

import re2  # type: ignore[import-untyped]

MEMORY = 16 * 1024 * 1024  # bytes of program and automaton caches, ripgrep's size limits' order
# Unicode `\w` as Rust's regex has it: Alphabetic, marks, decimal digits, connector punctuation,
# the joiners (Alphabetic beyond letters: letter numbers and the circled letters); `\s` as its
# White_Space
WORD = r"\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\x{200C}\x{200D}\x{24B6}-\x{24E9}"
SPACE = r"\t\n\x0B\f\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}"
SPACE += r"\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}"
_OUTSIDE = {"d": r"\p{Nd}", "D": r"\P{Nd}", "w": f"[{WORD}]", "W": f"[^{WORD}]"}
_OUTSIDE |= {"s": f"[{SPACE}]", "S": f"[^{SPACE}]"}
_INSIDE = {"d": r"\p{Nd}", "w": WORD, "s": SPACE}
_UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED
_NO_MATCH = (-1, -1)


class GrepPatternError(ValueError):
    """A pattern RE2 cannot run; the message says why."""


@dataclass(frozen=True)
class GrepPattern:
    source: str
    _program: Any

    def search(self, line: bytes) -> bool:
        return bool(self._program.Match(_UNANCHORED, line, 0, len(line))[0] != _NO_MATCH)


def compile_pattern(source: str, *, ignore_case: bool = False) -> GrepPattern:
    options = re2.Options()
    options.max_mem = MEMORY
    options.log_errors = False
    options.never_capture = True
    options.case_sensitive = not ignore_case
    try:
        translated = translate(source).encode("utf-8")
    except UnicodeEncodeError as err:  # a lone surrogate
        raise GrepPatternError(str(err)) from None
    program = re2._re2.RE2(translated, options)
    if not program.ok():
        raise GrepPatternError(program.error().decode("utf-8", errors="replace"))
    return GrepPattern(source, program)


def translate(source: str) -> str:
    """ripgrep's pattern in RE2's syntax (see the module docstring)."""
    out: list[str] = []
    i, n = 0, len(source)
    in_class = False
    while i < n:
        char = source[i]
        if char == "\\" and i + 1 < n:
            kind = source[i + 1]
            table = _INSIDE if in_class else _OUTSIDE
            if kind in table:
                out.append(table[kind])
                i += 2
            elif kind in "uU":
                code, i = _code_point(source, i)
                out.append(code)
            elif kind in "pPx" and i + 2 < n and source[i + 2] == "{":
                end = source.find("}", i + 3)
                end = n - 1 if end < 0 else end
                out.append(source[i : end + 1])
                i = end + 1
            else:
                out.append(source[i : i + 2])
                i += 2
            continue
        if in_class:
            if char == "[" and source.startswith("[:", i):  # [[:alpha:]]
                end = source.find(":]", i + 2)
                if end >= 0:
                    out.append(source[i : end + 2])
                    i = end + 2
                    continue
            if char == "]":
                in_class = False
        elif char == "[":
            in_class = True
            out.append(char)
            i += 1
            if source.startswith("^", i):
                out.append("^")
                i += 1
            if source.startswith("]", i):  # a leading `]` is a literal
                out.append("]")
                i += 1
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _code_point(source: str, i: int) -> tuple[str, int]:
    """`\\u007F`, `\\u{7F}` or `\\U0000007F` at `i` as `\\x{7F}`, and where it ends; as written
    when it is none of them (RE2 then says what is wrong)."""
    kind = source[i + 1]
    if source.startswith("{", i + 2):
        end = source.find("}", i + 3)
        if end > i + 3:
            return "\\x{" + source[i + 3 : end] + "}", end + 1
    else:
        width = 4 if kind == "u" else 8
        digits = source[i + 2 : i + 2 + width]
        if len(digits) == width and all(c in "0123456789abcdefABCDEF" for c in digits):
            return "\\x{" + digits + "}", i + 2 + width
    return source[i : i + 2], i + 2
