"""CronCreate, CronList and CronDelete: the model schedules prompts for its own session
(Claude Code's names and inputs)."""

from pydantic import Field

from wavehost.hooks.tools.cron_create import CRON_CREATE
from wavehost.hooks.tools.cron_delete import CRON_DELETE
from wavehost.hooks.tools.cron_list import CRON_LIST
from wavehost.session.crons import CronError, SessionCrons
from wavehost.session.tools.base import Tool, ToolError, ToolInput, ToolResult, Workspace


class CronCreateInput(ToolInput):
    cron: str = Field(
        description='5-field cron expression in local time, e.g. "*/5 * * * *" or "30 14 * * 1"'
    )
    prompt: str = Field(description="The prompt to run at each fire time")
    recurring: bool = Field(True, description="false: fire once, then delete the job")


class CronCreate(Tool[CronCreateInput]):
    name = CRON_CREATE.name
    kind = "read"  # schedules a prompt in this session only; it changes nothing on disk
    description = (
        "Schedules a prompt to run in this session on a cron schedule (5 fields, local time). "
        "Jobs are session-only; a due prompt runs when the session is idle, else after the "
        "current turn."
    )
    input_model = CronCreateInput

    def __init__(self, crons: SessionCrons) -> None:
        self.crons = crons

    async def run(self, args: CronCreateInput, workspace: Workspace) -> ToolResult:
        try:
            job = self.crons.create(args.cron, args.prompt, args.recurring)
        except CronError as err:
            raise ToolError(str(err)) from None
        kind, after = (
            ("recurring job", "It fires until deleted with CronDelete.")
            if job.recurring
            else ("one-shot task", "It will fire once then auto-delete.")
        )
        return ToolResult.success(
            f"Scheduled {kind} {job.id} ({job.schedule}), next run {job.next_run:%Y-%m-%d %H:%M}."
            f" Session-only (not written to disk, dies when the session ends). {after}",
            id=job.id,
            schedule=job.schedule,
            recurring=job.recurring,
            nextRun=job.next_run.isoformat(),
        )


class CronListInput(ToolInput):
    pass


class CronList(Tool[CronListInput]):
    name = CRON_LIST.name
    kind = "read"
    description = "Lists the cron jobs scheduled in this session."
    input_model = CronListInput

    def __init__(self, crons: SessionCrons) -> None:
        self.crons = crons

    async def run(self, args: CronListInput, workspace: Workspace) -> ToolResult:
        jobs = self.crons.jobs()
        lines = [
            f"{j.id} — {j.schedule} ({'recurring' if j.recurring else 'one-shot'}): {j.prompt}"
            for j in jobs
        ]
        return ToolResult.success(
            "\n".join(lines) or "No scheduled jobs.",
            jobs=[j.payload().model_dump() for j in jobs],
        )


class CronDeleteInput(ToolInput):
    id: str = Field(description="The job ID CronCreate returned")


class CronDelete(Tool[CronDeleteInput]):
    name = CRON_DELETE.name
    kind = "read"
    description = "Cancels a cron job of this session by its ID."
    input_model = CronDeleteInput

    def __init__(self, crons: SessionCrons) -> None:
        self.crons = crons

    async def run(self, args: CronDeleteInput, workspace: Workspace) -> ToolResult:
        if self.crons.delete(args.id) is None:
            raise ToolError(f"No scheduled job with ID: {args.id}")
        return ToolResult.success(f"Cancelled job {args.id}.", id=args.id)
