"""WebSearch: Claude Code's, not offered by wavehost (a hook may name it)."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

WEB_SEARCH = ChatTool(
    name="WebSearch",
    summary="Searches the web",
    sample={"query": "pygls custom methods"},
    offered=False,
    copilot=ToolName("web_search"),
)
