"""Session files: `~/.wave/sessions/session_<id>.json`, `{"state": {"messages": [...]}, …}`.

Hooks read this file through `transcript_path` while the session runs, so it is rewritten
atomically (a temporary file renamed over it): a reader sees the old or the new conversation,
never half of one.
"""

import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from wavehost import paths
from wavehost.hooks.payloads import PermissionMode
from wavehost.session.messages import Message, SessionModel

VERSION = 1


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


def write_atomic(path: Path, model: SessionModel) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = model.to_json()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class SessionNotFoundError(LookupError):
    pass


def load(session_id: str, home: Path | None = None) -> Transcript:
    path = paths.transcript_path(session_id, home)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SessionNotFoundError(f"no saved session {session_id!r} (looked for {path})") from None
    return Transcript.model_validate_json(text)
