"""Hook inputs for engine tests: the common fields every event's payload carries."""

from pathlib import Path
from typing import Any


def common(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "s1",
        "transcript_path": "/tmp/session_s1.json",
        "cwd": str(cwd),
        "hook_event_name": event,
        **fields,
    }
