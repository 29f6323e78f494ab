"""What a session lends its prompt and agent hooks (`hooks.models.HookModels`).

A prompt hook's question is one call on the session's provider (its model, or the hook's own
`model`): no tools, the answer a JSON object of the hook's schema; on Stop the conversation of
whoever is stopping goes before it. An agent hook's is a short subagent, run by the loop every
actor runs: the session's read-only tools and a `StructuredOutput` tool, the `dontAsk`
permission mode, its own transcript, an `agent_id` starting `hook-agent-` and an empty
`agent_type` (Claude Code's), so the session's tool and SubagentStop hooks fire for it as in
Claude Code; at most `max_turns` model calls.
"""

import dataclasses
import tempfile
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import aclosing, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

from wavehost import paths
from wavehost.hooks.config import HookConfig
from wavehost.hooks.dialects.wave.model_hooks import HOOK_AGENT
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.models import HookModelError, HookModels, Judgement, Verification
from wavehost.hooks.tools.glob import GLOB
from wavehost.hooks.tools.grep import GREP
from wavehost.hooks.tools.read import READ
from wavehost.hooks.tools.task_output import TASK_OUTPUT
from wavehost.session.actor import Actor
from wavehost.session.agent_loop import AgentLoop, LoopContext
from wavehost.session.conversation import Conversation
from wavehost.session.hooks import Halted, SessionHooks
from wavehost.session.messages import ModelUser, UserMessage, to_model_messages
from wavehost.session.permissions import Permissions
from wavehost.session.providers import chat_settings, choose, make_provider
from wavehost.session.providers.base import ModelRequest, ProviderError, TextDelta
from wavehost.session.subagents import own_conversation, subagent_stop
from wavehost.session.tools import Toolbox, Workspace, toolbox
from wavehost.session.tools.files import Read
from wavehost.session.tools.search import Glob, Grep
from wavehost.session.tools.structured import StructuredOutput

# What an agent hook's subagent may use: tools that look and change nothing.
READ_ONLY = tuple(t.name for t in (READ, GLOB, GREP, TASK_OUTPUT))


class SessionHookModels:
    def __init__(self, context: LoopContext, tools: Toolbox, root: Path, home: Path | None):
        self.context = context
        self.read_only = {name: tools[name] for name in READ_ONLY if name in tools}
        self.root = root
        self.home = home

    async def judge(self, request: Judgement) -> str:
        hooks = self.context.hooks
        history = hooks.conversation_of(request.agent_id).messages
        messages = [*(to_model_messages(history) if request.with_transcript else ()),
                    ModelUser(request.prompt)]  # fmt: skip
        call = ModelRequest(
            request.system, messages, (), output_schema=request.schema, model=request.model
        )
        text: list[str] = []
        try:
            async with aclosing(self.context.provider.stream(call)) as events:
                async for event in events:
                    if isinstance(event, TextDelta):
                        text.append(event.text)
        except ProviderError as err:
            raise HookModelError(str(err)) from err
        return "".join(text)

    async def verify(self, request: Verification) -> Mapping[str, Any] | None:
        hooks = self.context.hooks
        agent_id = f"{HOOK_AGENT}{uuid.uuid4()}"
        answer = StructuredOutput(request.tool, request.tool_description, request.schema)
        path = paths.agent_transcript_path(hooks.session_id, agent_id, self.home)
        workspace = Workspace(self.root, Path(request.cwd))  # (gone: tools start in the root)
        actor = Actor(
            own_conversation(self.context, self.root, path, workspace),
            workspace,
            {**self.read_only, answer.name: answer},
            request.system,
            subagent_stop(path),
            agent_id=agent_id,
            agent_type="",  # as Claude Code names an agent hook's subagent
            reminder=request.reminder,
            model=request.model,
            permission_mode="dontAsk",
        )
        calls = 0

        async def count(_: Actor) -> None:
            nonlocal calls
            calls += 1
            if calls > request.max_turns:
                raise Halted  # given up, as Claude Code gives it up: no answer

        permissions = Permissions(hooks.session_id, "dontAsk", None)
        context = dataclasses.replace(
            self.context,
            permissions=permissions,
            user_waiting=lambda: False,
            before_model_call=count,
            ask_user=None,
        )
        actor.conversation.append(UserMessage(content=request.prompt))
        try:
            await AgentLoop(context, actor).respond()
        except ProviderError as err:
            raise HookModelError(str(err)) from err
        finally:
            # written before the answer is given: Test this hook removes its folder after it
            await actor.conversation.flush(durable=True)
        return answer.answer


class Unavailable:
    """`HookModels` for when there is no model to ask: every question fails, saying why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def judge(self, request: Judgement) -> str:
        raise HookModelError(self.reason)

    async def verify(self, request: Verification) -> Mapping[str, Any] | None:
        raise HookModelError(self.reason)


@asynccontextmanager
async def trial_models(project: Path, *, trusted: bool) -> AsyncIterator[HookModels]:
    """The `HookModels` Test this hook gives a prompt or agent hook outside any chat: the
    provider a chat in this project would use (Unavailable when none is set up) and, for an
    agent hook, the read-only tools in the project; no hooks of the project run inside it, and
    its transcripts go to a folder removed afterwards."""
    try:
        choice = await anyio.to_thread.run_sync(
            lambda: choose(None, None, None, chat_settings(project, trusted=trusted))
        )
        provider = await anyio.to_thread.run_sync(make_provider, choice)
    except ProviderError as err:
        yield Unavailable(str(err))
        return
    with tempfile.TemporaryDirectory(prefix="wavehost-hook-test-") as scratch:
        home = Path(scratch)
        session_id = f"hook-test-{uuid.uuid4().hex[:8]}"
        workspace = Workspace(project, project)
        hooks = SessionHooks(
            session_id=session_id,
            transcript_path=paths.transcript_path(session_id, home),
            root=project,
            workspace=workspace,
            permission_mode="dontAsk",
            engine=HookEngine(HookConfig()),  # the project's hooks do not run in a test
            background=BackgroundHooks(lambda _: None),
            conversation=Conversation(session_id, home / "unused.json", [], _unsaved),
            emit=lambda _: None,
            folder=paths.session_dir(session_id, home),
            entrypoint="ide",
        )

        async def ready(_: Actor) -> None:
            return None

        context = LoopContext(
            hooks=hooks,
            provider=provider,
            permissions=Permissions(session_id, "dontAsk", None),
            stop_block_cap=0,
            user_waiting=lambda: False,
            before_model_call=ready,
        )
        try:
            yield SessionHookModels(context, toolbox(Read(), Glob(), Grep()), project, home)
        finally:
            await provider.aclose()


def _unsaved(messages: list[Any]) -> Any:
    raise AssertionError("a hook test's own conversation is never saved")
