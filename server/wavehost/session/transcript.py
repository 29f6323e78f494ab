"""Session files: `~/.wave/sessions/session_<id>.json`, `{"state": {"messages": [...]}, …}`.

Hooks read this file through `transcript_path` while the session runs, so it is rewritten
atomically (`plumbing.atomic`: a temp file renamed over it): a reader sees the old or the new
conversation, never half of one. Only the turn's end makes it durable (`durable`: the data
fsynced before the rename, then the directory) and keeps that version as `.session_<id>.json.last`
(a hard link, no copy); the saves within a turn are not fsynced — a hook is waiting to read them,
and an fsync is milliseconds, tens of them on a busy disk, twice a tool call. A crash within a turn
may leave the file empty or torn: `load` then falls back on the last turn's version, so a crash
loses at most the running turn. A save is encoded where the session runs (a snapshot) and written
on a disk thread (`session.conversation`). A write killed half-way (`kill -9`) leaves its temp
file: the next session opened removes those over a minute old (`remove_stale`).
"""

import contextlib
import logging
import os
import re
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from wavehost import paths
from wavehost.hooks.payloads import PermissionMode
from wavehost.plumbing.atomic import (
    TEMP_RANDOM,
    TEMP_SUFFIX,
    fsync_directory,
    remove_stale_temps,
    write_atomically,
)
from wavehost.session.messages import Message, SessionModel

log = logging.getLogger(__name__)

VERSION = 1
STALE_AFTER = 60.0  # seconds: a temp file older than this is no write under way
_TEMPS = re.compile(
    r"\.session_[A-Za-z0-9_-]{1,128}\.json\." + TEMP_RANDOM + re.escape(TEMP_SUFFIX)
)
_cleaned: set[Path] = set()


def remove_stale(home: Path | None = None) -> int:
    """Remove the transcripts' temp files killed writes left (once per process and folder)."""
    folder = paths.sessions_dir(home)
    if folder in _cleaned:
        return 0
    _cleaned.add(folder)
    return remove_stale_temps(folder, _TEMPS, STALE_AFTER)


class TranscriptState(SessionModel):
    messages: list[Message] = []


class Transcript(SessionModel):
    version: int = VERSION
    session_id: str
    root: str  # the session root ($WAVE_PROJECT_DIR)
    workdir: str  # where the shell was last (follows `cd`)
    permission_mode: PermissionMode = "default"
    provider: str | None = None
    model: str | None = None
    created_at: str
    updated_at: str
    state: TranscriptState


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def encode(saved: Transcript) -> bytes:
    return saved.to_json()


def last_turn(path: Path) -> Path:
    """Where the version a turn's end made durable is kept (the fallback after a crash)."""
    return path.with_name(f".{path.name}.last")


def write(path: Path, data: bytes, *, durable: bool = True) -> None:
    """`durable`: the turn is over; else readers see it, a crash may not keep it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data, durable=False, sync=durable)
    if durable:
        _keep(path)


def make_durable(path: Path) -> None:
    """Make the last (unsynced) write durable: the turn ended with nothing new to write."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    _keep(path)


def _keep(path: Path) -> None:
    """Keep the (fsynced) file as the last turn's version, and make both names durable."""
    last = last_turn(path)
    linking = last.with_name(last.name + TEMP_SUFFIX)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(linking)
        os.link(path, linking)
        os.replace(linking, last)
    except OSError as err:  # a file system without hard links: no fallback, said once a file
        log.warning("cannot keep the last turn of %s (%s): a crash may lose it", path, err)
    fsync_directory(path.parent)


class SessionNotFoundError(LookupError):
    pass


class UnreadableSessionError(ValueError):
    """A saved session that cannot be read or is not a transcript; the message is one line."""


def exists(session_id: str, home: Path | None = None) -> bool:
    """Whether a session with this id was saved."""
    path = paths.transcript_path(session_id, home)
    return path.is_file() or last_turn(path).is_file()


def load(session_id: str, home: Path | None = None) -> Transcript:
    """The saved session; if a crash left its file torn (or without it), the version its last
    finished turn made durable."""
    try:
        path = paths.transcript_path(session_id, home)
    except paths.InvalidIdError as err:  # `x/../../evil` names no saved session, nor any file
        raise SessionNotFoundError(f"no saved session: {err}") from None
    try:
        return _read(path, session_id)
    except (SessionNotFoundError, UnreadableSessionError) as problem:
        try:
            saved = _read(last_turn(path), session_id)
        except (SessionNotFoundError, UnreadableSessionError):
            raise problem from None
        log.warning("%s; took the version its last finished turn saved", problem)
        return saved


def _read(path: Path, session_id: str) -> Transcript:
    cannot = f"cannot read the saved session {session_id!r} ({path})"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SessionNotFoundError(f"no saved session {session_id!r} (looked for {path})") from None
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise UnreadableSessionError(f"{cannot}: {reason}") from err
    try:
        return Transcript.model_validate_json(text)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(map(str, first["loc"]))
        more = f" (and {err.error_count() - 1} more problems)" if err.error_count() > 1 else ""
        raise UnreadableSessionError(
            f"{cannot}: {where + ': ' if where else ''}{first['msg']}{more}"
        ) from None
