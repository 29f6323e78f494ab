"""The settings service: what the settings page asks of the host, in domain types, no LSP in it."""

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks.config import ConfigFile, HookConfig, HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.safe_read import is_regular_file
from wavehost.hooks.sources import load_hook_config
from wavehost.language import language_of
from wavehost.settings.edit import RELOAD, delete_handler
from wavehost.settings.errors import SettingsError
from wavehost.settings.explain import Explanation, explain
from wavehost.settings.listing import (
    FileSource,
    HooksListing,
    ListedHook,
    listing_of,
    project_name,
)
from wavehost.settings.mcp_servers import McpConfig, read_mcp_config
from wavehost.settings.prefill import Prefill, edit_hook_prompt, new_hook_prompt
from wavehost.settings.runlog import RunLog, RunRecord
from wavehost.settings.snapshot import Inputs, Snapshot
from wavehost.settings.trial import parse_payload, sample_payload


@dataclass
class SettingsService:
    """Lists, deletes and describes the hooks of one project (the session workdir).

    Every hook ever listed is remembered with the fingerprint it had then, so a delete of an entry
    that has since changed or moved is told apart (`conflict`) from one that never existed.
    Methods do blocking file I/O; they are safe to call from several threads. An unchanged list
    is the very same `HooksListing` object, so callers may cache what they derive from it.
    """

    project_dir: Path
    home: Path | None = None
    trusted: bool = True
    programmatic: Mapping[str, Any] | None = None
    locale: str | None = None
    _listed: dict[str, ListedHook] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    # What the last list was computed from, so that listing unchanged files is only a read.
    _inputs: Inputs | None = field(default=None, init=False)
    _cached: tuple[Snapshot, HooksListing] | None = field(default=None, init=False)

    def load(self) -> HookConfig:
        return load_hook_config(
            self.project_dir, home=self.home, programmatic=self.programmatic, trusted=self.trusted
        )

    def set_trusted(self, trusted: bool) -> bool:
        """Workspace trust changed (the user granted or revoked it); True if it did change."""
        with self._lock:
            changed, self.trusted = self.trusted != trusted, trusted
            self._cached = None
        return changed

    def list_hooks(self) -> HooksListing:
        inputs = self._inputs
        snapshot = inputs.snapshot() if inputs is not None else None
        cached = self._cached
        if cached is not None and cached[0] == snapshot:
            return cached[1]
        trusted = self.trusted
        config = self.load()
        listing = listing_of(config, self.project_dir, trusted=trusted, home=self.home)
        with self._lock:
            self._listed.update((h.handler.id, h) for h in listing.hooks)
        self._inputs = self._inputs_of(config)
        # The snapshot was taken before loading: if a file changed meanwhile, the next call
        # sees a different snapshot and loads again. Never cached on a snapshot taken after.
        unchanged = snapshot is not None and self._inputs == inputs and self.trusted == trusted
        self._cached = (snapshot, listing) if unchanged and snapshot is not None else None
        return listing

    def delete(self, hook_id: str) -> ListedHook:
        listed = self._lookup(hook_id)
        if listed.read_only:
            raise SettingsError("readOnly", _read_only_message(listed), listed.path)
        delete_handler(listed.handler)
        with self._lock:
            self._listed.pop(hook_id, None)
        return listed

    @cached_property
    def run_log(self) -> RunLog:
        """This project's hook run log (sessions record into it, the page reads it)."""
        return RunLog(paths.run_log(self.project_dir, self.home))

    def handler(self, hook_id: str) -> HookHandler:
        """The listed hook with this id, as the configuration is now."""
        return self._lookup(hook_id).handler

    def history(self, hook_id: str | None) -> list[RunRecord]:
        if hook_id is None:
            return sorted(self.run_log.last_runs().values(), key=lambda r: -r.at)
        return self.run_log.history(hook_id)

    def sample(self, hook_id: str) -> dict[str, Any]:
        handler = self.handler(hook_id)
        seen = self.run_log.recent_events(handler.event.name)
        recent = [e.subject for e in seen if e.subject is not None]
        return sample_payload(handler, self.project_dir, self.home, recent)

    def trial_payload(self, hook_id: str, raw: dict[str, Any]) -> tuple[HookHandler, HookInput]:
        """The hook to test and its checked payload; an inert (untrusted) hook is not run."""
        handler = self.handler(hook_id)
        if handler.untrusted:
            message = (
                f"This workspace is not trusted, so the hooks in {handler.path} do not run, "
                "not even as a test. Trust the workspace first."
            )
            raise SettingsError("untrusted", message, handler.path)
        return handler, parse_payload(handler, raw)

    def explain(self, hook_id: str, session_id: str | None = None) -> Explanation:
        config = self.load()
        handler = next((h for h in config.handlers if h.id == hook_id), None)
        if handler is None:
            raise SettingsError("notFound", f"There is no hook with id {hook_id!r}. {RELOAD}")
        return explain(
            handler,
            config,
            self.run_log,
            trusted=self.trusted,
            disabled_by=config.disabled_by,
            session_id=session_id,
        )

    def config_file(self, path: str) -> ConfigFile:
        """The listed config file at `path` (a hooks or an MCP servers file); any other path is
        refused (`unknownPath`)."""
        for file in self.load().files:
            if file.source != "programmatic" and str(file.path) == path:
                return file
        for mcp in self.mcp_servers().files:
            if str(mcp.path) == path:
                return ConfigFile(mcp.source, mcp.path, mcp.exists, read_only=False)
        message = f"{path} is not one of the hook config files of this workspace."
        raise SettingsError("unknownPath", message, Path(path))

    def _english(self, locale: str | None) -> bool:
        return language_of(locale or self.locale) == "en"

    def prefill_new(self, source: FileSource, locale: str | None = None) -> Prefill:
        """The New prompt, in `locale`'s language (default: the workspace's)."""
        if source == "plugin":
            message = "Plugin hooks are read-only: new hooks go in user or project settings."
            raise SettingsError("readOnly", message)
        english = self._english(locale)
        if source == "user":
            target = paths.user_settings(self.home)
        else:
            target = paths.project_settings(self.project_dir)
        prompt = new_hook_prompt(source, project_name(self.project_dir), english)
        return Prefill(prompt, _existing(target))

    def prefill_edit(self, hook_id: str, locale: str | None = None) -> Prefill:
        listed = self._lookup(hook_id)
        if listed.source == "plugin":
            raise SettingsError("readOnly", _read_only_message(listed), listed.path)
        english = self._english(locale)
        return Prefill(edit_hook_prompt(listed.handler, english), _existing(listed.path))

    def mcp_servers(self) -> McpConfig:
        """The MCP servers the project's sessions start (`settings.mcp_servers`)."""
        return read_mcp_config(self.project_dir, home=self.home, trusted=self.trusted)

    def inputs(self) -> Inputs:
        """Every config file the list depends on (existing or not), and the plugins folder."""
        return self._inputs_of(self.load())

    def _inputs_of(self, config: HookConfig) -> Inputs:
        files = frozenset(f.path for f in config.files if f.source != "programmatic")
        files |= {paths.project_mcp_servers(self.project_dir)}  # the MCP list is beside it
        return Inputs(files, frozenset({paths.plugins_dir(self.home)}) | config.directories)

    def _lookup(self, hook_id: str) -> ListedHook:
        with self._lock:
            found = self._listed.get(hook_id)
        if found is None:  # not listed by this server yet: ids are stable, so look afresh
            self.list_hooks()
            with self._lock:
                found = self._listed.get(hook_id)
        if found is None:
            raise SettingsError("notFound", f"There is no hook with id {hook_id!r}. {RELOAD}")
        return found


def _read_only_message(listed: ListedHook) -> str:
    if listed.source == "plugin":
        return (
            f'This hook comes from the plugin "{listed.handler.plugin}" and cannot be changed here.'
        )
    return f"{listed.path} is read-only for you, so its hooks cannot be changed here."


def _existing(path: Path) -> Path | None:
    """Only an existing file is offered to open: no placeholder paths (seed, 边界情况)."""
    return path if is_regular_file(path) else None
