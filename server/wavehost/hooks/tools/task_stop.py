"""TaskStop: ends a background task."""

from wavehost.hooks.tools.spec import ChatTool

TASK_STOP = ChatTool(
    name="TaskStop",
    summary="Stops a background command or agent of this session",
    sample={"task_id": "bash_1a2b3c4d"},
    offered=True,
    legacy=("KillShell",),
)
