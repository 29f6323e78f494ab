"""The settings service: what the settings page asks of the host, without any LSP in it."""

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks.config import ConfigFile, HookConfig, HookHandler
from wavehost.hooks.sources import load_hook_config
from wavehost.lsp.protocol import HookEntry, HooksListResult, HooksPrefillParams, HooksPrefillResult
from wavehost.settings.edit import RELOAD, delete_handler
from wavehost.settings.errors import SettingsError
from wavehost.settings.listing import hook_entry, list_hooks, listed_handlers, project_info
from wavehost.settings.prefill import edit_hook_prompt, is_english, new_hook_prompt
from wavehost.settings.snapshot import Inputs, Snapshot


@dataclass
class SettingsService:
    """Lists, deletes and describes the hooks of one project (the session workdir).

    Every hook ever listed is remembered with the fingerprint it had then, so a delete of an entry
    that has since changed or moved is told apart (`conflict`) from one that never existed.
    Methods do blocking file I/O; they are safe to call from several threads.
    """

    project_dir: Path
    home: Path | None = None
    trusted: bool = True
    programmatic: Mapping[str, Any] | None = None
    locale: str | None = None
    _listed: dict[str, tuple[HookHandler, bool]] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    # What the last list was computed from, so that listing unchanged files is only a read.
    _inputs: Inputs | None = field(default=None, init=False)
    _cached: tuple[Snapshot, HooksListResult] | None = field(default=None, init=False)

    def load(self) -> HookConfig:
        return load_hook_config(
            self.project_dir, home=self.home, programmatic=self.programmatic, trusted=self.trusted
        )

    def list_hooks(self) -> HooksListResult:
        inputs = self._inputs
        snapshot = inputs.snapshot() if inputs is not None else None
        cached = self._cached
        if cached is not None and cached[0] == snapshot:
            return cached[1]
        config = self.load()
        result = list_hooks(config, self.project_dir, trusted=self.trusted)
        with self._lock:
            self._listed.update((h.id, (h, ro)) for h, ro in listed_handlers(config))
        self._inputs = self._inputs_of(config)
        # The snapshot was taken before loading: if a file changed meanwhile, the next call
        # sees a different snapshot and loads again. Never cached on a snapshot taken after.
        unchanged = snapshot is not None and self._inputs == inputs
        self._cached = (snapshot, result) if unchanged and snapshot is not None else None
        return result

    def delete(self, hook_id: str) -> HookEntry:
        handler, read_only = self._lookup(hook_id)
        if read_only:
            raise SettingsError("readOnly", _read_only_message(handler), handler.path)
        delete_handler(handler)
        with self._lock:
            self._listed.pop(hook_id, None)
        return hook_entry(handler, read_only)

    def config_file(self, path: str) -> ConfigFile:
        """The listed config file at `path`; any other path is refused (`unknownPath`)."""
        for file in self.load().files:
            if file.source != "programmatic" and str(file.path) == path:
                return file
        message = f"{path} is not one of the hook config files of this workspace."
        raise SettingsError("unknownPath", message, Path(path))

    def prefill(self, params: HooksPrefillParams) -> HooksPrefillResult:
        english = is_english(self.locale)
        if params.action == "edit":
            assert params.id is not None  # the params model requires it for edit
            handler, _ = self._lookup(params.id)
            if handler.source == "plugin":
                raise SettingsError("readOnly", _read_only_message(handler), handler.path)
            assert handler.path is not None
            return HooksPrefillResult(
                prompt=edit_hook_prompt(handler, english), config_path=_existing(handler.path)
            )
        assert params.source != "plugin"  # the params model refuses new plugin hooks
        target = (
            paths.user_settings(self.home)
            if params.source == "user"
            else paths.project_settings(self.project_dir)
        )
        name = project_info(self.project_dir).name
        return HooksPrefillResult(
            prompt=new_hook_prompt(params.source, name, english), config_path=_existing(target)
        )

    def inputs(self) -> Inputs:
        """Every config file the list depends on (existing or not), and the plugins folder."""
        return self._inputs_of(self.load())

    def _inputs_of(self, config: HookConfig) -> Inputs:
        files = frozenset(f.path for f in config.files if f.source != "programmatic")
        return Inputs(files, frozenset({paths.plugins_dir(self.home)}) | config.directories)

    def _lookup(self, hook_id: str) -> tuple[HookHandler, bool]:
        with self._lock:
            found = self._listed.get(hook_id)
        if found is None:  # not listed by this server yet: ids are stable, so look afresh
            self.list_hooks()
            with self._lock:
                found = self._listed.get(hook_id)
        if found is None:
            raise SettingsError("notFound", f"There is no hook with id {hook_id!r}. {RELOAD}")
        return found


def _read_only_message(handler: HookHandler) -> str:
    if handler.source == "plugin":
        return f'This hook comes from the plugin "{handler.plugin}" and cannot be changed here.'
    return f"{handler.path} is read-only for you, so its hooks cannot be changed here."


def _existing(path: Path) -> str | None:
    """Only an existing file is offered to open: no placeholder paths (seed, 边界情况)."""
    return str(path) if path.exists() else None
