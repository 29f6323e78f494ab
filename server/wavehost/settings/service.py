"""The settings service: what the settings page asks of the host, in domain types, no LSP in it."""

import dataclasses
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pydantic_core
from pydantic import ValidationError

from wavehost import paths
from wavehost.hooks.config import ConfigFile, HookConfig, HookHandler
from wavehost.hooks.jsonpointer import pointer_split
from wavehost.hooks.payloads import HookInput, plain_problems, problems_of
from wavehost.hooks.run_inputs import KeptInput, payload_of
from wavehost.hooks.runlog import RunLog, RunRecord, key_of
from wavehost.hooks.safe_read import is_regular_file, read_json
from wavehost.hooks.sources import load_hook_config
from wavehost.language import language_of
from wavehost.settings.edit import RELOAD, delete_handler
from wavehost.settings.errors import SettingsError
from wavehost.settings.explain import Explanation, explain
from wavehost.settings.jsontext import member_lines
from wavehost.settings.listing import (
    FileSource,
    HooksListing,
    ListedHook,
    listing_of,
    project_name,
)
from wavehost.settings.mcp_servers import McpConfig, read_mcp_config
from wavehost.settings.prefill import Prefill, Starter, edit_hook_prompt, new_hook_prompt
from wavehost.settings.snapshot import Inputs, Snapshot, Stats, settled
from wavehost.settings.trial import edited_stdin, parse_payload, sample_payload, shown_stdin
from wavehost.settings.trust import Trust


@dataclass(frozen=True)
class Sample:
    payload: dict[str, Any]  # the event's payload (what a test takes back)
    stdin: str  # what the hook reads on stdin, in its dialect's shape, laid out


@dataclass(frozen=True)
class Trial:
    handler: HookHandler
    payload: HookInput
    stdin: bytes | None  # what to send; None: the payload as the hook's dialect renders it


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
    # The server's one trust state, always given: nothing here assumes the workspace is trusted.
    trust: Trust = field(kw_only=True)
    programmatic: Mapping[str, Any] | None = None
    locale: str | None = None
    _listed: dict[str, ListedHook] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    # What the last list was computed from (trust, and the files), so that listing unchanged
    # files is only a read.
    _inputs: Inputs | None = field(default=None, init=False)
    _cached: tuple[bool, Snapshot, HooksListing] | None = field(default=None, init=False)
    # The files' metadata when the cached list's snapshot was taken, once they had settled
    # (`snapshot.settled`): while it (and the trust) stays the same, the list is the cached one
    # without a read.
    _settled: Stats | None = field(default=None, init=False)

    @property
    def trusted(self) -> bool:
        return self.trust.trusted

    def load(self) -> HookConfig:
        return load_hook_config(
            self.project_dir, home=self.home, programmatic=self.programmatic, trusted=self.trusted
        )

    def list_hooks(self) -> HooksListing:
        trusted = self.trusted
        inputs, cached, settled_stats = self._inputs, self._cached, self._settled
        if cached is not None and cached[0] != trusted:
            cached = settled_stats = None  # the trust changed: listed anew
        if inputs is None:
            snapshot = None
        else:
            # Metadata first: a file changed after it was taken makes the next call's differ.
            taken, stats = time.time(), inputs.stats()
            if cached is not None and settled_stats is not None and stats == settled_stats:
                return cached[2]
            snapshot = inputs.snapshot()
            if cached is not None and cached[1] == snapshot:
                self._settled = stats if settled(stats, taken) else None
                return cached[2]
        self._settled = None
        config = self.load()
        listing = listing_of(config, self.project_dir, trusted=trusted, home=self.home)
        with self._lock:
            self._listed.update((h.handler.id, h) for h in listing.hooks)
        self._inputs = self._inputs_of(config)
        # The snapshot was taken before loading: if a file changed meanwhile, the next call
        # sees a different snapshot and loads again. Never cached on a snapshot taken after.
        unchanged = snapshot is not None and self._inputs == inputs
        self._cached = (trusted, snapshot, listing) if unchanged and snapshot is not None else None
        return listing

    def listing_now(self) -> tuple[HooksListing, Snapshot | None]:
        """The list as the files are now, and the snapshot of its inputs taken before it was
        made (a change made meanwhile differs from it: it is news to the watcher)."""
        inputs = self._inputs
        snapshot = inputs.snapshot() if inputs is not None else None
        return self.list_hooks(), snapshot

    def delete(self, hook_id: str) -> ListedHook:
        listed = self._lookup(hook_id)
        if listed.read_only:
            raise SettingsError("readOnly", _read_only_message(listed), listed.path)
        within = self.project_dir if listed.handler.source == "project" else None
        delete_handler(listed.handler, within)
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
        """One hook's runs, newest first; or (no id) the last run of every listed hook. Either
        way under the hook's id as listed now (its runs are kept under its identity)."""
        if hook_id is None:
            return self.last_runs(self.list_hooks())
        handler = self.handler(hook_id)
        runs = self.run_log.history(key_of(handler), handler.id)
        return [dataclasses.replace(r, hook_id=handler.id) for r in runs]

    def last_runs(self, listing: HooksListing) -> list[RunRecord]:
        """The last run of every hook of `listing`, newest first, under its id there (a delete
        moves the ids of the hooks after it: their runs follow them)."""
        last = self.run_log.last_runs()
        found = []
        for listed in listing.hooks:
            handler = listed.handler
            run = last.get(key_of(handler)) or last.get(handler.id)
            if run is not None:
                found.append(dataclasses.replace(run, hook_id=handler.id))
        return sorted(found, key=lambda r: -r.at)

    def sample(self, hook_id: str, input_id: str | None = None) -> Sample:
        """What Test shows: a payload of the hook's event its matcher accepts (or a run's kept
        input), and the stdin the hook reads in its dialect's shape."""
        handler = self.handler(hook_id)
        if input_id is not None:
            kept = self._kept(input_id)
            payload = self._kept_payload(handler, kept)
            doc = pydantic_core.to_jsonable_python(kept.payload)
            return Sample(doc, shown_stdin(handler, payload, kept.stdin))
        seen = self.run_log.recent_events(handler.event.name)
        recent = [e.subject for e in seen if e.subject is not None]
        doc = sample_payload(handler, self.project_dir, self.home, recent)
        return Sample(doc, shown_stdin(handler, parse_payload(handler, doc)))

    def trial_payload(
        self,
        hook_id: str,
        raw: dict[str, Any] | None,
        stdin: str | None = None,
        input_id: str | None = None,
    ) -> Trial:
        """The hook to test, its checked payload and the stdin to send (None: the payload as its
        dialect renders it). A kept input runs as it was received; an edited stdin is what a
        Wave hook's payload is read from. An inert (untrusted) hook is not run."""
        handler = self.handler(hook_id)
        if handler.untrusted:
            message = (
                f"This workspace is not trusted, so the hooks in {handler.path} do not run, "
                "not even as a test. Trust the workspace first."
            )
            raise SettingsError("untrusted", message, handler.path)
        sent: bytes | None = None
        if raw is None and input_id is not None:
            kept = self._kept(input_id)
            payload = self._kept_payload(handler, kept)
            sent = kept.stdin.encode("utf-8") if kept.stdin is not None else None
        else:
            payload = parse_payload(handler, raw or {})
        if stdin is not None:
            document, sent = edited_stdin(handler, stdin)
            if handler.dialect == "wave":  # its stdin is its payload
                payload = parse_payload(handler, document)
        return Trial(handler, payload, sent)

    def _kept(self, input_id: str) -> KeptInput:
        kept = self.run_log.inputs.get(input_id)
        if kept is None:
            message = "That run's input is no longer kept (only the newest runs' inputs are)."
            raise SettingsError("inputNotKept", message)
        return kept

    @staticmethod
    def _kept_payload(handler: HookHandler, kept: KeptInput) -> HookInput:
        try:
            payload = payload_of(handler, kept.payload)
        except ValidationError as err:
            event, problems = handler.event.name, plain_problems(err)
            message = f"That run's input is not a {event} input: {problems}."
            raise SettingsError("invalidPayload", message, problems=problems_of(err)) from err
        if payload.hook_event_name != handler.event.name:
            raise SettingsError("invalidPayload", f"That run was of {payload.hook_event_name}.")
        return payload

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

    def entry_lines(self, file: ConfigFile, pointer: str) -> tuple[int, int] | None:
        """The first and last lines of the entry at `pointer` in a listed config file."""
        text = read_json(file.path).text
        return member_lines(text, pointer_split(pointer)) if text is not None else None

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

    def prefill_new(
        self, source: FileSource, locale: str | None = None, starter: Starter | None = None
    ) -> Prefill:
        """The New prompt (or a starter hook's), in `locale`'s language (default: the
        workspace's)."""
        if source == "plugin":
            message = "Plugin hooks are read-only: new hooks go in user or project settings."
            raise SettingsError("readOnly", message)
        english = self._english(locale)
        if source == "user":
            target = paths.user_settings(self.home)
        else:
            target = paths.project_settings(self.project_dir)
        prompt = new_hook_prompt(source, project_name(self.project_dir), english, starter)
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
        directories = frozenset({paths.plugins_dir(self.home)}) | config.directories
        return Inputs(files, directories, project=self.project_dir)

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
