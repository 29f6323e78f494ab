"""The one error type of the settings service: a reason the page can act on, a path, a message."""

from pathlib import Path

from wavehost.lsp.protocol import ErrorReason, SettingsErrorData


class SettingsError(Exception):
    def __init__(self, reason: ErrorReason, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.reason: ErrorReason = reason
        self.message = message
        self.path = path

    def data(self) -> SettingsErrorData:
        path = str(self.path) if self.path is not None else None
        return SettingsErrorData(reason=self.reason, path=path, message=self.message)
