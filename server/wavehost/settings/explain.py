"""Why didn't my hook fire? The steps between a hook entry and its process, for one hook.

Each step is decided by the code the engine itself uses: the configuration as `load_hook_config`
read it (files, errors, trust, `disableAllHooks`), the catalogue, and for the matcher the engine's
own index (`HookEngine.matching`) over the project's recent real events from the run log — so
what this says is what happened, not a second opinion. Steps carry codes and arguments; the page
words them in the UI language.
"""

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from wavehost.hooks import patterns
from wavehost.hooks.config import HookConfig, HookHandler
from wavehost.hooks.dialects.wave.http_hooks import HttpSpec
from wavehost.hooks.dialects.wave.matcher import WaveMatcher
from wavehost.hooks.engine import HookEngine, dedupe_key
from wavehost.hooks.runlog import EventSeen, RunLog

EXPLAIN_WAIT = 2.0  # seconds the matcher step may wait for bounded matchers, all subjects together
StepCode = Literal[
    "discovered", "parsed", "trusted", "enabled", "allowed", "event", "matcher", "if", "dedupe"
]
StepStatus = Literal["pass", "fail", "warn", "info"]
CaseVerdict = Literal["fired", "matched", "noMatch", "caseMismatch", "partialMatch", "deduplicated"]


@dataclass(frozen=True)
class MatcherCase:
    """One subject the matcher was really tested against (a tool name, a source, …)."""

    subject: str
    verdict: CaseVerdict
    count: int  # how many recent events had this subject
    last_at: float
    hint: str | None = None  # the matcher name or winning file the verdict refers to


@dataclass(frozen=True)
class Step:
    code: StepCode
    status: StepStatus
    args: dict[str, str] = field(default_factory=dict)
    cases: tuple[MatcherCase, ...] = ()


@dataclass(frozen=True)
class Explanation:
    hook_id: str
    steps: tuple[Step, ...]

    @property
    def fires(self) -> bool:
        return all(s.status != "fail" for s in self.steps)


def _everything_runnable(config: HookConfig) -> HookEngine:
    """The engine as it would be with every listed hook allowed to run: to test matchers of
    hooks that trust or `disableAllHooks` keep from running (those steps say so separately)."""
    handlers = tuple(dataclasses.replace(h, untrusted=False) for h in config.handlers)
    return HookEngine(dataclasses.replace(config, handlers=handlers, hooks_disabled=False))


def _case_hint(handler: HookHandler, subject: str) -> tuple[CaseVerdict, str | None]:
    """Why a matcher that did not accept `subject` (or only part of it) did what it did."""
    matcher = handler.matcher
    names = matcher.names or frozenset()
    for name in names:
        if name.lower() == subject.lower():
            return "caseMismatch", name
    pattern = matcher.pattern if isinstance(matcher, WaveMatcher) else None
    if pattern is not None and _test(pattern.pattern, re.IGNORECASE, "search", subject):
        return "caseMismatch", pattern.pattern
    return "noMatch", None


def _test(source: str, flags: int, mode: patterns.Mode, subject: str) -> bool:
    """The same regex with other flags or anchoring: bounded like the matcher itself."""
    try:
        return patterns.compile(source, flags, mode).test(subject)
    except patterns.PatternError:  # over budget: say nothing more about it
        return False


def _group(seen: Iterable[EventSeen]) -> list[tuple[str, int, float]]:
    by_subject: dict[str, tuple[int, float]] = {}
    for event in seen:
        if event.subject is None:
            continue
        count, last = by_subject.get(event.subject, (0, 0.0))
        by_subject[event.subject] = (count + 1, max(last, event.at))
    return sorted(((s, c, t) for s, (c, t) in by_subject.items()), key=lambda x: -x[2])


def explain(
    handler: HookHandler,
    config: HookConfig,
    run_log: RunLog,
    *,
    trusted: bool,
    disabled_by: Path | None,
    session_id: str | None = None,
) -> Explanation:
    path = str(handler.path) if handler.path is not None else ""
    file = next((f for f in config.files if f.path == handler.path), None)
    steps = [
        Step("discovered", "pass" if file is not None and file.exists else "fail", {"path": path}),
        Step("parsed", "fail" if file is not None and file.error else "pass", {"path": path}),
    ]
    if handler.untrusted:
        steps.append(Step("trusted", "fail", {"source": handler.source}))
    else:
        steps.append(Step("trusted", "pass", {"source": handler.source, "trusted": str(trusted)}))
    if config.hooks_disabled and handler.file_based:
        steps.append(Step("enabled", "fail", {"path": str(disabled_by or "")}))
    else:
        steps.append(Step("enabled", "pass"))
    if isinstance(handler.spec, HttpSpec):  # the user's allowedHttpHookUrls may keep it off
        status: StepStatus = "fail" if handler.spec.blocked else "pass"
        steps.append(Step("allowed", status, {"url": handler.spec.url}))
    event = handler.event
    steps.append(Step("event", "pass", {"event": event.name, "summary": event.spec.summary_en}))

    field_name = event.spec.matcher_field
    engine = _everything_runnable(config)
    recent = run_log.recent_events(event.name, session_id)
    if field_name is None:
        status = "warn" if not handler.matcher.matches_all else "pass"
        args = {"field": "", "matcher": handler.matcher.source or "", "seen": str(len(recent))}
        steps.append(Step("matcher", status, args))
        fired = [h.id for h in engine.selected(event, None)]
        steps.append(_dedupe_step(handler, engine, [None] if handler.id not in fired else []))
        return Explanation(handler.id, tuple(steps))

    cases: list[MatcherCase] = []
    lost_to_dedupe: list[str | None] = []
    with patterns.deadline(EXPLAIN_WAIT):  # every subject together, however hostile the matcher
        for subject, count, last_at in _group(recent):
            verdict, hint = _verdict(handler, engine, subject)
            if verdict == "deduplicated":
                lost_to_dedupe.append(subject)
            cases.append(MatcherCase(subject, verdict, count, last_at, hint))
    if not cases:
        status = "info"
    elif any(c.verdict in ("fired", "partialMatch") for c in cases):
        status = "pass"
    elif lost_to_dedupe:
        status = "pass"  # it matched; the next step says why it still did not run
    else:
        status = "fail"
    args = {
        "field": field_name,
        "matcher": handler.matcher.source or "",
        "seen": str(len(recent)),
    }
    steps.append(Step("matcher", status, args, tuple(cases)))
    if handler.if_rule is not None:
        # Decided per call on its input, which the run log does not keep: said, not judged.
        steps.append(Step("if", "info", {"rule": handler.if_rule}))
    steps.append(_dedupe_step(handler, engine, lost_to_dedupe))
    return Explanation(handler.id, tuple(steps))


def _verdict(
    handler: HookHandler, engine: HookEngine, subject: str
) -> tuple[CaseVerdict, str | None]:
    """What the matcher did with one subject it was really tested against."""
    if any(h.id == handler.id for h in engine.selected(handler.event, subject)):
        pattern = handler.matcher.pattern if isinstance(handler.matcher, WaveMatcher) else None
        if pattern is not None and not _test(pattern.pattern, 0, "fullmatch", subject):
            return "partialMatch", pattern.pattern
        return "fired", None
    if handler.matcher.matches(subject):
        return "deduplicated", None
    return _case_hint(handler, subject)


def _dedupe_step(handler: HookHandler, engine: HookEngine, lost: list[str | None]) -> Step:
    """Whether an identical command elsewhere runs instead of this one (first in order wins)."""
    key = dedupe_key(handler)
    for subject in lost:
        for winner in engine.selected(handler.event, subject):
            if winner.id != handler.id and dedupe_key(winner) == key:
                where = str(winner.path) if winner.path is not None else winner.source
                return Step("dedupe", "fail", {"path": where, "source": winner.source})
    return Step("dedupe", "pass")
