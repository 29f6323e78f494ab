"""Hook configuration as every dialect loads it: handlers, the files they come from, diagnostics.

The types here are shared by the dialects (`hooks.dialects.*`), each of which reads its own files
into them. Validation is per entry: a bad entry yields a `Diagnostic` (file, JSON pointer,
message) and is skipped; everything else still loads. `hooks.sources.load_hook_config` puts the
dialects together.
"""

import dataclasses
import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialect_registry import DialectName, FileFormat
from wavehost.hooks.safe_read import JsonRead, read_json

if TYPE_CHECKING:
    from wavehost.hooks.matcher import Matcher
    from wavehost.hooks.payloads import HookInput

Source = Literal["programmatic", "plugin", "user", "project"]
# How a hook runs: a process (`command`), or without one of ours — Claude Code's `http`,
# `prompt`, `agent` and `mcp_tool`. Snow's `prompt` (ask the user) and `context` (static text) are
# its own actions: each dialect reads its kinds (`hooks.dialects.wave.handler_types`).
HandlerKind = Literal["command", "http", "prompt", "agent", "mcp_tool", "context"]
PROGRAMMATIC_PATH = "<programmatic>"


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
    "matcherOverBudget",
    "handlersEmpty",
    "handlerNotObject",
    "unsupportedType",
    "unknownType",
    "typeNotForThisEvent",
    "emptyText",
    "invalidTimeout",
    "notBoolean",
    "notString",
    "notStringList",
    "notStringMap",
    "notUrl",
    "unknownValue",
    "unsupportedField",
    "ifNotForThisEvent",
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
    dialect: DialectName = "wave"
    format: FileFormat | None = None  # when not its dialect's own (Claude Code's files)

    @property
    def file_format(self) -> FileFormat:
        return self.format or self.dialect


class HandlerSpec:
    """What a handler type that runs no process needs beyond the common fields (an http hook's
    URL and headers, a prompt hook's prompt, …): each type's own frozen dataclass."""

    def identity(self) -> tuple[str, ...]:
        """What makes two hooks of this type the same hook (Claude Code runs them once)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class HookHandler:
    """One configured hook, with where it came from and how its dialect runs it."""

    id: str  # where it is and what it says: a delete by id never removes another hook
    event: Event
    matcher: "Matcher"
    # The shell command; what names a hook that runs none (an http hook's URL, a prompt
    # hook's prompt, as Claude Code names them); for a Snow prompt/context action, its text.
    command: str
    source: Source
    path: Path | None
    pointer: str
    fingerprint: str
    timeout: float | None = None  # seconds, as configured (None: the dialect's default)
    is_async: bool = False
    async_rewake: bool = False
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = None
    plugin_root: Path | None = None
    untrusted: bool = False
    dialect: DialectName = "wave"
    key: str = ""  # the event as the file spells it ("preToolUse", "beforeToolCall", …)
    kind: HandlerKind = "command"
    spec: HandlerSpec | None = None  # the rest of a hook that runs no process (`kind`'s own)
    group_pointer: str | None = None  # the matcher group / rule holding it, if any
    argv: tuple[str, ...] | None = None  # spawned as is (`exec`, exec form), else a shell runs it
    if_rule: str | None = None  # Claude Code's `if` (one permission rule), as written
    shell: str | None = None  # the shell for `command` (None: /bin/sh)
    cwd: str | None = None  # relative to the session root
    env: Mapping[str, str] | None = None  # literal values added to the environment
    hook_dir: Path | None = None  # Copilot's $COPILOT_HOOK_DIR (a settings file's hooks: none)
    disabled: bool = False  # listed, never run (Snow `enabled` not true)
    format: FileFormat | None = None  # its file's, when not its dialect's own (`.claude` files)
    # Whether it fires for this payload at all (Copilot's postToolUse only after a success, …)
    condition: "Callable[[HookInput], bool] | None" = None
    # What it is, wherever it stands in its file: its run history's key (deleting or moving
    # another hook leaves it as it is; twins in one file share it, as they run once)
    identity: str = ""

    @property
    def in_background(self) -> bool:
        return self.is_async or self.async_rewake

    @property
    def file_based(self) -> bool:
        return self.source != "programmatic"

    @property
    def event_name(self) -> str:
        """The event as its file names it."""
        return self.key or self.event.name

    @property
    def file_format(self) -> FileFormat:
        """Whose format its file is in."""
        return self.format or self.dialect


@dataclass(frozen=True)
class HookConfig:
    handlers: tuple[HookHandler, ...] = ()
    files: tuple[ConfigFile, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    hooks_disabled: bool = False  # disableAllHooks: file-based hooks do not run
    disabled_by: Path | None = None  # the file whose disableAllHooks: true is in force
    directories: frozenset[Path] = frozenset()  # folders whose entries are config files
    # The dialects the user's `hookDialects` switches off: their files are not read at all.
    dialects_off: frozenset[DialectName] = frozenset()

    def runnable(self) -> tuple[HookHandler, ...]:
        """The handlers that may run, in config order."""
        return tuple(
            h
            for h in self.handlers
            if not h.untrusted and not h.disabled and not (self.hooks_disabled and h.file_based)
        )


def fingerprint(event: str, matcher: str | None, raw: Any) -> str:
    """What makes two entries "the same hook": its event key, matcher and entry JSON."""
    canonical = json.dumps([event, matcher, raw], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def handler_id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def identified(handlers: list[HookHandler], *where: str) -> list[HookHandler]:
    """Give each handler of one file its id: the file (`where`), its position, its content, and
    how many identical entries the file has; and its identity: the file and its content alone.
    The count makes ids unreusable: when one of two identical entries is deleted, the other
    moves up to its position but does not take over its id, so a retried or doubled delete finds
    nothing instead of deleting the twin."""
    twins = Counter(h.fingerprint for h in handlers)
    identities: dict[tuple[str, str], str] = {}  # twins share one
    for h in handlers:
        key = (h.dialect, h.fingerprint)
        identity = identities.get(key)
        if identity is None:
            identity = identities[key] = handler_id("identity", h.dialect, *where, h.fingerprint)
        ids = handler_id(h.dialect, *where, h.pointer, h.fingerprint, str(twins[h.fingerprint]))
        # The readers' own handlers, made just now and seen by no one yet: given their ids in
        # place (a `dataclasses.replace` of each was a fifth of listing 5,000 hooks).
        object.__setattr__(h, "id", ids)
        object.__setattr__(h, "identity", identity)
    return handlers


@dataclass(frozen=True)
class Loaded:
    """One config file read: what the list shows about it, and its JSON (None if unusable)."""

    file: ConfigFile
    document: Any
    diagnostics: tuple[Diagnostic, ...] = ()


def read_problems(read: JsonRead, error: str | None) -> list[Diagnostic]:
    """A file's own problems: why it cannot be used, else its warnings (duplicate keys)."""
    if error is not None:
        return [_file_problem(read, error)]
    return [Diagnostic(str(read.path), at or None, message) for at, message in read.warnings]


def _file_problem(read: JsonRead, error: str) -> Diagnostic:
    """Why a file cannot be used, with a code; a syntax error at the line that needs the fix."""
    path = str(read.path)
    problem = read.problem
    if problem is not None and problem.syntax is not None:
        found = problem.syntax
        args = {"line": str(found.line), "column": str(found.column), "detail": found.detail}
        return Diagnostic(path, None, found.message, found.code, args)
    if problem is None:  # readable JSON of the wrong shape
        return Diagnostic(path, None, error, "notAnObject")
    return Diagnostic(path, None, error, "cannotRead", {"reason": error})


def read_config(
    source: Source,
    path: Path,
    *,
    dialect: DialectName,
    untrusted: bool = False,
    empty: Any = None,
    within: Path | None = None,
) -> Loaded:
    """Read one JSON config file of another dialect safely (`safe_read`): a missing file is
    normal, anything else wrong is reported. A blank file reads as `empty`; the document may be
    any JSON value (each dialect checks the shape it expects). `within`: see `read_json`."""
    read = read_json(path, within=within)
    if not read.exists:
        return Loaded(ConfigFile(source, path, False, False, dialect=dialect), None)
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    file = ConfigFile(
        source, path, True, not writable, read.error, untrusted=untrusted, dialect=dialect
    )
    document = empty if read.text is not None and not read.text.strip() else read.document
    return Loaded(file, None if read.error else document, tuple(read_problems(read, read.error)))


def failed_file(loaded: Loaded, message: str) -> Loaded:
    """`loaded` marked unusable with `message` (a file whose JSON has the wrong shape)."""
    file = dataclasses.replace(loaded.file, error=message)
    return Loaded(file, None, (*loaded.diagnostics, Diagnostic(str(file.path), None, message)))
