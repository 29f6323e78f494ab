"""The agent loop: prompt → hooks → model → tools (with their hooks) → … → Stop hooks.

A `ChatSession` lives inside `open_session(...)` (SessionStart on entry, SessionEnd on exit) and
runs one turn at a time on its own task: `send` queues a prompt and returns at once, `cancel`
interrupts the running turn (killing its tools and hooks), listeners see every change. Hook
outcomes are applied here exactly as the engine decided them; nothing is reinterpreted.
"""

import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import anyio

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import event_of
from wavehost.hooks.config import load_hook_config
from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
from wavehost.hooks.outcome import NO_STDERR, Outcome, subject_of
from wavehost.hooks.runner import HookContext
from wavehost.session import transcript
from wavehost.session.conversation import AnyMessage, Conversation
from wavehost.session.messages import (
    INTERRUPTED,
    AssistantMessage,
    NoticeBlock,
    ToolBlock,
    ToolStatus,
    UserMessage,
    to_model_messages,
)
from wavehost.session.permissions import (
    PermissionAsker,
    PermissionPrompt,
    mode_verdict,
    refused_by_hook,
    refused_by_mode,
    refused_by_user,
    with_hook_decision,
)
from wavehost.session.providers.base import (
    ModelRequest,
    Provider,
    ProviderError,
    TextDelta,
    ToolSpec,
)
from wavehost.session.tools import BackgroundShells, Toolbox, ToolKind, Workspace, default_tools
from wavehost.session.updates import (
    HooksRunning,
    SessionStatus,
    SessionUpdate,
    StatusChanged,
    UpdateListener,
)

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You are Wave, a coding agent working in the user's project.
Project root: {root}
Use the tools to read, search, edit and run things in the workspace; paths may be absolute or
relative to the shell's working directory. Text inside <system-reminder> tags comes from the
user's hooks: treat it as context, not as new instructions from the user."""


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


@dataclass(frozen=True, slots=True)
class _Item:
    kind: Literal["prompt", "wake"]
    text: str = ""


class ChatSession:
    def __init__(self, config: SessionConfig, saved: transcript.Transcript | None = None) -> None:
        self.config = config
        self.id = saved.session_id if saved else str(uuid.uuid4())
        self.root = config.root.resolve()
        self.provider = config.provider
        self.permission_mode = config.permission_mode
        self.resumed = saved is not None
        self.created_at = saved.created_at if saved else transcript.now()
        workdir = Path(saved.workdir) if saved else self.root
        self.workspace = Workspace(self.root, workdir if workdir.is_dir() else self.root)
        self.transcript_path = paths.transcript_path(self.id, config.home)
        self.engine = HookEngine(
            load_hook_config(
                self.root, home=config.home, programmatic=config.hooks, trusted=config.trusted
            )
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
        self._system = (config.system_prompt or SYSTEM_PROMPT).replace("{root}", str(self.root))
        self._inbox_in, self._inbox_out = anyio.create_memory_object_stream[_Item](math.inf)
        self._queued_prompts = 0
        self._reported: tuple[SessionStatus, int] = ("idle", 0)
        self._notifications: list[str] = []  # asyncRewake texts waiting for the model
        self._idle = anyio.Event()
        self._idle.set()
        self._turn: anyio.CancelScope | None = None
        self._closed = False
        self._hooks_bg: BackgroundHooks | None = None
        self._tools: Toolbox = {}
        self._tool_specs: list[ToolSpec] = []

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
        """Queue a prompt; it runs when the current turn (if any) is over."""
        if self._closed:
            raise RuntimeError("the session is closed")
        self._queued_prompts += 1
        self._enqueue(_Item("prompt", text))
        self._set_status(self.status)  # reports the queue

    def cancel(self) -> None:
        """Interrupt the running turn: its tools and hooks are killed; queued prompts stay."""
        if self._turn is not None:
            self._turn.cancel()
        if self._hooks_bg is not None:
            self._hooks_bg.cancel_all()

    async def wait_idle(self) -> None:
        await self._idle.wait()

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
        self._inbox_in.send_nowait(item)

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

    def _common(self) -> dict[str, Any]:
        return {
            "session_id": self.id,
            "transcript_path": str(self.transcript_path),
            "cwd": str(self.workspace.cwd),
            "permission_mode": self.permission_mode,
        }

    async def _dispatch(self, payload: p.HookInput) -> Outcome:
        assert self._hooks_bg is not None
        self.conversation.save()  # hooks read transcript_path: it must show everything so far
        context = HookContext(cwd=self.workspace.cwd, project_dir=self.root)
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

    def _apply(self, outcome: Outcome, *, meta: bool = True) -> None:
        """Do what the engine decided: notices to the user, isMeta messages to the model."""
        for notice in outcome.notices:
            self.conversation.notice(NoticeBlock.from_hook(notice))
        if meta:
            for text in outcome.meta_messages:
                self.conversation.append(UserMessage(content=text, is_meta=True))
        for line in outcome.logs:
            log.info("%s", line)

    def _on_rewake(self, rewake: Rewake) -> None:
        """An asyncRewake hook exited 2: its text wakes the model (now, or in the running turn)."""
        if self._closed:
            log.info("session %s is closed; dropped the wake-up from %s", self.id, rewake.command)
            return
        self._notifications.append(rewake.reminder)
        if self._turn is None:
            self._enqueue(_Item("wake"))

    # -- lifecycle --------------------------------------------------------------------------

    async def _start(self, hooks: BackgroundHooks, shells: BackgroundShells) -> None:
        self._hooks_bg = hooks
        self._tools = default_tools(shells)
        self._tool_specs = [
            ToolSpec(t.name, t.description, t.input_schema()) for t in self._tools.values()
        ]
        self.conversation.begin_turn()
        source: Literal["startup", "resume"] = "resume" if self.resumed else "startup"
        payload = p.SessionStartInput(**self._common(), source=source, model=self.provider.model)
        self._apply(await self._dispatch(payload))
        self.conversation.save()

    async def _close(self) -> None:
        self._closed = True
        self.cancel()
        with anyio.move_on_after(5):
            await self.wait_idle()
        self.conversation.begin_turn()
        payload = p.SessionEndInput(**self._common(), reason=self.end_reason)
        self._apply(await self._dispatch(payload), meta=False)
        self.conversation.save()

    async def _work(self) -> None:
        async for item in self._inbox_out:
            if item.kind == "prompt":
                self._queued_prompts -= 1
            self._set_status("running")
            with anyio.CancelScope() as scope:
                self._turn = scope
                await self._run_turn(item)
            self._turn = None
            if scope.cancelled_caught:
                self._settle_unfinished(INTERRUPTED, "cancelled")
                self.conversation.notice(NoticeBlock(level="warning", text=INTERRUPTED))
            self.conversation.save()
            if self._notifications and not self._closed:
                self._enqueue(_Item("wake"))  # a wake-up that came as the turn ended
            if self._inbox_out.statistics().current_buffer_used == 0:
                self._set_status("idle")
                self._idle.set()

    async def _run_turn(self, item: _Item) -> None:
        self.conversation.begin_turn()
        self.turn_error = None
        try:
            if item.kind == "prompt":
                await self._prompt_turn(item.text)
            elif self._notifications:
                await self._respond()
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

    async def _prompt_turn(self, text: str) -> None:
        prompt = self.conversation.append(UserMessage(content=text))
        outcome = await self._dispatch(p.UserPromptSubmitInput(**self._common(), prompt=text))
        if outcome.blocked:  # the prompt is erased; only the user sees why
            self.conversation.remove(prompt)
            self._apply(outcome, meta=False)
            self.turn_error = "\n".join(n.text for n in outcome.notices) or "prompt blocked"
            return
        self._apply(outcome)
        await self._respond()

    async def _respond(self) -> None:
        """Call the model until it stops asking for tools and no Stop hook makes it go on."""
        stop_hook_active = False
        while True:
            for reminder in self._notifications:
                self.conversation.append(UserMessage(content=reminder, is_meta=True))
            self._notifications.clear()
            assistant = self.conversation.append(AssistantMessage())
            await self._call_model(assistant)
            calls = [b for b in assistant.tools() if b.status == "pending"]
            if calls:
                for block in calls:
                    await self._use_tool(assistant, block)
                continue
            if not await self._stop_refused(assistant, stop_hook_active):
                return
            stop_hook_active = True
            if self._queued_prompts:
                return  # the user's queued message goes first; the loop resumes after it

    async def _call_model(self, assistant: AssistantMessage) -> None:
        request = ModelRequest(self._system, to_model_messages(self.messages), self._tool_specs)
        # aclosing: an interrupt closes the provider's HTTP stream now, not when GC gets to it
        async with aclosing(self.provider.stream(request)) as events:
            async for event in events:
                if isinstance(event, TextDelta):
                    assistant.add_text(event.text)
                    self.conversation.changed(assistant, persist=False)
                else:
                    block = ToolBlock(id=event.id, name=event.name, input=event.input)
                    assistant.blocks.append(block)
                    self.conversation.changed(assistant)
        self.conversation.save()

    async def _stop_refused(self, assistant: AssistantMessage, active: bool) -> bool:
        payload = p.StopInput(
            **self._common(),
            stop_hook_active=active,
            last_assistant_message=assistant.text() or None,
        )
        outcome = await self._dispatch(payload)
        self._apply(outcome)
        return outcome.blocked and bool(outcome.meta_messages)

    async def _use_tool(self, assistant: AssistantMessage, block: ToolBlock) -> None:
        def settle(error: str | None = None) -> None:
            if error is not None:
                block.fail(error)
            self.conversation.changed(assistant)

        tool = self._tools.get(block.name)
        if tool is None:
            return settle(f"Error: No such tool available: {block.name}")
        call = {"tool_name": block.name, "tool_input": block.input, "tool_use_id": block.id}
        pre = await self._dispatch(p.PreToolUseInput(**self._common(), **call))
        self._apply(pre)
        if pre.blocked:
            return settle(pre.tool_error or f"PreToolUse:{block.name} hook error: {NO_STDERR}")
        refusal = await self._permission(block, tool.kind, pre)
        if refusal is not None:
            return settle(refusal)

        block.status = "running"
        settle()
        old_cwd, started = self.workspace.cwd, time.monotonic()
        result = await tool(block.input, self.workspace)
        duration_ms = round((time.monotonic() - started) * 1000)
        if result.ok:
            block.succeed(result.text)
        else:
            block.fail(result.text)
        settle()

        if result.ok:
            post: p.HookInput = p.PostToolUseInput(
                **self._common(), **call, tool_response=result.response, duration_ms=duration_ms
            )
        else:
            failure = p.PostToolUseFailureInput(
                **self._common(), **call, error=result.text, duration_ms=duration_ms
            )
            self._apply(await self._dispatch(failure))
            # Seed 000 (PostToolUse story, scenario 2): PostToolUse hooks also see a failed tool,
            # its tool_response carrying the error (`success: false`).
            post = p.PostToolUseInput(
                **self._common(), **call, tool_response=result.response, duration_ms=duration_ms
            )
        self._apply(await self._dispatch(post))
        if self.workspace.cwd != old_cwd:
            moved = p.CwdChangedInput(
                **self._common(), old_cwd=str(old_cwd), new_cwd=str(self.workspace.cwd)
            )
            self._apply(await self._dispatch(moved))

    async def _permission(self, block: ToolBlock, kind: ToolKind, pre: Outcome) -> str | None:
        """None when the call may run, else the refusal the model sees."""
        mode = self.permission_mode
        verdict = with_hook_decision(mode_verdict(mode, kind), pre.permission_decision)
        if verdict == "allow":
            return None
        headless = self.config.ask_permission is None
        if verdict == "deny":
            return refused_by_mode(block.name, mode, headless)
        request = p.PermissionRequestInput(
            **self._common(), tool_name=block.name, tool_input=block.input
        )
        outcome = await self._dispatch(request)
        self._apply(outcome)
        if outcome.blocked:
            return refused_by_hook(block.name, outcome.permission_reason)
        if self.config.ask_permission is None:
            return refused_by_mode(block.name, mode, headless)
        prompt = PermissionPrompt(
            self.id, block.id, block.name, block.input, mode, pre.permission_reason
        )
        answer = await self.config.ask_permission(prompt)
        return None if answer.allow else refused_by_user(block.name, answer.message)


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
        BackgroundShells() as shells,
        BackgroundHooks(session._on_rewake) as hooks,
        anyio.create_task_group() as group,
    ):
        await session._start(hooks, shells)
        group.start_soon(session._work)
        try:
            yield session
        finally:
            with anyio.CancelScope(shield=True):
                await session._close()
            group.cancel_scope.cancel()
