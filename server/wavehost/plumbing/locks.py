"""An exclusive lock per directory, shared by every wavehost process that writes in it (the
settings files' deletes, the hook run log's compaction)."""

import contextlib
import os
import sys
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
