"""The one way wavehost writes a file others read: a temp file in the same directory, fsynced,
renamed over the old one, and the rename itself made durable. Readers see the old file or the new
one, never a mix, and a crash leaves one of them on disk (and at most a stray temp file).

`write_atomically` is the whole write (transcripts); the settings service uses the parts
(`write_temp`, `fsync_directory`) to swap a file in only if it is unchanged (`settings.files`).
"""

import contextlib
import logging
import os
import re
import stat
import sys
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"
TEMP_RANDOM = r"[a-z0-9_]{8}"  # what mkstemp puts between the prefix and the suffix


def write_temp(
    path: Path, data: bytes, like: os.stat_result | None, *, sync: bool = True
) -> tuple[Path, int]:
    """`data` in a new temp file next to `path`, fsynced (unless not `sync`), with the mode (and
    owner, where allowed) of `like`, else private to the user (0600). Returns the temp file and
    its inode."""
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
            if sync:
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


def write_atomically(path: Path, data: bytes, *, durable: bool = True, sync: bool = True) -> None:
    """Write `data` to `path`. An existing file keeps its mode (and owner, where allowed); a new
    one is created private to the user (0600). Not `durable`: the rename is not made durable (a
    crash may bring back the file before it, whole), which saves a directory fsync; the caller
    makes it durable later (`fsync_directory`). Not `sync` either: the data is not fsynced before
    the rename — readers see it all the same, but a crash may leave the file empty or torn; the
    caller keeps a durable copy to fall back on (transcripts: `session.transcript`)."""
    try:
        old: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        old = None
    temp, _ = write_temp(path, data, old, sync=sync)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    if durable:
        fsync_directory(path.parent)


def remove_stale_temps(directory: Path, names: re.Pattern[str], older_than: float = 0.0) -> int:
    """Remove the temp files `names` matches in `directory` that a crashed (or killed) write
    left, last changed more than `older_than` seconds ago (a live write takes milliseconds).
    Only regular files; returns how many were removed."""
    removed = 0
    try:
        entries = os.listdir(directory)
    except OSError:
        return 0
    now = time.time()
    for name in entries:
        if not names.fullmatch(name):
            continue
        stray = directory / name
        with contextlib.suppress(OSError):
            st = os.lstat(stray)
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > older_than:
                os.unlink(stray)
                removed += 1
    if removed:
        log.info("removed %d stale temp file(s) in %s", removed, directory)
    return removed
