"""The hooks list the settings page and `wavehost hooks list` show: file-based hooks by source.

Domain types only; the protocol maps them to its wire models (`wavehost.protocol.settings`).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wavehost import paths
from wavehost.hooks.config import ConfigFile, Diagnostic, HookConfig, HookHandler, Source
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects import DIALECTS
from wavehost.settings.overlaps import Overlap, overlaps

FileSource = Literal["user", "project", "plugin"]  # where a listed hook can come from


@dataclass(frozen=True, slots=True)
class ListedHook:
    handler: HookHandler
    source: FileSource
    path: Path  # its config file
    read_only: bool  # whether that file can be written


@dataclass(frozen=True, slots=True)
class ListedFile:
    file: ConfigFile
    source: FileSource


@dataclass(frozen=True, slots=True)
class DialectOff:
    """A dialect the user switched off, and how many of its hooks would otherwise run."""

    dialect: DialectName
    hooks: int
    file: Path  # the settings file whose `hookDialects` switches it off


@dataclass(frozen=True)
class HooksListing:
    project_dir: Path
    files: tuple[ListedFile, ...]
    hooks: tuple[ListedHook, ...]
    diagnostics: tuple[Diagnostic, ...]
    trusted: bool  # False: project hooks are listed but never run
    home: Path | None = None  # the user's home, for showing paths as ~/…
    disabled_by: Path | None = None  # the file whose disableAllHooks: true is in force
    overlaps: tuple[Overlap, ...] = ()  # where two dialects' hooks fire on one call
    dialects_off: tuple[DialectOff, ...] = ()  # in the documented order

    @property
    def project_name(self) -> str:
        return project_name(self.project_dir)


def project_name(project_dir: Path) -> str:
    return project_dir.name or str(project_dir)


def file_source(source: Source) -> FileSource | None:
    """Where a file-based hook comes from; None for programmatic hooks (never listed)."""
    if source == "programmatic":
        return None
    return source


def listed_hooks(config: HookConfig) -> list[ListedHook]:
    """The file-based handlers the page shows, each with whether its file is read-only."""
    read_only = {file.path: file.read_only for file in config.files}
    listed = []
    for handler in config.handlers:
        source = file_source(handler.source)
        if source is not None and handler.path is not None:
            path = handler.path
            listed.append(ListedHook(handler, source, path, read_only.get(path, True)))
    return listed


def dialects_off(
    config: HookConfig, project_dir: Path, *, trusted: bool, home: Path | None
) -> tuple[DialectOff, ...]:
    """The switched-off dialects with the hooks their files hold that would run: what a user who
    relies on them must be told (their files are read for this count only)."""
    found = []
    for name, dialect in DIALECTS.items():
        if name not in config.dialects_off:
            continue
        loaded = dialect.load(project_dir, home, trusted)
        would_run = [h for h in loaded.handlers if not h.untrusted and not h.disabled]
        found.append(DialectOff(name, len(would_run), paths.user_settings(home)))
    return tuple(found)


def listing_of(
    config: HookConfig, project_dir: Path, *, trusted: bool = True, home: Path | None = None
) -> HooksListing:
    files = [
        ListedFile(file, source)
        for file in config.files
        if (source := file_source(file.source)) is not None
    ]
    return HooksListing(
        project_dir=project_dir,
        files=tuple(files),
        hooks=tuple(listed_hooks(config)),
        diagnostics=config.diagnostics,
        trusted=trusted,
        home=home if home is not None else Path.home(),
        disabled_by=config.disabled_by,
        overlaps=overlaps(config),
        dialects_off=dialects_off(config, project_dir, trusted=trusted, home=home),
    )
