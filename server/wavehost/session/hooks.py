"""The session's hooks, as everything inside a session fires them: the agent loop, subagents,
compaction, worktrees and the session itself.

One facade over the engine: which hooks exist, the fields every hook input carries, dispatching
(after the transcript is saved, so a hook reading `transcript_path` sees everything so far) and
applying the outcome exactly as the engine decided it. The `statusMessage`s of running hooks are
tracked per dispatch, so concurrent dispatches (a subagent's hooks while the main turn's run)
never clear each other's status line.
"""

import itertools
import logging
from pathlib import Path
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.outcome import Outcome, subject_of
from wavehost.hooks.runner import HookContext
from wavehost.session.actor import Actor
from wavehost.session.conversation import Conversation
from wavehost.session.messages import NoticeBlock, UserMessage
from wavehost.session.tools import Workspace
from wavehost.session.updates import HooksRunning, UpdateListener

log = logging.getLogger(__name__)


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
        self._dispatches = itertools.count()
        self._running: dict[int, tuple[str, ...]] = {}  # dispatch → statusMessages shown

    @property
    def running(self) -> tuple[str, ...]:
        """The `statusMessage`s of the hooks running now, oldest dispatch first."""
        return tuple(m for messages in self._running.values() for m in messages)

    def has(self, event: Event) -> bool:
        return self.engine.has_hooks(event)

    def take_over(self, event: Event) -> bool:
        """Whether hooks do this event's job instead of wavehost (catalogue: `takes_over`)."""
        return event.spec.takes_over and self.has(event)

    def common(self, actor: Actor | None = None) -> dict[str, Any]:
        """Fields every hook input carries; `cwd` is the workdir of whoever is running."""
        workspace = actor.workspace if actor is not None else self.workspace
        return {
            "session_id": self.session_id,
            "transcript_path": str(self.transcript_path),
            "cwd": str(workspace.cwd),
            "permission_mode": self.permission_mode,
            **(actor.identity() if actor is not None else {}),
        }

    async def dispatch(self, payload: p.HookInput) -> Outcome:
        event = event_of(payload)
        if not self.engine.has_hooks(event):
            return self.engine.nothing(event)  # no process to start, no transcript to write
        self.conversation.save()  # hooks read transcript_path: it must show everything so far
        # Hooks run where the payload says the agent is; $WAVE_PROJECT_DIR stays the root.
        context = HookContext(cwd=Path(payload.cwd), project_dir=self.root)
        shown = tuple(
            h.status_message
            for h in self.engine.matching(event, subject_of(payload), payload)
            if h.status_message and not h.in_background
        )
        if not shown:
            return await self.engine.dispatch(payload, context, self.background)
        dispatch = next(self._dispatches)
        self._running[dispatch] = shown
        self._report()
        try:
            return await self.engine.dispatch(payload, context, self.background)
        finally:
            del self._running[dispatch]
            self._report()

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

    async def fire(
        self,
        payload: p.HookInput,
        *,
        meta: bool = True,
        conversation: Conversation | None = None,
    ) -> Outcome:
        """Dispatch, then apply; the outcome for whoever needs more of it."""
        outcome = await self.dispatch(payload)
        self.apply(outcome, meta=meta, conversation=conversation)
        return outcome

    def _report(self) -> None:
        self._emit(HooksRunning(self.session_id, self.running))
