"""The session: one conversation, its queue of prompts and wake-ups, and everything that lives as
long as it does (background tasks, crons, worktrees, subagents, MCP servers).

A `ChatSession` is built with its collaborators by `lifecycle.open_session` (SessionStart on
entry, SessionEnd on exit) and is three rooms: its turns (`turns.Turns`: one at a time on its own
task — `send` queues a prompt and returns at once, `cancel` interrupts the running turn, killing
its tools and hooks), its questions (`questions.SessionQuestions`: permission questions, the
model's and hooks' questions, answerable by any page), and this class, which wires them to the
conversation, the hooks facade (`hooks.SessionHooks`) and the agent loop (`agent_loop`, shared
with subagents) and is what clients use. Listeners see every change. Hook outcomes are applied
exactly as the engine decided them; nothing is reinterpreted.

Things that happen while the session runs reach the model as news (`inbox`): a new turn when the
session is idle, or the next model call of the running turn. They never count as the user
speaking, so they don't end a Stop-hook loop the way a queued user message does.
"""

import functools
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.dialects import snow
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.live import LiveView
from wavehost.hooks.runlog import RunLog
from wavehost.hooks.settings_files import read_settings
from wavehost.hooks.sources import load_hook_config
from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.session import claude_transcript, transcript
from wavehost.session.actor import Actor
from wavehost.session.agent_loop import LoopContext
from wavehost.session.background import BackgroundTasks
from wavehost.session.conversation import AnyMessage, Conversation
from wavehost.session.crons import Clock, CronJob, SessionCrons
from wavehost.session.hook_models import SessionHookModels
from wavehost.session.hooks import SessionHooks
from wavehost.session.inbox import Inbox, Item
from wavehost.session.mcp import McpServers, hook_caller, keep_current
from wavehost.session.mcp.tools import spiller
from wavehost.session.permissions import (
    PermissionAnswer,
    PermissionAsker,
    PermissionPrompt,
    Permissions,
)
from wavehost.session.providers.base import Provider
from wavehost.session.questions import SessionQuestions
from wavehost.session.subagents import Subagents
from wavehost.session.tools import Toolbox, Workspace, ask, default_tools, toolbox
from wavehost.session.tools.agent import Agent
from wavehost.session.tools.cron import CronCreate, CronDelete, CronList
from wavehost.session.tools.worktree import EnterWorktree, ExitWorktree
from wavehost.session.turns import Turns
from wavehost.session.updates import Queued, SessionStatus, SessionUpdate, UpdateListener
from wavehost.session.worktrees import Worktrees

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You are Wave, a coding agent working in the user's project.
Project root: {root}
Use the tools to read, search, edit and run things in the workspace; paths may be absolute or
relative to the shell's working directory. Text inside <system-reminder> tags comes from the
user's hooks: treat it as context, not as new instructions from the user."""

STOP_BLOCK_CAP = 8  # Claude Code's default: consecutive Stop blocks the turn goes on after
STOP_BLOCK_CAP_ENV = ("WAVE_STOP_HOOK_BLOCK_CAP", "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP")
AUTO_COMPACT_TOKENS = 150_000  # estimated context size that triggers automatic compaction
IDLE_NOTIFY_AFTER = 60.0  # seconds idle before Notification `idle_prompt` (Claude Code's)
EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")  # Claude Code's effort levels
# What a model runs at when the request names no effort level — wavehost's requests name none.
DEFAULT_EFFORT = "high"
EFFORT_ENV = ("WAVE_EFFORT_LEVEL", "CLAUDE_CODE_EFFORT_LEVEL")


@dataclass
class SessionConfig:
    root: Path
    provider: Provider
    permission_mode: p.PermissionMode = "default"
    home: Path | None = None  # where ~/.wave is (tests point it elsewhere)
    hooks: Mapping[str, Any] | None = None  # programmatic hooks, Claude Code's format
    trusted: bool = True  # whether project hooks may run
    # How a question reaches the client; None: headless, the mode decides. A client that fails
    # to answer leaves the question open (any page attached may answer it: `answer_permission`).
    ask_permission: PermissionAsker | None = None
    # How AskUserQuestion (and a hook's prompt action) reaches the client; None: nobody to ask.
    # Like a permission question, it stays open when the client fails to answer
    # (`answer_question`).
    ask_question: ask.QuestionRelay | None = None
    listeners: list[UpdateListener] = field(default_factory=list)
    system_prompt: str | None = None
    stop_block_cap: int | None = None  # 0: no cap; None: `stop_block_cap()`
    auto_compact_tokens: int | None = AUTO_COMPACT_TOKENS  # None: never compact on its own
    idle_notify_after: float | None = IDLE_NOTIFY_AFTER  # None: no idle_prompt notification
    clock: Clock | None = None  # what session crons read the time from (None: the system's)
    # $CLAUDE_CODE_ENTRYPOINT / $WAVE_ENTRYPOINT: "ide" (a shell's chat panel) or "sdk-cli"
    # (`wavehost chat -p`, Claude Code's name for its own `-p`)
    entrypoint: str = "ide"
    effort: str | None = None  # the effort level hooks are told; None: `effort_level()`


def stop_block_cap(env: Mapping[str, str] = os.environ) -> int:
    """How many consecutive Stop blocks a reply goes on after, found where Claude Code looks:
    $CLAUDE_CODE_STOP_HOOK_BLOCK_CAP (or $WAVE_STOP_HOOK_BLOCK_CAP; `0`: no cap), else 8."""
    for name in STOP_BLOCK_CAP_ENV:
        try:
            return max(int(env.get(name, "")), 0)
        except ValueError:
            continue
    return STOP_BLOCK_CAP


def effort_level(
    root: Path, home: Path | None, *, trusted: bool, env: Mapping[str, str] = os.environ
) -> str:
    """The session's effort level as hooks see it (payload `effort.level`, $CLAUDE_EFFORT), found
    where Claude Code looks: $CLAUDE_CODE_EFFORT_LEVEL (or $WAVE_EFFORT_LEVEL), else
    `effortLevel` in the settings files (the most specific trusted one), else `high`. wavehost
    asks the model for no particular effort, so a model runs at its default: `high` for most.
    Values that are not an effort level are skipped."""
    settings = read_settings(root, home=home, trusted=trusted)
    for found in (*(env.get(name) for name in EFFORT_ENV), settings.value("effortLevel")):
        if isinstance(found, str) and found.strip().lower() in EFFORT_LEVELS:
            return found.strip().lower()
    return DEFAULT_EFFORT


class ChatSession:
    def __init__(
        self,
        config: SessionConfig,
        saved: transcript.Transcript | None,
        *,
        inbox: Inbox,
        tasks: BackgroundTasks,
        background_hooks: BackgroundHooks,
        group: OwnedTaskGroup,
        mcp: McpServers | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config
        self.id = inbox.session_id
        self.root = config.root.resolve()
        self.provider = config.provider
        self.permission_mode = config.permission_mode
        self.resumed = saved is not None
        self.created_at = saved.created_at if saved else transcript.now()
        workdir = Path(saved.workdir) if saved else self.root
        self.env_file = paths.session_env_file(self.id, config.home)
        self.workspace = Workspace(
            self.root, workdir if workdir.is_dir() else self.root, self.env_file, env=env
        )
        self.transcript_path = paths.transcript_path(self.id, config.home)
        # What hooks read as `transcript_path`: this JSON, or Claude Code's JSONL of it
        settings = read_settings(self.root, home=config.home, trusted=config.trusted)
        export = None
        hook_transcript = self.transcript_path
        if settings.value(claude_transcript.SETTING) == claude_transcript.FORMAT:
            hook_transcript = paths.claude_transcript_path(self.id, config.home)
            export = claude_transcript.ClaudeTranscript(hook_transcript, self.id, config.entrypoint)
        engine = HookEngine(
            load_hook_config(
                self.root, home=config.home, programmatic=config.hooks, trusted=config.trusted
            ),
            RunLog(paths.run_log(self.root, config.home)),  # the settings page's run history
        )
        if any(h.dialect == "snow" for h in engine.config.runnable()):
            self.workspace.identity = functools.partial(_snow_identity, self.id)
        for problem in engine.config.diagnostics:
            where = f"{problem.path}#{problem.pointer}" if problem.pointer else problem.path
            log.warning("hook configuration: %s: %s", where, problem.message)
        self.conversation = Conversation(
            self.id,
            self.transcript_path,
            list(saved.state.messages) if saved else [],
            self._describe,
            self._emit,
        )
        self.hooks = SessionHooks(
            session_id=self.id,
            transcript_path=hook_transcript,
            root=self.root,
            workspace=self.workspace,
            permission_mode=self.permission_mode,
            engine=engine,
            background=background_hooks,
            conversation=self.conversation,
            emit=self._emit,
            folder=paths.session_dir(self.id, config.home),
            entrypoint=config.entrypoint,
            effort=config.effort or effort_level(self.root, config.home, trusted=config.trusted),
            env_file=self.env_file,
            export=export,
        )
        self.inbox = inbox
        self.tasks = tasks
        self.end_reason = "other"  # SessionEnd's reason when the session closes
        self.ending = anyio.CancelScope()  # the session's last hooks (onStop, SessionEnd)
        self.crons = SessionCrons(self._on_cron, config.clock)
        self.worktrees = Worktrees(self.hooks, trusted=config.trusted)
        system = (config.system_prompt or SYSTEM_PROMPT).replace("{root}", str(self.root))
        self.questions = SessionQuestions(
            self.id,
            ask_permission=config.ask_permission,
            ask_question=config.ask_question,
            notify=lambda kind, message: group.start_soon(self._notification, kind, message),
            emit=self._emit,
        )
        # The agent loop and the main agent are built before the turns that run them: what they ask
        # of the turns (before a model call, a Stop's payload) is looked up when asked
        self.loop = LoopContext(
            hooks=self.hooks,
            provider=self.provider,
            permissions=Permissions(
                self.id, self.permission_mode, self.questions.asker(), self.questions.always_allowed
            ),
            stop_block_cap=(
                stop_block_cap() if config.stop_block_cap is None else config.stop_block_cap
            ),
            user_waiting=lambda: inbox.user_waiting,
            before_model_call=lambda actor: self.turns.before_model_call(actor),
            ask_user=self.questions.prompt_action if self.questions.can_ask_user else None,
        )
        shared = default_tools(tasks)
        # prompt and agent hooks ask the session's model (and a read-only subagent)
        self.hooks.models = SessionHookModels(self.loop, shared, self.root, config.home)
        subagents = Subagents(self.loop, self.root, config.home, tasks, shared)
        tools: Toolbox = {
            **shared,
            **toolbox(
                Agent(subagents),
                CronCreate(self.crons),
                CronList(self.crons),
                CronDelete(self.crons),
                EnterWorktree(self.worktrees),
                ExitWorktree(self.worktrees),
                ask.AskUserQuestion(
                    self.questions.ask_user if self.questions.can_ask_user else None
                ),
            ),
        }
        self.mcp = mcp or McpServers()  # tools of MCP servers join both toolboxes
        self.hooks.mcp = hook_caller(self.mcp)
        keep_current(self.mcp, [tools, shared], spiller(paths.session_dir(self.id, config.home)))
        main = Actor(
            self.conversation,
            self.workspace,
            tools,
            system,
            lambda common, active, last: self.turns.stop_payload(common, active, last),
        )
        self.turns = Turns(
            self.id,
            inbox=inbox,
            conversation=self.conversation,
            hooks=self.hooks,
            provider=self.provider,
            mcp=self.mcp,
            tasks=tasks,
            crons=self.crons,
            group=group,
            loop=self.loop,
            main=main,
            system=system,
            emit=self._emit,
            notify=self._notification,
            prompt_action=self.questions.prompt_action,
            resumed=self.resumed,
            auto_compact_tokens=config.auto_compact_tokens,
            idle_notify_after=config.idle_notify_after,
        )

    # -- what clients use -------------------------------------------------------------------

    @property
    def messages(self) -> list[AnyMessage]:
        return self.conversation.messages

    @property
    def queued(self) -> int:
        """User prompts waiting for the running turn to end."""
        return len(self.inbox.prompts)

    @property
    def queued_texts(self) -> tuple[str, ...]:
        return tuple(item.text for item in self.inbox.prompts)

    @property
    def queue(self) -> tuple[Queued, ...]:
        """The user prompts waiting, oldest first, each with its id (for removing it)."""
        return tuple(Queued(item.id, item.text) for item in self.inbox.prompts)

    @property
    def queue_held(self) -> bool:
        """Stop held the queue: its prompts wait for the user to send them."""
        return self.inbox.held

    @property
    def status(self) -> SessionStatus:
        return self.turns.status

    @property
    def turn_error(self) -> str | None:
        """Why the last turn failed (a blocked prompt, the model), or None."""
        return self.turns.turn_error

    @property
    def pending_questions(self) -> tuple[PermissionPrompt, ...]:
        """The permission questions waiting for an answer, oldest first."""
        return self.questions.pending_permissions

    def answer_permission(self, tool_use_id: str, answer: PermissionAnswer) -> bool:
        """Answer a pending question; False if there is none with this id (any more)."""
        return self.questions.answer_permission(tool_use_id, answer)

    @property
    def pending_asks(self) -> tuple[ask.QuestionPrompt, ...]:
        """The model's questions (and hooks' prompts) waiting for the user, oldest first."""
        return self.questions.pending_asks

    def answer_question(self, question_id: str, answers: dict[str, str] | None) -> bool:
        """Answer (None: dismiss) a pending question of the model's; False if there is none
        with this id (any more)."""
        return self.questions.answer_question(question_id, answers)

    @property
    def running_hooks(self) -> tuple[str, ...]:
        """The statusMessages of the hooks running now."""
        return self.hooks.running

    @property
    def live_hooks(self) -> tuple[tuple[LiveView, ...], int]:
        """The hooks running a while now, with their last stderr lines; how many more run."""
        return self.hooks.live.views()

    def cancel_hook(self, hook_id: str) -> bool:
        """Stop one running hook as its timeout would (a non-blocking error: docs/hooks.md);
        False if no hook with this id runs (any more)."""
        return self.hooks.live.cancel(hook_id)

    @property
    def busy(self) -> bool:
        """A turn is running or about to: a prompt sent now waits for it."""
        return not self.inbox.idle

    def send(self, text: str) -> None:
        """Queue a prompt; it runs when the current turn (if any) is over. `/compact [text]`
        compacts the conversation instead of going to the model."""
        self.turns.send(text)

    async def compact(self, instructions: str = "") -> bool:
        """Compact the conversation once the running turn is over; False if it failed."""
        done = anyio.Event()
        item = Item("compact", instructions, done)
        self.turns.enqueue(item)
        await done.wait()
        return item.ok

    def cancel(self) -> None:
        """Interrupt the running turn: its tools and hooks are killed; queued prompts stay
        queued, held until the user sends them (`send_queued`, or a new message)."""
        self.turns.cancel()
        self.hooks.background.cancel_all()

    def send_queued(self) -> bool:
        """Send the prompts Stop held, in order; False if none was held."""
        return self.turns.send_queued()

    def remove_queued(self, item_id: str) -> bool:
        """Take one queued prompt out of the queue; False if none waits with this id (any
        more: it ran, or was removed)."""
        return self.turns.remove_queued(item_id)

    async def wait_idle(self) -> None:
        await self.inbox.wait_idle()

    def abandon_end(self) -> None:
        """Kill the last hooks of a closing session (still running, or not started yet)."""
        self.ending.cancel()

    # -- plumbing ---------------------------------------------------------------------------

    def _emit(self, update: SessionUpdate) -> None:
        for listener in self.config.listeners:
            listener(update)

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

    def _on_cron(self, job: CronJob) -> None:
        """A due cron prompt arrives like a typed one: a turn now, or after the running one."""
        if self.inbox.closed:
            return
        self.turns.queue_prompt(job.prompt)  # not the user continuing: held prompts stay held

    async def _notification(self, kind: str, message: str) -> None:
        payload = p.NotificationInput(
            **self.hooks.common(), message=message, title="Wave", notification_type=kind
        )
        outcome = await self.hooks.fire(payload, meta=False)
        for text in outcome.meta_messages:  # context (Copilot's): news for the model
            self.inbox.notify(text, f"Notification {kind}")


def _snow_identity(session_id: str, base: Mapping[str, str], cwd: Path) -> dict[str, str]:
    """Snow's session identity for the tools' processes (a session that runs Snow hooks)."""
    return snow.session_identity(base, session_id, str(cwd))
