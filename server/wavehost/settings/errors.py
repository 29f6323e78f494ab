"""The one error type of the settings service: a reason the page can act on, a path, a message."""

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from wavehost.hooks.payloads import Problem

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
    "inputNotKept",
]


class SettingsError(Exception):
    def __init__(
        self,
        reason: ErrorReason,
        message: str,
        path: Path | None = None,
        problems: Sequence[Problem] = (),
    ) -> None:
        super().__init__(message)
        self.reason: ErrorReason = reason
        self.message = message
        self.path = path
        self.problems = tuple(problems)  # an invalid payload's, for the page to word
