"""The chat feature: the `wave/chat/*` methods, a thin layer over the session registry.

Sessions live in the registry's task group, entered for the server's lifetime; they use the
workspace's project, trust and programmatic hooks (as they are when the session opens), and end
(SessionEnd) on `wave/chat/close` or at LSP `shutdown`. What a session reports goes to the client
as `wave/chat/updated`; a permission question goes to the client as the
`wave/chat/requestPermission` request and is session state meanwhile: listed in the snapshot and
in every update, answerable with `wave/chat/answerPermission`, withdrawn with `$/cancelRequest`.
A question of the model's (AskUserQuestion) or a hook's prompt action is the same: the
`wave/chat/askQuestion` request, listed as `pendingQuestions`, answerable with
`wave/chat/answerQuestion` (a page that re-attached after a reload answers it so).

Opening is by id and idempotent: concurrent opens of one id share one opening, and an opening
finishes even when the request that started it is cancelled (the page timed out): asking again
with the same id attaches to that session instead of leaving it orphaned.

Imported on first use, like the settings feature: it pulls in the session runtime.
"""

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from anyio import to_thread

from wavehost.lsp.edge import Params, RequestFailedError, dump, handlers_for, parse, spawn
from wavehost.lsp.outbox import Outbox
from wavehost.lsp.workspace import WorkspaceOptions
from wavehost.protocol import table
from wavehost.protocol.chat import (
    ChatAnswerPermissionParams,
    ChatAnswerPermissionResult,
    ChatAnswerQuestionParams,
    ChatAnswerQuestionResult,
    ChatAskQuestionParams,
    ChatAskQuestionResult,
    ChatCancelHookParams,
    ChatCancelHookResult,
    ChatCancelParams,
    ChatCancelResult,
    ChatCloseParams,
    ChatCloseResult,
    ChatCompactParams,
    ChatCompactResult,
    ChatErrorData,
    ChatOpenParams,
    ChatOpenResult,
    ChatRemoveQueuedParams,
    ChatRemoveQueuedResult,
    ChatRequestPermissionParams,
    ChatRequestPermissionResult,
    ChatSendParams,
    ChatSendQueuedParams,
    ChatSendQueuedResult,
    ChatSendResult,
    LiveHooks,
    QueuedMessage,
)
from wavehost.session import transcript
from wavehost.session.chat_session import ChatSession, SessionConfig
from wavehost.session.mcp import McpConnection, ServerState
from wavehost.session.permissions import PermissionAnswer, PermissionPrompt
from wavehost.session.providers import ProviderError, chat_settings, choose, make_provider
from wavehost.session.registry import SessionRegistry
from wavehost.session.tools.ask import QuestionPrompt

if TYPE_CHECKING:
    from wavehost.lsp.server import WaveServer

log = logging.getLogger(__name__)


def _failed(reason: Any, message: str, session_id: str | None = None) -> RequestFailedError:
    return RequestFailedError(
        message, ChatErrorData(reason=reason, session_id=session_id, message=message)
    )


class ChatFeature:
    def __init__(self, server: "WaveServer", options: WorkspaceOptions) -> None:
        self._server = server
        self._options = options
        self._outboxes: dict[str, Outbox] = {}
        self._registry = SessionRegistry()
        self._opening: dict[str, asyncio.Future[ChatSession]] = {}  # by the id asked for
        self._ready = asyncio.Event()
        self._stopping = asyncio.Event()
        self._holder: asyncio.Task[None] | None = None
        self.handlers = handlers_for(
            "chat",
            {
                table.CHAT_OPEN: self.open,
                table.CHAT_SEND: self.send,
                table.CHAT_CANCEL: self.cancel,
                table.CHAT_CANCEL_HOOK: self.cancel_hook,
                table.CHAT_REMOVE_QUEUED: self.remove_queued,
                table.CHAT_SEND_QUEUED: self.send_queued,
                table.CHAT_COMPACT: self.compact,
                table.CHAT_CLOSE: self.close,
                table.CHAT_ANSWER_PERMISSION: self.answer_permission,
                table.CHAT_ANSWER_QUESTION: self.answer_question,
            },
        )

    async def _hold(self) -> None:
        async with self._registry:
            self._ready.set()
            await self._stopping.wait()
            await self._registry.close_all()

    async def _sessions(self) -> SessionRegistry:
        await self._ready.wait()
        return self._registry

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
        if session_id in self._registry:
            return self._registry.get(session_id)
        raise _failed(
            "sessionNotOpen",
            f"no open chat session {session_id!r}: open it with {table.CHAT_OPEN.name} first",
            session_id,
        )

    # -- methods ----------------------------------------------------------------------------

    async def open(self, params: Params) -> dict[str, Any]:
        request = parse(ChatOpenParams, params, table.CHAT_OPEN)
        sessions = await self._sessions()
        wanted = request.session_id
        if wanted is None:
            session = await self._start(sessions, request)
        elif wanted in sessions and not sessions.is_closing(wanted):
            session = sessions.get(wanted)
        else:
            opening = self._opening.get(wanted)
            if opening is None:  # the first to ask opens it; whoever asks meanwhile waits for it
                opening = asyncio.ensure_future(self._reopen(sessions, request, wanted))
                self._opening[wanted] = opening
                opening.add_done_callback(lambda done: self._opened(wanted, done))
            # Shielded: a cancelled request (the page timed out) must not abort the opening.
            session = await asyncio.shield(opening)
        outbox = self._outboxes.get(session.id)
        if outbox is not None:
            outbox.flush()  # every delta before the snapshot goes out before it
        return dump(self._snapshot(session))

    def _opened(self, session_id: str, done: "asyncio.Future[ChatSession]") -> None:
        self._opening.pop(session_id, None)
        if not done.cancelled():
            done.exception()  # retrieved: whoever still waits sees it too

    @staticmethod
    def _snapshot(session: ChatSession) -> ChatOpenResult:
        return ChatOpenResult(
            session_id=session.id,
            transcript_path=str(session.transcript_path),
            status=session.status,
            queued=session.queued,
            queued_texts=list(session.queued_texts),
            queued_messages=[QueuedMessage(id=q.id, text=q.text) for q in session.queue],
            queue_held=session.queue_held,
            running_hooks=list(session.running_hooks),
            live_hooks=LiveHooks.of(session.live_hooks),
            pending_permissions=[
                ChatRequestPermissionParams.of(q) for q in session.pending_questions
            ],
            pending_questions=[ChatAskQuestionParams.of(q) for q in session.pending_asks],
            permission_mode=session.permission_mode,
            provider=session.provider.name,
            model=session.provider.model,
            messages=list(session.messages),
        )

    async def _reopen(
        self, sessions: SessionRegistry, request: ChatOpenParams, session_id: str
    ) -> ChatSession:
        """A session asked for by id: one still ending in the background (a New chat closed it)
        ends first — attaching to it would hand the page a session about to go — then it is
        resumed from its transcript."""
        await sessions.wait_closed(session_id)
        return await self._start(sessions, request)

    async def _start(self, sessions: SessionRegistry, request: ChatOpenParams) -> ChatSession:
        root = self._options.project_dir
        wanted = request.session_id
        trusted = self._options.trust.trusted  # as it is now: the session keeps it
        resume = wanted
        if wanted is not None and request.create:
            saved = await to_thread.run_sync(transcript.exists, wanted)
            resume = wanted if saved else None
        try:
            choice = await to_thread.run_sync(
                lambda: choose(
                    request.provider,
                    request.model,
                    None,
                    chat_settings(root, trusted=trusted),
                )
            )
            provider = await to_thread.run_sync(make_provider, choice)
        except ProviderError as err:
            raise _failed("noProvider", str(err), wanted) from err
        outbox = Outbox(self._notify)
        config = SessionConfig(
            root=root,
            provider=provider,
            permission_mode=request.permission_mode or "default",
            hooks=self._options.hooks,
            trusted=trusted,
            ask_permission=self._ask,
            ask_question=self._ask_question,
            listeners=[outbox],
        )
        try:
            session = await sessions.open(config, resume=resume, session_id=wanted)
        except transcript.SessionNotFoundError as err:
            raise _failed("sessionNotFound", str(err), wanted) from err
        except transcript.UnreadableSessionError as err:
            raise _failed("unreadableSession", str(err), wanted) from err
        self._outboxes[session.id] = outbox
        session.mcp.listeners.append(self._mcp_changed)
        if session.mcp.connections:
            self._mcp_changed(next(iter(session.mcp.connections.values())))  # now starting
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
        except RuntimeError as err:  # closing
            raise _failed("sessionNotOpen", str(err), session.id) from err
        return dump(ChatSendResult(queued=queued))

    async def cancel(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCancelParams, params, table.CHAT_CANCEL)
        session = self._session(request.session_id)
        running = session.status == "running"
        session.cancel()
        return dump(ChatCancelResult(cancelled=running))

    async def cancel_hook(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCancelHookParams, params, table.CHAT_CANCEL_HOOK)
        session = self._session(request.session_id)
        return dump(ChatCancelHookResult(cancelled=session.cancel_hook(request.hook_run_id)))

    async def remove_queued(self, params: Params) -> dict[str, Any]:
        request = parse(ChatRemoveQueuedParams, params, table.CHAT_REMOVE_QUEUED)
        session = self._session(request.session_id)
        return dump(ChatRemoveQueuedResult(removed=session.remove_queued(request.id)))

    async def send_queued(self, params: Params) -> dict[str, Any]:
        request = parse(ChatSendQueuedParams, params, table.CHAT_SEND_QUEUED)
        session = self._session(request.session_id)
        return dump(ChatSendQueuedResult(sent=session.send_queued()))

    async def compact(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCompactParams, params, table.CHAT_COMPACT)
        session = self._session(request.session_id)
        try:
            compacted = await session.compact(request.instructions or "")
        except RuntimeError as err:  # closing
            raise _failed("sessionNotOpen", str(err), session.id) from err
        return dump(ChatCompactResult(compacted=compacted))

    async def close(self, params: Params) -> dict[str, Any]:
        request = parse(ChatCloseParams, params, table.CHAT_CLOSE)
        sessions = await self._sessions()
        if request.session_id not in sessions:
            return dump(ChatCloseResult(closed=False))
        if request.reason is not None:
            sessions.get(request.session_id).end_reason = request.reason
        # A New chat (`clear`) answers at once: the end hooks run in the background (seed 002).
        background = request.reason == "clear"
        await sessions.close(request.session_id, wait=not background)
        outbox = self._outboxes.pop(request.session_id, None)
        if outbox is not None:
            outbox.flush()  # its last updates (SessionEnd's notices), unless it ends meanwhile
        log.info("chat session %s %s", request.session_id, "closing" if background else "closed")
        return dump(ChatCloseResult(closed=True))

    async def answer_permission(self, params: Params) -> dict[str, Any]:
        request = parse(ChatAnswerPermissionParams, params, table.CHAT_ANSWER_PERMISSION)
        session = self._session(request.session_id)
        answer = PermissionAnswer(allow=request.allow, message=request.message)
        if request.allow and request.always:
            answer = PermissionAnswer(allow=True, always=True)
        answered = session.answer_permission(request.tool_use_id, answer)
        return dump(ChatAnswerPermissionResult(answered=answered))

    async def answer_question(self, params: Params) -> dict[str, Any]:
        request = parse(ChatAnswerQuestionParams, params, table.CHAT_ANSWER_QUESTION)
        session = self._session(request.session_id)
        answered = session.answer_question(request.question_id, request.answers or None)
        return dump(ChatAnswerQuestionResult(answered=answered))

    def mcp_states(self) -> dict[str, ServerState]:
        """Where the MCP servers of the newest open session are (the settings page's list)."""
        sessions = self._registry.open_sessions()
        return {s.config.name: s for s in sessions[-1].mcp.states()} if sessions else {}

    # -- server → client --------------------------------------------------------------------

    def _mcp_changed(self, connection: McpConnection) -> None:
        self._server.pages.notify(table.MCP_CHANGED, {})

    def _notify(self, params: dict[str, Any]) -> None:
        self._server.pages.notify(table.CHAT_UPDATED, params)

    async def _ask(self, prompt: PermissionPrompt) -> PermissionAnswer:
        """Ask the session's pages. If the question is answered elsewhere or withdrawn meanwhile
        (this call is cancelled), they are told to drop it (`$/cancelRequest`). No page, a failed
        or an unreadable answer raises: the question stays open in the session."""
        raw = await self._server.pages.ask(
            table.CHAT_REQUEST_PERMISSION,
            ChatRequestPermissionParams.of(prompt).to_wire(),
            f"permission-{uuid.uuid4()}",
        )
        answer = ChatRequestPermissionResult.model_validate(raw)
        return PermissionAnswer(
            allow=answer.allow, message=answer.message, always=answer.allow and answer.always
        )

    async def _ask_question(self, prompt: QuestionPrompt) -> dict[str, str] | None:
        """Ask the session's pages the model's questions (or a hook's prompt); None if
        dismissed. No page, a failed or an unreadable answer raises: the question stays open."""
        raw = await self._server.pages.ask(
            table.CHAT_ASK_QUESTION,
            ChatAskQuestionParams.of(prompt).to_wire(),
            prompt.question_id,
        )
        return ChatAskQuestionResult.model_validate(raw).answers or None
