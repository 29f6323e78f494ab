"""CronCreate: a prompt scheduled in this session."""

from wavehost.hooks.tools.spec import ChatTool

CRON_CREATE = ChatTool(
    name="CronCreate",
    summary="Schedules a prompt in this session, once or on a cron schedule",
    sample={"cron": "*/30 * * * *", "prompt": "Check the build", "recurring": True},
    offered=True,
)
