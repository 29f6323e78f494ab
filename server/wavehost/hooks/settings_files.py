"""The settings files (user, project, local), read once, with workspace trust applied.

This is the one reader of their keys: the hook configuration takes `hooks`, `disableAllHooks` and
`enabledPlugins` from it, the chat takes `provider`, `model` and `script`. Workspace trust is
applied here and only here: the files of an untrusted project are read (to be listed, their hooks
shown as inert) but contribute nothing that runs or changes what runs — no hooks, no kill switch,
no plugins, no provider, model or script. `ignored` names what such a file would have changed.

Claude Code's own files (`~/.claude/settings.json`, `.claude/settings.json`,
`.claude/settings.local.json`) are read beside Wave's, each after the Wave file of its level, for
the keys that mean the same there (`CLAUDE_KEYS`: their hooks and the kill switch); their other
keys (Claude Code's own `model`, say) are not wavehost's. The user turns them off with
`"hookDialects": {"claude": false}` in `~/.wave/settings.json`.
"""

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from wavehost import paths
from wavehost.hooks.safe_read import JsonRead, read_json

SettingsSource = Literal["user", "project"]
SettingsFormat = Literal["wave", "claude"]  # a Wave settings file, or one of Claude Code's own

# The keys wavehost acts on. Each one changes what runs (`hooks`: which commands;
# `disableAllHooks`: whether any do; `enabledPlugins`: whose hooks; `provider`, `model`, `script`:
# which model drives the tools), so an untrusted project may set none of them.
ACTIVE_KEYS = ("hooks", "disableAllHooks", "enabledPlugins", "provider", "model", "script")
# What wavehost reads from Claude Code's files (the rest of them is Claude Code's business).
CLAUDE_KEYS = ("hooks", "disableAllHooks", "allowedHttpHookUrls", "httpHookAllowedEnvVars")
DIALECTS_KEY = "hookDialects"


@dataclass(frozen=True, slots=True)
class SettingsFile:
    source: SettingsSource
    read: JsonRead
    trusted: bool  # False: a project file of an untrusted workspace, only listed
    format: SettingsFormat = "wave"

    def takes(self, key: str) -> bool:
        """Whether wavehost reads `key` from this file (Claude Code's: only `CLAUDE_KEYS`)."""
        return self.format == "wave" or key in CLAUDE_KEYS

    @property
    def path(self) -> Path:
        return self.read.path

    @property
    def document(self) -> Mapping[str, Any] | None:
        """The file's object; None when it is missing, unreadable or not an object."""
        document = self.read.document
        return document if isinstance(document, dict) else None

    @property
    def error(self) -> str | None:
        if self.read.error is not None:
            return self.read.error
        if self.read.exists and self.document is None:
            return f"must contain a JSON object, not {kind_of(self.read.document)}"
        return None

    @property
    def read_only(self) -> bool:
        return not (os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK))

    @property
    def ignored(self) -> tuple[str, ...]:
        """The keys this file sets that are not applied because the workspace is untrusted."""
        if self.trusted or self.document is None:
            return ()
        return tuple(key for key in ACTIVE_KEYS if key in self.document and self.takes(key))


@dataclass(frozen=True)
class WaveSettings:
    files: tuple[SettingsFile, ...]  # user, project, local: least to most specific

    def values(self, key: str) -> Iterator[tuple[SettingsFile, Any]]:
        """Each value of `key` that applies (trusted files that take it), least specific first."""
        for file in self.files:
            document = file.document
            if file.trusted and document is not None and key in document and file.takes(key):
                yield file, document[key]

    def value(self, key: str) -> Any:
        """The value of `key` from the most specific trusted file that sets it, else None."""
        found = None
        for _, value in self.values(key):
            found = value
        return found


SettingsPaths = list[tuple[SettingsSource, Path, Path]]  # (level, Wave's file, Claude Code's)


def _paths(project_dir: Path | None, home: Path | None) -> SettingsPaths:
    found: SettingsPaths = [("user", paths.user_settings(home), paths.claude_user_settings(home))]
    if project_dir is not None:
        found += [
            (
                "project",
                paths.project_settings(project_dir),
                paths.claude_project_settings(project_dir),
            ),
            (
                "project",
                paths.local_settings(project_dir),
                paths.claude_local_settings(project_dir),
            ),
        ]
    return found


def dialect_on(user_document: Mapping[str, Any] | None, name: str) -> bool:
    """Whether the user's `hookDialects` leaves dialect `name` on (anything but `false` does)."""
    switches = user_document.get(DIALECTS_KEY) if user_document is not None else None
    return not (isinstance(switches, Mapping) and switches.get(name) is False)


def read_settings(
    project_dir: Path | None, *, home: Path | None = None, trusted: bool = True
) -> WaveSettings:
    """Read the user's and the project's settings files (Claude Code's too, unless the user
    turned them off). Never raises for what is in them."""
    files: list[SettingsFile] = []
    claude = True
    for source, wave_path, claude_path in _paths(project_dir, home):
        applies = trusted or source == "user"
        within = None if source == "user" else project_dir  # a project's files stay in it
        wave = SettingsFile(source, read_json(wave_path, within=within), applies)
        if source == "user":
            claude = dialect_on(wave.document, "claude")
        files.append(wave)
        if claude:
            claude_read = read_json(claude_path, within=within)
            files.append(SettingsFile(source, claude_read, applies, "claude"))
    return WaveSettings(tuple(files))


def kind_of(value: Any) -> str:
    """How a diagnostic names a JSON value's type."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")
