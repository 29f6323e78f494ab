"""The open chat sessions of a long-lived server (the chat feature's `wave/chat/*` methods).

`open_session` is a context manager, so something must hold each session open between requests:
the registry does, in a task group the server owns. `open` returns once SessionStart has run;
`close` ends the session (SessionEnd) and waits until it is gone.
"""

from typing import Any

import anyio
from anyio.abc import TaskGroup, TaskStatus

from wavehost.session.chat_session import ChatSession, SessionConfig, open_session


class SessionRegistry:
    def __init__(self, group: TaskGroup) -> None:
        self._group = group
        self._sessions: dict[str, tuple[ChatSession, anyio.Event, anyio.Event]] = {}

    def get(self, session_id: str) -> ChatSession:
        """The open session with this id; KeyError if there is none."""
        return self._sessions[session_id][0]

    async def open(self, config: SessionConfig, resume: str | None = None) -> ChatSession:
        session: ChatSession = await self._group.start(self._hold, config, resume)
        return session

    async def close(self, session_id: str) -> None:
        _, closing, closed = self._sessions[session_id]
        closing.set()
        await closed.wait()

    async def close_all(self) -> None:
        for session_id in list(self._sessions):
            await self.close(session_id)

    async def _hold(
        self, config: SessionConfig, resume: str | None, *, task_status: TaskStatus[Any]
    ) -> None:
        closing, closed = anyio.Event(), anyio.Event()
        try:
            async with open_session(config, resume=resume) as session:
                self._sessions[session.id] = (session, closing, closed)
                task_status.started(session)
                await closing.wait()
        finally:
            for session_id, (_, _, done) in list(self._sessions.items()):
                if done is closed:
                    del self._sessions[session_id]
            closed.set()
