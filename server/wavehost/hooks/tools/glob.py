"""Glob: files whose path matches a pattern."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

GLOB = ChatTool(
    name="Glob",
    summary="Finds files by a glob pattern, newest first",
    sample={"pattern": "**/*.py"},
    offered=True,
    copilot=ToolName("glob"),
    if_field="pattern",
)
