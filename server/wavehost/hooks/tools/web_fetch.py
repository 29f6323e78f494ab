"""WebFetch: Claude Code's, not offered by wavehost (a hook may name it)."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

WEB_FETCH = ChatTool(
    name="WebFetch",
    summary="Fetches a web page and answers a prompt about it",
    sample={"url": "https://example.com/", "prompt": "What is this page about?"},
    offered=False,
    copilot=ToolName("web_fetch"),
)
