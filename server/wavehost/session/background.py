"""Background work of one session: shells started with `run_in_background` and background subagents.

One registry for both, because the model reads and stops them with the same tools (`TaskOutput`,
`TaskStop`, Claude Code's names) and Stop hooks see them in one list (`background_tasks`). Each
task writes its output to a file, in a temp folder of the session's that goes when the session
ends; when a task ends on its own, `on_done` hears about it so the session can wake the model
with a notification. A task the model stopped itself (`TaskStop`) or that the
session's end killed is not announced: nobody is waiting for that news.
"""

import logging
import shutil
import signal
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import anyio

from wavehost.hooks import payloads as p
from wavehost.plumbing.children import Child
from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.session.shells import spawn_shell

log = logging.getLogger(__name__)

TaskType = Literal["shell", "subagent"]
TaskStatus = Literal["running", "completed", "failed", "killed"]


@dataclass
class BackgroundTask:
    id: str
    type: TaskType
    output_file: Path
    command: str | None = None  # shells
    agent_type: str | None = None  # subagents
    description: str | None = None
    status: TaskStatus = "running"
    exit_code: int | None = None
    done: anyio.Event = field(default_factory=anyio.Event)
    _stop: Callable[[], None] | None = None

    @property
    def label(self) -> str:
        if self.type == "shell":
            return f'Background command "{self.command}"'
        return f'Agent "{self.description or self.agent_type}"'

    def snapshot(self) -> p.BackgroundTask:
        """How a Stop hook sees it: shells by command, subagents by type and description."""
        if self.type == "shell":
            return p.BackgroundTask(type="shell", command=self.command)
        return p.BackgroundTask(
            type="subagent", agent_type=self.agent_type, description=self.description
        )

    def output(self) -> str:
        try:
            return self.output_file.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def notification(self) -> str:
        """What the model is told when the task ends (Claude Code's task-notification shape)."""
        if self.type == "shell":
            how = (
                f"completed (exit code {self.exit_code})"
                if self.status == "completed"
                else f"failed with exit code {self.exit_code}"
            )
        else:
            how = "completed" if self.status == "completed" else "failed"
        # An agent's report is short and is the point of the task: it comes along.
        result = f"<result>{self.output()}</result>\n" if self.type == "subagent" else ""
        return (
            f"<task-notification>\n<task-id>{self.id}</task-id>\n<status>{self.status}</status>\n"
            f"<summary>{self.label} {how}</summary>\n{result}"
            f"<output-file>{self.output_file}</output-file>\n</task-notification>"
        )


class BackgroundTasks(OwnedTaskGroup):
    """Entered for the session's lifetime; leaving stops whatever still runs."""

    def __init__(self, on_done: Callable[[BackgroundTask], None] | None = None) -> None:
        super().__init__()
        self.on_done = on_done
        self._tasks: dict[str, BackgroundTask] = {}
        self._dir: Path | None = None  # made with the first task, removed with the session

    def _output_dir(self) -> Path:
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix="wavehost-tasks-"))
        return self._dir

    def closing(self) -> None:
        self.on_done = None  # the session is ending: nothing to announce any more
        for task in self._tasks.values():
            self._halt(task)

    def closed(self) -> None:
        if self._dir is not None:  # every task has ended: nobody reads their output any more
            shutil.rmtree(self._dir, ignore_errors=True)

    def get(self, task_id: str) -> BackgroundTask | None:
        return self._tasks.get(task_id)

    def running(self) -> list[BackgroundTask]:
        return [t for t in self._tasks.values() if t.status == "running"]

    def snapshot(self) -> list[p.BackgroundTask]:
        """What still runs, as Stop's `background_tasks` (taken at trigger time)."""
        return [t.snapshot() for t in self.running()]

    def stop(self, task_id: str) -> BackgroundTask | None:
        """Stop a running task (its whole process tree); None if there is no such task."""
        task = self._tasks.get(task_id)
        if task is not None and task.status == "running":
            self._halt(task)
        return task

    def _halt(self, task: BackgroundTask) -> None:
        if task.status == "running" and task._stop is not None:
            task.status = "killed"
            task._stop()

    def _new(
        self,
        kind: TaskType,
        *,
        command: str | None = None,
        agent_type: str | None = None,
        description: str | None = None,
    ) -> BackgroundTask:
        task_id = f"{'bash' if kind == 'shell' else 'agent'}_{uuid.uuid4().hex[:8]}"
        task = BackgroundTask(
            task_id, kind, self._output_dir() / f"{task_id}.log", command, agent_type, description
        )
        self._tasks[task_id] = task
        return task

    async def start_shell(
        self, command: str, cwd: Path, env: Mapping[str, str], description: str | None = None
    ) -> BackgroundTask:
        group = self.group  # only while entered
        task = self._new("shell", command=command, description=description)
        with task.output_file.open("wb") as sink:
            child = spawn_shell(command, cwd, env, stdout=sink.fileno())
        stopping = anyio.CancelScope()
        task._stop = stopping.cancel
        group.start_soon(self._reap, task, child, stopping)
        return task

    async def _reap(self, task: BackgroundTask, child: Child, stopping: anyio.CancelScope) -> None:
        """Wait for the shell; a stop (TaskStop, the session's end) ends its whole tree: SIGTERM,
        then SIGKILL after a grace, for a tree that ignores SIGTERM."""
        try:
            with stopping:
                await child.wait()
            if stopping.cancel_called:
                with anyio.CancelScope(shield=True):
                    await child.stop_group()
        finally:
            await child.killed()
            child.signal_group(signal.SIGKILL)  # stragglers of a tree whose shell has exited
            child.close()
        task.exit_code = child.returncode
        self._finish(task, "completed" if child.returncode == 0 else "failed")

    def start_agent(
        self, agent_type: str, description: str, run: Callable[[], Awaitable[str]]
    ) -> BackgroundTask:
        """Run a subagent in the background; its final reply becomes the task's output."""
        group = self.group  # only while entered
        task = self._new("subagent", agent_type=agent_type, description=description)
        scope = anyio.CancelScope()
        task._stop = scope.cancel
        group.start_soon(self._drive, task, scope, run)
        return task

    async def _drive(
        self, task: BackgroundTask, scope: anyio.CancelScope, run: Callable[[], Awaitable[str]]
    ) -> None:
        status: TaskStatus = "failed"
        with scope:
            try:
                task.output_file.write_text(await run(), encoding="utf-8")
                status = "completed"
            except Exception as err:  # a failed subagent is news for the model, not a crash
                log.exception("background agent %s failed", task.id)
                task.output_file.write_text(f"{type(err).__name__}: {err}", encoding="utf-8")
        self._finish(task, status)

    def _finish(self, task: BackgroundTask, status: TaskStatus) -> None:
        announce = task.status == "running"  # not when stopped on purpose
        if announce:
            task.status = status
        task.done.set()
        log.info("background task %s ended: %s", task.id, task.status)
        if announce and self.on_done is not None:
            self.on_done(task)
