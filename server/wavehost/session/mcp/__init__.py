"""MCP servers in chat sessions: the SDK client (`servers`), their tools (`tools`), and the
toolboxes kept current as servers connect, change their tools, or go away."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from wavehost.session.mcp.servers import McpConnection, McpServers, ServerState, started
from wavehost.session.mcp.tools import McpTool, split_name, tool_name

Toolbox = dict[str, Any]  # session.tools.Toolbox (not imported: tools do not need MCP)


def keep_current(
    servers: McpServers, toolboxes: list[Toolbox], spill: Callable[[str, str], Path | None]
) -> None:
    """Whenever a server's state changes, its tools in every toolbox are what it offers now."""

    def changed(connection: McpConnection) -> None:
        offered = {
            tool.name: tool
            for tool in (McpTool(connection, info, spill) for info in connection.state.tools)
        }
        for toolbox in toolboxes:
            stale = [
                name
                for name, tool in toolbox.items()
                if isinstance(tool, McpTool) and tool.connection is connection
            ]
            for name in stale:
                del toolbox[name]
            for name, tool in offered.items():
                toolbox.setdefault(name, tool)  # a built-in tool's name is never taken

    servers.listeners.append(changed)


__all__ = [
    "McpConnection",
    "McpServers",
    "McpTool",
    "ServerState",
    "keep_current",
    "split_name",
    "started",
    "tool_name",
]
