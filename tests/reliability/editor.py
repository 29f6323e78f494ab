"""A text editor that does not take wavehost's lock, saving a settings file over and over.

    python editor.py PATH KIND STOP_FILE     (KIND: rename, in-place or mixed)

Each save reads the file, adds one top-level key (`"editor-N": N`) and writes it back, the way
editors save: `in-place` truncates and rewrites the same inode (VS Code, vim's default), `rename`
writes a temp file and swaps it in (JetBrains' safe write, `sed -i`). Like a careful editor it
notices when its own save raced another writer — in place: the path no longer names the inode it
wrote; rename: what its swap took out is not the file it read — and then saves again, so that
every loss counted by the suite is wavehost's, not this editor's. Prints a JSON report at the end.
"""

import ctypes
import json
import os
import random
import sys
import time
from pathlib import Path

_libc = ctypes.CDLL(None, use_errno=True)
EXCHANGE = 2


def exchange(a: Path, b: Path) -> None:
    if _libc.renameat2(-100, os.fsencode(a), -100, os.fsencode(b), EXCHANGE) != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))


def read(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def edited(data: bytes, n: int) -> bytes | None:
    try:
        document = json.loads(data)
    except ValueError:  # caught another writer mid-write (an in-place save): try again
        return None
    document[f"editor-{n}"] = n
    return (json.dumps(document, indent=2) + "\n").encode()


def save_in_place(path: Path, n: int) -> bool:
    fd = os.open(path, os.O_RDWR)
    try:
        new = edited(read(fd), n)
        if new is None:
            return False
        os.ftruncate(fd, 0)
        os.pwrite(fd, new, 0)
        return os.stat(path).st_ino == os.fstat(fd).st_ino  # still the file at the path?
    finally:
        os.close(fd)


def save_by_rename(path: Path, n: int) -> bool:
    fd = os.open(path, os.O_RDONLY)
    try:
        data, before = read(fd), os.fstat(fd)
    finally:
        os.close(fd)
    new = edited(data, n)
    if new is None:
        return False
    temp = path.with_name(f"{path.name}.editor-save")
    temp.write_bytes(new)
    exchange(temp, path)
    out = os.stat(temp)
    same = (out.st_ino, out.st_size, out.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    ) and temp.read_bytes() == data
    if not same:
        exchange(temp, path)  # put the other writer's file back; ours goes
    temp.unlink()
    return same


def main() -> None:
    path, kind, stop = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    saves = retries = 0
    while not stop.exists():
        style = kind if kind != "mixed" else random.choice(["rename", "in-place"])
        saved = save_by_rename(path, saves) if style == "rename" else save_in_place(path, saves)
        if saved:
            saves += 1
        else:
            retries += 1
        time.sleep(random.uniform(0.005, 0.03))  # far busier than a person saving
    print(json.dumps({"saves": saves, "retries": retries}))


if __name__ == "__main__":
    main()
