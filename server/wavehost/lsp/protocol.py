"""The wavehost protocol: every custom method's params and result, in one place.

camelCase on the wire (`WireModel`). The JSON Schema of these models is what the webview's
TypeScript types are generated from.
"""

from typing import Literal

from pydantic import Field

from wavehost.wire import WireModel

HookSource = Literal["user", "project", "plugin"]


class ProjectInfo(WireModel):
    dir: str
    name: str


class ConfigFileEntry(WireModel):
    source: HookSource
    path: str
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None


class HookEntry(WireModel):
    id: str
    source: HookSource
    path: str
    read_only: bool
    event: str
    matcher: str | None = None
    type: Literal["command"] = "command"
    command: str
    timeout: float | None = None
    async_: bool | None = Field(default=None, alias="async")
    async_rewake: bool | None = None
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = None
    dialect: Literal["wave"] = "wave"
    untrusted: bool | None = None


class DiagnosticEntry(WireModel):
    path: str
    pointer: str | None = None
    message: str


class HooksListParams(WireModel):
    pass


class HooksListResult(WireModel):
    project: ProjectInfo
    config_files: list[ConfigFileEntry]
    hooks: list[HookEntry]
    diagnostics: list[DiagnosticEntry]
