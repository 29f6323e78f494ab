"""Safe file replacement: checked, atomic temp-file writes, under the directory's lock
(`plumbing.locks`).

Other wavehost processes take the lock; editors do not. So a replacement must not lose what an
editor wrote after the file was read: `replace_if_unchanged` writes the new bytes to a temp file
and swaps it in only if the file at the path is still the one that was read (same inode, size,
mtime and bytes). Where the system can exchange two paths atomically (Linux `renameat2`
RENAME_EXCHANGE), the check is made on what the swap took out, so no write can slip in between
check and swap: an editor's rename is seen as a different inode, an editor's in-place write (which
truncates on open) as changed size, mtime or bytes; then the swap is undone and the caller re-reads.
Elsewhere the check is made just before a plain rename.

The temp file and the durable rename are `plumbing.atomic`'s, as for every file wavehost writes.
A crash can leave a temp file behind (`.settings.json.<random>.tmp`); the next edit in that folder
removes it, under the lock, when no other wavehost can be writing one.
"""

import contextlib
import ctypes
import errno
import functools
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from wavehost.hooks.safe_read import read_bytes
from wavehost.plumbing import atomic
from wavehost.plumbing.atomic import TEMP_RANDOM, TEMP_SUFFIX, fsync_directory, write_temp

log = logging.getLogger(__name__)

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@dataclass(frozen=True, slots=True)
class FileVersion:
    """One version of a file, as it was read."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    data: bytes

    @classmethod
    def of(cls, st: os.stat_result, data: bytes) -> "FileVersion":
        return cls(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, data)

    def matches(self, path: Path) -> bool:
        """Whether the file at `path` is still this version (never raises)."""
        try:
            data, st = read_bytes(path, limit=max(self.size, 1))
        except OSError:  # gone, replaced by something else, grown past the old size
            return False
        return FileVersion.of(st, data) == self


def temp_pattern(path: Path) -> re.Pattern[str]:
    """The names `write_temp` gives temp files for `path` (mkstemp: 8 random characters)."""
    return re.compile(re.escape(f".{path.name}.") + TEMP_RANDOM + re.escape(TEMP_SUFFIX))


def remove_stale_temps(path: Path) -> int:
    """Remove temp files a crashed write left next to `path`. Call with the folder locked: then
    no wavehost is writing one. Returns how many were removed."""
    return atomic.remove_stale_temps(path.parent, temp_pattern(path))


def replace_if_unchanged(path: Path, expected: FileVersion, data: bytes) -> bool:
    """Replace `path` with `data` if it is still the version `expected`; True when replaced.

    False means the file changed since it was read: nothing was changed, re-read and redo.
    Readers see the old file or the new one, never a mix.
    """
    if not expected.matches(path):  # changed while the new text was made: no need to write
        return False
    temp, ours = write_temp(path, data, os.stat(path))
    try:
        if not expected.matches(path):  # changed while the temp file was written
            return False
        if not _exchange(temp, path):  # no atomic exchange here: check, then rename
            os.replace(temp, path)
        elif not expected.matches(temp):  # what came out is not what was read: undo the swap
            _undo(temp, path, ours)
            return False
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
    fsync_directory(path.parent)
    return True


def _undo(temp: Path, path: Path, ours: int) -> None:
    """Swap back after a failed check: the other writer's file returns to `path`, ours to
    `temp` (to be removed)."""
    _exchange(temp, path)
    if os.stat(temp).st_ino != ours:
        # Our file was replaced in the instant it was visible: that newest file stays.
        log.warning("%s was replaced twice while it was being edited", path)
        _exchange(temp, path)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths; False where the system cannot."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # the kernel or the file system cannot: fall back to a checked rename
    raise OSError(err, os.strerror(err), str(b))


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """Linux's renameat2 from the C library (glibc >= 2.28, musl >= 1.2), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    at, name = ctypes.c_int, ctypes.c_char_p
    function.argtypes = [at, name, at, name, ctypes.c_uint]
    function.restype = ctypes.c_int
    return cast(Callable[..., int], function)
