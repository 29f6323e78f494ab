"""Hook configuration: where it comes from, how each entry is validated, how sources merge.

Format as Claude Code's settings: `{"hooks": {Event: [{"matcher"?, "hooks": [handler…]}]},
"disableAllHooks"?: bool, "enabledPlugins"?: {name: bool}}`. Validation is per entry: a bad entry
yields a `Diagnostic` (file, JSON pointer, message) and is skipped; everything else still loads.
Order: programmatic, plugins, user, project, local.
"""

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from wavehost import paths
from wavehost.hooks.catalogue import EVENTS_BY_NAME, Event
from wavehost.hooks.jsonerror import locate
from wavehost.hooks.matcher import Matcher, compile_matcher

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


def pointer_join(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) from its parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_split(pointer: str) -> list[str | int]:
    """The parts of a JSON pointer; all-digit parts are list indexes."""
    parts: list[str | int] = []
    for raw in pointer.split("/")[1:]:
        part = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(part) if part.isdigit() else part)
    return parts


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
            message = f'"hooks" must be an object of events, not {_kind(hooks)}'
            self.problem(base, message, "hooksNotObject", kind=_kind(hooks))
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
                message = f"{name} must be a list of matcher groups, not {_kind(groups)}"
                self.problem(where, message, "groupsNotList", EntryRef(name), kind=_kind(groups))
            else:
                for index, group in enumerate(groups):
                    self._group(event, group, (*self.pointer_prefix, name, str(index)))

    def _group(self, event: Event, group: Any, at: tuple[str, ...]) -> None:
        where = pointer_join(*at)
        if not isinstance(group, Mapping):
            message = f'a matcher group must be an object with "hooks", not {_kind(group)}'
            self.problem(where, message, "groupNotObject", EntryRef(event.name), kind=_kind(group))
            return
        raw_matcher = group.get("matcher")
        commands = group.get("hooks")
        first = commands[0] if isinstance(commands, list) and commands else None
        command = first.get("command") if isinstance(first, Mapping) else None
        if raw_matcher is not None and not isinstance(raw_matcher, str):
            entry = EntryRef(event.name, None, command if isinstance(command, str) else None)
            message = f"matcher must be a string, not {_kind(raw_matcher)}"
            self.problem(
                where + "/matcher", message, "matcherNotString", entry, kind=_kind(raw_matcher)
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
                args["kind"] = _kind(raw)
            pointer = where + (f"/{field_name}" if field_name else "")
            self.problem(pointer, message, code, entry, **args)
            return
        content = fingerprint(event.name, matcher.source, raw)
        self.handlers.append(
            HookHandler(
                id=_digest(self.source, self.label, where, content),
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
        return "", f"a hook must be an object, not {_kind(raw)}", "handlerNotObject"
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


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


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


@dataclass(frozen=True)
class _Loaded:
    file: ConfigFile
    document: Mapping[str, Any] | None
    diagnostics: tuple[Diagnostic, ...] = ()


def _read_json(
    source: Source, path: Path, *, read_only: bool, plugin: str | None = None
) -> _Loaded:
    """Read one config file. A missing file is normal; anything else wrong is reported."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return _Loaded(ConfigFile(source, path, False, read_only, plugin=plugin), None)
    except (OSError, UnicodeDecodeError) as err:
        reason = str(err.strerror if isinstance(err, OSError) else err)
        return _failed(
            source, path, f"cannot read: {reason}", read_only, plugin, "cannotRead", reason=reason
        )
    if not text.strip():
        return _Loaded(
            ConfigFile(source, path, True, _read_only(path, read_only), plugin=plugin), {}
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        found = locate(text, err)
        return _failed(
            source,
            path,
            found.message,
            read_only,
            plugin,
            found.code,
            line=str(found.line),
            column=str(found.column),
            detail=found.detail,
        )
    if not isinstance(document, dict):
        message = f"must contain a JSON object, not {_kind(document)}"
        return _failed(
            source, path, message, read_only, plugin, "notAnObject", kind=_kind(document)
        )
    return _Loaded(
        ConfigFile(source, path, True, _read_only(path, read_only), plugin=plugin), document
    )


def _failed(
    source: Source,
    path: Path,
    message: str,
    read_only: bool,
    plugin: str | None,
    code: DiagnosticCode,
    **args: str,
) -> _Loaded:
    file = ConfigFile(source, path, True, _read_only(path, read_only), error=message, plugin=plugin)
    return _Loaded(file, None, (Diagnostic(str(path), None, message, code, args),))


def _read_only(path: Path, forced: bool) -> bool:
    if forced:
        return True
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def load_hook_config(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    programmatic: Mapping[str, Any] | None = None,
    trusted: bool = True,
) -> HookConfig:
    """Load every hook source. Never raises for bad configuration: problems become diagnostics."""
    settings: list[tuple[Source, Path]] = [("user", paths.user_settings(home))]
    if project_dir is not None:
        settings += [
            ("project", paths.project_settings(project_dir)),
            ("project", paths.local_settings(project_dir)),
        ]
    loaded = [_read_json(source, path, read_only=False) for source, path in settings]

    readers: list[_Reader] = []
    if programmatic:
        reader = _Reader("programmatic", None, pointer_prefix=())
        reader.read(programmatic)
        readers.append(reader)

    plugin_files, plugin_readers, plugin_problems = _plugins(loaded, home, trusted)
    readers += plugin_readers
    for item in loaded:
        if item.document is not None and "hooks" in item.document:
            reader = _Reader(item.file.source, item.file.path)
            reader.untrusted = not trusted and item.file.source == "project"
            reader.read(item.document["hooks"])
            readers.append(reader)

    files = tuple(item.file for item in loaded) + plugin_files
    diagnostics = [d for item in loaded for d in item.diagnostics] + plugin_problems
    diagnostics += [d for reader in readers for d in reader.diagnostics]
    diagnostics += _switch_problems(loaded)
    disabled_by = _disabled_by(loaded)
    return HookConfig(
        handlers=tuple(h for reader in readers for h in reader.handlers),
        files=files,
        diagnostics=tuple(diagnostics),
        hooks_disabled=disabled_by is not None,
        disabled_by=disabled_by,
    )


def _settings_values(loaded: list[_Loaded], key: str) -> Iterator[tuple[_Loaded, Any]]:
    for item in loaded:
        if item.document is not None and key in item.document:
            yield item, item.document[key]


def _disabled_by(loaded: list[_Loaded]) -> Path | None:
    """The file whose `disableAllHooks: true` is in force: the most specific file that sets it
    (local > project > user) decides; None when hooks are on."""
    decided: tuple[Path, bool] | None = None
    for item, setting in _settings_values(loaded, "disableAllHooks"):
        if isinstance(setting, bool):
            decided = (item.file.path, setting)
    return decided[0] if decided is not None and decided[1] else None


def _switch_problems(loaded: list[_Loaded]) -> list[Diagnostic]:
    return [
        Diagnostic(
            str(item.file.path),
            "/disableAllHooks",
            '"disableAllHooks" must be true or false',
            "switchNotBoolean",
        )
        for item, setting in _settings_values(loaded, "disableAllHooks")
        if not isinstance(setting, bool)
    ]


def _plugins(
    loaded: list[_Loaded], home: Path | None, trusted: bool
) -> tuple[tuple[ConfigFile, ...], list[_Reader], list[Diagnostic]]:
    """Hooks of each plugin enabled in settings (`enabledPlugins`, later files override)."""
    enabled: dict[str, bool] = {}
    enabled_in: dict[str, tuple[Path, str]] = {}  # where each plugin was switched on
    problems: list[Diagnostic] = []
    for item, setting in _settings_values(loaded, "enabledPlugins"):
        if not trusted and item.file.source == "project":
            continue
        if not isinstance(setting, Mapping) or not all(
            isinstance(v, bool) for v in setting.values()
        ):
            message = '"enabledPlugins" must be an object of plugin names to true/false'
            problems.append(
                Diagnostic(str(item.file.path), "/enabledPlugins", message, "pluginsNotObject")
            )
            continue
        for key, on in setting.items():
            name = str(key).split("@", 1)[0]
            enabled[name] = on
            enabled_in[name] = (item.file.path, pointer_join("enabledPlugins", str(key)))

    files: list[ConfigFile] = []
    readers: list[_Reader] = []
    root_dir = paths.plugins_dir(home)
    for name, on in enabled.items():
        root = root_dir / name
        if not on:
            continue
        if not root.is_dir():
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
        item = _read_json("plugin", hooks_file, read_only=True, plugin=name)
        if not item.file.exists:
            continue
        files.append(item.file)
        problems += item.diagnostics
        if item.document is not None and "hooks" in item.document:
            reader = _Reader("plugin", hooks_file, plugin=name, plugin_root=root)
            reader.read(item.document["hooks"])
            readers.append(reader)
    return tuple(files), readers, problems
