"""What the hooks list is computed from, in a comparable form: to know when it may have changed.

`snapshot()` is what matters to the list: the files' content and permissions (the list shows
`readOnly`) and the entries of a few folders (a plugin being installed). Content is hashed
(bounded reads), which, unlike mtimes, never misses a same-size edit made within one clock tick.
`stats()` only looks at metadata (inode, size, mtime, permissions) and reads no file: cheap enough
to poll while nothing happens, so that hashing is only done when something did. Both also count
the matchers found over their budget while running (`hooks.patterns`): the list then shows them
as diagnostics.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from wavehost.hooks import patterns
from wavehost.hooks.safe_read import read_bytes

Owner = tuple[int, int, int] | None  # uid, gid, mode
Meta = tuple[int, int, int, int, int, int] | None  # uid, gid, mode, inode, size, mtime_ns
Entries = tuple[tuple[str, tuple[str, ...]], ...]
Stats = tuple[tuple[tuple[str, Meta, Meta], ...], Entries, int]
Snapshot = tuple[tuple[tuple[str, Owner, Owner, bytes | None], ...], Entries, int]


@dataclass(frozen=True)
class Inputs:
    files: frozenset[Path]  # every config file, existing or not
    directories: frozenset[Path] = frozenset()  # folders whose entries matter

    def stats(self) -> Stats:
        """Metadata of the files and their folders, and the folders' entries: nothing is read."""
        return (
            tuple((str(path), _meta(path), _meta(path.parent)) for path in sorted(self.files)),
            self._entries(),
            patterns.over_budget(),
        )

    def snapshot(self) -> Snapshot:
        return (
            tuple(
                (str(path), _owner(path), _owner(path.parent), _digest(path))
                for path in sorted(self.files)
            ),
            self._entries(),
            patterns.over_budget(),
        )

    def _entries(self) -> Entries:
        return tuple((str(d), _entries(d)) for d in sorted(self.directories))


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _owner(path: Path) -> Owner:
    st = _stat(path)
    return None if st is None else (st.st_uid, st.st_gid, st.st_mode)


def _meta(path: Path) -> Meta:
    st = _stat(path)
    if st is None:
        return None
    return (st.st_uid, st.st_gid, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns)


def _digest(path: Path) -> bytes | None:
    try:
        data, _ = read_bytes(path)
    except OSError:  # missing, not a regular file, too large: the owner and mode must do
        return None
    return hashlib.blake2b(data).digest()


def _entries(directory: Path) -> tuple[str, ...]:
    try:
        return tuple(sorted(os.listdir(directory)))
    except OSError:
        return ()
