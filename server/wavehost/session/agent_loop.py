"""One actor's reply: model → tools (with their hooks and permissions) → … → Stop hooks.

The main agent and subagents share this loop. A Stop (SubagentStop) hook that blocks makes the
actor go on with the hook's reason as an isMeta message and `stop_hook_active` true on the next
Stop. Two things end a chain of blocks anyway: a user message waiting in the queue (it goes
first; the loop resumes after it if the hook blocks again), and the block cap — after N
consecutive blocks (Claude Code's 8 by default) the reply ends with a visible notice, so a hook
that always blocks cannot keep a session busy forever.
"""

import time
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.outcome import NO_STDERR, Outcome
from wavehost.session.actor import Actor
from wavehost.session.hooks import SessionHooks
from wavehost.session.messages import AssistantMessage, NoticeBlock, ToolBlock, to_model_messages
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
from wavehost.session.tools import ToolKind


def block_cap_notice(count: int) -> str:
    return (
        f"A hook blocked the turn from ending {count} consecutive times — "
        "overriding and ending turn."
    )


@dataclass(frozen=True)
class LoopContext:
    """What the loops of every actor of one session share."""

    hooks: SessionHooks
    provider: Provider
    permissions: Permissions
    stop_block_cap: int  # 0: no cap
    user_waiting: Callable[[], bool]  # a user message waits in the queue
    before_model_call: Callable[[Actor], Awaitable[None]]  # compaction, news for the model


class AgentLoop:
    def __init__(self, context: LoopContext, actor: Actor) -> None:
        self.context = context
        self.hooks = context.hooks
        self.actor = actor
        self.conversation = actor.conversation

    def _common(self) -> dict[str, Any]:
        return self.hooks.common(self.actor)

    async def _dispatch(self, payload: p.HookInput) -> Outcome:
        self.conversation.save()  # hooks read the transcript: it must show everything so far
        return await self.hooks.dispatch(payload)

    def _apply(self, outcome: Outcome, *, meta: bool = True) -> None:
        self.hooks.apply(outcome, meta=meta, conversation=self.conversation)

    async def respond(self) -> None:
        """Call the model until it stops asking for tools and no Stop hook makes it go on."""
        stop_hook_active = False
        blocks = 0
        cap = self.context.stop_block_cap
        while True:
            await self.context.before_model_call(self.actor)
            assistant = self.conversation.append(AssistantMessage())
            await self._call_model(assistant)
            calls = [b for b in assistant.tools() if b.status == "pending"]
            if calls:
                for block in calls:
                    await self._use_tool(assistant, block)
                continue
            payload = self.actor.stop_payload(
                self._common(), stop_hook_active, assistant.text() or None
            )
            outcome = await self._dispatch(payload)
            if not (outcome.blocked and outcome.meta_messages):
                self._apply(outcome)
                return
            blocks += 1
            if cap and blocks >= cap:
                self._apply(outcome, meta=False)  # the model is not asked again: no feedback
                self.conversation.notice(
                    NoticeBlock(level="warning", text=block_cap_notice(blocks))
                )
                return
            self._apply(outcome)
            stop_hook_active = True
            if self.actor.is_main and self.context.user_waiting():
                return  # the user's queued message goes first; the loop resumes after it

    async def _call_model(self, assistant: AssistantMessage) -> None:
        actor = self.actor
        request = ModelRequest(
            actor.system, to_model_messages(self.conversation.messages), actor.specs
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
            if error is not None:
                block.fail(error)
            self.conversation.changed(assistant)

        tool = self.actor.tools.get(block.name)
        if tool is None:
            return settle(f"Error: No such tool available: {block.name}")
        call = {"tool_name": block.name, "tool_input": block.input, "tool_use_id": block.id}
        pre = await self._dispatch(p.PreToolUseInput(**self._common(), **call))
        self._apply(pre)
        if pre.blocked:
            block.block(
                pre.tool_error or f"PreToolUse:{block.name} hook error: {NO_STDERR}", pre.decided_by
            )
            return settle()
        refusal = await self._permission(block, tool.kind, pre)
        if refusal is not None:
            return settle(refusal)

        block.status = "running"
        settle()
        workspace = self.actor.workspace
        old_cwd, started = workspace.cwd, time.monotonic()
        result = await tool(block.input, workspace)
        duration_ms = round((time.monotonic() - started) * 1000)
        if result.ok:
            block.succeed(result.text)
        else:
            block.fail(result.text)
        settle()

        done = {"tool_response": result.response, "duration_ms": duration_ms}
        if not result.ok:
            failure = p.PostToolUseFailureInput(
                **self._common(), **call, error=result.text, duration_ms=duration_ms
            )
            self._apply(await self._dispatch(failure))
        # Seed 000 (PostToolUse story, scenario 2): PostToolUse hooks also see a failed tool,
        # its tool_response carrying the error (`success: false`).
        self._apply(await self._dispatch(p.PostToolUseInput(**self._common(), **call, **done)))
        if workspace.cwd != old_cwd:
            moved = p.CwdChangedInput(
                **self._common(), old_cwd=str(old_cwd), new_cwd=str(workspace.cwd)
            )
            self._apply(await self._dispatch(moved))

    async def _permission(self, block: ToolBlock, kind: ToolKind, pre: Outcome) -> str | None:
        """None when the call may run, else the refusal the model sees."""
        permissions = self.context.permissions
        mode = permissions.mode
        verdict = with_hook_decision(mode_verdict(mode, kind), pre.permission_decision)
        if verdict == "allow":
            return None
        ask = permissions.ask
        headless = ask is None
        if verdict == "deny":
            return refused_by_mode(block.name, mode, headless)
        request = p.PermissionRequestInput(
            **self._common(), tool_name=block.name, tool_input=block.input
        )
        outcome = await self._dispatch(request)
        self._apply(outcome)
        if outcome.blocked:
            refusal = refused_by_hook(block.name, outcome.permission_reason)
            block.block(refusal, outcome.decided_by)
            return refusal
        if outcome.permission_decision == "allow":
            return None  # a PermissionRequest hook answered for the user
        if ask is None:
            return refused_by_mode(block.name, mode, headless)
        asked_by = pre.decided_by if pre.permission_decision == "ask" else None
        prompt = PermissionPrompt(
            permissions.session_id,
            block.id,
            block.name,
            block.input,
            mode,
            pre.permission_reason,
            asked_by,
        )
        answer = await ask(prompt)
        return None if answer.allow else refused_by_user(block.name, answer.message)
