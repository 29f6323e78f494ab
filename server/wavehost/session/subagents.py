"""Subagents: the `Agent` tool's work, run by the same loop as the main agent.

A subagent has its own conversation (its own transcript file, `agent_transcript_path`), its own
copy of the workdir (a `cd` inside it does not move the session) and the tools its type allows.
SubagentStart fires before it starts and SubagentStop when it would end (both matched on
`agent_type`); SubagentStart hooks may rewrite its task or put context before it, a SubagentStop
block makes it go on, like Stop for the main agent, and a SubagentStop rewrite is its report. In the
foreground its final reply is the tool result, and a hook's `continue: false` inside it stops the
main agent's reply too (Claude Code: it stops everything); in the background it is a task whose
completion wakes the main agent with a notification.
"""

import dataclasses
import uuid
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.outcome import edited_prompt
from wavehost.session import transcript
from wavehost.session.actor import Actor, StopPayload
from wavehost.session.agent_loop import AgentLoop, LoopContext
from wavehost.session.agent_types import AGENT_TYPES, SUBAGENT_SYSTEM_PROMPT, AgentType
from wavehost.session.background import BackgroundTasks
from wavehost.session.conversation import AnyMessage, Conversation
from wavehost.session.messages import AssistantMessage, UserMessage
from wavehost.session.tools import Toolbox, ToolError, ToolResult, Workspace
from wavehost.session.tools.agent import AgentInput


def final_text(messages: list[AnyMessage]) -> str:
    """The agent's report: the text of its last reply that has any."""
    for message in reversed(messages):
        if isinstance(message, AssistantMessage) and message.text():
            return message.text()
    return ""


class Subagents:
    def __init__(
        self,
        context: LoopContext,
        root: Path,
        home: Path | None,
        tasks: BackgroundTasks,
        tools: Toolbox,
    ) -> None:
        self.context = context
        self.hooks = context.hooks
        self.root = root
        self.home = home
        self.tasks = tasks
        self.tools = tools  # what a subagent may get; its type narrows it down

    async def launch(self, args: AgentInput, workspace: Workspace) -> ToolResult:
        kind = AGENT_TYPES.get(args.subagent_type)
        if kind is None:
            available = ", ".join(AGENT_TYPES)
            raise ToolError(
                f"Agent type '{args.subagent_type}' not found. Available agents: {available}"
            )
        agent_id = uuid.uuid4().hex[:16]
        start = await self.hooks.fire(
            p.SubagentStartInput(
                **self.hooks.common(), agent_id=agent_id, agent_type=kind.name, prompt=args.prompt
            )
        )
        actor = self._actor(kind, agent_id, workspace)
        given = edited_prompt(args.prompt, start)  # hooks may replace it or add context first
        actor.conversation.append(
            UserMessage(content=args.prompt, model_content=None if given == args.prompt else given)
        )

        loop = AgentLoop(self.context, actor)

        async def run() -> str:
            self.hooks.conversations[agent_id] = actor.conversation  # a prompt hook reads it
            try:
                await loop.respond()
            finally:
                del self.hooks.conversations[agent_id]
                actor.conversation.save(durable=True)  # its transcript, as the main one's turn
            if loop.response is not None:  # a SubagentStop hook rewrote the report
                return loop.response
            return final_text(actor.conversation.messages)

        report = {"agentId": agent_id, "agentType": kind.name}
        if args.run_in_background:
            task = self.tasks.start_agent(kind.name, args.description, run)
            return ToolResult.success(
                f"Async agent launched successfully.\nagentId: {agent_id} (task {task.id})\n"
                "The agent is working in the background; you will be notified when it is done. "
                f"Its report will be in {task.output_file} (or use TaskOutput with {task.id}).",
                **report,
                taskId=task.id,
                outputFile=str(task.output_file),
            )
        text = await run()
        result = ToolResult.success(text or "(the agent finished without a report)", **report)
        # A `continue: false` inside stops the caller as well (in the background there is no
        # caller waiting: it ends the subagent only).
        return dataclasses.replace(result, halted_everything=loop.halted_everything)

    def _actor(self, kind: AgentType, agent_id: str, workspace: Workspace) -> Actor:
        session_id = self.hooks.session_id
        path = paths.agent_transcript_path(session_id, agent_id, self.home)
        own = dataclasses.replace(workspace)  # its own cwd from here on
        tools = {
            name: tool
            for name, tool in self.tools.items()
            if kind.tools is None or name in kind.tools
        }
        system = SUBAGENT_SYSTEM_PROMPT.format(
            type=kind.name, root=self.root, instructions=kind.instructions
        )
        return Actor(
            own_conversation(self.context, self.root, path, own),
            own,
            tools,
            system,
            subagent_stop(path),
            agent_id=agent_id,
            agent_type=kind.name,
        )


def own_conversation(
    context: LoopContext, root: Path, path: Path, workspace: Workspace
) -> Conversation:
    """A subagent's own conversation, saved to its own transcript at `path`."""
    hooks = context.hooks
    created = transcript.now()

    def describe(messages: list[AnyMessage]) -> transcript.Transcript:
        return transcript.Transcript(
            session_id=hooks.session_id,
            root=str(root),
            workdir=str(workspace.cwd),
            permission_mode=hooks.permission_mode,
            provider=context.provider.name,
            model=context.provider.model,
            created_at=created,
            updated_at=transcript.now(),
            state=transcript.TranscriptState(messages=messages),
        )

    return Conversation(hooks.session_id, path, [], describe)


def subagent_stop(path: Path) -> StopPayload:
    """SubagentStop's input for a subagent whose transcript is at `path`."""

    def stop(common: dict[str, Any], active: bool, last: str | None) -> p.HookInput:
        # No background_tasks / session_crons: those belong to the main agent's Stop only.
        return p.SubagentStopInput(
            **common,
            stop_hook_active=active,
            last_assistant_message=last,
            agent_transcript_path=str(path),
        )

    return stop
