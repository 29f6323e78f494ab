"""MCP servers in chat sessions: the SDK client (`servers`), their tools (`tools`), and the
toolboxes kept current as servers connect, change their tools, or go away."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from wavehost.hooks.runner import McpToolCaller
from wavehost.session.mcp.servers import (
    McpCallError,
    McpConnection,
    McpServers,
    ServerState,
    started,
)
from wavehost.session.mcp.tools import McpTool, content_text, split_name, tool_name

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


def hook_caller(servers: McpServers) -> McpToolCaller:
    """How `mcp_tool` hooks call the session's servers: the result's text (what Claude Code reads
    as the hook's stdout), or why there is none."""

    async def call(server: str, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        connection = servers.connections.get(server)
        if connection is None:
            return False, f"MCP server '{server}' not connected"  # Claude Code's words
        try:
            result = await connection.call(tool, arguments)
        except McpCallError as err:
            return False, str(err)
        text = content_text(result)
        if result.is_error:
            return False, f"MCP tool {tool} of {server} failed: {text or 'no message'}"
        return True, text

    return call


__all__ = [
    "McpConnection",
    "McpServers",
    "McpTool",
    "ServerState",
    "hook_caller",
    "keep_current",
    "split_name",
    "started",
    "tool_name",
]
