"""The tools a session offers the model, by Claude Code's names."""

from typing import Any

from wavehost.session.tools.base import Tool, ToolKind, ToolResult, Workspace
from wavehost.session.tools.bash import BackgroundShells, Bash
from wavehost.session.tools.files import Edit, Read, Write
from wavehost.session.tools.search import Glob, Grep

Toolbox = dict[str, Tool[Any]]


def default_tools(shells: BackgroundShells) -> Toolbox:
    tools: list[Tool[Any]] = [Read(), Write(), Edit(), Bash(shells), Glob(), Grep()]
    return {tool.name: tool for tool in tools}


__all__ = [
    "BackgroundShells",
    "Tool",
    "ToolKind",
    "ToolResult",
    "Toolbox",
    "Workspace",
    "default_tools",
]
