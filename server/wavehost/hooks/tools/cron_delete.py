"""CronDelete: cancels a scheduled prompt."""

from wavehost.hooks.tools.spec import ChatTool

CRON_DELETE = ChatTool(
    name="CronDelete",
    summary="Cancels a prompt scheduled in this session, by its id",
    sample={"id": "cron-1a2b3c"},
    offered=True,
)
