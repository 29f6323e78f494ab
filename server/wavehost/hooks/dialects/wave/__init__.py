"""The Wave dialect: Claude Code's settings format, names and semantics (the catalogue's own)."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import WAVE_EVENTS, Event
from wavehost.hooks.config import HookHandler, Source
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.wave import handler_types, outcome, sources
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext, HookRun, Launch, wave_launch


class WaveDialect:
    name: DialectName = "wave"
    events: Mapping[str, Event] = WAVE_EVENTS
    concurrent = True  # as Claude Code: every matching hook starts at once

    def names_transcript(self, event: Event) -> bool:
        return True  # Claude Code's every payload carries `transcript_path`

    def load(self, project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
        found = sources.load(project_dir, home=home, trusted=trusted)
        return DialectSources(found.handlers, found.files, found.diagnostics)

    def handlers_in(self, source: Source, path: Path, document: Any) -> list[HookHandler]:
        return sources.handlers_in(source, path, document)

    def stdin(self, handler: HookHandler, payload: HookInput) -> bytes:
        return payload.to_stdin()

    def launch(self, handler: HookHandler, payload: HookInput, context: HookContext) -> Launch:
        return wave_launch(handler, context)

    def call(
        self, handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext
    ) -> Call | None:
        return handler_types.make_call(handler, payload, stdin, context)

    def immediate(self, handler: HookHandler, payload: HookInput) -> HookRun | None:
        return None

    def advance(self, payload: HookInput, run: HookRun) -> HookInput | None:
        return payload

    def interpret(self, payload: HookInput, runs: Sequence[HookRun]) -> Outcome:
        return outcome.interpret(payload, runs)

    def after(self, payload: HookInput, outcome: Outcome, context: HookContext) -> None:
        return None


WAVE = WaveDialect()
