"""Grep: a regular expression searched in files."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

GREP = ChatTool(
    name="Grep",
    summary="Searches file contents for a regular expression",
    sample={"pattern": "TODO"},
    offered=True,
    copilot=ToolName("grep", aliases=("rg",)),
    snow=ToolName("ace-text_search"),
    if_field="pattern",
)
