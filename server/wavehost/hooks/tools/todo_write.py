"""TodoWrite: Claude Code's, not offered by wavehost (a hook may name it)."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

TODO_WRITE = ChatTool(
    name="TodoWrite",
    summary="Keeps the session's to-do list",
    sample={
        "todos": [
            {"content": "Write the tests", "status": "pending", "activeForm": "Writing the tests"}
        ]
    },
    offered=False,
    copilot=ToolName("update_todo"),
)
