"""CronList: the session's scheduled prompts."""

from wavehost.hooks.tools.spec import ChatTool

CRON_LIST = ChatTool(
    name="CronList",
    summary="Lists the prompts scheduled in this session",
    sample={},
    offered=True,
)
