"""A session's turns: one at a time, on the session's own task.

`work` takes the inbox's items in order — a prompt, a `/compact`, news for the model — and runs
each as a turn: UserPromptSubmit (and Copilot's sessionStart with the first prompt), then the
agent loop (`agent_loop.AgentLoop`: model → tools → Stop). A cancelled turn settles its unfinished
tool calls and tells Snow's onStop; a failed one fires ErrorOccurred. Stop ends that turn only:
the prompts queued behind it stay queued, held until the user sends them (or a new message) or
removes them (`inbox.Inbox.hold`). The session's status (and its queue) is reported whenever it
changes, and Notification `idle_prompt` follows a while idle.

A prompt's model-facing text may differ from what the user typed (the bubble keeps the typed
text): UserPromptSubmit hooks edit it (replace, prepend, append), a one-shot context buffer that
SessionStart hooks filled (Snow's `onSessionStart`) goes before the next prompt sent, and
UserPromptTransformed hooks (Copilot's `userPromptTransformed`) see the result and may replace it
before it joins the history.
"""

import logging
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import anyio

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.outcome import Outcome, edited_prompt
from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.session import compaction
from wavehost.session.actor import Actor
from wavehost.session.agent_loop import AgentLoop, LoopContext
from wavehost.session.background import BackgroundTasks
from wavehost.session.conversation import Conversation
from wavehost.session.crons import SessionCrons
from wavehost.session.hooks import Halted, SessionHooks
from wavehost.session.inbox import Inbox, Item
from wavehost.session.mcp import McpServers
from wavehost.session.messages import (
    INTERRUPTED,
    AssistantMessage,
    NoticeBlock,
    ToolStatus,
    UserMessage,
    history,
)
from wavehost.session.providers.base import Provider, ProviderError
from wavehost.session.updates import Queued, SessionStatus, SessionUpdate, StatusChanged

log = logging.getLogger(__name__)

IDLE_MESSAGE = "Wave is waiting for your input"


class Turns:
    def __init__(
        self,
        session_id: str,
        *,
        inbox: Inbox,
        conversation: Conversation,
        hooks: SessionHooks,
        provider: Provider,
        mcp: McpServers,
        tasks: BackgroundTasks,
        crons: SessionCrons,
        group: OwnedTaskGroup,
        loop: LoopContext,
        main: Actor,  # the main agent: its `before_model_call` and Stop are this object's
        system: str,
        emit: Callable[[SessionUpdate], None],
        notify: Callable[[str, str], Awaitable[None]],  # a Notification hook (type, message)
        prompt_action: Callable[[str], Awaitable[str | None]],
        resumed: bool,
        auto_compact_tokens: int | None,
        idle_notify_after: float | None,
    ) -> None:
        self.session_id = session_id
        self.inbox = inbox
        self.conversation = conversation
        self.hooks = hooks
        self.provider = provider
        self.mcp = mcp
        self.tasks = tasks
        self.crons = crons
        self._group = group
        self._system = system
        self._emit = emit
        self._notify = notify
        self._prompt_action = prompt_action
        self.resumed = resumed
        self._auto_compact_tokens = auto_compact_tokens
        self._idle_notify_after = idle_notify_after
        self._loop = loop
        self._main = main
        self.status: SessionStatus = "idle"
        self._reported: tuple[SessionStatus, tuple[Queued, ...], bool] = ("idle", (), False)
        self.turn_error: str | None = None  # why the last turn failed (blocked prompt, model)
        # how the last turn ended: an error (ErrorOccurred fired), interrupted, or complete
        self.last_turn: Literal["complete", "error", "abort"] = "complete"
        self.pending_context: str | None = None  # goes before the next prompt sent, once
        self.stop_owed = False  # the main agent called the model since the last Stop
        self.copilot_start_owed = False  # Copilot's sessionStart waits for the first prompt
        self._turn: anyio.CancelScope | None = None  # while a turn runs
        self._idle_wait: anyio.CancelScope | None = None  # while waiting to say idle_prompt

    # -- the queue ----------------------------------------------------------------------------

    def send(self, text: str) -> None:
        """Queue the user's prompt: it runs when the current turn (if any) is over, after the
        prompts queued before it — held ones too: the user speaking is the user continuing."""
        self.inbox.release()
        self.queue_prompt(text)

    def queue_prompt(self, text: str) -> None:
        """Queue a prompt that is not the user's own doing now (a cron's): behind held prompts,
        it waits with them."""
        self.enqueue(Item("prompt", text))
        self.report(self.status)  # reports the queue

    def send_queued(self) -> bool:
        """The user sends the prompts Stop held, in order; False if none was held."""
        released = self.inbox.release()
        if released:
            self.stop_idle_wait()
            self.report(self.status)
        return released

    def remove_queued(self, item_id: str) -> bool:
        """Take one queued prompt out of the queue; False if none waits with this id."""
        removed = self.inbox.remove(item_id)
        if removed:
            self.report(self.status)
        return removed

    def enqueue(self, item: Item) -> None:
        self.inbox.put(item)  # RuntimeError once the session is closing
        self.stop_idle_wait()  # not idle any more: no idle_prompt

    def cancel(self) -> None:
        """Interrupt the running turn (its tools and hooks are killed). The prompts queued behind
        it stay queued and wait for the user: Stop never starts the next one."""
        if self._turn is not None:
            self.inbox.hold()
            self._turn.cancel()

    def stop_idle_wait(self) -> None:
        if self._idle_wait is not None:
            self._idle_wait.cancel()

    def report(self, status: SessionStatus) -> None:
        """Report the status and the queued prompts whenever either changes."""
        self.status = status
        queued = tuple(Queued(item.id, item.text) for item in self.inbox.prompts)
        held = self.inbox.held
        if (status, queued, held) != self._reported:
            self._reported = (status, queued, held)
            self._emit(StatusChanged(self.session_id, status, queued, held))

    async def work(self) -> None:
        while (item := await self.inbox.take()) is not None:
            self.stop_idle_wait()
            self.report("running")
            self.inbox.turn_running = True
            with anyio.CancelScope() as scope:
                self._turn = scope
                try:
                    await self._run_turn(item)
                finally:
                    if item.done is not None:
                        item.done.set()
            self._turn = None
            self.inbox.turn_running = False
            if scope.cancelled_caught:
                self.last_turn = "abort"
                self._settle_unfinished(INTERRUPTED, "cancelled")
                self.conversation.notice(NoticeBlock(level="warning", text=INTERRUPTED))
                await self.interrupted()
            await self.conversation.flush(durable=True)  # the turn is over: a crash cannot undo it
            if self.inbox.settled():
                self.report("idle")  # also when Stop held the queue: it waits for the user
                if not self.inbox.closed:
                    self._group.start_soon(self._idle_notice)

    async def _idle_notice(self) -> None:
        """Notification `idle_prompt` once the session has sat idle for a while after a turn."""
        delay = self._idle_notify_after
        if delay is None:
            return
        with anyio.CancelScope() as scope:
            self._idle_wait = scope
            await anyio.sleep(delay)
        if self._idle_wait is scope:
            self._idle_wait = None
        if not scope.cancel_called and not self.inbox.closed:
            await self._notify("idle_prompt", IDLE_MESSAGE)

    # -- what the agent loop asks of the session ----------------------------------------------

    async def before_model_call(self, actor: Actor) -> None:
        """The main agent's context may need compacting, and news may be waiting for it. MCP
        servers still starting are waited for (each bounded by its start-up timeout), so the
        model is told of every tool they offer; the user hears of those that failed."""
        if not actor.is_main:
            return
        await self.mcp.settled()
        for text in self.mcp.take_notices():
            self.conversation.notice(NoticeBlock(level="warning", text=text))
        self.stop_owed = True
        limit = self._auto_compact_tokens
        visible = self.conversation.model_messages()
        if limit is not None and compaction.estimate_tokens(self._system, visible) > limit:
            await compaction.compact(  # Halted when a PreCompact hook stops the flow
                self.hooks, self.provider, self.conversation, actor.specs, "auto"
            )
        for text in self.inbox.take_news():
            self.conversation.append(UserMessage(content=text, is_meta=True))

    def stop_payload(self, common: dict[str, Any], active: bool, last: str | None) -> p.HookInput:
        self.stop_owed = False
        return p.StopInput(
            **common,
            stop_hook_active=active,
            last_assistant_message=last,
            background_tasks=self.tasks.snapshot(),  # a snapshot at trigger time
            session_crons=self.crons.snapshot(),
        )

    async def interrupted(self) -> None:
        """Stop for an interrupted turn or a session that ends: only Snow's onStop hears of it
        (seed 004: it fires when the user stops the flow, Ctrl+C or ending the session). What it
        says is shown; a prompt action asks the user, whose answer is sent as the next message
        (closing: it is shown only). Stop interrupts it too."""
        self.stop_owed = False
        payload = p.StopInput(
            **self.hooks.common(),
            history=lambda: history(self.conversation.messages),
            background_tasks=self.tasks.snapshot(),
            session_crons=self.crons.snapshot(),
            interrupted=True,
        )
        with anyio.CancelScope() as scope:
            self._turn = scope
            outcome = await self.hooks.fire(payload, meta=False)
            ask = outcome.ask_user if not self.inbox.closed else None  # closing: nobody to ask
            answer = await self._prompt_action(ask) if ask else None
            if answer and answer.strip() and not self.inbox.closed:
                self.send(answer)
            elif outcome.ask_user:
                self.conversation.notice(NoticeBlock(level="info", text=outcome.ask_user))
        self._turn = None

    # -- a turn -------------------------------------------------------------------------------

    async def _run_turn(self, item: Item) -> None:
        self.conversation.begin_turn()
        self.turn_error = None
        self.last_turn = "complete"
        try:
            if item.kind == "prompt":
                await self._prompt_turn(item.text)
            elif item.kind == "compact":
                item.ok = await self._compact(item.text)
            elif self.inbox.news:
                await AgentLoop(self._loop, self._main).respond()
        except ProviderError as err:
            self._turn_failed(f"Model request failed: {err}")
            await self._error_occurred(err, "model_call")
        except Exception as err:  # a bug must not kill the session: report it, keep going
            log.exception("turn failed")
            self._turn_failed(f"Internal error: {type(err).__name__}: {err}")
            await self._error_occurred(err, "system")

    async def _error_occurred(self, err: Exception, where: Literal["model_call", "system"]) -> None:
        self.last_turn = "error"
        info = p.ErrorInfo(message=str(err), stack=error_stack(err))
        payload = p.ErrorOccurredInput(
            **self.hooks.common(), error=info, error_context=where, recoverable=True
        )
        await self.hooks.fire(payload, meta=False)

    def _turn_failed(self, text: str) -> None:
        self.turn_error = text
        self._settle_unfinished(text, "error")
        self.conversation.notice(NoticeBlock(level="error", text=text))

    def _settle_unfinished(self, error: str, status: ToolStatus) -> None:
        """Tool calls the turn never finished get a result, as both wire formats require."""
        for message in self.conversation.messages[self.conversation.turn_start :]:
            if isinstance(message, AssistantMessage):
                for block in message.tools():
                    if block.status in ("pending", "running"):
                        block.fail(error, status)
                        self.conversation.changed(message, persist=False)

    async def _compact(self, instructions: str) -> bool:
        try:
            done = await compaction.compact(
                self.hooks,
                self.provider,
                self.conversation,
                self._main.specs,
                "manual",
                instructions,
            )
        except Halted:
            done = False
        if not done:
            self.turn_error = "compaction failed"
        return done

    async def _prompt_turn(self, text: str) -> None:
        instructions = compaction.parse_command(text)
        if instructions is not None:  # a local command: no UserPromptSubmit, no model turn
            await self._compact(instructions)
            return
        self.hooks.new_prompt()
        copilot = await self._copilot_start(text) if self.copilot_start_owed else None
        prompt = self.conversation.append(UserMessage(content=text))
        payload = p.UserPromptSubmitInput(
            **self.hooks.common(), prompt=text, message_count=len(self.conversation.messages) - 1
        )
        outcome = await self.hooks.dispatch(payload, given=copilot)
        if outcome.blocked:  # the prompt is erased; only the user sees why
            self.conversation.remove(prompt)
            self.hooks.apply(outcome, meta=False)
            self.turn_error = "\n".join(n.text for n in outcome.notices) or "prompt blocked"
            return
        self.hooks.apply(outcome)
        model_text = self._model_prompt(text, outcome)
        transformed = await self.hooks.fire(
            p.UserPromptTransformedInput(
                **self.hooks.common(), prompt=text, transformed_prompt=model_text
            )
        )
        if transformed.prompt is not None:
            model_text = transformed.prompt
        if model_text != text:
            prompt.model_content = model_text
            self.conversation.changed(prompt)
        if outcome.halt or transformed.halt:
            return  # a hook stopped the flow: the prompt stays, the model is not called
        await AgentLoop(self._loop, self._main).respond()

    async def _copilot_start(self, text: str) -> dict[DialectName, Outcome] | None:
        """The first prompt since the session was opened: Copilot's sessionStart (`new` or
        `resume`, with the prompt) and its userPromptSubmitted chain start together, as in Copilot
        CLI. The sessionStart context goes before the prompt; the prompt hooks' outcome is
        returned, for the prompt's own dispatch to merge in Copilot's place."""
        self.copilot_start_owed = False
        start = p.SessionStartInput(
            **self.hooks.common(),
            source="resume" if self.resumed else "startup",
            model=self.provider.model,
            history=lambda: history(self.conversation.messages),
            initial_prompt=text,
        )
        submitted = p.UserPromptSubmitInput(
            **self.hooks.common(), prompt=text, message_count=len(self.conversation.messages)
        )
        outcomes: dict[str, Outcome] = {}

        async def run(name: str, payload: p.HookInput) -> None:
            outcomes[name] = await self.hooks.dispatch(payload, only="copilot")

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(run, "start", start)
            if self.hooks.engine.has_hooks(Event.UserPromptSubmit, "copilot"):
                tasks.start_soon(run, "prompt", submitted)
        self.hooks.apply(outcomes["start"])
        return {"copilot": outcomes["prompt"]} if "prompt" in outcomes else None

    def take_pending(self, outcome: Outcome) -> None:
        """A SessionStart hook's context for the next prompt sent (Snow's one-shot buffer)."""
        if outcome.pending_context:
            parts = (self.pending_context, outcome.pending_context)
            self.pending_context = "\n\n".join(part for part in parts if part)

    def _model_prompt(self, text: str, outcome: Outcome) -> str:
        """What the model gets for a prompt: the pending context (used up here, or dropped when
        a hook replaced the prompt), then the prompt as the hooks edited it."""
        pending, self.pending_context = self.pending_context, None
        edited = edited_prompt(text, outcome)
        if pending is None or outcome.clear_pending:
            return edited
        return f"{pending.strip()}\n\n{edited}"


def error_stack(err: BaseException) -> str:
    """errorOccurred's `stack`, shaped as Copilot CLI's: `Error: <message>`, then the frames,
    innermost first (its `error.name` is `Error` whatever went wrong, as in Copilot)."""
    frames = traceback.extract_tb(err.__traceback__)[::-1]
    lines = [f"Error: {err}"]
    for index, frame in enumerate(frames):
        lines.append(f"{index:4}: {frame.name}\n             at {frame.filename}:{frame.lineno}:0")
    return "\n".join(lines) + "\n"
