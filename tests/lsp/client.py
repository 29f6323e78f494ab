"""The real server as a subprocess, driven by pytest-lsp's client."""

import asyncio
import copy
import json
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import IO, Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, log_message, register_lsp_features

from tests.hook_rows import filled
from tests.hooks_doc import hooks_doc
from tests.workspace import Workspace
from wavehost.lsp.converter import raw_converter
from wavehost.protocol import table
from wavehost.protocol.chat import ChatUpdatedParams

SERVER = [sys.executable, "-m", "wavehost", "serve", "--log-level", "INFO"]
TIMEOUT = 90  # seconds; generous: a loaded 2-core machine takes 10-15 s to import wavehost


def frame(message: dict[str, Any]) -> bytes:
    """One LSP message, framed for a server's stdin."""
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def read_frame(stdout: IO[bytes]) -> dict[str, Any] | None:
    """One LSP message from the stream (None at its end); anything else fails the test."""
    fields = {}
    while (line := stdout.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(": ")
        assert name in ("Content-Length", "Content-Type"), f"stray bytes on stdout: {line!r}"
        fields[name] = value
    if not fields:
        assert line == b"", f"stray bytes on stdout: {line!r}"
        return None
    message: dict[str, Any] = json.loads(stdout.read(int(fields["Content-Length"])))
    return message


@dataclass
class ChatView:
    """One session as a chat panel sees it: `wave/chat/updated` deltas applied in order."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    status: str = "idle"
    queued: int = 0
    running_hooks: list[str] = field(default_factory=list)
    live_hooks: dict[str, Any] = field(default_factory=lambda: {"hooks": [], "more": 0})
    queued_texts: list[str] = field(default_factory=list)
    queue: list[dict[str, Any]] = field(default_factory=list)  # {id, text}, oldest first
    held: bool = False  # Stop held the queue
    questions: list[dict[str, Any]] = field(default_factory=list)  # pending permission questions
    asked: list[dict[str, Any]] = field(default_factory=list)  # the model's pending questions
    turns: int = 0  # running → idle transitions seen
    notifications: list[dict[str, Any]] = field(default_factory=list)

    def apply(self, update: dict[str, Any]) -> None:
        ChatUpdatedParams.model_validate(update)  # the server writes what the schema says
        self.notifications.append(update)
        for delta in update["deltas"]:
            index, op = delta["index"], delta["op"]
            if op == "remove":
                assert self.messages[index]["id"] == delta["messageId"]
                del self.messages[index]
            elif op == "put" and index == len(self.messages):  # copies: text ops change them
                self.messages.append(copy.deepcopy(delta["message"]))
            elif op == "put":
                self.messages[index] = copy.deepcopy(delta["message"])
            elif op == "block":
                blocks = self.messages[index]["blocks"]
                assert delta["block"] <= len(blocks)
                blocks[delta["block"] : delta["block"] + 1] = [copy.deepcopy(delta["value"])]
            else:
                assert op == "text", delta
                block = self.messages[index]["blocks"][delta["block"]]
                assert block["type"] == "text"
                block["text"] += delta["text"]
        if update["status"] is not None:  # null: unchanged
            if self.status == "running" and update["status"] == "idle":
                self.turns += 1
            self.status = update["status"]
        if update["queued"] is not None:
            self.queued, self.queued_texts = update["queued"], update["queuedTexts"]
            self.queue, self.held = update["queuedMessages"], update["queueHeld"]
        if update["runningHooks"] is not None:
            self.running_hooks = update["runningHooks"]
        if update["liveHooks"] is not None:
            self.live_hooks = update["liveHooks"]
        if update["pendingPermissions"] is not None:
            self.questions = update["pendingPermissions"]
            self.asked = update["pendingQuestions"]

    def blocks(self, kind: str) -> list[dict[str, Any]]:
        return [
            b for m in self.messages if m["role"] == "assistant" for b in m["blocks"]
            if b["type"] == kind
        ]  # fmt: skip


async def _held(params: Any, withdrawn: list[dict[str, Any]]) -> None:
    """A request left unanswered until the server cancels it ($/cancelRequest)."""
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        withdrawn.append(params)
        raise


class HostClient(LanguageClient):
    """pytest-lsp's client, seeing custom results as plain dicts, collecting hooks/changed, and
    answering window/showDocument with `show_documents` (like an IDE that can or cannot)."""

    def __init__(self) -> None:
        super().__init__(converter_factory=raw_converter)
        features = dict(DEFAULT_CLIENT_FEATURES)
        del features[types.WINDOW_SHOW_DOCUMENT], features[types.WINDOW_LOG_MESSAGE]
        register_lsp_features(self, features)
        self.changes: asyncio.Queue[Any] = asyncio.Queue()
        self.show_documents = True
        self.watch_started = asyncio.Event()
        self.chats: dict[str, ChatView] = {}
        self._chat_changed = asyncio.Condition()
        # answers to wave/chat/requestPermission, in order; the questions are kept
        self.permission_answers: list[Any] = []
        self.permission_requests: list[dict[str, Any]] = []
        self.permission_withdrawn: list[dict[str, Any]] = []  # questions the server took back
        self.permission_asked = asyncio.Event()
        # answers to wave/chat/askQuestion ({answers}; None: held unanswered until withdrawn),
        # in order; the questions are kept
        self.question_answers: list[Any] = []
        self.question_requests: list[dict[str, Any]] = []
        self.question_withdrawn: list[dict[str, Any]] = []

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            log_message(self, params)
            if "for hook config changes" in params.message:
                self.watch_started.set()

        @self.feature(table.HOOKS_CHANGED.name)
        def changed(params: Any) -> None:
            self.changes.put_nowait(params)

        self.mcp_changes = 0  # wave/mcp/changed notifications so far

        @self.feature(table.MCP_CHANGED.name)
        def mcp_changed(params: Any) -> None:
            self.mcp_changes += 1

        @self.feature(types.WINDOW_SHOW_DOCUMENT)
        def show_document(params: types.ShowDocumentParams) -> types.ShowDocumentResult:
            self.shown_documents.append(params)
            return types.ShowDocumentResult(success=self.show_documents)

        @self.feature(table.CHAT_UPDATED.name)
        async def chat_updated(params: Any) -> None:
            self.chats.setdefault(params["sessionId"], ChatView()).apply(params)
            async with self._chat_changed:
                self._chat_changed.notify_all()

        @self.feature(table.CHAT_REQUEST_PERMISSION.name)
        async def request_permission(params: Any) -> Any:
            self.permission_requests.append(params)
            self.permission_asked.set()
            answer = self.permission_answers.pop(0) if self.permission_answers else None
            if answer is None:
                await _held(params, self.permission_withdrawn)
            return answer

        @self.feature(table.CHAT_ASK_QUESTION.name)
        async def ask_question(params: Any) -> Any:
            self.question_requests.append(params)
            answer = self.question_answers.pop(0) if self.question_answers else {"answers": {}}
            if answer is None:
                await _held(params, self.question_withdrawn)
            return answer

    def chat(self, session_id: str) -> ChatView:
        return self.chats.setdefault(session_id, ChatView())

    async def chat_until(
        self, session_id: str, condition: Callable[[ChatView], bool], limit: float = TIMEOUT
    ) -> ChatView:
        """Wait until the session's view (as built from its updates) satisfies `condition`."""
        view = self.chat(session_id)
        async with asyncio.timeout(limit), self._chat_changed:
            await self._chat_changed.wait_for(lambda: condition(view))
        return view

    async def open_chat(self, **params: Any) -> dict[str, Any]:
        result: dict[str, Any] = await self.call(table.CHAT_OPEN.name, params)
        view = self.chat(result["sessionId"])
        view.messages = copy.deepcopy(result["messages"])  # deltas change them in place
        view.status, view.queued = result["status"], result["queued"]
        view.queued_texts, view.questions = result["queuedTexts"], result["pendingPermissions"]
        view.asked = result["pendingQuestions"]
        view.live_hooks = result["liveHooks"]
        view.queue, view.held = result["queuedMessages"], result["queueHeld"]
        return result

    async def send_chat(self, session_id: str, text: str) -> dict[str, Any]:
        result: dict[str, Any] = await self.call(
            table.CHAT_SEND.name, {"sessionId": session_id, "text": text}
        )
        return result

    async def turn(self, session_id: str, text: str) -> ChatView:
        """Send a prompt and wait until its turn is over."""
        done = self.chat(session_id).turns + 1
        await self.send_chat(session_id, text)
        return await self.chat_until(session_id, lambda v: v.turns >= done and v.queued == 0)

    async def call(self, method: str, params: Any = None) -> Any:
        return await self.protocol.send_request_async(method, {} if params is None else params)

    async def watching(self) -> None:
        """Wait until the server has started watching the config (it logs it)."""
        await asyncio.wait_for(self.watch_started.wait(), 10)

    async def list_hooks(self) -> dict[str, Any]:
        """The list with its rows filled in from their files, as the page reads it (the wire's
        own compact rows: `list_hooks_raw`)."""
        return filled(await self.list_hooks_raw())

    async def list_hooks_raw(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call(table.HOOKS_LIST.name)
        return result


def as_user(uid: int, gid: int) -> list[str]:
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]


@asynccontextmanager
async def running_server(
    workspace: Workspace,
    *,
    trusted: bool | None = True,
    options: dict[str, Any] | None = None,
    capabilities: types.ClientCapabilities | None = None,
    prefix: list[str] | None = None,
    env: dict[str, str] | None = None,
    **initialize: Any,
) -> AsyncIterator[HostClient]:
    """Start `wavehost serve` with HOME set to the workspace's (and `env`), and initialize it,
    saying the workspace is trusted as a trusted workspace's shell does (None: saying nothing)."""
    said: dict[str, Any] = {"projectDir": str(workspace.project)}
    if trusted is not None:
        said["trusted"] = trusted
    config = ClientServerConfig(
        server_command=[*(prefix or []), *SERVER],
        server_env={**os.environ, "HOME": str(workspace.home), **(env or {})},
        client_factory=HostClient,
    )
    client = await config.start()
    assert isinstance(client, HostClient)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities("visual-studio-code"),
            initialization_options={**said, **(options or {})},
            **initialize,
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


def script(workspace: Workspace, *turns: dict[str, Any]) -> None:
    """Make the scripted provider the default, replaying these model turns."""
    path = workspace.write(workspace.root / "script.json", {"turns": list(turns)})
    workspace.write(workspace.user_settings, {"provider": "scripted", "script": str(path)})


def reply(text: str = "", *calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """One model turn of the script: text, then tool calls."""
    return {"text": text, "tool_calls": [{"name": n, "input": i} for n, i in calls]}


def project_hooks(
    workspace: Workspace, event: str, *commands: str, matcher: str | None = None
) -> None:
    """The project's settings file holding these hooks for `event` (and nothing else)."""
    workspace.write(workspace.project_settings, hooks_doc(event, *commands, matcher=matcher))
