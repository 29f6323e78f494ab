"""What the hooks list is computed from, in a comparable form: to know when it may have changed.

`snapshot()` is what matters to the list: the files' content and permissions (the list shows
`readOnly`) and the entries of a few folders (a plugin being installed). Content is hashed
(bounded reads), which, unlike mtimes, never misses a same-size edit made within one clock tick.
`stats()` only looks at metadata (inode, size, mtime, permissions) and reads no file: cheap enough
to poll while nothing happens, so that hashing is only done when something did; once the files
have `settled` (none changed within `RACY` seconds of the look), the same metadata is taken to
mean the same content, as git does with its index. Both also count
the matchers found over their budget while running (`hooks.patterns`): the list then shows them
as diagnostics.

A project file that leads out of the project through a symlink (`.wave` linked elsewhere, a
`settings.json` linked to the user's) is not read, stat'ed or watched through the link: only the
link itself counts (its `lstat` and target), so a change of where it points is seen and nothing
outside the project is.
"""

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from wavehost import paths
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
    project: Path | None = None  # files under it must not lead out of it

    def link_out(self, path: Path) -> Path | None:
        """The symlink by which a project file leads out of the project, if it does."""
        return None if self.project is None else paths.link_out(self.project, path)

    def stats(self) -> Stats:
        """Metadata of the files and their folders, and the folders' entries: nothing is read."""
        files: list[tuple[str, Meta, Meta]] = []
        for path in sorted(self.files):
            link = self.link_out(path)
            if link is not None:
                files.append((str(path), _meta(link, follow=False), None))
            else:
                files.append((str(path), _meta(path), _meta(path.parent)))
        return (tuple(files), self._entries(), patterns.over_budget())

    def snapshot(self) -> Snapshot:
        files: list[tuple[str, Owner, Owner, bytes | None]] = []
        for path in sorted(self.files):
            link = self.link_out(path)
            if link is not None:
                files.append((str(path), None, None, _link_digest(link)))
            else:
                files.append((str(path), _owner(path), _owner(path.parent), _digest(path)))
        return (tuple(files), self._entries(), patterns.over_budget())

    def _entries(self) -> Entries:
        return tuple((str(d), _entries(d)) for d in sorted(self.directories))


RACY = 2.0  # seconds: a file changed this close to a look may change again within its mtime tick


def settled(stats: Stats, taken: float) -> bool:
    """Whether every file and folder in `stats` (taken at `taken`, `time.time()`) was last
    changed well before: a same-size edit since would show as a new mtime, where one within the
    file system's clock tick of the last could keep the old."""
    limit = int((taken - RACY) * 1e9)
    return all(meta is None or meta[5] < limit for _, *metas in stats[0] for meta in metas)


def _stat(path: Path, *, follow: bool = True) -> os.stat_result | None:
    try:
        return os.stat(path, follow_symlinks=follow)
    except (OSError, ValueError):
        return None


def _owner(path: Path) -> Owner:
    st = _stat(path)
    return None if st is None else (st.st_uid, st.st_gid, st.st_mode)


def _meta(path: Path, *, follow: bool = True) -> Meta:
    st = _stat(path, follow=follow)
    if st is None:
        return None
    return (st.st_uid, st.st_gid, st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns)


def _digest(path: Path) -> bytes | None:
    try:
        data, _ = read_bytes(path)
    except OSError:  # missing, not a regular file, too large: the owner and mode must do
        return None
    return hashlib.blake2b(data).digest()


def _link_digest(link: Path) -> bytes | None:
    """Where a link points (read from the link, nothing behind it)."""
    try:
        return b"link:" + os.fsencode(os.readlink(link))
    except OSError:
        return None


def _entries(directory: Path) -> tuple[str, ...]:
    try:
        return tuple(sorted(os.listdir(directory)))
    except OSError:
        return ()
