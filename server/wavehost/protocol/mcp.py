"""Wire models of the MCP servers list (`wave/mcp/list`): each configured server, where it is
configured, and where it is — from the configuration alone, or from the newest open chat session
of the project that started it."""

from collections.abc import Mapping
from typing import Literal, Self

from pydantic import Field

from wavehost.session.mcp.servers import ServerState
from wavehost.settings.mcp_servers import McpConfig, McpConfigFile, McpServerConfig
from wavehost.wire import WireModel

McpStatus = Literal[
    "notStarted", "starting", "connected", "failed", "stopped", "untrusted", "invalid"
]


class McpListParams(WireModel):
    pass


class McpConfigFileEntry(WireModel):
    source: Literal["user", "project"]
    path: str
    exists: bool
    error: str | None = Field(default=None, description="Why the file cannot be used at all")
    untrusted: bool | None = Field(
        default=None, description="True: a project file of an untrusted workspace (not started)"
    )

    @classmethod
    def of(cls, file: McpConfigFile) -> Self:
        return cls(
            source=file.source,
            path=str(file.path),
            exists=file.exists,
            error=file.error,
            untrusted=file.untrusted or None,
        )


class McpServerEntry(WireModel):
    name: str
    source: Literal["user", "project"]
    path: str = Field(description="The config file it is in (open it with wave/openConfigFile)")
    line: int | None = Field(default=None, description="Its entry's 1-based line in that file")
    transport: Literal["stdio", "http"]
    target: str = Field(description="The command it runs, or the URL it is reached at")
    status: McpStatus = Field(
        description="notStarted: no chat session has started it yet; untrusted: a project server "
        "of an untrusted workspace, never started; invalid: its entry is wrong (error says why)"
    )
    tools: list[str] = Field(default_factory=list, description="Its tools, as the model calls them")
    error: str | None = None

    @classmethod
    def of(cls, server: McpServerConfig, state: ServerState | None, line: int | None) -> Self:
        from wavehost.session.mcp.tools import tool_name

        status: McpStatus
        error = server.error
        tools: list[str] = []
        if server.error is not None:
            status = "invalid"
        elif server.untrusted:
            status = "untrusted"
        elif state is None:
            status = "notStarted"
        else:
            status, error = state.status, state.error
            tools = [tool_name(server.name, t.name) for t in state.tools]
        return cls(
            name=server.name,
            source=server.source,
            path=str(server.path),
            line=line,
            transport=server.transport,
            target=server.target,
            status=status,
            tools=tools,
            error=error,
        )


class McpListResult(WireModel):
    servers: list[McpServerEntry]
    config_files: list[McpConfigFileEntry]

    @classmethod
    def of(
        cls,
        config: McpConfig,
        states: Mapping[str, ServerState],
        lines: Mapping[str, int | None],
    ) -> Self:
        return cls(
            servers=[
                McpServerEntry.of(s, states.get(s.name), lines.get(s.name)) for s in config.servers
            ],
            config_files=[McpConfigFileEntry.of(f) for f in config.files],
        )


class McpChangedParams(WireModel):
    pass
