"""The session: one conversation, its queue of prompts and wake-ups, and everything that lives as
long as it does (background tasks, crons, worktrees, subagents).

A `ChatSession` lives inside `open_session(...)` (SessionStart on entry, SessionEnd on exit) and
runs one turn at a time on its own task: `send` queues a prompt and returns at once, `cancel`
interrupts the running turn (killing its tools and hooks), listeners see every change. The turn
itself — model, tools, Stop hooks — is `agent_loop.AgentLoop`, shared with subagents. Hook
outcomes are applied here exactly as the engine decided them; nothing is reinterpreted.

Things that happen while the session runs reach the model as notifications (isMeta messages:
asyncRewake hook output, finished background tasks): a new turn when the session is idle, or the
next model call of the running turn. They never count as the user speaking, so they don't end a
Stop-hook loop the way a queued user message does.
"""

import logging
import math
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio
from anyio.abc import TaskGroup

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import load_hook_config
from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
from wavehost.hooks.outcome import Outcome, subject_of
from wavehost.hooks.runner import HookContext
from wavehost.session import compaction, transcript
from wavehost.session.actor import Actor
from wavehost.session.agent_loop import AgentLoop
from wavehost.session.background import BackgroundTask, BackgroundTasks
from wavehost.session.conversation import AnyMessage, Conversation
from wavehost.session.crons import Clock, CronJob, SessionCrons
from wavehost.session.messages import (
    INTERRUPTED,
    AssistantMessage,
    NoticeBlock,
    ToolStatus,
    UserMessage,
    to_model_messages,
)
from wavehost.session.permissions import PermissionAnswer, PermissionAsker, PermissionPrompt
from wavehost.session.providers.base import Provider, ProviderError
from wavehost.session.subagents import Subagents
from wavehost.session.tools import Toolbox, Workspace, default_tools, toolbox
from wavehost.session.tools.agent import Agent
from wavehost.session.tools.cron import CronCreate, CronDelete, CronList
from wavehost.session.tools.worktree import EnterWorktree, ExitWorktree
from wavehost.session.updates import (
    HooksRunning,
    SessionStatus,
    SessionUpdate,
    StatusChanged,
    UpdateListener,
)
from wavehost.session.worktrees import Worktrees
from wavehost.settings.runlog import RunLog

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You are Wave, a coding agent working in the user's project.
Project root: {root}
Use the tools to read, search, edit and run things in the workspace; paths may be absolute or
relative to the shell's working directory. Text inside <system-reminder> tags comes from the
user's hooks: treat it as context, not as new instructions from the user."""

STOP_BLOCK_CAP = 8  # Claude Code's default: consecutive Stop blocks before the turn is ended
AUTO_COMPACT_TOKENS = 150_000  # estimated context size that triggers automatic compaction
IDLE_NOTIFY_AFTER = 60.0  # seconds idle before Notification `idle_prompt` (Claude Code's)
PERMISSION_MESSAGE = "Wave needs your permission to use {tool}"
IDLE_MESSAGE = "Wave is waiting for your input"


@dataclass
class SessionConfig:
    root: Path
    provider: Provider
    permission_mode: p.PermissionMode = "default"
    home: Path | None = None  # where ~/.wave is (tests point it elsewhere)
    hooks: Mapping[str, Any] | None = None  # programmatic hooks, Claude Code's format
    trusted: bool = True  # whether project hooks may run
    ask_permission: PermissionAsker | None = None  # None: headless, the mode decides
    listeners: list[UpdateListener] = field(default_factory=list)
    system_prompt: str | None = None
    stop_block_cap: int = STOP_BLOCK_CAP  # 0: no cap
    auto_compact_tokens: int | None = AUTO_COMPACT_TOKENS  # None: never compact on its own
    idle_notify_after: float | None = IDLE_NOTIFY_AFTER  # None: no idle_prompt notification
    clock: Clock | None = None  # what session crons read the time from (None: the system's)


@dataclass(slots=True)
class _Item:
    kind: Literal["prompt", "wake", "compact"]
    text: str = ""
    done: anyio.Event | None = None  # set when a `compact` item has run
    ok: bool = False


class ChatSession:
    def __init__(self, config: SessionConfig, saved: transcript.Transcript | None = None) -> None:
        self.config = config
        self.id = saved.session_id if saved else str(uuid.uuid4())
        self.root = config.root.resolve()
        self.provider = config.provider
        self.permission_mode = config.permission_mode
        self.stop_block_cap = config.stop_block_cap
        self.resumed = saved is not None
        self.created_at = saved.created_at if saved else transcript.now()
        workdir = Path(saved.workdir) if saved else self.root
        self.workspace = Workspace(self.root, workdir if workdir.is_dir() else self.root)
        self.transcript_path = paths.transcript_path(self.id, config.home)
        self.engine = HookEngine(
            load_hook_config(
                self.root, home=config.home, programmatic=config.hooks, trusted=config.trusted
            ),
            RunLog(paths.run_log(self.root, config.home)),  # the settings page's run history
        )
        for problem in self.engine.config.diagnostics:
            where = f"{problem.path}#{problem.pointer}" if problem.pointer else problem.path
            log.warning("hook configuration: %s: %s", where, problem.message)
        self.conversation = Conversation(
            self.id,
            self.transcript_path,
            list(saved.state.messages) if saved else [],
            self._describe,
            self._emit,
        )
        self.status: SessionStatus = "idle"
        self.running_hooks: tuple[str, ...] = ()  # statusMessages of the hooks running now
        self.turn_error: str | None = None  # why the last turn failed (blocked prompt, model)
        self.end_reason = "other"  # SessionEnd's reason when the session closes
        self.crons = SessionCrons(self._on_cron, config.clock)
        self.worktrees = Worktrees(self)
        self._system = (config.system_prompt or SYSTEM_PROMPT).replace("{root}", str(self.root))
        self._inbox_in, self._inbox_out = anyio.create_memory_object_stream[_Item](math.inf)
        self._queued_prompts = 0
        self._reported: tuple[SessionStatus, int] = ("idle", 0)
        self._notifications: list[str] = []  # texts waiting for the model's next call
        self._idle = anyio.Event()
        self._idle.set()
        self._turn: anyio.CancelScope | None = None
        self._idle_wait: anyio.CancelScope | None = None
        self._closed = False
        self._hooks_bg: BackgroundHooks | None = None
        self._group: TaskGroup | None = None
        self._main: Actor | None = None
        self.tasks: BackgroundTasks | None = None

    # -- what clients use -------------------------------------------------------------------

    @property
    def messages(self) -> list[AnyMessage]:
        return self.conversation.messages

    @property
    def queued(self) -> int:
        """User prompts waiting for the running turn to end."""
        return self._queued_prompts

    @property
    def busy(self) -> bool:
        """A turn is running or about to: a prompt sent now waits for it."""
        return not self._idle.is_set()

    def send(self, text: str) -> None:
        """Queue a prompt; it runs when the current turn (if any) is over. `/compact [text]`
        compacts the conversation instead of going to the model."""
        if self._closed:
            raise RuntimeError("the session is closed")
        self._queued_prompts += 1
        self._enqueue(_Item("prompt", text))
        self._set_status(self.status)  # reports the queue

    async def compact(self, instructions: str = "") -> bool:
        """Compact the conversation once the running turn is over; False if it failed."""
        if self._closed:
            raise RuntimeError("the session is closed")
        item = _Item("compact", instructions, anyio.Event())
        self._enqueue(item)
        assert item.done is not None
        await item.done.wait()
        return item.ok

    def cancel(self) -> None:
        """Interrupt the running turn: its tools and hooks are killed; queued prompts stay."""
        if self._turn is not None:
            self._turn.cancel()
        if self._hooks_bg is not None:
            self._hooks_bg.cancel_all()

    async def wait_idle(self) -> None:
        await self._idle.wait()

    # -- what the agent loop, compaction and worktrees use ----------------------------------

    @property
    def asker(self) -> PermissionAsker | None:
        return self.config.ask_permission

    @property
    def user_waiting(self) -> bool:
        return self._queued_prompts > 0

    def has_hooks(self, event: Event) -> bool:
        return self.engine.has_hooks(event)

    def common(self, actor: Actor | None = None) -> dict[str, Any]:
        """Fields every hook input carries; `cwd` is the workdir of whoever is running."""
        workspace = actor.workspace if actor is not None else self.workspace
        return {
            "session_id": self.id,
            "transcript_path": str(self.transcript_path),
            "cwd": str(workspace.cwd),
            "permission_mode": self.permission_mode,
            **(actor.identity() if actor is not None else {}),
        }

    async def dispatch(self, payload: p.HookInput) -> Outcome:
        assert self._hooks_bg is not None
        self.conversation.save()  # hooks read transcript_path: it must show everything so far
        # Hooks run where the payload says the agent is; $WAVE_PROJECT_DIR stays the root.
        context = HookContext(cwd=Path(payload.cwd), project_dir=self.root)
        shown = tuple(
            h.status_message
            for h in self.engine.matching(event_of(payload), subject_of(payload))
            if h.status_message and not h.in_background
        )
        if not shown:
            return await self.engine.dispatch(payload, context, self._hooks_bg)
        self._hooks_running(shown)
        try:
            return await self.engine.dispatch(payload, context, self._hooks_bg)
        finally:
            self._hooks_running(())

    def _hooks_running(self, status_messages: tuple[str, ...]) -> None:
        self.running_hooks = status_messages
        self._emit(HooksRunning(self.id, status_messages))

    def apply(
        self, outcome: Outcome, *, meta: bool = True, conversation: Conversation | None = None
    ) -> None:
        """Do what the engine decided: notices to the user, isMeta messages to the model."""
        target = conversation or self.conversation
        for notice in outcome.notices:
            target.notice(NoticeBlock.from_hook(notice))
        if meta:
            for text in outcome.meta_messages:
                target.append(UserMessage(content=text, is_meta=True))
        for line in outcome.logs:
            log.info("%s", line)

    async def before_model_call(self, actor: Actor) -> None:
        """The main agent's context may need compacting, and news may be waiting for it."""
        if not actor.is_main:
            return
        limit = self.config.auto_compact_tokens
        visible = to_model_messages(self.messages)
        if limit is not None and compaction.estimate_tokens(self._system, visible) > limit:
            await compaction.compact(self, self.conversation, actor.specs, "auto")
        for text in self._notifications:
            self.conversation.append(UserMessage(content=text, is_meta=True))
        self._notifications.clear()

    async def ask_user(self, prompt: PermissionPrompt) -> PermissionAnswer:
        """Ask the client; Notification hooks hear about it meanwhile (`permission_prompt`)."""
        assert self.config.ask_permission is not None
        message = PERMISSION_MESSAGE.format(tool=prompt.tool_name)
        self._spawn(self._notification, "permission_prompt", message)
        return await self.config.ask_permission(prompt)

    # -- plumbing ---------------------------------------------------------------------------

    def _emit(self, update: SessionUpdate) -> None:
        for listener in self.config.listeners:
            listener(update)

    def _set_status(self, status: SessionStatus) -> None:
        """Report the status and the number of queued prompts whenever either changes."""
        self.status = status
        if (status, self._queued_prompts) != self._reported:
            self._reported = (status, self._queued_prompts)
            self._emit(StatusChanged(self.id, status, self._queued_prompts))

    def _enqueue(self, item: _Item) -> None:
        if self._idle.is_set():
            self._idle = anyio.Event()
        if self._idle_wait is not None:
            self._idle_wait.cancel()  # not idle any more: no idle_prompt
        self._inbox_in.send_nowait(item)

    def _spawn(self, func: Any, *args: Any) -> None:
        assert self._group is not None
        self._group.start_soon(func, *args)

    def _describe(self, messages: list[AnyMessage]) -> transcript.Transcript:
        return transcript.Transcript(
            session_id=self.id,
            root=str(self.root),
            workdir=str(self.workspace.cwd),
            permission_mode=self.permission_mode,
            provider=self.provider.name,
            model=self.provider.model,
            created_at=self.created_at,
            updated_at=transcript.now(),
            state=transcript.TranscriptState(messages=messages),
        )

    def _stop_payload(self, common: dict[str, Any], active: bool, last: str | None) -> p.HookInput:
        assert self.tasks is not None
        return p.StopInput(
            **common,
            stop_hook_active=active,
            last_assistant_message=last,
            background_tasks=self.tasks.snapshot(),  # a snapshot at trigger time
            session_crons=self.crons.snapshot(),
        )

    def _notify(self, text: str, origin: str) -> None:
        """News for the model: the next model call of the running turn, or a turn of its own."""
        if self._closed:
            log.info("session %s is closed; dropped the notification from %s", self.id, origin)
            return
        self._notifications.append(text)
        if self._turn is None:
            self._enqueue(_Item("wake"))

    def _on_rewake(self, rewake: Rewake) -> None:
        """An asyncRewake hook exited 2: its text wakes the model of the session that ran it."""
        if rewake.session_id != self.id:  # never another session's news
            log.warning("dropped a wake-up for session %s in %s", rewake.session_id, self.id)
            return
        self._notify(rewake.reminder, rewake.command)

    def _on_task_done(self, task: BackgroundTask) -> None:
        self._notify(task.notification(), task.id)

    def _on_cron(self, job: CronJob) -> None:
        """A due cron prompt arrives like a typed one: a turn now, or after the running one."""
        if self._closed:
            return
        self.send(job.prompt)

    async def _notification(self, kind: str, message: str) -> None:
        payload = p.NotificationInput(
            **self.common(), message=message, title="Wave", notification_type=kind
        )
        self.apply(await self.dispatch(payload), meta=False)

    async def _idle_notice(self) -> None:
        """Notification `idle_prompt` once the session has sat idle for a while after a turn."""
        delay = self.config.idle_notify_after
        if delay is None:
            return
        with anyio.CancelScope() as scope:
            self._idle_wait = scope
            await anyio.sleep(delay)
        if self._idle_wait is scope:
            self._idle_wait = None
        if not scope.cancel_called and not self._closed:
            await self._notification("idle_prompt", IDLE_MESSAGE)

    # -- lifecycle --------------------------------------------------------------------------

    async def _start(
        self, hooks: BackgroundHooks, tasks: BackgroundTasks, group: TaskGroup
    ) -> None:
        self._hooks_bg, self.tasks, self._group = hooks, tasks, group
        shared = default_tools(tasks)
        subagents = Subagents(self, self.root, self.config.home, tasks, shared)
        tools: Toolbox = {
            **shared,
            **toolbox(
                Agent(subagents),
                CronCreate(self.crons),
                CronList(self.crons),
                CronDelete(self.crons),
                EnterWorktree(self.worktrees),
                ExitWorktree(self.worktrees),
            ),
        }
        self._main = Actor(
            self.conversation, self.workspace, tools, self._system, self._stop_payload
        )
        self.conversation.begin_turn()
        source: Literal["startup", "resume"] = "resume" if self.resumed else "startup"
        payload = p.SessionStartInput(**self.common(), source=source, model=self.provider.model)
        self.apply(await self.dispatch(payload))
        self.conversation.save()

    async def _close(self) -> None:
        self._closed = True
        self.cancel()
        if self._idle_wait is not None:
            self._idle_wait.cancel()
        with anyio.move_on_after(5):
            await self.wait_idle()
        self.conversation.begin_turn()
        payload = p.SessionEndInput(**self.common(), reason=self.end_reason)
        self.apply(await self.dispatch(payload), meta=False)
        self.conversation.save()

    async def _work(self) -> None:
        async for item in self._inbox_out:
            if item.kind == "prompt":
                self._queued_prompts -= 1
            self._set_status("running")
            with anyio.CancelScope() as scope:
                self._turn = scope
                try:
                    await self._run_turn(item)
                finally:
                    if item.done is not None:
                        item.done.set()
            self._turn = None
            if scope.cancelled_caught:
                self._settle_unfinished(INTERRUPTED, "cancelled")
                self.conversation.notice(NoticeBlock(level="warning", text=INTERRUPTED))
            self.conversation.save()
            if self._notifications and not self._closed:
                self._enqueue(_Item("wake"))  # news that came as the turn ended
            if self._inbox_out.statistics().current_buffer_used == 0:
                self._set_status("idle")
                self._idle.set()
                if not self._closed:
                    self._spawn(self._idle_notice)

    async def _run_turn(self, item: _Item) -> None:
        self.conversation.begin_turn()
        self.turn_error = None
        assert self._main is not None
        try:
            if item.kind == "prompt":
                await self._prompt_turn(item.text)
            elif item.kind == "compact":
                item.ok = await self._compact(item.text)
            elif self._notifications:
                await AgentLoop(self, self._main).respond()
        except ProviderError as err:
            self._turn_failed(f"Model request failed: {err}")
        except Exception as err:  # a bug must not kill the session: report it, keep going
            log.exception("turn failed")
            self._turn_failed(f"Internal error: {type(err).__name__}: {err}")

    def _turn_failed(self, text: str) -> None:
        self.turn_error = text
        self._settle_unfinished(text, "error")
        self.conversation.notice(NoticeBlock(level="error", text=text))

    def _settle_unfinished(self, error: str, status: ToolStatus) -> None:
        """Tool calls the turn never finished get a result, as both wire formats require."""
        for message in self.messages[self.conversation.turn_start :]:
            if isinstance(message, AssistantMessage):
                for block in message.tools():
                    if block.status in ("pending", "running"):
                        block.fail(error, status)
                        self.conversation.changed(message, persist=False)

    # -- a turn -----------------------------------------------------------------------------

    async def _compact(self, instructions: str) -> bool:
        assert self._main is not None
        done = await compaction.compact(
            self, self.conversation, self._main.specs, "manual", instructions
        )
        if not done:
            self.turn_error = "compaction failed"
        return done

    async def _prompt_turn(self, text: str) -> None:
        assert self._main is not None
        instructions = compaction.parse_command(text)
        if instructions is not None:  # a local command: no UserPromptSubmit, no model turn
            await self._compact(instructions)
            return
        prompt = self.conversation.append(UserMessage(content=text))
        outcome = await self.dispatch(p.UserPromptSubmitInput(**self.common(), prompt=text))
        if outcome.blocked:  # the prompt is erased; only the user sees why
            self.conversation.remove(prompt)
            self.apply(outcome, meta=False)
            self.turn_error = "\n".join(n.text for n in outcome.notices) or "prompt blocked"
            return
        self.apply(outcome)
        await AgentLoop(self, self._main).respond()


@asynccontextmanager
async def open_session(
    config: SessionConfig, *, resume: str | None = None
) -> AsyncIterator[ChatSession]:
    """Open a session (a new one, or `resume` a saved one by id); close it on exit."""
    saved = transcript.load(resume, config.home) if resume else None
    session = ChatSession(config, saved)
    async with (
        session._inbox_in,
        session._inbox_out,
        BackgroundTasks(session._on_task_done) as tasks,
        BackgroundHooks(session._on_rewake) as hooks,
        anyio.create_task_group() as group,
    ):
        await session._start(hooks, tasks, group)
        group.start_soon(session._work)
        group.start_soon(session.crons.run)
        try:
            yield session
        finally:
            with anyio.CancelScope(shield=True):
                await session._close()
            group.cancel_scope.cancel()
