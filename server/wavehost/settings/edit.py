"""Deleting one hook from its settings file, safely.

Under the folder's lock the file is read (bounded, like every config read) and the entry looked
up by its id, read as its dialect reads the file: if it changed, moved, or lost an identical twin
since it was listed, nothing is written (`conflict`). The entry is cut out of the text
(`jsontext`), so every other byte stays, a byte-order mark too; a group (matcher group, Snow
rule) left without hooks and an event left without entries go too.
The result replaces the file only if the file is still the version that was read (`files`): an
editor that does not take the lock may have written meanwhile; then the delete starts over from
the new text, a few times, before it answers `conflict`.
"""

import errno
import json
import os
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.jsonpointer import pointer_split
from wavehost.hooks.safe_read import JsonRead, read_json
from wavehost.plumbing.locks import locked_directory
from wavehost.settings.errors import SettingsError
from wavehost.settings.files import (
    FileVersion,
    remove_stale_temps,
    replace_if_unchanged,
)
from wavehost.settings.jsontext import Key, remove_member

RELOAD = "Reload the list and try again."
ATTEMPTS = 5  # reads of a file that keeps changing under a delete, before `conflict`


def delete_handler(handler: HookHandler, within: Path | None = None) -> None:
    """Remove `handler` from its file, which must really be under `within` when given (a
    project's file). Raises `SettingsError`; on error the file is untouched."""
    if handler.path is None:
        raise SettingsError("readOnly", "Programmatic hooks are not stored in a file.")
    listed = handler.path
    target = listed.resolve()  # a symlinked settings file (dotfiles): edit the file it points to
    try:
        _check_within(listed, within)
        with locked_directory(target.parent):
            remove_stale_temps(target)
            for _ in range(ATTEMPTS):
                _check_within(listed, within)  # linked out since the list was loaded?
                read = _read(target, listed)
                document = _document(read, listed)
                path = _removal_path(document, handler)
                assert read.text is not None
                assert read.data is not None
                assert read.stat is not None
                edited = read.encode(_edited(read.text, document, path, listed))
                if not os.access(target, os.W_OK):
                    raise PermissionError
                if replace_if_unchanged(target, FileVersion.of(read.stat, read.data), edited):
                    return
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
    message = f"{listed} kept changing while the hook was being deleted. {RELOAD}"
    raise SettingsError("conflict", message, listed)


def _check_within(listed: Path, within: Path | None) -> None:
    """A project's file that now leads out of the project (linked to the user's settings after
    it was listed) is not edited: the hook it held was the project's."""
    leads = None if within is None else paths.outside(within, listed)
    if leads is not None:
        message = f"{listed} leads out of the project (to {leads}), so it is not edited. {RELOAD}"
        raise SettingsError("conflict", message, listed)


def _read(target: Path, listed: Path) -> JsonRead:
    read = read_json(target)
    if not read.exists:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(target))
    problem = read.problem
    if problem is None:
        return read
    if problem.kind == "permission":
        message = f"No permission to read {listed}."
        raise SettingsError("permissionDenied", message, listed)
    if problem.kind in ("io", "notRegular", "tooLarge"):
        raise SettingsError("ioError", f"Could not update {listed}: {problem.message}.", listed)
    message = f"{listed}: {problem.message}. Fix it before deleting hooks from it."
    raise SettingsError("malformedConfig", message, listed)


def _document(read: JsonRead, listed: Path) -> Any:
    if not isinstance(read.document, dict | list):
        message = f"{listed} must contain a JSON object; fix it before deleting hooks from it."
        raise SettingsError("malformedConfig", message, listed)
    return read.document


def _at(document: Any, parts: list[Key]) -> Any:
    """The value at `parts` (the handler's own file was re-read, so the path is there)."""
    node = document
    for part in parts:
        node = node[part]
    return node


def _removal_path(document: Any, handler: HookHandler) -> list[Key]:
    """What to cut: the hook; its group (matcher group, Snow rule) when it is the group's last
    hook; and then the event's list when that is left empty — unless the list is the file's own
    top level (a Snow file keeps `[]` or `{"<type>": []}`)."""
    assert handler.path is not None
    assert handler.source != "programmatic"
    now = DIALECTS[handler.dialect].handlers_in(handler.source, handler.path, document)
    if not any(h.id == handler.id for h in now):
        raise SettingsError(
            "conflict",
            f"This hook changed or moved in {handler.path} since the list was loaded. {RELOAD}",
            handler.path,
        )
    # The id is still there, so the pointers lead to that hook in its group.
    path = pointer_split(handler.pointer)
    if handler.group_pointer is not None and len(_at(document, path[:-1])) == 1:
        path = pointer_split(handler.group_pointer)  # its last hook: the group goes with it
    container = path[:-1]
    if len(container) >= 2 and len(_at(document, container)) == 1:
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
