"""Snow CLI's matchers: comma lists of `*` globs, no regex (seed 004 "Matcher 语法").

A missing or empty matcher matches everything. Otherwise the matcher is split on `,` and each
part trimmed; any part matching is enough. A part `key:pattern` tests `String(context[key])`;
any other part tests the tool name (in Snow's words) — or, on a hook type without one, is
searched for, case-sensitively, in the context's JSON. A pattern is case-insensitive and whole:
`*` is any text, everything else literal (`filesystem-*`, `TERMINAL-*`). Globs are compiled
into bounded patterns (`hooks.patterns`): RE2 answers in linear time however many `*` a part has.
"""

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

from wavehost.hooks import patterns
from wavehost.hooks.dialects.snow.events import TOOLS
from wavehost.hooks.dialects.snow.payloads import context
from wavehost.hooks.matcher import Matcher
from wavehost.hooks.payloads import HookInput


def _glob(pattern: str) -> str:
    return "^" + ".*".join(map(re.escape, pattern.split("*"))) + "$"


def _js_string(value: Any) -> str:
    """JavaScript's `String(value)` for JSON values."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True, slots=True)
class SnowMatcher(Matcher):
    parts: tuple[str, ...] = ()
    tool: bool = False  # a tool hook type: plain parts test the tool name
    globs: patterns.Pattern | None = None  # every part's glob in one pattern
    part_globs: tuple[patterns.Pattern, ...] = ()  # each part's (the pattern of `key:pattern`)

    @property
    def matches_all(self) -> bool:
        return not self.parts

    @property
    def keys(self) -> frozenset[str] | None:
        """On tool hooks with only plain parts: the case-folded Wave tool names it can match."""
        if not self.tool or any("*" in part or ":" in part for part in self.parts):
            return None
        wave = [TOOLS.wave_name(part.lower()) for part in self.parts if part]
        if not all(map(TOOLS.known, wave)):
            return None  # a name of no tool in Snow's table (an MCP tool's): checked per subject
        return frozenset(name.casefold() for name in wave)

    @property
    def dynamic(self) -> bool:
        return bool(self.parts) and (not self.tool or any(":" in part for part in self.parts))

    def matches(self, subject: str) -> bool:
        globs = self.globs
        if globs is None:
            return True
        # A loop, not any(): it runs once per hook on a cold lookup, and a generator costs
        # twice the match itself (bench/engine.py, mixed dialects).
        for name in _names(subject):  # noqa: SIM110
            if globs.test(name):
                return True
        return False

    def matches_payload(self, subject: str | None, payload: HookInput | None) -> bool:
        if not self.parts:
            return True
        if payload is None:
            return False
        ctx = context(payload)
        for part, glob in zip(self.parts, self.part_globs, strict=True):
            if ":" in part:
                key = part.split(":", 1)[0]
                if key in ctx and glob.test(_js_string(ctx[key])):
                    return True
            elif "toolName" in ctx:
                names = TOOLS.names(subject) if subject else (str(ctx["toolName"]),)
                if any(glob.test(name) for name in names):
                    return True
            elif part in json.dumps(ctx, ensure_ascii=False, separators=(",", ":")):
                return True
        return False


@functools.lru_cache(maxsize=1024)
def _names(subject: str) -> tuple[str, ...]:
    """Snow's names of a Wave tool (memoised: asked once per hook and subject)."""
    return TOOLS.names(subject)


def _pattern_of(part: str) -> str:
    return part.split(":", 2)[1] if ":" in part else part


def compile_matcher(
    source: str | None, tool: bool, budget: patterns.CompileBudget | None = None
) -> SnowMatcher:
    """Raises `patterns.PatternError` when the globs are over a budget (every glob is valid)."""
    if source is None or source == "":
        return SnowMatcher(source, tool=tool)
    parts = tuple(part.strip() for part in source.split(","))
    either = patterns.compile(
        "(?:" + "|".join(map(_glob, parts)) + ")", re.IGNORECASE, "match", budget
    )
    # `key:pattern` tests the pattern; the text after a second `:` is ignored, as Snow does
    each = tuple(
        patterns.compile(_glob(_pattern_of(part)), re.IGNORECASE, "match", budget) for part in parts
    )
    return SnowMatcher(source, parts, tool, either, each)
