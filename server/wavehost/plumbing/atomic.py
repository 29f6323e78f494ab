"""The one way wavehost replaces a file: a temp file in the same directory, fsynced, renamed over
the old one, and the rename itself made durable. Readers see the old file or the new one, never a
mix, and a crash leaves one of them on disk.
"""

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path


def write_atomically(path: Path, data: bytes, *, replace_only: bool = False) -> None:
    """Write `data` to `path`. An existing file keeps its mode (and owner, where allowed); a new
    one is created private to the user (0600), unless `replace_only` (FileNotFoundError)."""
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        if replace_only:
            raise
        old = None
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            if old is not None:
                os.fchmod(file.fileno(), stat.S_IMODE(old.st_mode))
                if sys.platform != "win32" and (old.st_uid, old.st_gid) != (
                    os.getuid(),
                    os.getgid(),
                ):
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
