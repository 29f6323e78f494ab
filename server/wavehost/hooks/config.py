"""Hook configuration as every dialect loads it: handlers, the files they come from, diagnostics.

The types here are shared by the dialects (`hooks.dialects.*`), each of which reads its own files
into them. Validation is per entry: a bad entry yields a `Diagnostic` (file, JSON pointer,
message) and is skipped; everything else still loads. `hooks.sources.load_hook_config` puts the
dialects together.
"""

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from wavehost.hooks.catalogue import Event

if TYPE_CHECKING:
    from wavehost.hooks.matcher import Matcher
    from wavehost.hooks.payloads import HookInput

Source = Literal["programmatic", "plugin", "user", "project"]
DialectName = Literal["wave", "copilot", "snow"]
DIALECT_NAMES: tuple[DialectName, ...] = ("wave", "copilot", "snow")  # the documented order
HandlerKind = Literal["command", "prompt", "context"]
PROGRAMMATIC_PATH = "<programmatic>"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    path: str
    pointer: str | None
    message: str


@dataclass(frozen=True, slots=True)
class ConfigFile:
    source: Source
    path: Path
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None
    dialect: DialectName = "wave"


@dataclass(frozen=True, slots=True)
class HookHandler:
    """One configured hook, with where it came from and how its dialect runs it."""

    id: str
    event: Event
    matcher: "Matcher"
    command: str  # the shell command; for a Snow prompt/context action, its text
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
    group_pointer: str | None = None  # the matcher group / rule holding it, if any
    argv: tuple[str, ...] | None = None  # spawned as is (Copilot `exec`), else a shell runs it
    shell: str | None = None  # the shell for `command` (None: /bin/sh)
    cwd: str | None = None  # relative to the session root
    env: Mapping[str, str] | None = None  # literal values added to the environment
    disabled: bool = False  # listed, never run (Snow `enabled` not true)
    # Whether it fires for this payload at all (Copilot's postToolUse only after a success, …)
    condition: "Callable[[HookInput], bool] | None" = None

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


@dataclass(frozen=True)
class HookConfig:
    handlers: tuple[HookHandler, ...] = ()
    files: tuple[ConfigFile, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    hooks_disabled: bool = False  # disableAllHooks: file-based hooks do not run
    directories: frozenset[Path] = frozenset()  # folders whose entries are config files

    def runnable(self) -> tuple[HookHandler, ...]:
        """The handlers that may run, in config order."""
        return tuple(
            h
            for h in self.handlers
            if not h.untrusted and not h.disabled and not (self.hooks_disabled and h.file_based)
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


def fingerprint(event: str, matcher: str | None, raw: Any) -> str:
    """What makes two entries "the same hook": its event key, matcher and entry JSON."""
    canonical = json.dumps([event, matcher, raw], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def handler_id(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def kind_of(value: Any) -> str:
    """A JSON value's kind in words, for messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")


@dataclass(frozen=True)
class Loaded:
    """One config file read: what the list shows about it, and its JSON (None if unusable)."""

    file: ConfigFile
    document: Any
    diagnostics: tuple[Diagnostic, ...] = ()


def read_json(
    source: Source,
    path: Path,
    *,
    read_only: bool = False,
    plugin: str | None = None,
    dialect: DialectName = "wave",
    empty: Any = None,
) -> Loaded:
    """Read one JSON config file. A missing file is normal; anything else wrong is reported.

    A blank file reads as `empty`. The document may be any JSON value: each dialect checks the
    shape it expects.
    """

    def failed(message: str) -> Loaded:
        file = ConfigFile(source, path, True, _read_only(path, read_only), message, plugin, dialect)
        return Loaded(file, None, (Diagnostic(str(path), None, message),))

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Loaded(ConfigFile(source, path, False, read_only, None, plugin, dialect), None)
    except (OSError, UnicodeDecodeError) as err:
        return failed(f"cannot read: {err.strerror if isinstance(err, OSError) else err}")
    file = ConfigFile(source, path, True, _read_only(path, read_only), None, plugin, dialect)
    if not text.strip():
        return Loaded(file, empty)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        return failed(f"invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}")
    return Loaded(file, document)


def failed_file(loaded: Loaded, message: str) -> Loaded:
    """`loaded` marked unusable with `message` (a file whose JSON has the wrong shape)."""
    f = loaded.file
    file = ConfigFile(f.source, f.path, f.exists, f.read_only, message, f.plugin, f.dialect)
    return Loaded(file, None, (*loaded.diagnostics, Diagnostic(str(f.path), None, message)))


def _read_only(path: Path, forced: bool) -> bool:
    if forced:
        return True
    return not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
