"""Bash: runs a shell command in the project (in the background if asked)."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

BASH = ChatTool(
    name="Bash",
    summary="Runs a shell command in the project's shell (or in the background)",
    sample={"command": "ls -la", "description": "List the files"},
    offered=True,
    copilot=ToolName("bash", aliases=("powershell",)),
    snow=ToolName("terminal-execute"),
    if_field="command",
    shell=True,
)
