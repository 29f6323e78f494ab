"""What the hooks list is computed from, in a comparable form: to know when it may have changed.

The files' content and permissions (the list shows `readOnly`), and the entries of a few folders
(a plugin being installed). Config files are small, so hashing them is cheap and, unlike mtimes,
never misses a same-size edit made within one clock tick.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

FileState = tuple[str, tuple[int, int, int] | None, tuple[int, int, int] | None, bytes | None]
Snapshot = tuple[tuple[FileState, ...], tuple[tuple[str, tuple[str, ...]], ...]]


@dataclass(frozen=True)
class Inputs:
    files: frozenset[Path]  # every config file, existing or not
    directories: frozenset[Path] = frozenset()  # folders whose entries matter

    def snapshot(self) -> Snapshot:
        return (
            tuple(_file_state(path) for path in sorted(self.files)),
            tuple((str(d), _entries(d)) for d in sorted(self.directories)),
        )


def _owner_and_mode(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_uid, st.st_gid, st.st_mode)


def _file_state(path: Path) -> FileState:
    try:
        digest: bytes | None = hashlib.blake2b(path.read_bytes()).digest()
    except OSError:
        digest = None
    return (str(path), _owner_and_mode(path), _owner_and_mode(path.parent), digest)


def _entries(directory: Path) -> tuple[str, ...]:
    try:
        return tuple(sorted(os.listdir(directory)))
    except OSError:
        return ()
