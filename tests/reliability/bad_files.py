"""The bad-file zoo: every kind of config file that broke a reader once, made for real on disk.

Each maker turns `path` into one bad file (or a good one that readers used to refuse) and says
what a reader must make of it: a diagnostic whose message contains `problem`, or no problem at
all and the hooks `commands` loaded.
"""

import codecs
import json
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from wavehost.hooks.safe_read import MAX_CONFIG_BYTES

GOOD = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "zoo-hook"}]}]}}
GOOD_TEXT = json.dumps(GOOD, indent=2) + "\n"


@dataclass(frozen=True)
class BadFile:
    name: str
    make: Callable[[Path], None]
    problem: str | None  # None: the file is fine and its hook loads
    commands: tuple[str, ...] = ()


def _write(text: bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(text)

    return make


def _nested(depth: int) -> Callable[[Path], None]:
    return _write(('{"hooks": ' + "[" * depth + "]" * depth + "}").encode())


def _symlink(target: str) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.symlink_to(target)

    return make


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _directory(path: Path) -> None:
    path.mkdir()


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def _too_large(path: Path) -> None:
    padding = "x" * (MAX_CONFIG_BYTES + 1024)
    path.write_text(json.dumps({**GOOD, "padding": padding}))


ZOO = [
    BadFile("nested 1000 deep (2 KB)", _nested(1000), "nested more than 64 levels deep"),
    BadFile("nested 100000 deep", _nested(100_000), "nested more than 64 levels deep"),
    BadFile("nested 65 deep", _nested(65), "nested more than 64 levels deep"),
    # a user's file: not a regular file; a project's: it leads out of the project (never opened)
    BadFile("symlink to /dev/zero", _symlink("/dev/zero"), "cannot read: "),
    BadFile("FIFO", _fifo, "not a regular file (a FIFO)"),
    BadFile("directory", _directory, "not a regular file (a directory)"),
    BadFile("socket", _socket, "not a regular file (a socket)"),
    BadFile("larger than 5 MB", _too_large, "larger than 5 MB"),
    BadFile("not UTF-8", _write(b'{"hooks": {"Stop": "\xff\xfe"}}'), "not UTF-8"),
    BadFile("binary garbage", _write(bytes(range(256))), "cannot read"),
    BadFile("invalid JSON", _write(b'{"hooks": {'), "invalid JSON at line 1"),
    BadFile("a JSON list", _write(b"[1, 2]"), "must contain a JSON object, not a list"),
    BadFile(
        "duplicate keys",
        _write(b'{"hooks": {"Stop": []}, "hooks": ' + json.dumps(GOOD["hooks"]).encode() + b"}"),
        'duplicate key "hooks": only the last one counts',
        ("zoo-hook",),
    ),
    BadFile(
        "UTF-8 byte-order mark", _write(codecs.BOM_UTF8 + GOOD_TEXT.encode()), None, ("zoo-hook",)
    ),
    BadFile(
        "UTF-16 byte-order mark",
        _write(codecs.BOM_UTF16_LE + GOOD_TEXT.encode("utf-16-le")),
        None,
        ("zoo-hook",),
    ),
    BadFile("empty", _write(b""), None),
]


T = TypeVar("T")
WAIT = 20  # seconds: a reader that blocks (a FIFO) or reads for ever (/dev/zero) fails here


def bounded(work: Callable[[], T], limit: float = WAIT) -> T:
    """Run `work` in a thread; fail (instead of hanging the suite) if it does not return."""
    result: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as err:  # re-raised below
            errors.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"{work} did not return within {limit} s"
    if errors:
        raise errors[0]
    return result[0]
