"""The browser shell: what the VS Code extension and the JetBrains plugin do, for a browser tab.

It starts `wavehost serve` over stdio like the IDEs, relays the page's envelope to it (only the
protocol's methods: the allow-list comes from the method table, `wavehost.protocol.table`), and
does the table's shell-local commands itself: `closeSettings` / `openChat` switch the page to
the chat view, and the server's `window/showDocument` shows the file read-only in the page.

Tabs are isolated by chat session, as the table's `session` roles say: a page attaches to the
sessions it opens, and what the server sends about a session (updates, permission questions)
goes only to the pages attached to it; `wave/hooks/changed` goes to every page. A permission
question is asked of every page attached to its session: the first answer wins and the others
are told to drop it (`$/cancelRequest` under the id each was asked with), as they are when the
server withdraws it. The file `window/showDocument` shows goes only to the page whose
`wave/openConfigFile` for it is in flight.

When the server stops, the pages stay connected and are told (`serverState` running false, with
why); a page's `restartServer` starts a new `wavehost serve` and every page hears `serverState`
running true (or false again, with why it did not start).

A page's messages are handled one at a time in arrival order: a request is written to the server
before the next message is looked at (its answer is awaited separately).
"""

import asyncio
import itertools
import json
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from aiohttp import WSCloseCode, web

from wavehost.hooks.safe_read import decode_lossy, read_bytes
from wavehost.protocol import table
from wavehost.web.lsp_client import (
    INTERNAL_ERROR,
    METHOD_NOT_FOUND,
    LspClient,
    ResponseError,
    ServerExitedError,
)

log = logging.getLogger(__name__)

MAX_VIEWED_FILE = 2 * 1024 * 1024  # the read-only viewer shows config files, not big logs

MAX_IN_FLIGHT = 64  # requests one page may have relayed and not had answered
PAGE_REQUESTS = frozenset(m.name for m in table.page_requests())
PAGE_NOTIFICATIONS = frozenset(m.name for m in table.server_notifications())
PAGE_ANSWERS = frozenset(m.name for m in table.server_requests())


def serve_command() -> list[str]:
    return [sys.executable, "-m", "wavehost", "serve"]


def path_from_uri(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(url2pathname(unquote(parsed.path)))


class Page:
    """One browser tab's WebSocket."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        # Requests relayed and not answered yet: past the cap its socket is not read until one
        # is (TCP pushes back), so a flood from a page cannot grow this process without bound.
        self.in_flight = asyncio.Semaphore(MAX_IN_FLIGHT)
        self._send_lock = asyncio.Lock()
        self.sessions: set[str] = set()  # the chat sessions this page is attached to
        self.opening: list[str] = []  # paths of its wave/openConfigFile requests in flight

    async def send(self, envelope: dict[str, Any]) -> None:
        if self.socket.closed:
            return
        async with self._send_lock:  # one frame at a time, in the order they were produced
            try:
                await self.socket.send_str(json.dumps(envelope, ensure_ascii=False))
            except ConnectionError:
                log.debug("a page went away while sending %s", envelope.get("kind"))

    async def shell(self, command: table.ShellCommand, **args: Any) -> None:
        await self.send({"kind": "shell", "command": command.name, "args": args})


@dataclass
class _Asked:
    """One server→client request, asked of one or more pages (each under its own id)."""

    answer: "asyncio.Future[dict[str, Any]]"
    pages: dict[str, Page] = field(default_factory=dict)  # page-side request id → page
    answered_by: str | None = None


class BrowserShell:
    def __init__(
        self,
        project: Path,
        locale: str,
        command: Sequence[str] | None = None,
        env: dict[str, str] | None = None,
        trusted: bool = True,
    ) -> None:
        self.project = project
        self.locale = locale
        self.trusted = trusted  # False: the project's hooks are listed but never run
        self.pages: list[Page] = []
        self._ids = itertools.count(1)
        self._asked: dict[str, _Asked] = {}  # by page-side request id
        self._tasks: set[asyncio.Task[None]] = set()
        self._command = list(command or serve_command())
        self._env = env
        self._restarting = asyncio.Lock()
        self.lsp = self._client()

    def _client(self) -> LspClient:
        return LspClient(
            self._command,
            self.project,
            self._server_request,
            self._server_notification,
            self._server_exited,
            env=self._env,
        )

    # -- the server side ----------------------------------------------------------------

    async def restart(self) -> None:
        """A new `wavehost serve` if the last one stopped; every page hears how it went."""
        async with self._restarting:  # two tabs clicking Restart start one server
            if self.lsp.exit_reason is not None:
                self.lsp = self._client()
                try:
                    await self.start()
                except (OSError, RuntimeError, ServerExitedError) as err:
                    reason = self.lsp.exit_reason or str(err)
                    log.error("restarting wavehost serve failed: %s", reason)
                    await self.lsp.stop()
                    await self._tell_pages(running=False, reason=reason)
                    return
                log.info("wavehost serve restarted")
            await self._tell_pages(running=True, reason=None)

    async def _tell_pages(self, *, running: bool, reason: str | None) -> None:
        for page in list(self.pages):
            await page.shell(table.SERVER_STATE, running=running, reason=reason)

    async def start(self) -> None:
        await self.lsp.start()
        uri = self.project.as_uri()
        response = await self.lsp.request(
            "initialize",
            {
                "processId": os.getpid(),
                "clientInfo": {"name": "wavehost web"},
                "locale": self.locale,
                "rootUri": uri,
                "workspaceFolders": [{"uri": uri, "name": self.project.name}],
                "capabilities": {
                    "window": {"showDocument": {"support": True}},
                    "workspace": {"workspaceFolders": True},
                },
                "initializationOptions": {
                    "projectDir": str(self.project),
                    "locale": self.locale,
                    "trusted": self.trusted,
                },
            },
        )
        if "error" in response:
            raise RuntimeError(f"wavehost serve refused to start: {response['error']}")
        await self.lsp.notify("initialized", {})

    async def stop(self) -> None:
        for page in list(self.pages):
            await page.socket.close(code=WSCloseCode.GOING_AWAY, message=b"wavehost web stopped")
        await self.lsp.stop()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _pages_for(self, method: table.Method, params: Any) -> list[Page]:
        """The pages a server→client message goes to: those attached to its session, or all."""
        if method.session != "scoped":
            return list(self.pages)
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        return [page for page in self.pages if session_id in page.sessions]

    def _server_notification(self, method: str, params: Any) -> None:
        if method in PAGE_NOTIFICATIONS:
            envelope = {"kind": "notification", "method": method, "params": params or {}}
            for page in self._pages_for(table.BY_NAME[method], params):
                self._spawn(page.send(envelope))
        elif method == "window/logMessage" and isinstance(params, dict):
            log.info("server: %s", params.get("message"))

    async def _server_request(self, method: str, params: Any) -> Any:
        if method == "window/showDocument":
            return await self._show_document(params)
        if method in PAGE_ANSWERS:
            return await self._ask_page(method, params)
        if method in ("window/workDoneProgress/create", "client/registerCapability"):
            return None
        if method == "workspace/configuration":
            items = params.get("items", []) if isinstance(params, dict) else []
            return [None for _ in items]
        raise ResponseError(METHOD_NOT_FOUND, f"wavehost web does not handle {method}")

    async def _show_document(self, params: Any) -> dict[str, bool]:
        uri = params.get("uri", "") if isinstance(params, dict) else ""
        path = path_from_uri(uri)
        # Only the page that asked to open it (the file may be private to that page's user).
        asker = next((p for p in self.pages if path is not None and str(path) in p.opening), None)
        if path is None or asker is None:
            return {"success": False}
        try:  # bounded, regular files only: the viewer shows config files, not /dev/zero
            data, _ = await asyncio.to_thread(read_bytes, path, limit=MAX_VIEWED_FILE)
            content = decode_lossy(data)
        except OSError as err:
            log.warning("cannot show %s: %s", path, err)
            return {"success": False}
        # Delivered before the answer, so the page has the file before its request returns.
        selection = params.get("selection") if isinstance(params, dict) else None
        start = selection.get("start") if isinstance(selection, dict) else None
        row = start.get("line") if isinstance(start, dict) else None
        line = row + 1 if isinstance(row, int) and row >= 0 else None
        await asker.shell(table.SHOW_FILE, path=str(path), content=content, line=line)
        return {"success": True}

    async def _ask_page(self, method: str, params: Any) -> Any:
        """Ask every page attached to the request's session; the first answer is the answer."""
        pages = self._pages_for(table.BY_NAME[method], params)
        if not pages:
            raise ResponseError(INTERNAL_ERROR, "no page of this session is open to answer")
        asked = _Asked(asyncio.get_running_loop().create_future())
        for page in pages:
            request_id = f"srv-{next(self._ids)}"
            asked.pages[request_id] = page
            self._asked[request_id] = asked
        try:
            for request_id, page in list(asked.pages.items()):
                envelope = {"kind": "request", "id": request_id, "method": method}
                await page.send({**envelope, "params": params})
            answer = await asked.answer
        finally:  # answered, withdrawn by the server, or the server went away
            for request_id, page in asked.pages.items():
                self._asked.pop(request_id, None)
                if request_id != asked.answered_by:
                    self._spawn(page.send(_withdrawn(request_id)))
        if "error" in answer and isinstance(answer["error"], dict):
            error = answer["error"]
            raise ResponseError(
                int(error.get("code", INTERNAL_ERROR)),
                str(error.get("message", "")),
                error.get("data"),
            )
        return answer.get("result")

    def _page_answered(self, page: Page, envelope: dict[str, Any]) -> None:
        request_id = str(envelope.get("id"))
        asked = self._asked.get(request_id)
        if asked is None or asked.pages.get(request_id) is not page or asked.answer.done():
            return
        if "error" in envelope:  # this page cannot answer: the others still may
            self._give_up(asked, request_id, envelope)
            return
        asked.answered_by = request_id
        asked.answer.set_result(envelope)

    def _give_up(self, asked: _Asked, request_id: str, envelope: dict[str, Any]) -> None:
        del asked.pages[request_id]
        self._asked.pop(request_id, None)
        if not asked.pages and not asked.answer.done():
            asked.answer.set_result(envelope)

    def _server_exited(self, reason: str) -> None:
        if self.lsp.stopping:
            log.info("%s", reason)
        else:
            log.error("%s", reason)
        for asked in self._asked.values():
            if not asked.answer.done():
                asked.answer.set_exception(ServerExitedError(reason))
        # The pages stay: they say so and offer Restart (a failed restart reports itself).
        if not self._restarting.locked():
            self._spawn(self._tell_pages(running=False, reason=reason))

    # -- the page side --------------------------------------------------------------------

    async def attach(self, page: Page) -> None:
        """Serves one page until its socket closes."""
        self.pages.append(page)
        if self.lsp.exit_reason is not None:
            await page.shell(table.SERVER_STATE, running=False, reason=self.lsp.exit_reason)
        try:
            async for frame in page.socket:
                if frame.type != web.WSMsgType.TEXT:
                    continue
                try:
                    envelope = json.loads(frame.data)
                except json.JSONDecodeError:
                    log.warning("a page sent something that is not JSON")
                    continue
                if isinstance(envelope, dict):
                    await self._from_page(page, envelope)
        finally:
            self.pages.remove(page)
            # A question only this page could answer gets an answer now, not never.
            error = {"error": {"code": INTERNAL_ERROR, "message": "the page was closed"}}
            for request_id, asked in list(self._asked.items()):
                if asked.pages.get(request_id) is page:
                    self._give_up(asked, request_id, error)

    async def _from_page(self, page: Page, envelope: dict[str, Any]) -> None:
        kind = envelope.get("kind")
        if kind == "request":
            await self._relay(page, envelope)
        elif kind == "response":
            self._page_answered(page, envelope)
        elif kind == "shell":
            args = envelope.get("args") if isinstance(envelope.get("args"), dict) else {}
            await self._shell_command(page, str(envelope.get("command")), args or {})

    async def _relay(self, page: Page, envelope: dict[str, Any]) -> None:
        request_id, method = envelope.get("id"), str(envelope.get("method"))
        if method not in PAGE_REQUESTS:
            error = {"code": METHOD_NOT_FOUND, "message": f"{method} is not a wavehost method"}
            await page.send({"kind": "response", "id": request_id, "error": error})
            return
        await page.in_flight.acquire()  # released once it is answered
        relayed = False
        try:
            relayed = await self._relay_one(page, envelope, request_id, method)
        finally:
            if not relayed:  # answered (or failed) here: no answer will release it
                page.in_flight.release()

    async def _relay_one(
        self, page: Page, envelope: dict[str, Any], request_id: Any, method: str
    ) -> bool:
        """True when the server's answer is awaited in the background (it releases the slot)."""
        row = table.BY_NAME[method]
        params = envelope.get("params") or {}
        session_id = params.get("sessionId") if isinstance(params, dict) else None
        if row.session == "opens" and isinstance(session_id, str):
            page.sessions.add(session_id)  # its updates from now on: the snapshot replaces them
        opening = params.get("path") if row is table.OPEN_CONFIG_FILE else None
        if isinstance(opening, str):
            page.opening.append(opening)
        try:
            answer = await self.lsp.send_request(method, params)
        except ServerExitedError as err:
            error = {"code": INTERNAL_ERROR, "message": str(err)}
            await page.send({"kind": "response", "id": request_id, "error": error})
            return False

        async def respond() -> None:
            try:
                message = await answer
            except ServerExitedError as err:
                message = {"error": {"code": INTERNAL_ERROR, "message": str(err)}}
            finally:
                page.in_flight.release()
                if isinstance(opening, str):
                    page.opening.remove(opening)
            response: dict[str, Any] = {"kind": "response", "id": request_id}
            if "error" in message:
                response["error"] = message["error"]
            else:
                response["result"] = message.get("result")
                self._attachments(page, row, params, response["result"])
            await page.send(response)

        self._spawn(respond())
        return True

    def _attachments(self, page: Page, row: table.Method, params: Any, result: Any) -> None:
        """Which pages a session's messages go to, as the table's session roles say."""
        if row.session == "opens" and isinstance(result, dict):
            opened = result.get("sessionId")
            if isinstance(opened, str):
                page.sessions.add(opened)
        elif row.session == "closes" and isinstance(params, dict):
            for other in self.pages:
                other.sessions.discard(params.get("sessionId"))

    async def _shell_command(self, page: Page, command: str, args: dict[str, Any]) -> None:
        if command == table.CLOSE_SETTINGS.name:
            await page.shell(table.SHOW_VIEW, view="chat", hookId=None)
        elif command == table.OPEN_CHAT.name:
            await page.shell(table.SHOW_VIEW, view="chat", hookId=None)
            prefill = args.get("prefill")
            if isinstance(prefill, str):
                await page.shell(table.PREFILL, text=prefill)
        elif command == table.OPEN_SETTINGS.name:
            hook_id = args.get("hookId")  # a chat's "Show in settings": the row to show
            shown = hook_id if isinstance(hook_id, str) and hook_id else None
            await page.shell(table.SHOW_VIEW, view="settings", hookId=shown)
        elif command == table.RESTART_SERVER.name:
            self._spawn(self.restart())  # the page's other messages go on meanwhile
        elif command != table.READY.name:
            log.warning("unknown shell command from the page: %s", command)


def _withdrawn(request_id: str) -> dict[str, Any]:
    params = {"id": request_id}
    return {"kind": "notification", "method": table.CANCEL_REQUEST.name, "params": params}
