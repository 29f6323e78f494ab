"""The tools of MCP servers: not in the catalogue one by one (each server has its own), but named
by one rule per dialect.

The model and Wave (Claude Code) hooks see `mcp__<server>__<tool>`; Copilot CLI calls it
`<server>-<tool>` (observed, 1.0.102), and `<server>/<tool>` in its permissionRequest; Snow CLI
names its MCP tools `<service>-<tool>` (as its own `terminal-execute`). The arguments are the
server's own in every dialect, never renamed.
"""

PREFIX = "mcp__"


def parts(name: str) -> tuple[str, str] | None:
    """(server, tool) of an MCP tool's name (`mcp__<server>__<tool>`); None for any other."""
    if not name.startswith(PREFIX):
        return None
    server, sep, tool = name[len(PREFIX) :].partition("__")
    return (server, tool) if sep and server and tool else None


def wave_name(server: str, tool: str) -> str:
    return f"{PREFIX}{server}__{tool}"


def dashed(server: str, tool: str) -> str:
    """Copilot CLI's and Snow CLI's name of an MCP tool: `<server>-<tool>`."""
    return f"{server}-{tool}"


def copilot_permission_name(server: str, tool: str) -> str:
    """Copilot CLI's name of an MCP tool in a permissionRequest: `<server>/<tool>`."""
    return f"{server}/{tool}"


COPILOT = dashed
SNOW = dashed
