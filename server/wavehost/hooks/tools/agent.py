"""Agent: a task handed to a subagent."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

AGENT = ChatTool(
    name="Agent",
    summary="Hands a task to a subagent of a given type (in the background if asked)",
    sample={
        "description": "Find the tests",
        "prompt": "List the test files of this project and what each one covers.",
        "subagent_type": "Explore",
    },
    offered=True,
    legacy=("Task",),
    copilot=ToolName("task", {"subagent_type": "agent_type"}),
)
