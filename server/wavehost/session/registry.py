"""The open chat sessions of a long-lived server (the chat feature's `wave/chat/*` methods).

`open_session` is a context manager, so something must hold each session open between requests:
the registry does, in its own task group, entered for the server's lifetime. `open` returns once
SessionStart has run; `close` ends the session (SessionEnd) and waits until it is gone, or with
`wait=False` lets it end in the background (a New chat: the old session's end hooks must not hold
up the new one, seed 002). At the server's end (`close_all`) end hooks still running in the
background are killed; sessions closed then run theirs to the end.
"""

from typing import Any

import anyio
from anyio.abc import TaskStatus

from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.session.chat_session import ChatSession, SessionConfig
from wavehost.session.lifecycle import open_session


class SessionRegistry(OwnedTaskGroup):
    def __init__(self) -> None:
        super().__init__()
        self._sessions: dict[str, tuple[ChatSession, anyio.Event, anyio.Event]] = {}
        self._ending: set[str] = set()  # closing in the background

    def get(self, session_id: str) -> ChatSession:
        """The open session with this id; KeyError if there is none."""
        return self._sessions[session_id][0]

    def __contains__(self, session_id: str) -> bool:
        return session_id in self._sessions

    def open_sessions(self) -> list[ChatSession]:
        """The sessions open and not closing, oldest first."""
        return [held[0] for sid, held in self._sessions.items() if not held[1].is_set()]

    def is_closing(self, session_id: str) -> bool:
        """Whether this session was asked to close and is still ending (its end hooks run)."""
        held = self._sessions.get(session_id)
        return held is not None and held[1].is_set()

    async def wait_closed(self, session_id: str) -> None:
        """Return once this session has ended (at once if it is not open)."""
        held = self._sessions.get(session_id)
        if held is not None:
            await held[2].wait()

    async def open(
        self, config: SessionConfig, resume: str | None = None, session_id: str | None = None
    ) -> ChatSession:
        """Open a session: `resume` a saved one, or a new one (under `session_id`, if given)."""
        session: ChatSession = await self.group.start(self._hold, config, resume, session_id)
        return session

    async def close(self, session_id: str, *, wait: bool = True) -> None:
        _, closing, closed = self._sessions[session_id]
        if not wait:
            self._ending.add(session_id)
        closing.set()
        if wait:
            await closed.wait()

    async def close_all(self) -> None:
        for session_id in list(self._sessions):
            if session_id in self._ending:
                self._sessions[session_id][0].abandon_end()
        for session_id in list(self._sessions):
            await self.close(session_id)

    async def _hold(
        self,
        config: SessionConfig,
        resume: str | None,
        session_id: str | None,
        *,
        task_status: TaskStatus[Any],
    ) -> None:
        closing, closed = anyio.Event(), anyio.Event()
        try:
            async with open_session(config, resume=resume, session_id=session_id) as session:
                self._sessions[session.id] = (session, closing, closed)
                task_status.started(session)
                await closing.wait()
        finally:
            for held, (_, _, done) in list(self._sessions.items()):
                if done is closed:
                    del self._sessions[held]
                    self._ending.discard(held)
            closed.set()
