"""Copilot CLI's matchers (seed 002 "Matcher"; the observed contract where the seed is silent).

Native (camelCase events and the non-tool PascalCase ones): a full-match, case-sensitive regex,
`^(?:PATTERN)$`, tested against the event's field in Copilot's words (`bash`, not `Bash`). An
invalid regex or an empty matcher skips the hook (`compile_matcher` raises). PascalCase
`PreToolUse` / `PostToolUse` / `PostToolUseFailure` / `PermissionRequest` match Claude-style:
`*` and `**` match everything — and so does `""` on PreToolUse and PermissionRequest (the seed's
"*、** 或空值匹配所有"; Copilot 1.0.102 rejects it, as it rejects `""` everywhere else); a name or
`A|B` list matches the Claude name or the runtime name; anything else is a regex tested against
the Claude name only. On events Copilot does not match on, a matcher means nothing. Regexes have
Python `re`'s syntax and meaning, bounded in time and memory (`hooks.patterns`); one over a
budget skips the hook too.
"""

import functools
import re
from dataclasses import dataclass

from wavehost.hooks import patterns
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects.copilot.events import MATCHED, TOOL_EVENTS, TOOLS, is_pascal
from wavehost.hooks.matcher import Matcher
from wavehost.hooks.tools import mcp

_NAMES = re.compile(r"[A-Za-z0-9_\-]+(\|[A-Za-z0-9_\-]+)*")
# PascalCase events whose empty matcher matches every tool (seed 002)
EMPTY_MATCHES_ALL = frozenset({Event.PreToolUse, Event.PermissionRequest})


def _wave(name: str) -> str | None:
    """The Wave tool a Copilot runtime name stands for, when that is its own name. None for a
    name of no tool wavehost knows: an MCP tool's (`memory-recall`) only the subject can tell."""
    wave = TOOLS.wave_name(name)
    if not TOOLS.known(wave):
        return None
    return wave if TOOLS.name(wave) == name else None


class MatcherError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class CopilotMatcher(Matcher):
    regex: patterns.Pattern | None = None
    tokens: frozenset[str] | None = None  # Claude-style name list
    tool: bool = False  # the subject is a tool name (translated into Copilot's words)
    claude: bool = False  # Claude-style: the regex tests the Claude (Wave) name

    @property
    def matches_all(self) -> bool:
        return self.regex is None and self.tokens is None

    @property
    def names(self) -> frozenset[str] | None:
        """The Wave tool names a plain name list selects (for the engine's index)."""
        if not self.tool:
            return None
        if self.tokens is not None:
            runtime = {token: _wave(token) for token in self.tokens}
            if any(w is None and not TOOLS.known(t) for t, w in runtime.items()):
                return None  # a name of no known tool (an MCP tool's): checked per subject
            return self.tokens | {name for name in runtime.values() if name is not None}
        source = self.regex.pattern[3:-1] if self.regex is not None else ""
        if self.claude or not _NAMES.fullmatch(source):
            return None
        found = [_wave(token) for token in source.split("|")]
        return None if None in found else frozenset(n for n in found if n is not None)

    def matches(self, subject: str) -> bool:
        # An MCP tool's "Claude name" in Copilot CLI is its own (`memory-recall`, observed): the
        # Claude-style forms test that, never `mcp__memory__recall`.
        of_server = self.tool and mcp.parts(subject) is not None
        if self.tokens is not None:
            return (subject in self.tokens and not of_server) or _runtime(subject) in self.tokens
        if self.regex is None:
            return True
        name = _runtime(subject) if self.tool and (not self.claude or of_server) else subject
        return self.regex.test(name)


@functools.lru_cache(maxsize=1024)
def _runtime(subject: str) -> str:
    """Copilot's name of a Wave tool (memoised: asked once per hook and subject)."""
    return TOOLS.name(subject)


def compile_matcher(
    source: str | None, event: Event, key: str, budget: patterns.CompileBudget | None = None
) -> CopilotMatcher:
    """The matcher of an entry under `key`; raises `MatcherError` when Copilot skips the hook."""
    if source is None:
        return CopilotMatcher(None)
    if source == "" and is_pascal(key) and event in EMPTY_MATCHES_ALL:
        return CopilotMatcher(source, tool=True, claude=True)
    if source == "":
        raise MatcherError("matcher cannot be empty")
    if event not in MATCHED:
        return CopilotMatcher(source)  # kept for the list, means nothing here
    tool = event in TOOL_EVENTS
    claude = tool and is_pascal(key)
    if claude and source.strip() in ("*", "**"):
        return CopilotMatcher(source, tool=True, claude=True)
    if claude and _NAMES.fullmatch(source.strip()):
        names = frozenset(part.strip() for part in source.split("|"))
        return CopilotMatcher(source, tokens=names, tool=True, claude=True)
    try:
        regex = patterns.compile(f"(?:{source})", mode="fullmatch", budget=budget)
    except patterns.PatternError as err:
        shown = source if len(source) <= 200 else f"{source[:200]}…"
        what = "matcher regex over budget" if err.over_budget else "invalid matcher regex"
        raise MatcherError(f"{what} {shown!r}: {err}") from err
    return CopilotMatcher(source, regex=regex, tool=tool, claude=claude)
