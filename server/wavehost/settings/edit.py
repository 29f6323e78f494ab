"""Deleting one hook from its settings file, safely.

The file is re-read under a lock and the entry checked against the fingerprint it had when it was
listed: if it changed or moved, nothing is written (`conflict`). The entry is cut out of the text
(`jsontext`), so every other byte stays; a group left without handlers and an event left without
groups go too. The result is written atomically (`plumbing.atomic`).
"""

import errno
import json
import os
from pathlib import Path
from typing import Any

from wavehost.hooks.config import HookHandler, fingerprint, pointer_split
from wavehost.plumbing.atomic import write_atomically
from wavehost.settings.errors import SettingsError
from wavehost.settings.files import locked_directory
from wavehost.settings.jsontext import Key, remove_member

RELOAD = "Reload the list and try again."


def delete_handler(handler: HookHandler) -> None:
    """Remove `handler` from its file. Raises `SettingsError`; on error the file is untouched."""
    if handler.path is None:
        raise SettingsError("readOnly", "Programmatic hooks are not stored in a file.")
    listed = handler.path
    target = listed.resolve()  # a symlinked settings file (dotfiles): edit the file it points to
    try:
        with locked_directory(target.parent):
            text = _read(target, listed)
            document = _parse(text, listed)
            path = _removal_path(document, handler)
            edited = _edited(text, document, path, listed)
            if not os.access(target, os.W_OK):
                raise PermissionError
            write_atomically(target, edited.encode("utf-8"), replace_only=True)
    except FileNotFoundError as err:
        message = f"{listed} no longer exists, so the hook is already gone. {RELOAD}"
        raise SettingsError("notFound", message, listed) from err
    except PermissionError as err:
        message = f"No permission to write {listed}."
        raise SettingsError("permissionDenied", message, listed) from err
    except OSError as err:
        if err.errno == errno.EROFS:
            message = f"{listed} is on a read-only file system."
            raise SettingsError("readOnly", message, listed) from err
        message = f"Could not update {listed}: {err.strerror or err}."
        raise SettingsError("ioError", message, listed) from err


def _read(target: Path, listed: Path) -> str:
    data = target.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        message = f"{listed} is not UTF-8 text ({err.reason} at byte {err.start}); fix it first."
        raise SettingsError("malformedConfig", message, listed) from err


def _parse(text: str, listed: Path) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        message = (
            f"{listed} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
            "fix it before deleting hooks from it."
        )
        raise SettingsError("malformedConfig", message, listed) from err
    if not isinstance(document, dict):
        message = f"{listed} must contain a JSON object; fix it before deleting hooks from it."
        raise SettingsError("malformedConfig", message, listed)
    return document


def _removal_path(document: dict[str, Any], handler: HookHandler) -> list[Key]:
    """What to cut: the handler, or its group if it is the last handler, or the whole event."""
    conflict = SettingsError(
        "conflict",
        f"This hook changed or moved in {handler.path} since the list was loaded. {RELOAD}",
        handler.path,
    )
    parts = pointer_split(handler.pointer)
    match parts:
        case ["hooks", str(event), int(group_index), "hooks", int(handler_index)]:
            pass
        case _:
            raise conflict
    events = document.get("hooks")
    groups = events.get(event) if isinstance(events, dict) else None
    if not isinstance(groups, list) or group_index >= len(groups):
        raise conflict
    group = groups[group_index]
    handlers = group.get("hooks") if isinstance(group, dict) else None
    if not isinstance(handlers, list) or handler_index >= len(handlers):
        raise conflict
    if fingerprint(event, group.get("matcher"), handlers[handler_index]) != handler.fingerprint:
        raise conflict
    if len(handlers) > 1:
        return parts
    return parts[:3] if len(groups) > 1 else parts[:2]


def _edited(text: str, document: dict[str, Any], path: list[Key], listed: Path) -> str:
    """`text` without the member; it must mean exactly the old document minus it (else no write)."""
    parent: Any = document
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    try:
        edited = remove_member(text, path)
        if json.loads(edited) == document:
            return edited
    except (KeyError, ValueError):
        pass
    message = f"{listed} could not be edited without changing other entries (duplicate keys?)."
    raise SettingsError("malformedConfig", message, listed)
