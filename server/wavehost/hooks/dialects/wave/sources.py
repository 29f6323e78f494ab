"""The Wave (Claude Code) settings format: where its hooks come from and how entries validate.

`{"hooks": {Event: [{"matcher"?, "hooks": [handler…]}]}, "disableAllHooks"?: bool,
"enabledPlugins"?: {name: bool}, "hookDialects"?: {dialect: bool}}`. Order: programmatic,
plugins, user, project, local. The settings files are read through `settings_files`, which
applies workspace trust.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import wavehost.hooks.dialects.wave.handler_types as handler_types
import wavehost.hooks.dialects.wave.http_hooks as http_hooks
from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import WAVE_EVENTS, Event
from wavehost.hooks.config import (
    PROGRAMMATIC_PATH,
    ConfigFile,
    Diagnostic,
    DiagnosticCode,
    EntryRef,
    HookHandler,
    Source,
    fingerprint,
    identified,
    read_problems,
)
from wavehost.hooks.dialect_registry import DIALECT_NAMES, SWITCHABLE, DialectName, FileFormat
from wavehost.hooks.dialects.wave.if_rules import parse_rule
from wavehost.hooks.dialects.wave.matcher import WaveMatcher, compile_matcher
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.patterns import CompileBudget, PatternError
from wavehost.hooks.safe_read import is_directory, read_json
from wavehost.hooks.settings_files import (
    DIALECTS_KEY,
    SettingsFile,
    WaveSettings,
    kind_of,
    read_settings,
)


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
# `transcript_path`: the session JSON (seed 000's `.state.messages`) or Claude Code's JSONL
TRANSCRIPT_FORMAT = "transcriptFormat"
TRANSCRIPT_FORMATS = ("wave", "claude-code")
# The events whose payload names a tool: the only ones a hook's `if` rule can be checked on.
IF_EVENTS = (Event.PreToolUse, Event.PostToolUse, Event.PostToolUseFailure, Event.PermissionRequest)


@dataclass
class _Reader:
    """Validates one hooks object, collecting handlers and diagnostics."""

    source: Source
    path: Path | None
    untrusted: bool = False
    format: FileFormat | None = None  # "claude": one of Claude Code's own files
    policy: handler_types.UserPolicy = field(default_factory=handler_types.UserPolicy)
    plugin: str | None = None
    plugin_root: Path | None = None
    pointer_prefix: tuple[str, ...] = ("hooks",)
    budget: CompileBudget = field(default_factory=CompileBudget)  # this file's matchers
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
            event = WAVE_EVENTS.get(name)
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
        self.handlers = identified(self.handlers, self.source, self.label)

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
            matcher = compile_matcher(raw_matcher, self.budget)
        except PatternError as err:
            entry = EntryRef(event.name, raw_matcher, command if isinstance(command, str) else None)
            text = str(raw_matcher)
            shown = text if len(text) <= 200 else f"{text[:200]}…"
            if err.over_budget:
                message = f"matcher {shown!r} is over budget: {err}; the hook is skipped"
                code: DiagnosticCode = "matcherOverBudget"
            else:
                message, code = f"invalid regular expression {shown!r}: {err}", "invalidMatcher"
            self.problem(where + "/matcher", message, code, entry, matcher=shown, error=str(err))
            return
        handlers = group.get("hooks")
        if not isinstance(handlers, list) or not handlers:
            entry = EntryRef(event.name, raw_matcher)
            message = '"hooks" must be a non-empty list of hook commands'
            self.problem(where + "/hooks", message, "handlersEmpty", entry)
            return
        for index, handler in enumerate(handlers):
            self._handler(event, matcher, handler, (*at, "hooks", str(index)), where)

    def _handler(
        self, event: Event, matcher: WaveMatcher, raw: Any, at: tuple[str, ...], group: str
    ) -> None:
        where = pointer_join(*at)
        read = _read_handler(raw, event, self.policy)
        if not isinstance(read, dict):
            field_name, message, code = read
            label = _label(raw)
            entry = EntryRef(event.name, matcher.source, label)
            args = {"field": field_name} if field_name else {}
            if isinstance(raw, Mapping) and code in ("unsupportedType", "typeNotForThisEvent"):
                args["type"] = str(raw.get("type"))
                args["event"] = event.name
            if code == "unknownType":
                args["types"] = ", ".join(f'"{name}"' for name in handler_types.TYPES)
            if code == "handlerNotObject":
                args["kind"] = kind_of(raw)
            pointer = where + (f"/{field_name}" if field_name else "")
            self.problem(pointer, message, code, entry, **args)
            return
        if_rule = raw.get("if") or None
        if if_rule is not None and event not in IF_EVENTS:
            entry = EntryRef(event.name, matcher.source, read["command"])
            message = (
                f'"if" only applies to tool events ({", ".join(e.name for e in IF_EVENTS)}): '
                f"on {event.name} the hook never runs"
            )
            self.problem(where + "/if", message, "ifNotForThisEvent", entry, event=event.name)
            return
        self.handlers.append(
            HookHandler(
                id="",  # see `identified`
                event=event,
                matcher=matcher,
                kind=raw["type"],
                source=self.source,
                path=self.path,
                pointer=where,
                fingerprint=fingerprint(event.name, matcher.source, raw),
                timeout=float(raw["timeout"]) if "timeout" in raw else None,
                status_message=raw.get("statusMessage"),
                description=raw.get("description"),
                plugin=self.plugin,
                plugin_root=self.plugin_root,
                untrusted=self.untrusted,
                format=self.format,
                key=event.name,
                group_pointer=group,
                condition=_condition(event, if_rule),
                if_rule=if_rule,
                **read,
            )
        )


def _label(raw: Any) -> str | None:
    """What names an entry that could not be read (its command, URL or prompt), if anything."""
    if not isinstance(raw, Mapping):
        return None
    for key in ("command", "url", "prompt"):
        if isinstance(raw.get(key), str):
            return str(raw[key])
    return None


def _condition(event: Event, if_rule: str | None) -> Callable[[p.HookInput], bool] | None:
    """The event's own condition, and the hook's `if` rule, if any: both must hold."""
    of_event = CONDITIONS.get(event)
    if if_rule is None:
        return of_event
    holds = parse_rule(if_rule).holds
    if of_event is None:
        return holds
    return lambda payload: of_event(payload) and holds(payload)


def _read_handler(
    raw: Any, event: Event, policy: handler_types.UserPolicy
) -> handler_types.Fields | handler_types.FieldError:
    """A handler entry's own fields for its `HookHandler`, or the first thing wrong with it as
    (field, message, code): the common fields here, the rest by its type."""
    if not isinstance(raw, Mapping):
        return "", f"a hook must be an object, not {kind_of(raw)}", "handlerNotObject"
    name = raw.get("type")
    kind = handler_types.TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        known = ", ".join(f'"{known}"' for known in handler_types.TYPES)
        return "type", f'"type" must be one of {known}', "unknownType"
    timeout = raw.get("timeout")
    if "timeout" in raw and (
        isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0
    ):
        return "timeout", '"timeout" must be a positive number of seconds', "invalidTimeout"
    for text in ("statusMessage", "description", "if"):
        if text in raw and not isinstance(raw[text], str):
            return text, f'"{text}" must be a string', "notString"
    read = kind.read(raw, policy)
    if isinstance(read, dict) and kind.events is not None and event not in kind.events:
        message = f'a "{kind.name}" hook does not run on {event.name}: the hook was skipped'
        return "type", message, "typeNotForThisEvent"
    return read


def _suggest(name: str) -> str | None:
    """The event `name` means when only its case is wrong (event names are case-sensitive)."""
    for known in WAVE_EVENTS:
        if known.lower() == str(name).lower():
            return known
    return None


def _suggestion_text(suggestion: str | None) -> str:
    if suggestion is None:
        return ""
    return f' (did you mean "{suggestion}"? event names are case-sensitive)'


def handlers_in(source: Source, path: Path, document: Any) -> list[HookHandler]:
    """The hooks a settings document at `path` defines, with the ids a list gives them."""
    claude = path.parent.name == paths.CLAUDE_DIR  # one of Claude Code's own files
    reader = _Reader(source, path, format="claude" if claude else None)
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
        format="claude" if file.format == "claude" else None,
    )


@dataclass(frozen=True)
class WaveSources:
    """Everything the Wave settings files say about hooks."""

    handlers: tuple[HookHandler, ...]
    files: tuple[ConfigFile, ...]
    diagnostics: tuple[Diagnostic, ...]
    hooks_disabled: bool
    disabled_by: Path | None  # the file whose disableAllHooks: true is in force
    dialects: frozenset[DialectName]  # the dialects that are on (`hookDialects`)


def load(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    programmatic: Mapping[str, Any] | None = None,
    trusted: bool = True,
) -> WaveSources:
    settings = read_settings(project_dir, home=home, trusted=trusted)
    policy, policy_problems = _user_policy(settings)
    readers: list[_Reader] = []
    if programmatic:
        reader = _Reader("programmatic", None, pointer_prefix=(), policy=policy)
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
            claude: FileFormat | None = "claude" if file.format == "claude" else None
            reader = _Reader(
                file.source, file.path, untrusted=not file.trusted, format=claude, policy=policy
            )
            reader.read(document["hooks"])
            readers.append(reader)

    dialects, dialect_problems = _dialect_switches(settings)
    diagnostics += plugin_problems
    diagnostics += [d for reader in readers for d in reader.diagnostics]
    diagnostics += _switch_problems(settings) + dialect_problems + policy_problems
    diagnostics += _value_problems(settings, TRANSCRIPT_FORMAT, TRANSCRIPT_FORMATS)
    disabled_by = _disabled_by(settings)
    return WaveSources(
        handlers=tuple(h for reader in readers for h in reader.handlers),
        files=tuple(_settings_file(file) for file in settings.files) + plugin_files,
        diagnostics=tuple(diagnostics),
        hooks_disabled=disabled_by is not None,
        disabled_by=disabled_by,
        dialects=dialects,
    )


def _user_policy(
    settings: WaveSettings,
) -> tuple[handler_types.UserPolicy, list[Diagnostic]]:
    """`allowedHttpHookUrls` and `httpHookAllowedEnvVars` from the user's own settings (Wave's
    and Claude Code's files; their lists merge, as Claude Code merges them): a project cannot
    widen or narrow what the user allows."""
    found: dict[str, list[str] | None] = {}
    problems: list[Diagnostic] = []
    for key in ("allowedHttpHookUrls", "httpHookAllowedEnvVars"):
        for file, value in settings.values(key):
            if file.source != "user":
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                message = f'"{key}" must be a list of strings'
                problems.append(Diagnostic(str(file.path), f"/{key}", message, "notStringList"))
                continue
            found[key] = [*(found.get(key) or []), *value]
    urls, names = found.get("allowedHttpHookUrls"), found.get("httpHookAllowedEnvVars")
    http = http_hooks.HttpPolicy(
        None if urls is None else tuple(urls), None if names is None else frozenset(names)
    )
    return handler_types.UserPolicy(http), problems


def _value_problems(settings: WaveSettings, key: str, values: tuple[str, ...]) -> list[Diagnostic]:
    """A setting that is not one of its values (it is then not applied)."""
    known = ", ".join(f'"{value}"' for value in values)
    return [
        Diagnostic(
            str(file.path),
            f"/{key}",
            f'"{key}" must be one of {known}',
            "unknownValue",
            {"field": key, "values": known},
        )
        for file, value in settings.values(key)
        if value not in values
    ]


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
    # Claude Code's files are switched by `read_settings` (they run as Wave's): named here too
    others = SWITCHABLE
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
        elif not value and name in DIALECT_NAMES:
            on.discard(name)
    return frozenset(on), problems


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
        problems += read_problems(read, error)
        if document is not None and "hooks" in document:
            reader = _Reader("plugin", hooks_file, plugin=name, plugin_root=root)
            reader.read(document["hooks"])
            readers.append(reader)
    return tuple(files), readers, problems
