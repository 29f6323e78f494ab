"""Where two dialects' hooks both fire on one call: a Wave (or Claude Code format) hook and a
Copilot CLI or Snow CLI hook of the same moment, both chosen for the same tool or source.

The settings page groups hooks by the event they run on; this says, per event, which dialects'
hooks a session would run together, and for which subjects (tool names, sources) — worked out by
the engine's own matchers and deduplication over the hooks that run, tried on the subjects a call
can have. Only events with hooks of two dialects cost anything.
"""

import typing
from dataclasses import dataclass
from typing import Literal

from wavehost.hooks import patterns
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import HookConfig
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.engine import HookEngine
from wavehost.hooks.tools import TOOLS

SUBJECTS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class Overlap:
    event: Event
    dialects: tuple[DialectName, ...]  # in the documented order
    subjects: tuple[str, ...]  # () for an event without a matcher: on every one


def _subjects(event: Event, config: HookConfig) -> list[str]:
    """The subjects worth trying: the names the hooks' matchers spell, the tools, the values the
    event's matcher field can take."""
    field = event.spec.matcher_field
    found: dict[str, None] = {}
    if field == "tool_name":  # what a tool event's call can be about: the catalogue's tools
        found.update(dict.fromkeys(tool.name for tool in TOOLS))
    elif field is not None:
        annotation = event.spec.payload.model_fields[field].annotation
        if typing.get_origin(annotation) is Literal:
            found.update(dict.fromkeys(str(v) for v in typing.get_args(annotation)))
    for handler in config.handlers:
        if handler.event is event and handler.matcher.names:
            found.update(dict.fromkeys(sorted(handler.matcher.names)))
    return list(found)


def overlaps(config: HookConfig) -> tuple[Overlap, ...]:
    """Per event, the dialects whose hooks (the file-based ones that run) fire together."""
    runnable = [h for h in config.runnable() if h.file_based]
    dialects: dict[Event, set[DialectName]] = {}
    for handler in runnable:
        dialects.setdefault(handler.event, set()).add(handler.dialect)
    events = [e for e, names in dialects.items() if len(names) > 1]
    if not events:
        return ()
    engine = HookEngine(config)
    found = []
    with patterns.deadline():  # every matcher together, however hostile
        for event in sorted(events, key=lambda e: list(Event).index(e)):
            if event.spec.matcher_field is None:
                both = {h.dialect for h in engine.selected(event, None) if h.file_based}
                if len(both) > 1:
                    found.append(Overlap(event, _ordered(both), ()))
                continue
            together: set[DialectName] = set()
            subjects = []
            for subject in _subjects(event, config):
                chosen = {h.dialect for h in engine.selected(event, subject) if h.file_based}
                if len(chosen) > 1:
                    together |= chosen
                    subjects.append(subject)
            if subjects:
                found.append(Overlap(event, _ordered(together), tuple(subjects[:SUBJECTS_SHOWN])))
    return tuple(found)


def _ordered(names: set[DialectName]) -> tuple[DialectName, ...]:
    return tuple(n for n in DIALECTS if n in names)
