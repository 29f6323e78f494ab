"""The tools a session offers the model, by Claude Code's names."""

from typing import Any

from wavehost.session.background import BackgroundTasks
from wavehost.session.tools.base import Tool, ToolError, ToolKind, ToolResult, Workspace
from wavehost.session.tools.bash import Bash
from wavehost.session.tools.files import Edit, Read, Write
from wavehost.session.tools.search import Glob, Grep
from wavehost.session.tools.tasks import TaskOutput, TaskStop

Toolbox = dict[str, Tool[Any]]


def toolbox(*tools: Tool[Any]) -> Toolbox:
    return {tool.name: tool for tool in tools}


def default_tools(tasks: BackgroundTasks) -> Toolbox:
    """What any agent may use, a subagent included: files, search, shells and their tasks."""
    return toolbox(
        Read(), Write(), Edit(), Bash(tasks), Glob(), Grep(), TaskOutput(tasks), TaskStop(tasks)
    )


__all__ = [
    "BackgroundTasks",
    "Tool",
    "ToolError",
    "ToolKind",
    "ToolResult",
    "Toolbox",
    "Workspace",
    "default_tools",
    "toolbox",
]
