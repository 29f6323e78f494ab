"""What a hook dialect is: its own sources, payload rendering, matcher and output interpretation.

Every dialect maps its event names onto the one catalogue (`hooks.catalogue`); the engine fires
catalogue events, and for each dialect with matching hooks asks it how to start each hook (stdin,
argv, cwd, env, timeout — or the call it makes instead of a process), whether a chain of hooks
goes on after one of them, and — a pure function — what the results mean (`interpret`).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import ConfigFile, Diagnostic, HookHandler, Source
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext, HookRun, Launch


@dataclass(frozen=True)
class DialectSources:
    """What one dialect's files hold."""

    handlers: tuple[HookHandler, ...] = ()
    files: tuple[ConfigFile, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    directories: frozenset[Path] = frozenset()  # folders whose entries are config files


class Dialect(Protocol):
    name: DialectName
    events: Mapping[str, Event]  # its event names (as its files spell them) -> the catalogue
    # True: all matching hooks start together (stdin must then not depend on the handler).
    # False: one after another in config order, each seeing what `advance` made of the last.
    concurrent: bool

    def names_transcript(self, event: Event) -> bool:
        """Whether this event's stdin names the session's transcript file: the session saves the
        transcript before such a hook starts, and only then (a save is a disk wait)."""
        ...

    def load(self, project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
        """Read this dialect's files; never raises for bad configuration."""
        ...

    def handlers_in(self, source: Source, path: Path, document: Any) -> list[HookHandler]:
        """The hooks one of its files defines, given that file's JSON, with the ids a list
        gives them (a delete checks its hook is still there)."""
        ...

    def stdin(self, handler: HookHandler, payload: HookInput) -> bytes:
        """The JSON the hook reads, in this dialect's naming."""
        ...

    def launch(self, handler: HookHandler, payload: HookInput, context: HookContext) -> Launch:
        """How to start the hook's process."""
        ...

    def immediate(self, handler: HookHandler, payload: HookInput) -> HookRun | None:
        """The result of an action that starts no process (Snow's `context`), else None."""
        ...

    def call(
        self, handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext
    ) -> Call | None:
        """A hook that runs without a process of ours (an http or prompt hook), else None."""
        ...

    def advance(self, payload: HookInput, run: HookRun) -> HookInput | None:
        """Sequential dialects: the payload the next hook sees, or None to end the chain."""
        ...

    def interpret(self, payload: HookInput, runs: Sequence[HookRun]) -> Outcome:
        """What the results mean. Pure: no I/O, no side effects."""
        ...

    def after(self, payload: HookInput, outcome: Outcome, context: HookContext) -> None:
        """Anything the dialect records once the event is decided (Snow's debug log)."""
        ...
