"""The session's hooks, as everything inside a session fires them: the agent loop, subagents,
compaction, worktrees and the session itself.

One facade over the engine: which hooks exist, the fields every hook input carries, dispatching
(after the transcript is saved, so a hook reading `transcript_path` sees everything so far) and
applying the outcome exactly as the engine decided it. The `statusMessage`s of running hooks are
tracked per dispatch, so concurrent dispatches (a subagent's hooks while the main turn's run)
never clear each other's status line. A hook that runs a while is shown live (`hooks.live`: its
last stderr lines, and Cancel) through the same updates.

Hooks see what Claude Code's see: `prompt_id` (one per user prompt, on every event of its turn),
`effort` on tool events and Stop, and the environment of `HookContext` (session id, entrypoint,
effort; `$CLAUDE_ENV_FILE` for the events the catalogue marks `env_file`). A hook's text for the
model longer than `SPILL_OVER` characters is saved to a file in the session's folder and the model
gets a preview and the path (Claude Code's rule), so one chatty hook cannot flood the context.
"""

import itertools
import logging
import os
import uuid
from collections.abc import Awaitable, Mapping
from pathlib import Path
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.live import LiveHooks
from wavehost.hooks.models import HookModels
from wavehost.hooks.outcome import Outcome, subject_of
from wavehost.hooks.runner import HookContext, McpToolCaller
from wavehost.session.actor import Actor
from wavehost.session.claude_transcript import ClaudeTranscript
from wavehost.session.conversation import Conversation
from wavehost.session.messages import NoticeBlock, UserMessage
from wavehost.session.tools import Workspace
from wavehost.session.updates import HooksLive, HooksRunning, UpdateListener

log = logging.getLogger(__name__)

SPILL_OVER = 10_000  # characters of hook text for the model beyond which it goes to a file
PREVIEW = 2_000  # characters of it the model still sees


def spilled(text: str, path: Path) -> str:
    """What the model sees instead of a hook text too long for the context."""
    return (
        f"Hook output too large ({len(text)} characters). Full output saved to: {path}\n\n"
        f"Preview (first {PREVIEW} characters):\n{text[:PREVIEW]}"
    )


class Halted(Exception):  # noqa: N818 - a signal, not an error
    """A hook halted the flow (Snow exit 2+, Copilot `interrupt`, Wave `continue: false`): the
    running reply ends with no further model call."""


class SessionHooks:
    def __init__(
        self,
        *,
        session_id: str,
        transcript_path: Path,
        root: Path,
        workspace: Workspace,
        permission_mode: p.PermissionMode,
        engine: HookEngine,
        background: BackgroundHooks,
        conversation: Conversation,
        emit: UpdateListener,
        folder: Path,
        entrypoint: str,
        effort: str | None = None,
        env_file: Path | None = None,
        export: ClaudeTranscript | None = None,
    ) -> None:
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.root = root
        self.workspace = workspace  # the main agent's: its cwd follows `cd`
        self.permission_mode = permission_mode
        self.engine = engine
        self.background = background
        self.conversation = conversation  # the main agent's, where outcomes land by default
        self._emit = emit
        self.folder = folder  # the session's own files (large hook output goes here)
        self.entrypoint = entrypoint  # $CLAUDE_CODE_ENTRYPOINT: who runs the session
        self.effort = effort  # the reasoning effort level (payload `effort`, $CLAUDE_EFFORT)
        self.env_file = env_file  # $CLAUDE_ENV_FILE for the events that get it
        # `transcript_path` in Claude Code's format: written before each hook runs
        self.export = export
        self.prompt_id: str | None = None  # the user prompt whose turn runs (or ran last)
        self.mcp: McpToolCaller | None = None  # the session's MCP client, for mcp_tool hooks
        self._dispatches = itertools.count()
        self._running: dict[int, tuple[str, ...]] = {}  # dispatch → statusMessages shown
        self._contexts: dict[tuple[str, bool], HookContext] = {}  # one per cwd: env copied once
        self._spills = itertools.count(1)
        # What prompt and agent hooks ask (`hook_models`), set once the session has its loop
        self.models: HookModels | None = None
        self.conversations: dict[str, Conversation] = {}  # the running subagents', by agent_id
        self.live = LiveHooks(self._report_live)  # hooks running a while: shown, cancellable

    @property
    def running(self) -> tuple[str, ...]:
        """The `statusMessage`s of the hooks running now, oldest dispatch first."""
        return tuple(m for messages in self._running.values() for m in messages)

    def has(self, event: Event) -> bool:
        return self.engine.has_hooks(event)

    def take_over(self, event: Event) -> bool:
        """Whether hooks do this event's job instead of wavehost (catalogue: `takes_over`)."""
        return event.spec.takes_over and self.has(event)

    def new_prompt(self) -> str:
        """A user prompt starts a turn: every event from here on carries its `prompt_id`."""
        self.prompt_id = str(uuid.uuid4())
        return self.prompt_id

    def common(self, actor: Actor | None = None, *, effort: bool = False) -> dict[str, Any]:
        """Fields every hook input carries; `cwd` is the workdir of whoever is running.
        `effort`: the event is one Claude Code reports the effort level on (tools, Stop)."""
        workspace = actor.workspace if actor is not None else self.workspace
        fields: dict[str, Any] = {
            "session_id": self.session_id,
            "transcript_path": str(self.transcript_path),
            "cwd": str(workspace.cwd),
            "permission_mode": (actor and actor.permission_mode) or self.permission_mode,
            "prompt_id": self.prompt_id,
            **(actor.identity() if actor is not None else {}),
        }
        if effort and self.effort is not None:
            fields["effort"] = p.Effort(level=self.effort)
        return fields

    def conversation_of(self, agent_id: str | None) -> Conversation:
        """Whose conversation a hook with this `agent_id` fired in (a prompt hook on Stop reads
        it): a running subagent's, else the main agent's."""
        found = self.conversations.get(agent_id) if agent_id is not None else None
        return found if found is not None else self.conversation

    def context(self, cwd: Path, event: Event) -> HookContext:
        """Where and with which environment this event's hooks run (cached per cwd)."""
        key = (str(cwd), event.spec.env_file)
        context = self._contexts.get(key)
        if context is None:
            context = self._contexts[key] = HookContext(
                cwd=cwd,
                project_dir=self.root,
                base_env=self.workspace.env,
                session_id=self.session_id,
                entrypoint=self.entrypoint,
                effort=self.effort,
                env_file=self.env_file if event.spec.env_file else None,
                mcp=self.mcp,
                models=self.models,
                live=self.live,
            )
        return context

    async def dispatch(
        self,
        payload: p.HookInput,
        *,
        only: DialectName | None = None,
        given: Mapping[DialectName, Outcome] | None = None,
    ) -> Outcome:
        """`only`: one dialect's hooks; `given`: dialects whose outcome is already known
        (`HookEngine.dispatch_apart`)."""
        event = event_of(payload)
        if not given and not self.engine.has_hooks(event, only):
            return self.engine.nothing(event)  # no process to start, no transcript to write
        handlers = await self.engine.select(event, subject_of(payload), payload)
        if any(
            DIALECTS[h.dialect].names_transcript(event) and only in (None, h.dialect)
            for h in handlers
        ):  # they read transcript_path: all so far, on disk
            await self.conversation.flush()
            if self.export is not None:
                await self.export.flush(self.conversation.messages, self.workspace.cwd)
        # Hooks run where the payload says the agent is; $WAVE_PROJECT_DIR stays the root.
        context = self.context(Path(payload.cwd), event)
        shown = tuple(
            h.status_message
            for h in handlers
            if h.status_message and not h.in_background and only in (None, h.dialect)
        )
        if not shown:
            return await self._engine_dispatch(payload, context, only, given, handlers)
        dispatch = next(self._dispatches)
        self._running[dispatch] = shown
        self._report()
        try:
            return await self._engine_dispatch(payload, context, only, given, handlers)
        finally:
            del self._running[dispatch]
            self._report()

    def _engine_dispatch(
        self,
        payload: p.HookInput,
        context: HookContext,
        only: DialectName | None,
        given: Mapping[DialectName, Outcome] | None,
        handlers: tuple[HookHandler, ...],
    ) -> Awaitable[Outcome]:
        if only is None and not given:
            return self.engine.dispatch(payload, context, self.background, handlers)
        return self.engine.dispatch_apart(
            payload, context, self.background, handlers, only=only, given=given
        )

    def apply(
        self, outcome: Outcome, *, meta: bool = True, conversation: Conversation | None = None
    ) -> None:
        """Do what the engine decided: notices to the user, isMeta messages to the model."""
        target = conversation or self.conversation
        for notice in outcome.notices:
            target.notice(NoticeBlock.from_hook(notice))
        if meta:
            for text in outcome.meta_messages:
                whole = text in outcome.whole_meta  # Copilot's: passed whole, as Copilot does
                content = text if whole else self._bounded(text)
                target.append(UserMessage(content=content, is_meta=True))
        for line in outcome.logs:
            log.info("%s", line)

    async def fire(
        self,
        payload: p.HookInput,
        *,
        meta: bool = True,
        conversation: Conversation | None = None,
        given: Mapping[DialectName, Outcome] | None = None,
    ) -> Outcome:
        """Dispatch, then apply; the outcome for whoever needs more of it."""
        outcome = await self.dispatch(payload, given=given)
        self.apply(outcome, meta=meta, conversation=conversation)
        return outcome

    def _bounded(self, text: str) -> str:
        """The text itself, or past `SPILL_OVER` characters a preview and the file holding it."""
        if len(text) <= SPILL_OVER:
            return text
        path = self.folder / f"hook-output-{next(self._spills)}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as err:
            log.warning("could not save a large hook output to %s: %s", path, err)
            return p.clip(text, SPILL_OVER)
        return spilled(text, path)

    def _report(self) -> None:
        self._emit(HooksRunning(self.session_id, self.running))

    def _report_live(self) -> None:
        shown, more = self.live.views()
        self._emit(HooksLive(self.session_id, shown, more))
