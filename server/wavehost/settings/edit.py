"""Deleting one hook from its settings file, safely.

The file is re-read under a lock and the entry checked against the fingerprint it had when it was
listed: if it changed or moved, nothing is written (`conflict`). The entry is cut out of the text
(`jsontext`), so every other byte stays; a group left without handlers and an event left without
groups go too. The result is written atomically (`files`).
"""

import errno
import json
import os
from pathlib import Path
from typing import Any

from wavehost.hooks.config import HookHandler, fingerprint, pointer_split
from wavehost.settings.errors import SettingsError
from wavehost.settings.files import locked_directory, replace_atomically
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
            replace_atomically(target, edited.encode("utf-8"))
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


def _parse(text: str, listed: Path) -> Any:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        message = (
            f"{listed} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg}); "
            "fix it before deleting hooks from it."
        )
        raise SettingsError("malformedConfig", message, listed) from err
    if not isinstance(document, dict | list):
        message = f"{listed} must contain a JSON object; fix it before deleting hooks from it."
        raise SettingsError("malformedConfig", message, listed)
    return document


def _at(document: Any, parts: list[Key]) -> Any:
    """The value at `parts`, or None when the path does not exist (any more)."""
    node = document
    for part in parts:
        in_list = isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node)
        in_object = isinstance(part, str) and isinstance(node, dict) and part in node
        if not (in_list or in_object):
            return None
        node = node[part]
    return node


def _removal_path(document: Any, handler: HookHandler) -> list[Key]:
    """What to cut: the hook; its group (matcher group, Snow rule) when it is the group's last
    hook; and then the event's list when that is left empty — unless the list is the file's
    own top level (a Snow file keeps `[]` or `{"<type>": []}`)."""
    conflict = SettingsError(
        "conflict",
        f"This hook changed or moved in {handler.path} since the list was loaded. {RELOAD}",
        handler.path,
    )
    parts = pointer_split(handler.pointer)
    entry = _at(document, parts)
    group_parts = pointer_split(handler.group_pointer) if handler.group_pointer else None
    group = _at(document, group_parts) if group_parts is not None else None
    if entry is None or not parts or not isinstance(parts[-1], int):
        raise conflict
    if group_parts is not None and not (isinstance(group, dict) and parts[:-2] == group_parts):
        raise conflict
    matcher = group.get("matcher") if isinstance(group, dict) else None
    if fingerprint(handler.event_name, matcher, entry) != handler.fingerprint:
        raise conflict
    path = parts
    if group_parts is not None and len(_at(document, parts[:-1]) or []) == 1:
        path = group_parts  # the group's last hook: the group goes with it
    container = path[:-1]
    if len(container) >= 2 and len(_at(document, container) or []) == 1:
        path = container  # the event is left without entries: its key goes too
    return path


def _edited(text: str, document: Any, path: list[Key], listed: Path) -> str:
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
