"""Hook configuration: where it comes from, how each entry is validated, how sources merge.

Format as Claude Code's settings: `{"hooks": {Event: [{"matcher"?, "hooks": [handler…]}]},
"disableAllHooks"?: bool, "enabledPlugins"?: {name: bool}}`. Validation is per entry: a bad entry
yields a `Diagnostic` (file, JSON pointer, message) and is skipped; everything else still loads.
Order: programmatic, plugins, user, project, local.
"""

import dataclasses
import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from wavehost import paths
from wavehost.hooks.catalogue import EVENTS_BY_NAME, Event
from wavehost.hooks.jsonerror import locate
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.matcher import Matcher, compile_matcher
from wavehost.hooks.safe_read import JsonRead, is_directory, read_json
from wavehost.hooks.settings_files import SettingsFile, WaveSettings, kind_of, read_settings

Source = Literal["programmatic", "plugin", "user", "project"]
PROGRAMMATIC_PATH = "<programmatic>"
HANDLER_FIELDS = frozenset(
    {"type", "command", "timeout", "async", "asyncRewake", "statusMessage", "description"}
)


# What a diagnostic is about, as a code the settings page words in its own language (`message`
# is the English text for logs and the CLI); `args` fill the code's text.
DiagnosticCode = Literal[
    "other",  # no code: the page shows `message`
    "cannotRead",
    "invalidJson",
    "trailingComma",
    "missingComma",
    "notAnObject",
    "hooksNotObject",
    "unknownEvent",
    "groupsNotList",
    "groupNotObject",
    "matcherNotString",
    "invalidMatcher",
    "handlersEmpty",
    "handlerNotObject",
    "unsupportedType",
    "typeNotCommand",
    "commandEmpty",
    "invalidTimeout",
    "notBoolean",
    "notString",
    "unsupportedField",
    "switchNotBoolean",
    "pluginsNotObject",
    "pluginNotInstalled",
]


@dataclass(frozen=True, slots=True)
class EntryRef:
    """The hook entry a diagnostic is about, as written (so the page can show it in place)."""

    event: str
    matcher: str | None = None
    command: str | None = None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    path: str
    pointer: str | None
    message: str
    code: DiagnosticCode = "other"
    args: Mapping[str, str] = field(default_factory=dict)
    entry: EntryRef | None = None  # set when one hook entry (or group) was skipped


@dataclass(frozen=True, slots=True)
class ConfigFile:
    source: Source
    path: Path
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None
    untrusted: bool = False  # a project file of an untrusted workspace: listed, never applied
    ignored: tuple[str, ...] = ()  # the settings it sets that are not applied (untrusted)


@dataclass(frozen=True, slots=True)
class HookHandler:
    """One configured command hook, with where it came from."""

    id: str
    event: Event
    matcher: Matcher
    command: str
    source: Source
    path: Path | None
    pointer: str
    fingerprint: str
    timeout: float | None = None
    is_async: bool = False
    async_rewake: bool = False
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = None
    plugin_root: Path | None = None
    untrusted: bool = False

    @property
    def in_background(self) -> bool:
        return self.is_async or self.async_rewake

    @property
    def file_based(self) -> bool:
        return self.source != "programmatic"


@dataclass(frozen=True)
class HookConfig:
    handlers: tuple[HookHandler, ...] = ()
    files: tuple[ConfigFile, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    hooks_disabled: bool = False  # disableAllHooks: file-based hooks do not run
    disabled_by: Path | None = None  # the file whose disableAllHooks: true is in force

    def runnable(self) -> tuple[HookHandler, ...]:
        """The handlers that may run, in config order."""
        return tuple(
            h
            for h in self.handlers
            if not h.untrusted and not (self.hooks_disabled and h.file_based)
        )


@dataclass
class _Reader:
    """Validates one hooks object, collecting handlers and diagnostics."""

    source: Source
    path: Path | None
    untrusted: bool = False
    plugin: str | None = None
    plugin_root: Path | None = None
    pointer_prefix: tuple[str, ...] = ("hooks",)
    handlers: list[HookHandler] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else PROGRAMMATIC_PATH

    def problem(
        self,
        pointer: str,
        message: str,
        code: DiagnosticCode,
        entry: EntryRef | None = None,
        **args: str,
    ) -> None:
        self.diagnostics.append(Diagnostic(self.label, pointer, message, code, args, entry))

    def read(self, hooks: Any) -> None:
        base = pointer_join(*self.pointer_prefix)
        if not isinstance(hooks, Mapping):
            message = f'"hooks" must be an object of events, not {kind_of(hooks)}'
            self.problem(base, message, "hooksNotObject", kind=kind_of(hooks))
            return
        for name, groups in hooks.items():
            event = EVENTS_BY_NAME.get(name)
            where = pointer_join(*self.pointer_prefix, name)
            if event is None:
                suggestion = _suggest(name)
                message = f'unknown hook event "{name}"{_suggestion_text(suggestion)}'
                self.problem(
                    where,
                    message,
                    "unknownEvent",
                    EntryRef(name),
                    event=name,
                    suggestion=suggestion or "",
                )
            elif not isinstance(groups, list):
                message = f"{name} must be a list of matcher groups, not {kind_of(groups)}"
                self.problem(where, message, "groupsNotList", EntryRef(name), kind=kind_of(groups))
            else:
                for index, group in enumerate(groups):
                    self._group(event, group, (*self.pointer_prefix, name, str(index)))
        self.handlers = self._identified(self.handlers)

    def _identified(self, handlers: list[HookHandler]) -> list[HookHandler]:
        """Give each handler its id: file, position, content, and how many identical entries the
        file has. The count makes ids unreusable: when one of two identical entries is deleted,
        the other one moves up to its position but does not take over its id, so a retried or
        doubled delete finds nothing instead of deleting the twin."""
        twins = Counter(h.fingerprint for h in handlers)
        return [
            dataclasses.replace(
                h,
                id=_digest(
                    self.source, self.label, h.pointer, h.fingerprint, str(twins[h.fingerprint])
                ),
            )
            for h in handlers
        ]

    def _group(self, event: Event, group: Any, at: tuple[str, ...]) -> None:
        where = pointer_join(*at)
        if not isinstance(group, Mapping):
            message = f'a matcher group must be an object with "hooks", not {kind_of(group)}'
            self.problem(
                where, message, "groupNotObject", EntryRef(event.name), kind=kind_of(group)
            )
            return
        raw_matcher = group.get("matcher")
        commands = group.get("hooks")
        first = commands[0] if isinstance(commands, list) and commands else None
        command = first.get("command") if isinstance(first, Mapping) else None
        if raw_matcher is not None and not isinstance(raw_matcher, str):
            entry = EntryRef(event.name, None, command if isinstance(command, str) else None)
            message = f"matcher must be a string, not {kind_of(raw_matcher)}"
            self.problem(
                where + "/matcher", message, "matcherNotString", entry, kind=kind_of(raw_matcher)
            )
            return
        try:
            matcher = compile_matcher(raw_matcher)
        except re.error as err:
            entry = EntryRef(event.name, raw_matcher, command if isinstance(command, str) else None)
            message = f"invalid regular expression {raw_matcher!r}: {err}"
            self.problem(
                where + "/matcher",
                message,
                "invalidMatcher",
                entry,
                matcher=str(raw_matcher),
                error=str(err),
            )
            return
        handlers = group.get("hooks")
        if not isinstance(handlers, list) or not handlers:
            entry = EntryRef(event.name, raw_matcher)
            message = '"hooks" must be a non-empty list of hook commands'
            self.problem(where + "/hooks", message, "handlersEmpty", entry)
            return
        for index, handler in enumerate(handlers):
            self._handler(event, matcher, handler, (*at, "hooks", str(index)))

    def _handler(self, event: Event, matcher: Matcher, raw: Any, at: tuple[str, ...]) -> None:
        where = pointer_join(*at)
        error = _handler_error(raw)
        if error is not None:
            field_name, message, code = error
            command = raw.get("command") if isinstance(raw, Mapping) else None
            entry = EntryRef(
                event.name, matcher.source, command if isinstance(command, str) else None
            )
            args = {"field": field_name} if field_name else {}
            if code == "unsupportedType" and isinstance(raw, Mapping):
                args["type"] = str(raw.get("type"))
            if code == "handlerNotObject":
                args["kind"] = kind_of(raw)
            pointer = where + (f"/{field_name}" if field_name else "")
            self.problem(pointer, message, code, entry, **args)
            return
        content = fingerprint(event.name, matcher.source, raw)
        self.handlers.append(
            HookHandler(
                id="",  # see _identified
                event=event,
                matcher=matcher,
                command=raw["command"],
                source=self.source,
                path=self.path,
                pointer=where,
                fingerprint=content,
                timeout=float(raw["timeout"]) if "timeout" in raw else None,
                is_async=raw.get("async", False),
                async_rewake=raw.get("asyncRewake", False),
                status_message=raw.get("statusMessage"),
                description=raw.get("description"),
                plugin=self.plugin,
                plugin_root=self.plugin_root,
                untrusted=self.untrusted,
            )
        )


def _handler_error(raw: Any) -> tuple[str, str, DiagnosticCode] | None:
    """The first thing wrong with a handler entry, as (field, message, code)."""
    if not isinstance(raw, Mapping):
        return "", f"a hook must be an object, not {kind_of(raw)}", "handlerNotObject"
    kind = raw.get("type")
    if kind != "command":
        if kind in ("http", "prompt", "agent", "mcp_tool"):
            message = f'hook type "{kind}" is not supported; only "command" hooks run'
            return "type", message, "unsupportedType"
        return "type", '"type" must be "command"', "typeNotCommand"
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        return "command", '"command" must be a non-empty string', "commandEmpty"
    timeout = raw.get("timeout")
    if "timeout" in raw and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
    ):
        return "timeout", '"timeout" must be a positive number of seconds', "invalidTimeout"
    for flag in ("async", "asyncRewake"):
        if flag in raw and not isinstance(raw[flag], bool):
            return flag, f'"{flag}" must be true or false', "notBoolean"
    for text in ("statusMessage", "description"):
        if text in raw and not isinstance(raw[text], str):
            return text, f'"{text}" must be a string', "notString"
    unsupported = sorted(k for k in raw if k not in HANDLER_FIELDS and k in ("if", "args", "shell"))
    if unsupported:
        message = f'"{unsupported[0]}" is not supported; the hook was skipped'
        return unsupported[0], message, "unsupportedField"
    return None


def fingerprint(event: str, matcher: str | None, raw: Any) -> str:
    """What makes two entries "the same hook": its event, matcher and handler JSON."""
    canonical = json.dumps([event, matcher, raw], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def _suggest(name: str) -> str | None:
    """The event `name` means when only its case is wrong (event names are case-sensitive)."""
    for known in EVENTS_BY_NAME:
        if known.lower() == str(name).lower():
            return known
    return None


def _suggestion_text(suggestion: str | None) -> str:
    if suggestion is None:
        return ""
    return f' (did you mean "{suggestion}"? event names are case-sensitive)'


def handlers_in(source: Source, path: Path, document: Mapping[str, Any]) -> list[HookHandler]:
    """The hooks a settings document at `path` defines, with the ids a list gives them."""
    reader = _Reader(source, path)
    if "hooks" in document:
        reader.read(document["hooks"])
    return reader.handlers


def _settings_file(file: SettingsFile) -> ConfigFile:
    error = file.error
    return ConfigFile(
        file.source,
        file.path,
        file.read.exists,
        file.read_only if file.read.exists else False,
        error=error,
        untrusted=not file.trusted,
        ignored=file.ignored,
    )


def _read_problems(read: JsonRead, error: str | None) -> list[Diagnostic]:
    """A file's own problems: why it cannot be used, else its warnings (duplicate keys)."""
    if error is not None:
        return [_file_problem(read, error)]
    return [Diagnostic(str(read.path), at or None, message) for at, message in read.warnings]


def _file_problem(read: JsonRead, error: str) -> Diagnostic:
    """Why a file cannot be used, with a code; a syntax error at the line that needs the fix."""
    path = str(read.path)
    problem = read.problem
    if problem is not None and problem.kind == "syntax" and read.text is not None:
        try:
            json.loads(read.text)
        except json.JSONDecodeError as err:
            found = locate(read.text, err)
            args = {"line": str(found.line), "column": str(found.column), "detail": found.detail}
            return Diagnostic(path, None, found.message, found.code, args)
    if problem is None:  # readable JSON of the wrong shape
        return Diagnostic(path, None, error, "notAnObject")
    return Diagnostic(path, None, error, "cannotRead", {"reason": error})


def load_hook_config(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    programmatic: Mapping[str, Any] | None = None,
    trusted: bool = True,
) -> HookConfig:
    """Load every hook source. Never raises for bad configuration: problems become diagnostics."""
    settings = read_settings(project_dir, home=home, trusted=trusted)
    readers: list[_Reader] = []
    if programmatic:
        reader = _Reader("programmatic", None, pointer_prefix=())
        reader.read(programmatic)
        readers.append(reader)

    plugin_files, plugin_readers, plugin_problems = _plugins(settings, home)
    readers += plugin_readers
    diagnostics: list[Diagnostic] = []
    for file in settings.files:
        diagnostics += _read_problems(file.read, file.error)
        document = file.document
        if document is not None and "hooks" in document:
            # An untrusted project's hooks are read to be listed; they never run.
            reader = _Reader(file.source, file.path, untrusted=not file.trusted)
            reader.read(document["hooks"])
            readers.append(reader)

    files = tuple(_settings_file(file) for file in settings.files) + plugin_files
    diagnostics += plugin_problems
    diagnostics += [d for reader in readers for d in reader.diagnostics]
    diagnostics += _switch_problems(settings)
    disabled_by = _disabled_by(settings)
    return HookConfig(
        handlers=tuple(h for reader in readers for h in reader.handlers),
        files=files,
        diagnostics=tuple(diagnostics),
        hooks_disabled=disabled_by is not None,
        disabled_by=disabled_by,
    )


def _disabled_by(settings: WaveSettings) -> Path | None:
    """The file whose `disableAllHooks: true` is in force: the most specific trusted file that
    sets it (local > project > user) decides; None when hooks are on."""
    decided: tuple[Path, bool] | None = None
    for file, setting in settings.values("disableAllHooks"):
        if isinstance(setting, bool):
            decided = (file.path, setting)
    return decided[0] if decided is not None and decided[1] else None


def _switch_problems(settings: WaveSettings) -> list[Diagnostic]:
    return [
        Diagnostic(
            str(file.path),
            "/disableAllHooks",
            '"disableAllHooks" must be true or false',
            "switchNotBoolean",
        )
        for file, setting in settings.values("disableAllHooks")
        if not isinstance(setting, bool)
    ]


def _plugins(
    settings: WaveSettings, home: Path | None
) -> tuple[tuple[ConfigFile, ...], list[_Reader], list[Diagnostic]]:
    """Hooks of each plugin enabled in settings (`enabledPlugins`, later files override)."""
    enabled: dict[str, bool] = {}
    enabled_in: dict[str, tuple[Path, str]] = {}  # where each plugin was switched on
    problems: list[Diagnostic] = []
    for file, setting in settings.values("enabledPlugins"):
        if not isinstance(setting, Mapping) or not all(
            isinstance(v, bool) for v in setting.values()
        ):
            message = '"enabledPlugins" must be an object of plugin names to true/false'
            problems.append(
                Diagnostic(str(file.path), "/enabledPlugins", message, "pluginsNotObject")
            )
            continue
        for key, on in setting.items():
            name = str(key).split("@", 1)[0]
            enabled[name] = on
            enabled_in[name] = (file.path, pointer_join("enabledPlugins", str(key)))

    files: list[ConfigFile] = []
    readers: list[_Reader] = []
    root_dir = paths.plugins_dir(home)
    for name, on in enabled.items():
        root = root_dir / name
        if not on:
            continue
        if not is_directory(root):
            where, pointer = enabled_in[name]
            message = (
                f'enabled plugin "{name}" is not installed (no folder {root}): '
                f"install it or remove it from enabledPlugins"
            )
            problems.append(
                Diagnostic(
                    str(where),
                    pointer,
                    message,
                    "pluginNotInstalled",
                    {"name": name, "folder": str(root)},
                )
            )
            continue
        hooks_file = paths.plugin_hooks_file(root)
        read = read_json(hooks_file)
        if not read.exists:
            continue
        document = read.document if isinstance(read.document, dict) else None
        error = read.error
        if error is None and document is None:
            error = f"must contain a JSON object, not {kind_of(read.document)}"
        files.append(ConfigFile("plugin", hooks_file, True, True, error=error, plugin=name))
        problems += _read_problems(read, error)
        if document is not None and "hooks" in document:
            reader = _Reader("plugin", hooks_file, plugin=name, plugin_root=root)
            reader.read(document["hooks"])
            readers.append(reader)
    return tuple(files), readers, problems
