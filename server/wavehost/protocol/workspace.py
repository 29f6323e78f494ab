"""What a client says about the workspace: at `initialize`, and when the user changes trust."""

from typing import Any

from pydantic import Field

from wavehost.wire import WireModel


class InitializationOptions(WireModel):
    """`initializationOptions` of the LSP `initialize` request."""

    project_dir: str | None = Field(
        default=None,
        description="The session workdir; default: first workspace folder, else root URI, else cwd",
    )
    locale: str | None = Field(default=None, description="UI locale; default: the LSP locale")
    trusted: bool = Field(
        default=False,
        description="Workspace trust: if false (the default: a client must say so), project hooks "
        "never run and project settings apply nothing (wave/workspace/setTrusted changes it later)",
    )
    hooks: dict[str, Any] | None = Field(
        default=None, description="Programmatic hooks: run first, never listed"
    )


class WorkspaceSetTrustedParams(WireModel):
    trusted: bool = Field(description="Whether the user trusts the workspace now")


class WorkspaceSetTrustedResult(WireModel):
    trusted: bool = Field(description="The trust in force from now on")
    changed: bool = Field(description="False: it already was so (no wave/hooks/changed follows)")
