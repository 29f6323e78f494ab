"""TaskOutput and TaskStop: read and stop background work (Claude Code's current names; they were
BashOutput and KillShell before background subagents shared the same registry)."""

import anyio
from pydantic import Field, model_validator

from wavehost.hooks.tools.task_output import TASK_OUTPUT
from wavehost.hooks.tools.task_stop import TASK_STOP
from wavehost.session.background import BackgroundTask, BackgroundTasks
from wavehost.session.tools.base import Tool, ToolError, ToolInput, ToolResult, Workspace

DEFAULT_WAIT_MS = 30_000
MAX_WAIT_MS = 600_000


def _find(tasks: BackgroundTasks, task_id: str) -> BackgroundTask:
    task = tasks.get(task_id)
    if task is None:
        raise ToolError(f"No task found with ID: {task_id}")
    return task


class TaskOutputInput(ToolInput):
    task_id: str = Field(description="The ID of the background task")
    block: bool = Field(True, description="Wait for the task to finish before answering")
    timeout: int = Field(
        DEFAULT_WAIT_MS, ge=0, le=MAX_WAIT_MS, description="Longest wait in milliseconds"
    )


class TaskOutput(Tool[TaskOutputInput]):
    name = TASK_OUTPUT.name
    kind = "read"
    description = (
        "Retrieves the output of a background task (a shell started with run_in_background, or "
        "a background agent). With block=true it waits for the task to end, up to timeout ms."
    )
    input_model = TaskOutputInput

    def __init__(self, tasks: BackgroundTasks) -> None:
        self.tasks = tasks

    async def run(self, args: TaskOutputInput, workspace: Workspace) -> ToolResult:
        task = _find(self.tasks, args.task_id)
        if args.block:
            with anyio.move_on_after(args.timeout / 1000):
                await task.done.wait()
        output = task.output()
        exit_line = f"\nExit code: {task.exit_code}" if task.exit_code is not None else ""
        return ToolResult.success(
            f"Task {task.id} ({task.type}) status: {task.status}{exit_line}\n{output}".rstrip(),
            task_id=task.id,
            task_type=task.type,
            status=task.status,
            exitCode=task.exit_code,
            output=output,
        )


class TaskStopInput(ToolInput):
    task_id: str = Field(description="The ID of the background task to stop")

    @model_validator(mode="before")
    @classmethod
    def _shell_id(cls, data: object) -> object:
        """KillShell's `shell_id` still works, as it does in Claude Code."""
        if isinstance(data, dict) and "task_id" not in data and "shell_id" in data:
            return {**data, "task_id": data["shell_id"]}
        return data


class TaskStop(Tool[TaskStopInput]):
    name = TASK_STOP.name
    kind = "read"  # it only ends work this session started itself: nothing to ask the user about
    description = "Stops a running background task (and everything it started) by its ID."
    input_model = TaskStopInput

    def __init__(self, tasks: BackgroundTasks) -> None:
        self.tasks = tasks

    async def run(self, args: TaskStopInput, workspace: Workspace) -> ToolResult:
        task = _find(self.tasks, args.task_id)
        if task.status != "running":
            raise ToolError(f"Task {task.id} is not running (status: {task.status})")
        self.tasks.stop(task.id)
        await task.done.wait()
        return ToolResult.success(
            f"Successfully stopped task: {task.id} ({task.command or task.description})",
            task_id=task.id,
            task_type=task.type,
        )
