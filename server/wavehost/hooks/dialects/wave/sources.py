"""The Wave (Claude Code) settings format: where its hooks come from and how entries validate.

`{"hooks": {Event: [{"matcher"?, "hooks": [handler…]}]}, "disableAllHooks"?: bool,
"enabledPlugins"?: {name: bool}, "hookDialects"?: {dialect: bool}}`. Order: programmatic,
plugins, user, project, local. The settings files are read through `settings_files`, which
applies workspace trust.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import WAVE_EVENTS, Event
from wavehost.hooks.config import (
    DIALECT_NAMES,
    PROGRAMMATIC_PATH,
    ConfigFile,
    Diagnostic,
    DialectName,
    HookHandler,
    Source,
    fingerprint,
    identified,
    read_problems,
)
from wavehost.hooks.dialects.wave.matcher import WaveMatcher, compile_matcher
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.safe_read import is_directory, read_json
from wavehost.hooks.settings_files import SettingsFile, WaveSettings, kind_of, read_settings


def _ran(payload: p.HookInput) -> bool:
    """PostToolUse: only for a tool that ran (other dialects also hear of blocked calls)."""
    return not (isinstance(payload, p.PostToolUseInput) and payload.blocked)


def _asking(payload: p.HookInput) -> bool:
    """PermissionRequest: only when someone would be asked (Copilot's fires on every call)."""
    return not isinstance(payload, p.PermissionRequestInput) or payload.asking


CONDITIONS: dict[Event, Callable[[p.HookInput], bool]] = {
    Event.PostToolUse: _ran,
    Event.PermissionRequest: _asking,
    Event.Stop: p.not_interrupted,
}
HANDLER_FIELDS = frozenset(
    {"type", "command", "timeout", "async", "asyncRewake", "statusMessage", "description"}
)
DIALECTS_KEY = "hookDialects"


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

    def problem(self, pointer: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(self.label, pointer, message))

    def read(self, hooks: Any) -> None:
        base = pointer_join(*self.pointer_prefix)
        if not isinstance(hooks, Mapping):
            self.problem(base, f'"hooks" must be an object of events, not {kind_of(hooks)}')
            return
        for name, groups in hooks.items():
            event = WAVE_EVENTS.get(name)
            where = pointer_join(*self.pointer_prefix, name)
            if event is None:
                self.problem(where, f'unknown hook event "{name}"{_suggest(name)}')
            elif not isinstance(groups, list):
                self.problem(
                    where, f"{name} must be a list of matcher groups, not {kind_of(groups)}"
                )
            else:
                for index, group in enumerate(groups):
                    self._group(event, group, (*self.pointer_prefix, name, str(index)))
        self.handlers = identified(self.handlers, self.source, self.label)

    def _group(self, event: Event, group: Any, at: tuple[str, ...]) -> None:
        where = pointer_join(*at)
        if not isinstance(group, Mapping):
            self.problem(
                where, f'a matcher group must be an object with "hooks", not {kind_of(group)}'
            )
            return
        raw_matcher = group.get("matcher")
        if raw_matcher is not None and not isinstance(raw_matcher, str):
            self.problem(
                where + "/matcher", f"matcher must be a string, not {kind_of(raw_matcher)}"
            )
            return
        try:
            matcher = compile_matcher(raw_matcher)
        except re.error as err:
            self.problem(where + "/matcher", f"invalid regular expression {raw_matcher!r}: {err}")
            return
        handlers = group.get("hooks")
        if not isinstance(handlers, list) or not handlers:
            self.problem(where + "/hooks", '"hooks" must be a non-empty list of hook commands')
            return
        for index, handler in enumerate(handlers):
            self._handler(event, matcher, handler, (*at, "hooks", str(index)), where)

    def _handler(
        self, event: Event, matcher: WaveMatcher, raw: Any, at: tuple[str, ...], group: str
    ) -> None:
        where = pointer_join(*at)
        error = _handler_error(raw)
        if error is not None:
            field_name, message = error
            self.problem(where + (f"/{field_name}" if field_name else ""), message)
            return
        content = fingerprint(event.name, matcher.source, raw)
        self.handlers.append(
            HookHandler(
                id="",  # see `identified`
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
                key=event.name,
                group_pointer=group,
                condition=CONDITIONS.get(event),
            )
        )


def _handler_error(raw: Any) -> tuple[str, str] | None:
    """The first thing wrong with a handler entry, as (field, message)."""
    if not isinstance(raw, Mapping):
        return "", f"a hook must be an object, not {kind_of(raw)}"
    kind = raw.get("type")
    if kind != "command":
        if kind in ("http", "prompt", "agent", "mcp_tool"):
            return "type", f'hook type "{kind}" is not supported; only "command" hooks run'
        return "type", '"type" must be "command"'
    command = raw.get("command")
    if not isinstance(command, str) or not command.strip():
        return "command", '"command" must be a non-empty string'
    timeout = raw.get("timeout")
    if "timeout" in raw and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
    ):
        return "timeout", '"timeout" must be a positive number of seconds'
    for flag in ("async", "asyncRewake"):
        if flag in raw and not isinstance(raw[flag], bool):
            return flag, f'"{flag}" must be true or false'
    for text in ("statusMessage", "description"):
        if text in raw and not isinstance(raw[text], str):
            return text, f'"{text}" must be a string'
    unsupported = sorted(k for k in raw if k not in HANDLER_FIELDS and k in ("if", "args", "shell"))
    if unsupported:
        return unsupported[0], f'"{unsupported[0]}" is not supported; the hook was skipped'
    return None


def _suggest(name: str) -> str:
    for known in WAVE_EVENTS:
        if known.lower() == str(name).lower():
            return f' (did you mean "{known}"? event names are case-sensitive)'
    return ""


def handlers_in(source: Source, path: Path, document: Any) -> list[HookHandler]:
    """The hooks a settings document at `path` defines, with the ids a list gives them."""
    reader = _Reader(source, path)
    if isinstance(document, Mapping) and "hooks" in document:
        reader.read(document["hooks"])
    return reader.handlers


def _settings_file(file: SettingsFile) -> ConfigFile:
    return ConfigFile(
        file.source,
        file.path,
        file.read.exists,
        file.read_only if file.read.exists else False,
        error=file.error,
        untrusted=not file.trusted,
        ignored=file.ignored,
    )


@dataclass(frozen=True)
class WaveSources:
    """Everything the Wave settings files say about hooks."""

    handlers: tuple[HookHandler, ...]
    files: tuple[ConfigFile, ...]
    diagnostics: tuple[Diagnostic, ...]
    hooks_disabled: bool
    dialects: frozenset[DialectName]  # the dialects that are on (`hookDialects`)


def load(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    programmatic: Mapping[str, Any] | None = None,
    trusted: bool = True,
) -> WaveSources:
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
        diagnostics += read_problems(file.read, file.error)
        document = file.document
        if document is not None and "hooks" in document:
            # An untrusted project's hooks are read to be listed; they never run.
            reader = _Reader(file.source, file.path, untrusted=not file.trusted)
            reader.read(document["hooks"])
            readers.append(reader)

    dialects, dialect_problems = _dialect_switches(settings)
    diagnostics += plugin_problems
    diagnostics += [d for reader in readers for d in reader.diagnostics]
    diagnostics += _switch_problems(settings) + dialect_problems
    return WaveSources(
        handlers=tuple(h for reader in readers for h in reader.handlers),
        files=tuple(_settings_file(file) for file in settings.files) + plugin_files,
        diagnostics=tuple(diagnostics),
        hooks_disabled=_disable_all(settings),
        dialects=dialects,
    )


def _disable_all(settings: WaveSettings) -> bool:
    """`disableAllHooks` from the most specific trusted file that sets it (local > project >
    user)."""
    value = False
    for _, setting in settings.values("disableAllHooks"):
        if isinstance(setting, bool):
            value = setting
    return value


def _switch_problems(settings: WaveSettings) -> list[Diagnostic]:
    return [
        Diagnostic(str(file.path), "/disableAllHooks", '"disableAllHooks" must be true or false')
        for file, setting in settings.values("disableAllHooks")
        if not isinstance(setting, bool)
    ]


def _dialect_switches(settings: WaveSettings) -> tuple[frozenset[DialectName], list[Diagnostic]]:
    """`hookDialects` of the user settings: `{"copilot": false}` turns Copilot's files off.

    Only the user's own settings decide: a project cannot switch a dialect on or off.
    """
    on = set(DIALECT_NAMES)
    found = [(f, v) for f, v in settings.values(DIALECTS_KEY) if f.source == "user"]
    if not found:
        return frozenset(on), []
    user, setting = found[0]
    where = str(user.path)
    others = [name for name in DIALECT_NAMES if name != "wave"]
    if not isinstance(setting, Mapping):
        names = ", ".join(others)
        message = f'"{DIALECTS_KEY}" must be an object of dialect names ({names}) to true/false'
        return frozenset(on), [Diagnostic(where, f"/{DIALECTS_KEY}", message)]
    problems: list[Diagnostic] = []
    for name, value in setting.items():
        pointer = pointer_join(DIALECTS_KEY, name)
        if name not in others:
            message = f'unknown hook dialect "{name}" (known: {", ".join(others)})'
            problems.append(Diagnostic(where, pointer, message))
        elif not isinstance(value, bool):
            problems.append(Diagnostic(where, pointer, f'"{name}" must be true or false'))
        elif not value:
            on.discard(name)
    return frozenset(on), problems


def _plugins(
    settings: WaveSettings, home: Path | None
) -> tuple[tuple[ConfigFile, ...], list[_Reader], list[Diagnostic]]:
    """Hooks of each plugin enabled in settings (`enabledPlugins`, later files override)."""
    enabled: dict[str, bool] = {}
    problems: list[Diagnostic] = []
    for file, setting in settings.values("enabledPlugins"):
        if not isinstance(setting, Mapping) or not all(
            isinstance(v, bool) for v in setting.values()
        ):
            message = '"enabledPlugins" must be an object of plugin names to true/false'
            problems.append(Diagnostic(str(file.path), "/enabledPlugins", message))
            continue
        for key, on in setting.items():
            enabled[str(key).split("@", 1)[0]] = on

    files: list[ConfigFile] = []
    readers: list[_Reader] = []
    root_dir = paths.plugins_dir(home)
    for name, on in enabled.items():
        root = root_dir / name
        if not on:
            continue
        if not is_directory(root):
            problems.append(
                Diagnostic(str(root), None, f'enabled plugin "{name}" is not installed')
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
        problems += read_problems(read, error)
        if document is not None and "hooks" in document:
            reader = _Reader("plugin", hooks_file, plugin=name, plugin_root=root)
            reader.read(document["hooks"])
            readers.append(reader)
    return tuple(files), readers, problems
