"""The one error type of the settings service: a reason the page can act on, a path, a message."""

from pathlib import Path
from typing import Literal

ErrorReason = Literal[
    "notFound",
    "readOnly",
    "conflict",
    "permissionDenied",
    "malformedConfig",
    "ioError",
    "unknownPath",
    "invalidPayload",
    "untrusted",
]


class SettingsError(Exception):
    def __init__(self, reason: ErrorReason, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.reason: ErrorReason = reason
        self.message = message
        self.path = path
