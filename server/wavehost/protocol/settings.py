"""Wire models of the settings page's methods, and the mapping from the settings service's domain
types to them."""

from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, model_validator

from wavehost.hooks.config import Diagnostic, DiagnosticCode
from wavehost.hooks.dialect_registry import FileFormat
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.payloads import Expected
from wavehost.protocol.inspector import HookRunEntry
from wavehost.settings.errors import ErrorReason, SettingsError
from wavehost.settings.listing import FileSource, HooksListing, ListedFile, ListedHook
from wavehost.settings.prefill import Prefill, Starter
from wavehost.wire import WireModel

HookSource = FileSource
HookDialect = FileFormat


class ProjectInfo(WireModel):
    dir: str
    name: str
    home: str | None = Field(default=None, description="The user's home (to show paths as ~/…)")


class ConfigFileEntry(WireModel):
    source: HookSource
    path: str
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None
    dialect: HookDialect = Field(
        default="wave",
        description="Whose format the file is in (`claude`: Claude Code's own `.claude` files, "
        "which run as Wave's)",
    )
    untrusted: bool | None = Field(
        default=None,
        description="True: a project file of an untrusted workspace; it is listed, nothing in it "
        "is applied",
    )
    ignored_settings: list[str] | None = Field(
        default=None,
        description="The settings this (untrusted) file sets that are not applied, e.g. "
        '["hooks", "disableAllHooks", "provider"]',
    )

    @classmethod
    def of(cls, listed: ListedFile) -> Self:
        file = listed.file
        return cls(
            source=listed.source,
            path=str(file.path),
            exists=file.exists,
            read_only=file.read_only,
            error=file.error,
            plugin=file.plugin,
            dialect=file.file_format,
            untrusted=file.untrusted or None,
            ignored_settings=list(file.ignored) or None,
        )


class HookEntry(WireModel):
    """One listed hook, as compact as the page can read it: 5,000 of them go in one answer.

    Unlike the rest of the wire, a row leaves out what it can: a null or default field is absent,
    and what its config file says (`configFiles[file]`: its path, source, whether it is read-only,
    its plugin, dialect and trust) is not repeated unless the hook differs from its file (then
    the field is there, null included). `catalogueEvent` absent: the same as `event`. The page
    fills a row back in from its file (`webview/src/settings/model.ts`, `rowOf`).
    """

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    id: str
    file: int | None = Field(
        default=None,
        description="Its config file: an index into the answer's `configFiles`; absent only when "
        "its file is not among them (then `path` says where it is)",
    )
    source: HookSource | None = Field(default=None, description="Absent: its file's")
    path: str | None = Field(default=None, description="Absent: its file's")
    pointer: str = Field(description="Where the handler is in its file (JSON pointer)")
    read_only: bool | None = Field(default=None, description="Absent: its file's")
    event: str = Field(description="The event as the file names it (`preToolUse`, `onStop`, …)")
    catalogue_event: str | None = Field(
        default=None,
        description="The wavehost event it runs on (a `HOOK_EVENTS` key, e.g. `PreToolUse`); "
        "absent: the same as `event`",
    )
    matcher: str | None = None
    if_: str | None = Field(
        default=None,
        alias="if",
        description="Claude Code's `if`: the permission rule a tool call must match to start it",
    )
    type: Literal["command", "http", "prompt", "agent", "mcp_tool", "context"] = Field(
        default="command",
        description="How it runs. Claude Code's `http`, `prompt` (a model call), `agent` (a "
        "subagent) and `mcp_tool` run no command: `command` names them (the URL, the prompt, "
        "`server/tool`). Snow's `prompt` (asks the user) and `context` (static text) actions: "
        "`command` holds their text",
    )
    command: str
    timeout: float | None = None
    async_: bool | None = Field(default=None, alias="async")
    async_rewake: bool | None = None
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = Field(default=None, description="Absent: its file's")
    dialect: HookDialect | None = Field(
        default=None, description="Whose format its file is in; absent: its file's"
    )
    untrusted: bool | None = Field(default=None, description="Absent: its file's")
    disabled: bool | None = Field(
        default=None, description="Listed but never run (a Snow action without `enabled: true`)"
    )

    @classmethod
    def of(cls, listed: ListedHook, files: "FileTable | None" = None) -> Self:
        """The row of `listed`. With `files` (the answer's), a compact row: only the fields set
        here are sent (`to_row`), and what its file says is left out; without, a whole row."""
        handler = listed.handler
        path = str(listed.path)
        found = files.get(path) if files is not None else None
        row: dict[str, Any] = {
            "id": handler.id,
            "pointer": handler.pointer,
            "event": handler.event_name,
            "command": handler.command,
        }
        # What its file says too: left out where the same (an explicit null where it differs).
        own = {
            "source": listed.source,
            "read_only": listed.read_only,
            "plugin": handler.plugin,
            "dialect": handler.file_format,
            "untrusted": handler.untrusted or None,
        }
        if found is None:
            row.update(own, path=path)
        else:
            index, file = found
            row["file"] = index
            of_file = {
                "source": file.source,
                "read_only": file.read_only,
                "plugin": file.plugin,
                "dialect": file.dialect,
                "untrusted": file.untrusted,
            }
            row.update((k, v) for k, v in own.items() if v != of_file[k])
        optional = {
            "catalogue_event": handler.event.name if handler.event.name != row["event"] else None,
            "matcher": handler.matcher.source,
            "if_": handler.if_rule,
            "type": handler.kind if handler.kind != "command" else None,
            "timeout": handler.timeout,
            "async_": handler.is_async or None,
            "async_rewake": handler.async_rewake or None,
            "status_message": handler.status_message,
            "description": handler.description,
            "disabled": handler.disabled or None,
        }
        if found is None:
            row.update(optional, catalogue_event=handler.event.name, type=handler.kind)
        else:
            row.update((k, v) for k, v in optional.items() if v is not None)
        return cls(**row)

    def to_row(self) -> dict[str, Any]:
        """Its JSON form: only the fields it was given (`of`)."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class FileTable:
    """The answer's config files by path: each one's index in `configFiles` and its entry (the
    first, should a path be listed twice)."""

    def __init__(self, files: "list[ConfigFileEntry]") -> None:
        self._by_path: dict[str, tuple[int, ConfigFileEntry]] = {}
        for index, entry in enumerate(files):
            self._by_path.setdefault(entry.path, (index, entry))

    def get(self, path: str) -> "tuple[int, ConfigFileEntry] | None":
        return self._by_path.get(path)


class DiagnosticEntryRef(WireModel):
    """The hook entry a diagnostic is about, as written in the file."""

    event: str
    matcher: str | None
    command: str | None
    catalogue_event: str | None = Field(
        default=None, description="The wavehost event its name means in any dialect, if any"
    )


class DiagnosticEntry(WireModel):
    path: str
    pointer: str | None = None
    message: str = Field(description="In English (logs, CLI); the page words `code` itself")
    code: DiagnosticCode = "other"
    args: dict[str, str] = Field(default_factory=dict, description="What fills the code's text")
    entry: DiagnosticEntryRef | None = Field(
        default=None, description="Set when this skipped one hook entry: shown in its place"
    )

    @classmethod
    def of(cls, d: Diagnostic) -> Self:
        entry = d.entry
        ref = (
            None
            if entry is None
            else DiagnosticEntryRef(
                event=entry.event,
                matcher=entry.matcher,
                command=entry.command,
                catalogue_event=_catalogue_event(entry.event),
            )
        )
        return cls(
            path=d.path,
            pointer=d.pointer,
            message=d.message,
            code=d.code,
            args=dict(d.args),
            entry=ref,
        )


def _catalogue_event(name: str) -> str | None:
    """The catalogue event a file's event name stands for, in whichever dialect spells it."""
    for dialect in DIALECTS.values():
        if name in dialect.events:
            return dialect.events[name].name
    return None


class OverlapEntry(WireModel):
    """Hooks of two (or three) dialects that a session runs together on one call."""

    event: str = Field(description="The wavehost event (a `HOOK_EVENTS` key)")
    dialects: list[HookDialect]
    subjects: list[str] = Field(
        description="The tools (or sources) they all fire on; empty: an event without a "
        "matcher, so on every one"
    )


class DialectOffEntry(WireModel):
    """A dialect the user's `hookDialects` switches off."""

    dialect: HookDialect
    hooks: int = Field(description="How many of its hooks would run if it were on")
    file: str = Field(description="The settings file that switches it off")


class HooksListParams(WireModel):
    pass


class HooksListResult(WireModel):
    project: ProjectInfo
    config_files: list[ConfigFileEntry]
    hooks: list[HookEntry]
    diagnostics: list[DiagnosticEntry]
    trusted: bool = Field(
        default=True, description="False: project hooks are listed but never run (untrusted)"
    )
    hooks_disabled_by: str | None = Field(
        default=None,
        description="The file whose disableAllHooks: true is in force (no file-based hook runs)",
    )
    overlaps: list[OverlapEntry] = Field(
        default_factory=list,
        description="Where hooks of two dialects would both fire on one call (the page says so)",
    )
    dialects_off: list[DialectOffEntry] = Field(
        default_factory=list,
        description="Dialects switched off (the chat says so when they have hooks that would run)",
    )

    @classmethod
    def of(cls, listing: HooksListing) -> Self:
        config_files = [ConfigFileEntry.of(f) for f in listing.files]
        files = FileTable(config_files)
        return cls(
            project=ProjectInfo(
                dir=str(listing.project_dir),
                name=listing.project_name,
                home=str(listing.home) if listing.home is not None else None,
            ),
            config_files=config_files,
            hooks=[HookEntry.of(h, files) for h in listing.hooks],
            diagnostics=[DiagnosticEntry.of(d) for d in listing.diagnostics],
            trusted=listing.trusted,
            hooks_disabled_by=str(listing.disabled_by) if listing.disabled_by else None,
            overlaps=[
                OverlapEntry(
                    event=o.event.name, dialects=list(o.dialects), subjects=list(o.subjects)
                )
                for o in listing.overlaps
            ],
            dialects_off=[
                DialectOffEntry(dialect=d.dialect, hooks=d.hooks, file=str(d.file))
                for d in listing.dialects_off
            ],
        )

    def to_wire(self) -> dict[str, Any]:
        """The JSON form; its hook rows compact (`HookEntry`)."""
        wire = self.model_dump(mode="json", by_alias=True, exclude={"hooks"})
        rows = self.model_dump(mode="json", by_alias=True, include={"hooks"}, exclude_unset=True)
        return {**wire, "hooks": rows["hooks"]}


class PayloadProblemEntry(WireModel):
    """One thing wrong with a payload (the page words it in its language)."""

    field: str
    kind: Literal["missing", "type", "choice", "other"]
    expected: Expected | None = Field(default=None, description="kind type: what it must be")
    choices: list[str] = Field(default_factory=list, description="kind choice: what it may be")


class SettingsErrorData(WireModel):
    """`error.data` of a settings request that failed (JSON-RPC code -32803, RequestFailed)."""

    reason: ErrorReason
    path: str | None = None
    message: str
    problems: list[PayloadProblemEntry] = Field(
        default_factory=list, description="invalidPayload: what is wrong with it, field by field"
    )

    @classmethod
    def of(cls, err: SettingsError) -> Self:
        path = str(err.path) if err.path is not None else None
        problems = [
            PayloadProblemEntry(
                field=p.field, kind=p.kind, expected=p.expected, choices=list(p.choices)
            )
            for p in err.problems
        ]
        return cls(reason=err.reason, path=path, message=err.message, problems=problems)


class HooksDeleteParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")


class HooksDeleteResult(WireModel):
    """`deleted`'s `file` is an index into `listing.configFiles`."""

    deleted: HookEntry
    listing: "HooksListResult" = Field(
        description="The list as it is after the delete (what wave/hooks/list would answer now): "
        "no second round trip, and no wave/hooks/changed for this write of the server's own"
    )
    last_runs: list[HookRunEntry] = Field(
        description="The last run of every hook of `listing`, under its id there (what "
        "wave/hooks/history without an id would answer now): the ids after the deleted hook "
        "moved, their runs with them"
    )

    @classmethod
    def of(cls, deleted: ListedHook, listing: HooksListing, last_runs: list[HookRunEntry]) -> Self:
        now = HooksListResult.of(listing)
        files = FileTable(now.config_files)
        return cls(deleted=HookEntry.of(deleted, files), listing=now, last_runs=last_runs)

    def to_wire(self) -> dict[str, Any]:
        """The JSON form; its hook rows compact (`HookEntry`)."""
        wire = self.model_dump(mode="json", by_alias=True, exclude={"deleted", "listing"})
        return {**wire, "deleted": self.deleted.to_row(), "listing": self.listing.to_wire()}


class OpenConfigFileParams(WireModel):
    path: str = Field(min_length=1, description="A config file path that wave/hooks/list reported")
    line: int | None = Field(
        default=None,
        ge=1,
        description="Show this 1-based line (e.g. where the file fails to parse)",
    )
    pointer: str | None = Field(
        default=None,
        max_length=1000,
        description="Show the lines of the entry at this JSON pointer (a hook's `pointer`: Edit "
        "opens the file at the hook's own lines); `line` wins when both are given",
    )


class OpenConfigFileResult(WireModel):
    opened: bool
    reason: Literal["missing", "unsupported", "declined"] | None = Field(
        default=None,
        description="Why not opened: the file does not exist (nothing is created), the client "
        "cannot show documents, or the client declined",
    )


class HooksPrefillParams(WireModel):
    action: Literal["new", "edit"]
    source: HookSource
    id: str | None = Field(default=None, description="The hook to edit (required for edit)")
    locale: str | None = Field(
        default=None,
        description="The prompt's language, as a locale: pages send the one they render in (it "
        "may differ from the workspace's: browser mode's ?locale=); default: the workspace's",
    )
    starter: Starter | None = Field(
        default=None,
        description="new: a starter hook's prompt (the template filled in), as the empty state "
        "offers them",
    )

    @model_validator(mode="after")
    def _edit_names_a_hook(self) -> Self:
        if self.action == "edit" and not self.id:
            raise ValueError('"id" is required when action is "edit"')
        if self.action == "new" and self.source == "plugin":
            raise ValueError("plugin hooks are read-only: new hooks go in user or project settings")
        return self


class HooksPrefillResult(WireModel):
    prompt: str
    config_path: str | None = Field(
        description="Absolute path of the config file to open beside the chat; null if none exists"
    )

    @classmethod
    def of(cls, prefill: Prefill) -> Self:
        path = str(prefill.config_path) if prefill.config_path is not None else None
        return cls(prompt=prefill.prompt, config_path=path)


class HooksChangedParams(WireModel):
    pass


HooksDeleteResult.model_rebuild()
