"""The one way wavehost writes a file others read: a temp file in the same directory, fsynced,
renamed over the old one, and the rename itself made durable. Readers see the old file or the new
one, never a mix, and a crash leaves one of them on disk (and at most a stray temp file).

`write_atomically` is the whole write (transcripts); the settings service uses the parts
(`write_temp`, `fsync_directory`) to swap a file in only if it is unchanged (`settings.files`).
"""

import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

TEMP_SUFFIX = ".tmp"


def write_temp(path: Path, data: bytes, like: os.stat_result | None) -> tuple[Path, int]:
    """`data` in a new temp file next to `path`, fsynced, with the mode (and owner, where
    allowed) of `like`, else private to the user (0600). Returns the temp file and its inode."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            if like is not None:
                os.fchmod(file.fileno(), stat.S_IMODE(like.st_mode))
                owner = (like.st_uid, like.st_gid)
                if sys.platform != "win32" and owner != (os.getuid(), os.getgid()):
                    with contextlib.suppress(PermissionError):
                        os.fchown(file.fileno(), *owner)
            os.fsync(file.fileno())
            inode = os.fstat(file.fileno()).st_ino
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    return Path(temp), inode


def fsync_directory(directory: Path) -> None:
    """Make a rename durable (best effort: not every platform can fsync a directory)."""
    if sys.platform == "win32":
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write `data` to `path`. An existing file keeps its mode (and owner, where allowed); a new
    one is created private to the user (0600). Not `durable`: the rename is not made durable (a
    crash may bring back the file before it, whole), which saves a directory fsync; the caller
    makes it durable later (`fsync_directory`)."""
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    temp, _ = write_temp(path, data, old)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    if durable:
        fsync_directory(path.parent)
