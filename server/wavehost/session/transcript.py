"""Session files: `~/.wave/sessions/session_<id>.json`, `{"state": {"messages": [...]}, …}`.

Hooks read this file through `transcript_path` while the session runs, so it is rewritten
atomically (`plumbing.atomic`: a temp file, fsynced, renamed over it): a reader sees the old or
the new conversation, never half of one. A crash leaves one of them whole; the saves within a
turn leave the rename itself to be made durable at the turn's end (`durable`), so a crash loses at
most the running turn. A write killed half-way (`kill -9`) leaves its temp file: the next
session opened removes those over a minute old (`remove_stale`).
"""

import re
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from wavehost import paths
from wavehost.hooks.payloads import PermissionMode
from wavehost.plumbing.atomic import TEMP_RANDOM, TEMP_SUFFIX, remove_stale_temps, write_atomically
from wavehost.session.messages import Message, SessionModel

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


def save(path: Path, saved: Transcript, *, durable: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, saved.to_json(), durable=durable)


class SessionNotFoundError(LookupError):
    pass


class UnreadableSessionError(ValueError):
    """A saved session that cannot be read or is not a transcript; the message is one line."""


def exists(session_id: str, home: Path | None = None) -> bool:
    """Whether a session with this id was saved."""
    return paths.transcript_path(session_id, home).is_file()


def load(session_id: str, home: Path | None = None) -> Transcript:
    try:
        path = paths.transcript_path(session_id, home)
    except paths.InvalidIdError as err:  # `x/../../evil` names no saved session, nor any file
        raise SessionNotFoundError(f"no saved session: {err}") from None
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
