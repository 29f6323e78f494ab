"""Safe file replacement: an exclusive lock per directory, and atomic temp-file + rename writes."""

import contextlib
import os
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

if sys.platform != "win32":
    import fcntl

_in_process = threading.Lock()  # Windows has no flock: there, only this process is serialised


@contextlib.contextmanager
def locked_directory(directory: Path) -> Iterator[None]:
    """Hold an exclusive lock on `directory` (blocking).

    The directory is locked rather than the file, because the file is replaced by a rename and a
    lock on the old inode would not cover the new one; and rather than a lock file, so that no
    stray file appears in people's `.wave` folders. flock locks are per open file description, so
    two threads of one process exclude each other just like two processes do.
    """
    if sys.platform == "win32":
        with _in_process:
            yield
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def replace_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data`: a temp file in the same directory, fsynced, renamed over.

    Readers see the old file or the new one, never a mix; the mode (and the owner, where allowed)
    of the old file is kept.
    """
    old = os.stat(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fchmod(file.fileno(), stat.S_IMODE(old.st_mode))
            if sys.platform != "win32" and (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                with contextlib.suppress(PermissionError):
                    os.fchown(file.fileno(), old.st_uid, old.st_gid)
            os.fsync(file.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    """Make the rename itself durable (best effort: not every platform can fsync a directory)."""
    if sys.platform == "win32":
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
