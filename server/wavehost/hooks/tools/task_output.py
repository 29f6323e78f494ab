"""TaskOutput: what a background task printed."""

from wavehost.hooks.tools.spec import ChatTool

TASK_OUTPUT = ChatTool(
    name="TaskOutput",
    summary="Reads the output of a background command or agent (waiting for its end if asked)",
    sample={"task_id": "bash_1a2b3c4d"},
    offered=True,
    legacy=("AgentOutputTool", "BashOutputTool"),
)
