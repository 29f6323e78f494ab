"""The chat feature: the `wave/chat/*` methods, a thin layer over `SessionHost`.

Sessions live in one task group the feature owns for the server's lifetime; they use the
workspace's project, trust and programmatic hooks (as they are when the session opens), and end
(SessionEnd) on `wave/chat/close` or at LSP `shutdown`. What a session reports goes to the client
as `wave/chat/updated`; what it asks goes to the client as the `wave/chat/requestPermission`
request.

Imported on first use, like the settings feature: it pulls in the session runtime.
"""

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

import anyio
from anyio import to_thread
from lsprotocol.types import CANCEL_REQUEST, CancelParams
from pydantic import ValidationError
from pygls.lsp.server import LanguageServer

from wavehost.lsp.edge import Params, RequestFailedError, dump, handlers_for, parse, spawn
from wavehost.lsp.workspace import WorkspaceOptions
from wavehost.protocol import table
from wavehost.protocol.chat import (
    ChatCancelParams,
    ChatCancelResult,
    ChatCloseParams,
    ChatCloseResult,
    ChatCompactParams,
    ChatCompactResult,
    ChatErrorData,
    ChatOpenParams,
    ChatOpenResult,
    ChatRequestPermissionParams,
    ChatRequestPermissionResult,
    ChatSendParams,
    ChatSendResult,
    ChatUpdatedParams,
    MessagePut,
    MessageRemove,
)
from wavehost.session import transcript
from wavehost.session.host import SessionHost
from wavehost.session.loop import ChatSession, SessionConfig
from wavehost.session.permissions import PermissionAnswer, PermissionPrompt
from wavehost.session.providers import ProviderError, chat_settings, choose, make_provider
from wavehost.session.updates import (
    HooksRunning,
    MessageChanged,
    MessageRemoved,
    SessionStatus,
    SessionUpdate,
    StatusChanged,
)

log = logging.getLogger(__name__)


def _failed(reason: Any, message: str, session_id: str | None = None) -> RequestFailedError:
    return RequestFailedError(
        message, ChatErrorData(reason=reason, session_id=session_id, message=message)
    )


class _Outbox:
    """Turns one session's updates into `wave/chat/updated` notifications.

    Updates that come within one pass of the event loop go out together, and successive changes
    of one message (streamed text) collapse into one. A message is serialised when the
    notification is sent, in its latest form; a put carries the whole message, so any later form
    is as correct as the one that triggered it.
    """

    def __init__(self, notify: Callable[[dict[str, Any]], None]) -> None:
        self._notify = notify
        self.session_id: str | None = None
        self.status: SessionStatus = "idle"
        self.queued = 0
        self.running_hooks: tuple[str, ...] = ()
        self._deltas: list[MessagePut | MessageRemove] = []
        self._scheduled = False

    def __call__(self, update: SessionUpdate) -> None:
        self.session_id = update.session_id
        if isinstance(update, MessageChanged):
            put = MessagePut(index=update.index, message=update.message)
            last = self._deltas[-1] if self._deltas else None
            if isinstance(last, MessagePut) and last.index == put.index:
                self._deltas[-1] = put
            else:
                self._deltas.append(put)
        elif isinstance(update, MessageRemoved):
            self._deltas.append(MessageRemove(index=update.index, message_id=update.message_id))
        elif isinstance(update, StatusChanged):
            self.status, self.queued = update.status, update.queued
        elif isinstance(update, HooksRunning):
            self.running_hooks = update.status_messages
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send what is pending, if anything."""
        if not self._scheduled or self.session_id is None:
            return
        self._scheduled = False
        deltas, self._deltas = self._deltas, []
        params = ChatUpdatedParams(
            session_id=self.session_id,
            deltas=deltas,
            status=self.status,
            queued=self.queued,
            running_hooks=list(self.running_hooks),
        )
        self._notify(params.to_wire())


class ChatFeature:
    def __init__(self, server: LanguageServer, options: WorkspaceOptions) -> None:
        self._server = server
        self._options = options
        self._outboxes: dict[str, _Outbox] = {}
        self._always: dict[str, set[str]] = {}  # session id → tools the user always allows
        self._sessions: SessionHost | None = None
        self._ready = asyncio.Event()
        self._stopping = asyncio.Event()
        self._holder: asyncio.Task[None] | None = None
        self.handlers = handlers_for(
            "chat",
            {
                table.CHAT_OPEN: self.open,
                table.CHAT_SEND: self.send,
                table.CHAT_CANCEL: self.cancel,
                table.CHAT_COMPACT: self.compact,
                table.CHAT_CLOSE: self.close,
            },
        )

    async def _hold(self) -> None:
        async with anyio.create_task_group() as group:
            self._sessions = SessionHost(group)
            self._ready.set()
            await self._stopping.wait()
            await self._sessions.close_all()

    async def _host(self) -> SessionHost:
        await self._ready.wait()
        assert self._sessions is not None
        return self._sessions

    def start(self) -> None:
        self._holder = spawn(self._hold(), "the chat sessions' task")

    def halt(self) -> None:
        """Nothing to stop at once: sessions end at `shutdown` (`stop`)."""

    async def stop(self) -> None:
        """End every session (SessionEnd hooks run) and send their last updates."""
        self._stopping.set()
        if self._holder is not None:
            await asyncio.wait([self._holder], timeout=30)
        for outbox in self._outboxes.values():
            outbox.flush()

    def _session(self, session_id: str) -> ChatSession:
        if self._sessions is not None:
            try:
                return self._sessions.get(session_id)
            except KeyError:
                pass
        raise _failed(
            "sessionNotOpen",
            f"no open chat session {session_id!r}: open it with {table.CHAT_OPEN.name} first",
            session_id,
        )

    # -- methods ----------------------------------------------------------------------------

    async def open(self, params: Params) -> dict[str, Any]:
        request = parse(ChatOpenParams, params, table.CHAT_OPEN)
        host = await self._host()
        session: ChatSession | None = None
        if request.session_id is not None:
            try:
                session = host.get(request.session_id)
            except KeyError:
                session = None
        if session is None:
            session = await self._start(host, request)
        return dump(
            ChatOpenResult(
                session_id=session.id,
                transcript_path=str(session.transcript_path),
                status=session.status,
                queued=session.queued,
                permission_mode=session.permission_mode,
                provider=session.provider.name,
                model=session.provider.model,
                messages=list(session.messages),
            )
        )

    async def _start(self, host: SessionHost, request: ChatOpenParams) -> ChatSession:
        root = self._options.project_dir
        resume = request.session_id
        try:
            choice = await to_thread.run_sync(
                lambda: choose(
                    request.provider,
                    request.model,
                    None,
                    chat_settings(root, trusted=self._options.trusted),
                )
            )
            provider = await to_thread.run_sync(make_provider, choice)
        except ProviderError as err:
            raise _failed("noProvider", str(err), resume) from err
        outbox = _Outbox(self._notify)
        config = SessionConfig(
            root=root,
            provider=provider,
            permission_mode=request.permission_mode or "default",
            hooks=self._options.hooks,
            trusted=self._options.trusted,
            ask_permission=self._ask,
            listeners=[outbox],
        )
        try:
            session = await host.open(config, resume=resume)
        except transcript.SessionNotFoundError as err:
            raise _failed("sessionNotFound", str(err), resume) from err
        except (OSError, ValidationError) as err:
            message = f"cannot read the saved session {resume!r}: {err}"
            raise _failed("unreadableSession", message, resume) from err
        self._outboxes[session.id] = outbox
        log.info(
            "chat session %s %s (%s/%s)",
            session.id,
            "resumed" if session.resumed else "opened",
            provider.name,
            provider.model,
        )
        return session

    async def send(self, params: Params) -> dict[str, Any]:
        request = parse(ChatSendParams, params, table.CHAT_SEND)
        session = self._session(request.session_id)
        queued = session.busy
        try:
            session.send(request.text)
        except RuntimeError as err:  # closing: the server is shutting down
            raise _failed("sessionNotOpen", str(err), session.id) from err
        return dump(ChatSendResult(queued=queued))

    async def cancel(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCancelParams, params, table.CHAT_CANCEL)
        session = self._session(request.session_id)
        running = session.status == "running"
        session.cancel()
        return dump(ChatCancelResult(cancelled=running))

    async def compact(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCompactParams, params, table.CHAT_COMPACT)
        session = self._session(request.session_id)
        try:
            compacted = await session.compact(request.instructions or "")
        except RuntimeError as err:  # closing: the server is shutting down
            raise _failed("sessionNotOpen", str(err), session.id) from err
        return dump(ChatCompactResult(compacted=compacted))

    async def close(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCloseParams, params, table.CHAT_CLOSE)
        host = await self._host()
        try:
            host.get(request.session_id)
        except KeyError:
            return dump(ChatCloseResult(closed=False))
        await host.close(request.session_id)
        outbox = self._outboxes.pop(request.session_id, None)
        if outbox is not None:
            outbox.flush()  # its last updates (SessionEnd's notices)
        self._always.pop(request.session_id, None)
        log.info("chat session %s closed", request.session_id)
        return dump(ChatCloseResult(closed=True))

    # -- server → client --------------------------------------------------------------------

    def _notify(self, params: dict[str, Any]) -> None:
        self._server.protocol.notify(table.CHAT_UPDATED.name, params)

    async def _ask(self, prompt: PermissionPrompt) -> PermissionAnswer:
        """Ask the user through the client; "always" answers are remembered per session.

        A client that fails to answer, or answers something unreadable, refuses. If the turn is
        cancelled meanwhile, the client is told to drop the question (`$/cancelRequest`).
        """
        always = self._always.setdefault(prompt.session_id, set())
        if prompt.tool_name in always:
            return PermissionAnswer(allow=True)
        params = ChatRequestPermissionParams(
            session_id=prompt.session_id,
            tool_use_id=prompt.tool_use_id,
            tool_name=prompt.tool_name,
            tool_input=prompt.tool_input,
            mode=prompt.permission_mode,
            reason=prompt.reason,
        )
        msg_id = f"permission-{uuid.uuid4()}"
        protocol = self._server.protocol
        future = asyncio.wrap_future(
            protocol.send_request(
                table.CHAT_REQUEST_PERMISSION.name, params.to_wire(), msg_id=msg_id
            )
        )
        try:
            # shielded: a cancelled future would break pygls when the late answer comes in
            raw = await asyncio.shield(future)
        except asyncio.CancelledError:
            protocol.notify(CANCEL_REQUEST, CancelParams(id=msg_id))
            future.add_done_callback(_drop_late_answer)
            raise
        except Exception as err:
            log.warning(
                "%s failed, so the tool is refused: %s", table.CHAT_REQUEST_PERMISSION.name, err
            )
            return PermissionAnswer(allow=False)
        try:
            answer = ChatRequestPermissionResult.model_validate(raw)
        except ValidationError as err:
            log.warning("unreadable answer to %s, so the tool is refused: %s", msg_id, err)
            return PermissionAnswer(allow=False)
        if answer.allow and answer.always:
            always.add(prompt.tool_name)
        return PermissionAnswer(allow=answer.allow, message=answer.message)


def _drop_late_answer(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled() and future.exception() is not None:
        log.debug("withdrawn question: %s", future.exception())
