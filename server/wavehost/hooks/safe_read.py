"""Reading a config file safely: every reader of a settings or hooks file goes through here.

Config files are hostile input like any other. Only a regular file is read: anything else
(`/dev/zero`, a FIFO, a socket, a folder) is refused by its stat before it is opened, and again by
fstat after the open, which is made with O_NONBLOCK so that a FIFO swapped in meanwhile cannot
hang it. At most `MAX_CONFIG_BYTES` are read. A byte-order mark is accepted (editors on Windows
write one) and kept for a rewrite. JSON nested deeper than `MAX_DEPTH` is refused before anything
else can recurse into it. Duplicate keys are a warning: JSON parsers keep the last one, and people
rarely mean that. Nothing that is in a file, or at its path, makes `read_json` raise: the answer
says what is wrong."""

import codecs
import dataclasses
import errno
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from wavehost import paths
from wavehost.hooks.jsonerror import JsonSyntax, locate
from wavehost.hooks.jsonpointer import pointer_join

MAX_CONFIG_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 64

ProblemKind = Literal[
    "permission", "io", "notRegular", "tooLarge", "encoding", "syntax", "depth", "outside"
]
ReadWarning = tuple[str, str]  # (JSON pointer, message)

_BOMS = (  # the 32-bit marks first: UTF-32-LE's starts with UTF-16-LE's
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class UnsafeFileError(OSError):
    """The path is there but is not something wavehost reads: not a regular file, or too big."""

    def __init__(self, kind: ProblemKind, message: str) -> None:
        super().__init__(errno.EINVAL, message)
        self.kind: ProblemKind = kind
        self.message = message


@dataclass(frozen=True, slots=True)
class Problem:
    kind: ProblemKind
    message: str
    syntax: JsonSyntax | None = None  # kind "syntax": where it is


@dataclass(frozen=True, slots=True)
class JsonRead:
    """One config file as read. `document` is the parsed value (of any JSON type), or None when
    the file is missing or `problem` says why it cannot be used."""

    path: Path
    exists: bool
    document: Any = None
    problem: Problem | None = None
    warnings: tuple[ReadWarning, ...] = ()
    data: bytes | None = None  # the bytes as read
    text: str | None = None  # decoded, without the byte-order mark
    bom: bytes = b""
    encoding: str = "utf-8"
    stat: os.stat_result | None = None  # of the file that was read (fstat of the open file)

    @property
    def error(self) -> str | None:
        return self.problem.message if self.problem is not None else None

    def encode(self, text: str) -> bytes:
        """`text` as bytes the way this file was written (same encoding, same byte-order mark)."""
        return self.bom + text.encode(self.encoding)


def read_bytes(path: Path, *, limit: int = MAX_CONFIG_BYTES) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at `path` (symlinks followed) and its fstat.

    Raises FileNotFoundError / PermissionError / other OSError as the system does, and
    `UnsafeFileError` for anything that is not a regular file or is larger than `limit`.
    """
    _refuse_special(os.stat(path))  # before opening: opening a device can have effects
    fd = os.open(path, _OPEN_FLAGS)
    try:
        st = os.fstat(fd)  # what was opened, which may not be what was looked at
        _refuse_special(st)
        if st.st_size > limit:
            raise UnsafeFileError("tooLarge", _too_large(st.st_size, limit))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # the file may grow while it is read: never more than the cap
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise UnsafeFileError("tooLarge", _too_large(size, limit))
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _refuse_special(st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFileError("notRegular", f"not a regular file ({_file_type(st.st_mode)})")


def is_regular_file(path: Path) -> bool:
    """Whether `path` is a regular file; never raises (an unreadable folder is just "no")."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_directory(path: Path) -> bool:
    """Whether `path` is a directory; never raises."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def decode(data: bytes) -> tuple[str, bytes, str]:
    """The text, the byte-order mark and the encoding; UTF-8 without a mark. Raises
    UnicodeDecodeError."""
    bom, encoding = _encoding_of(data)
    return data[len(bom) :].decode(encoding), bom, encoding


def decode_lossy(data: bytes) -> str:
    """The text for a person to look at: as `decode`, undecodable bytes replaced."""
    bom, encoding = _encoding_of(data)
    return data[len(bom) :].decode(encoding, errors="replace")


def _encoding_of(data: bytes) -> tuple[bytes, str]:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return bom, encoding
    return b"", "utf-8"


class InvalidJsonError(ValueError):
    def __init__(self, kind: ProblemKind, message: str, syntax: JsonSyntax | None = None) -> None:
        super().__init__(message)
        self.kind: ProblemKind = kind
        self.message = message
        self.syntax = syntax  # kind "syntax": where, at the line that needs the fix


def parse(text: str, *, max_depth: int = MAX_DEPTH) -> tuple[Any, tuple[ReadWarning, ...]]:
    """Parse JSON text; raises `InvalidJsonError` (invalid, or nested deeper than `max_depth`)."""
    repeated: list[tuple[dict[str, Any], str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) != len(items):
            seen: set[str] = set()
            for key, _ in items:
                if key in seen:
                    repeated.append((result, key))
                seen.add(key)
        return result

    try:
        document = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError as err:
        # Said once, where the fix goes: the file's row and its Problems entry tell the same.
        found = locate(text, err)
        raise InvalidJsonError("syntax", found.message, found) from err
    except RecursionError as err:
        raise InvalidJsonError("depth", _too_deep(max_depth)) from err
    # Only a text with enough brackets can be too deep: most files skip the walk.
    if text.count("{") + text.count("[") > max_depth and _deeper(document, max_depth):
        raise InvalidJsonError("depth", _too_deep(max_depth))
    if repeated:  # only then are the pointers needed (a walk that makes them costs)
        pointers: dict[int, str] = {}
        for value, pointer, _depth in _walk(document):
            if isinstance(value, dict):
                pointers[id(value)] = pointer
        warnings = tuple(
            (pointers[id(owner)], f'duplicate key "{key}": only the last one counts')
            for owner, key in repeated
            if id(owner) in pointers  # a duplicate inside a value that was itself replaced
        )
        return document, tuple(dict.fromkeys(warnings))
    return document, ()


def read_json(path: Path, *, limit: int = MAX_CONFIG_BYTES, within: Path | None = None) -> JsonRead:
    """Read and parse one JSON config file. A missing file is `exists=False`; a whitespace-only
    file is an empty object; anything else wrong is `problem`. `within`: the folder the file
    must really be in (a project's): one that leads out of it is not read."""
    if within is not None and os.path.lexists(path):
        leads = paths.outside(within, path)
        if leads is not None:
            message = f"cannot read: it leads out of the project (to {leads}), so it is not read"
            return JsonRead(path, True, problem=Problem("outside", message))
    try:
        data, st = read_bytes(path, limit=limit)
    except (FileNotFoundError, NotADirectoryError):
        return JsonRead(path, exists=False)
    except UnsafeFileError as err:
        return JsonRead(path, True, problem=Problem(err.kind, f"cannot read: {err.message}"))
    except OSError as err:
        kind: ProblemKind = "permission" if isinstance(err, PermissionError) else "io"
        return JsonRead(path, True, problem=Problem(kind, f"cannot read: {err.strerror or err}"))
    except ValueError as err:  # an embedded NUL in the path
        return JsonRead(path, True, problem=Problem("io", f"cannot read: {err}"))
    try:
        text, bom, encoding = decode(data)
    except UnicodeDecodeError as err:
        message = f"cannot read: not UTF-8 text ({err.reason} at byte {err.start})"
        return JsonRead(path, True, problem=Problem("encoding", message), data=data, stat=st)
    read = JsonRead(path, True, data=data, text=text, bom=bom, encoding=encoding, stat=st)
    if not text.strip():
        return dataclasses.replace(read, document={})
    try:
        document, warnings = parse(text)
    except InvalidJsonError as err:
        return dataclasses.replace(read, problem=Problem(err.kind, err.message, err.syntax))
    return dataclasses.replace(read, document=document, warnings=warnings)


def _deeper(document: Any, max_depth: int) -> bool:
    """Whether any value is nested more than `max_depth` levels deep (without recursion)."""
    stack: list[tuple[Any, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            return True
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return False


def _walk(document: Any) -> Iterator[tuple[Any, str, int]]:
    """Every value with its JSON pointer and depth, without recursion."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, pointer, depth = stack.pop()
        yield value, pointer, depth
        if isinstance(value, dict):
            stack.extend((v, pointer + pointer_join(k), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{pointer}/{i}", depth + 1) for i, v in enumerate(value))


def _too_large(size: int, limit: int) -> str:
    return f"the file is larger than {limit // (1024 * 1024)} MB ({size} bytes or more)"


def _too_deep(max_depth: int) -> str:
    return f"the JSON is nested more than {max_depth} levels deep"


def _file_type(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"
