"""One actor's reply: model → tools (with their hooks and permissions) → … → Stop hooks.

The main agent and subagents share this loop. A Stop (SubagentStop) hook that blocks makes the
actor go on with the hook's reason as an isMeta message and `stop_hook_active` true on the next
Stop. Two things end a chain of blocks anyway: a user message waiting in the queue (it goes
first; the loop resumes after it if the hook blocks again), and the block cap — as Claude Code
counts it, N consecutive blocks make the reply go on N times (Claude Code's 8 by default: the
reason fed 8 times, 9 model calls) and the next block is overridden with a visible notice, so a
hook that always blocks cannot keep a session busy forever (Copilot CLI's agentStop cap counts
the same, and overrides the next block without a word).

Hooks of every dialect shape a call: its input may be rewritten before it runs (the permission
check then sees the new input), its result replaced after; an AskUserQuestion call may be answered
by a hook instead of the user. A hook that halts (Snow exit 2+, a Copilot `interrupt`, Wave
`continue: false`) ends the reply: no further model call and no Stop hooks; calls not yet run get
`HALTED` as their result, and a halt wins over a Stop hook's block; `stopReason` is a notice for
the user only. Wave's `continue: false` stops everything, as in Claude Code: in a subagent it ends
the subagent's reply and then, once that Agent call has its result, the caller's (its notices are
shown there too). Snow's `afterToolCall` also hears of a call a hook refused.
"""

import contextlib
import time
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

import anyio

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import event_of
from wavehost.hooks.outcome import NO_STDERR, Notice, Outcome, system_reminder
from wavehost.session.actor import Actor
from wavehost.session.hooks import Halted, SessionHooks
from wavehost.session.messages import (
    AssistantMessage,
    NoticeBlock,
    ToolBlock,
    UserMessage,
    history,
)
from wavehost.session.permissions import (
    PermissionPrompt,
    Permissions,
    mode_verdict,
    refused_by_hook,
    refused_by_mode,
    refused_by_user,
    with_hook_decision,
)
from wavehost.session.providers.base import ModelRequest, Provider, TextDelta
from wavehost.session.tools import Tool, ToolKind
from wavehost.session.tools.ask import AskUserQuestion
from wavehost.session.tools.base import INTERRUPTED_OUTPUT, ToolResult
from wavehost.session.tools.files import modified_by_hook

HALTED = "A hook stopped the turn before this tool call ran."


def block_cap_notice(count: int) -> str:
    """Claude Code's words when the block cap ends a turn (`count`: the blocks, the last one
    overridden)."""
    return (
        f"A hook blocked the turn from ending {count} consecutive times — overriding and ending "
        "turn. For Stop/SubagentStop hooks, check stop_hook_active in the input and return "
        "success while it's true. Set CLAUDE_CODE_STOP_HOOK_BLOCK_CAP to raise this limit."
    )


@dataclass(frozen=True)
class LoopContext:
    """What the loops of every actor of one session share."""

    hooks: SessionHooks
    provider: Provider
    permissions: Permissions
    stop_block_cap: int  # how many consecutive Stop blocks make the reply go on (0: no cap)
    user_waiting: Callable[[], bool]  # a user message waits in the queue
    before_model_call: Callable[[Actor], Awaitable[None]]  # compaction, news; may raise Halted
    # A prompt action paused the reply: ask the user, whose answer is the actor's next message
    # (None: nobody can be asked, the reply ends with the prompt shown).
    ask_user: Callable[[str], Awaitable[str | None]] | None = None


class AgentLoop:
    def __init__(self, context: LoopContext, actor: Actor) -> None:
        self.context = context
        self.hooks = context.hooks
        self.actor = actor
        self.conversation = actor.conversation
        self.halted = False  # a hook stopped the flow: the reply ends
        # ... and the caller's too (a subagent's `continue: false`): what to tell the user there
        self.halted_everything: tuple[Notice, ...] | None = None
        self.response: str | None = None  # the reply as a SubagentStop hook rewrote it

    def _common(self, *, effort: bool = False) -> dict[str, Any]:
        return self.hooks.common(self.actor, effort=effort)

    async def _dispatch(self, payload: p.HookInput) -> Outcome:
        if self.hooks.has(event_of(payload)):  # hooks read the transcript: it must be current
            await self.conversation.flush()
        return await self.hooks.dispatch(payload)

    def _apply(self, outcome: Outcome, *, meta: bool = True) -> None:
        self.hooks.apply(outcome, meta=meta, conversation=self.conversation)
        if outcome.halt:
            self.halted = True
        if outcome.halt_everything and self.halted_everything is None:
            self.halted_everything = tuple(outcome.notices)

    def _history(self) -> list[dict[str, Any]]:
        return history(self.conversation.messages)

    async def respond(self) -> None:
        """Call the model until it stops asking for tools and no Stop hook makes it go on; a
        hook that halts ends it at once."""
        with contextlib.suppress(Halted):
            await self._respond()

    async def _respond(self) -> None:
        stop_hook_active = False
        reminded = False
        blocks = 0
        cap = self.context.stop_block_cap
        while True:
            await self.context.before_model_call(self.actor)
            assistant = self.conversation.append(AssistantMessage())
            await self._call_model(assistant)
            calls = [b for b in assistant.tools() if b.status == "pending"]
            if calls:
                for block in calls:
                    if self.halted:
                        block.fail(HALTED, "cancelled")
                        self.conversation.changed(assistant)
                        continue
                    await self._use_tool(assistant, block)
                if self.halted:
                    return
                continue
            payload = self.actor.stop_payload(
                self._common(effort=True), stop_hook_active, assistant.text() or None
            )
            if isinstance(payload, p.StopInput):
                payload = payload.model_copy(update={"history": self._history})
            outcome = await self._dispatch(payload)
            if outcome.halt:  # wins over a block: the model is not asked again
                self._apply(outcome, meta=False)
                return
            if outcome.ask_user is not None:  # a prompt action: the user's answer goes on
                self._apply(outcome, meta=False)
                if not await self._ask_user(outcome.ask_user):
                    return
                stop_hook_active = True
                continue
            if not (outcome.blocked and outcome.meta_messages):
                self._apply(outcome)
                self.response = outcome.response
                if self.actor.reminder is None or reminded:
                    return
                reminded = True  # it must end its reply by a tool: told so, once
                self.conversation.append(UserMessage(content=self.actor.reminder, is_meta=True))
                stop_hook_active = True
                continue
            blocks += 1
            if cap and blocks > cap:
                self._apply(outcome, meta=False)  # the model is not asked again: no feedback
                if outcome.cap_notice:
                    self.conversation.notice(
                        NoticeBlock(level="warning", text=block_cap_notice(blocks))
                    )
                return
            self._apply(outcome)
            self.conversation.notice(_continued(outcome))
            stop_hook_active = True
            if self.actor.is_main and self.context.user_waiting():
                return  # the user's queued message goes first; the loop resumes after it

    async def _ask_user(self, prompt: str) -> bool:
        """Pause on a prompt action: the user's answer becomes the next message (True). With
        nobody to ask (or no answer) the prompt stays shown and the reply ends (False)."""
        ask = self.context.ask_user
        answer = await ask(prompt) if ask is not None else None
        if answer is None or not answer.strip():
            self.conversation.notice(NoticeBlock(level="info", text=prompt))
            return False
        self.conversation.append(UserMessage(content=answer))
        return True

    async def _call_model(self, assistant: AssistantMessage) -> None:
        actor = self.actor
        request = ModelRequest(
            actor.system, self.conversation.model_messages(), actor.specs, model=actor.model
        )
        # aclosing: an interrupt closes the provider's HTTP stream now, not when GC gets to it
        async with aclosing(self.context.provider.stream(request)) as events:
            async for event in events:
                if isinstance(event, TextDelta):
                    assistant.add_text(event.text, starts_block=event.starts_block)
                    self.conversation.changed(assistant, persist=False)
                else:
                    block = ToolBlock(id=event.id, name=event.name, input=event.input)
                    assistant.blocks.append(block)
                    self.conversation.changed(assistant)
        self.conversation.save()

    async def _use_tool(self, assistant: AssistantMessage, block: ToolBlock) -> None:
        def settle(error: str | None = None) -> None:
            if error is not None and block.status != "blocked":  # a hook's refusal stays one
                block.fail(error)
            self.conversation.changed(assistant)

        tool = self.actor.tools.get(block.name)
        if tool is None:
            return settle(f"Error: No such tool available: {block.name}")
        pre = await self._dispatch(
            p.PreToolUseInput(**self._common(effort=True), **self._call(block))
        )
        self._apply(pre)
        try:
            await self._run_tool(assistant, block, tool, pre, settle)
        finally:  # Copilot's preToolUse context: once the call is over, after its failure's
            for text in pre.after_call:
                self.conversation.append(UserMessage(content=text, is_meta=True))

    async def _run_tool(
        self,
        assistant: AssistantMessage,
        block: ToolBlock,
        tool: Tool[Any],
        pre: Outcome,
        settle: Callable[..., None],
    ) -> None:
        if pre.blocked:
            text = pre.tool_error or f"PreToolUse:{block.name} hook error: {NO_STDERR}"
            block.block(text, pre.decided_by)  # refused by a hook: it never ran
            settle()
            return await self._after_refusal(assistant, block)
        if pre.invalid_input is not None:  # a Copilot hook's arguments the tool cannot take
            return await self._invalid_input(assistant, block, pre.invalid_input, settle)
        if pre.updated_input is not None:  # the call runs (and is checked) with the new input
            block.input = pre.updated_input
            settle()
        answered = pre.answer is not None and isinstance(tool, AskUserQuestion)
        if not answered:
            refusal = await self._permission(block, tool.kind, pre, tool.runs(block.input))
            if refusal is not None:
                settle(refusal)
                return await self._after_refusal(assistant, block)

        block.status = "running"
        settle()
        workspace = self.actor.workspace
        old_cwd, started = workspace.cwd, time.monotonic()
        if answered:
            assert isinstance(tool, AskUserQuestion)
            assert pre.answer is not None
            result = tool.answered(block.input, pre.answer)
        else:
            result = await self._run(tool, block, assistant)
        duration_ms = round((time.monotonic() - started) * 1000)
        if result.ok:
            block.succeed(result.text)
        else:
            block.fail(result.text)
        settle()
        if result.ends_reply:  # the answer the reply was for: no further model call
            self.halted = True
        if result.halted_everything is not None:  # a hook in the subagent it ran stops it all
            for notice in result.halted_everything:
                self.conversation.notice(NoticeBlock.from_hook(notice))
            self.halted = True
            if self.halted_everything is None:
                self.halted_everything = result.halted_everything

        call = self._call(block)
        ran = {"duration_ms": duration_ms, "exit_code": result.exit_code}
        if not result.ok:
            failure = p.PostToolUseFailureInput(
                **self._common(effort=True), **call, error=result.text, **ran
            )
            self._apply(await self._dispatch(failure))
        # Seed 000 (PostToolUse story, scenario 2): PostToolUse hooks also see a failed tool,
        # its tool_response carrying the error (`success: false`).
        post = p.PostToolUseInput(
            **self._common(effort=True),
            **call,
            **ran,
            tool_response=result.response,
            result_text=block.model_text(),
        )
        after = await self._dispatch(post)
        self._replace_result(assistant, block, after)
        if after.runs and result.ok and tool.kind == "edit":
            await self._tell_of_changes(block, result.response)
        if workspace.cwd != old_cwd:
            moved = p.CwdChangedInput(
                **self._common(), old_cwd=str(old_cwd), new_cwd=str(workspace.cwd)
            )
            self._apply(await self._dispatch(moved))

    async def _tell_of_changes(self, block: ToolBlock, response: dict[str, Any]) -> None:
        """A PostToolUse hook rewrote the file the tool just wrote (a formatter): the model is
        told so, in Claude Code's words, as the hook's additional context."""
        changed = await anyio.to_thread.run_sync(modified_by_hook, response)
        if changed is not None:
            text = f"PostToolUse:{block.name} hook additional context: {changed}"
            self.conversation.append(UserMessage(content=system_reminder(text), is_meta=True))

    @staticmethod
    def _call(block: ToolBlock) -> dict[str, Any]:
        return {"tool_name": block.name, "tool_input": block.input, "tool_use_id": block.id}

    async def _invalid_input(
        self,
        assistant: AssistantMessage,
        block: ToolBlock,
        problem: str,
        settle: Callable[..., None],
    ) -> None:
        """The call fails without running, as Copilot's tools fail on a list of arguments: the
        model reads `Invalid input: <problem>`, failure hooks the problem (with no arguments)."""
        settle(f"Invalid input: {problem}")
        failure = p.PostToolUseFailureInput(
            **self._common(effort=True), **{**self._call(block), "tool_input": {}}, error=problem
        )
        self._apply(await self._dispatch(failure))

    async def _run(
        self, tool: Tool[Any], block: ToolBlock, assistant: AssistantMessage
    ) -> ToolResult:
        """Run the call; one that Stop interrupts leaves what it had done in its block (a
        command's output so far), which the turn's end then marks cancelled."""

        def interrupted(output: str) -> None:
            block.result = output
            self.conversation.changed(assistant, persist=False)

        token = INTERRUPTED_OUTPUT.set(interrupted)
        try:
            return await tool(block.input, self.actor.workspace)
        finally:
            INTERRUPTED_OUTPUT.reset(token)

    async def _after_refusal(self, assistant: AssistantMessage, block: ToolBlock) -> None:
        """A hook (or the permission check) kept the call from running: the dialects that hear
        of it anyway (Snow's afterToolCall) see the refusal as its result."""
        text = block.model_text()
        post = p.PostToolUseInput(
            **self._common(effort=True),
            **self._call(block),
            tool_response={"success": False, "error": text},
            result_text=text,
            blocked=True,
        )
        self._replace_result(assistant, block, await self._dispatch(post))

    def _replace_result(
        self, assistant: AssistantMessage, block: ToolBlock, outcome: Outcome
    ) -> None:
        self._apply(outcome)
        if outcome.tool_result is None:
            return
        if block.failed:
            block.error = outcome.tool_result
        else:
            block.result = outcome.tool_result
        self.conversation.changed(assistant)

    async def _permission(
        self, block: ToolBlock, kind: ToolKind, pre: Outcome, runs: str | None = None
    ) -> str | None:
        """None when the call may run, else the refusal the model sees; `runs`: what the call
        runs, for the question, when its input does not show it."""
        permissions = self.context.permissions
        mode = permissions.mode
        verdict = with_hook_decision(mode_verdict(mode, kind), pre.permission_decision)
        if verdict == "ask" and block.name in permissions.always_allowed:
            verdict = "allow"  # the user (or a hook) said not to ask about this tool again
        if verdict == "deny":
            return refused_by_mode(block.name, mode, permissions.ask is None)
        if verdict == "allow":
            if kind == "read":
                return None
            # Nobody is asked, but Copilot's permissionRequest hears of every such call.
            outcome = await self._permission_hooks(block, asking=False)
            return self._hook_refusal(block, outcome) if outcome.blocked else None
        outcome = await self._permission_hooks(block, asking=True)
        if outcome.blocked:
            return self._hook_refusal(block, outcome)
        if outcome.permission_decision == "allow":
            if outcome.permission_always:
                permissions.always_allowed.add(block.name)
            return None  # a PermissionRequest hook answered for the user
        ask = permissions.ask
        if ask is None:
            if pre.permission_decision == "ask" and pre.unasked_refusal:
                return pre.unasked_refusal  # in the dialect's words (Copilot's)
            if pre.permission_decision == "ask" and pre.permission_reason:
                return pre.permission_reason  # Claude Code headless: denied, the hook's reason
            return refused_by_mode(block.name, mode, True)
        asked_by = pre.decided_by if pre.permission_decision == "ask" else None
        prompt = PermissionPrompt(
            permissions.session_id,
            block.id,
            block.name,
            block.input,
            mode,
            pre.permission_reason,
            asked_by,
            runs,
        )
        answer = await ask(prompt)
        return None if answer.allow else refused_by_user(block.name, answer.message)

    async def _permission_hooks(self, block: ToolBlock, *, asking: bool) -> Outcome:
        request = p.PermissionRequestInput(
            **self._common(effort=True), tool_name=block.name, tool_input=block.input, asking=asking
        )
        outcome = await self._dispatch(request)
        self._apply(outcome)
        return outcome

    @staticmethod
    def _hook_refusal(block: ToolBlock, outcome: Outcome) -> str:
        refusal = outcome.tool_error or refused_by_hook(block.name, outcome.permission_reason)
        block.block(refusal, outcome.decided_by)  # refused by a permission hook: it never ran
        return refusal


CONTINUE_REASON_SHOWN = 2000  # characters of a Stop hook's reason the chat's line shows


def _continued(outcome: Outcome) -> NoticeBlock:
    """The line between two replies: a Stop hook made the agent go on, and why."""
    reason = "\n".join(m.strip() for m in outcome.meta_messages if m.strip())
    return NoticeBlock(
        level="info",
        kind="stopContinue",
        text=p.clip(reason, CONTINUE_REASON_SHOWN),
        event=outcome.event,
        label=outcome.event,
        hook=outcome.decided_by,
    )
