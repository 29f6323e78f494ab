"""The browser shell: what the VS Code extension and the JetBrains plugin do, for a browser tab.

It starts `wavehost serve` over stdio like the IDEs, relays the page's envelope to it (only the
protocol's methods: the allow-list comes from the method table, `wavehost.protocol.table`), and
does the table's shell-local commands itself: `closeSettings` / `openChat` switch the page to
the chat view, and the server's `window/showDocument` shows the file read-only in the page.

Tabs share one server and are told apart by a page id: every request a tab sends goes to the
server with its `pageId`, and what the server sends goes to the tabs it names (`pageIds`), or to
every tab when it names none. Which tab shows which chat session is the server's to decide
(`wavehost.lsp.pages`); this shell keeps no session state. A server→client request (a permission
question) names one tab: it is asked there under an id of the shell's, withdrawn from it when the
server withdraws it (`$/cancelRequest`), and answered with an error when the tab is gone. A tab
that closes is reported to the server (`wave/page/closed`). The file `window/showDocument` shows
goes to the tab it names (the one whose `wave/openConfigFile` asked).

When the server stops, the pages stay connected and are told (`serverState` running false, with
why); a page's `restartServer` starts a new `wavehost serve` and every page hears `serverState`
running true (or false again, with why it did not start).

A page's messages are handled one at a time in arrival order: a request is written to the server
before the next message is looked at (its answer is awaited separately).
"""

import asyncio
import contextlib
import itertools
import json
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
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

    _ids = itertools.count(1)

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.id = f"tab-{next(Page._ids)}"  # what the server calls it (table.PAGE_ID)
        # Requests relayed and not answered yet: past the cap its socket is not read until one
        # is (TCP pushes back), so a flood from a page cannot grow this process without bound.
        self.in_flight = asyncio.Semaphore(MAX_IN_FLIGHT)
        self._send_lock = asyncio.Lock()

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
    """One server→client request, asked of one page under an id of the shell's."""

    page: Page
    answer: "asyncio.Future[dict[str, Any]]"
    server_id: Any  # the id the server asked under
    withdrawn: bool = False  # the page was told the server withdrew it


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
        self.pages: dict[str, Page] = {}  # by page id
        self._ids = itertools.count(1)
        self._asked: dict[str, _Asked] = {}  # by the id the page was asked under
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
            on_withdrawn=self._server_withdrew,
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
        for page in list(self.pages.values()):
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
        for page in list(self.pages.values()):
            await page.socket.close(code=WSCloseCode.GOING_AWAY, message=b"wavehost web stopped")
        await self.lsp.stop()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _addressed(self, params: Any) -> tuple[list[Page], Any]:
        """The pages a server→client message names (`pageIds`; none: every page), and its params
        as the pages get them (without the names)."""
        if not isinstance(params, dict) or table.PAGE_IDS not in params:
            return list(self.pages.values()), params
        params = dict(params)
        named = params.pop(table.PAGE_IDS)
        ids = named if isinstance(named, list) else []
        return [self.pages[i] for i in ids if isinstance(i, str) and i in self.pages], params

    def _server_notification(self, method: str, params: Any) -> None:
        if method in PAGE_NOTIFICATIONS:
            pages, params = self._addressed(params)
            envelope = {"kind": "notification", "method": method, "params": params or {}}
            for page in pages:
                self._spawn(page.send(envelope))
        elif method == "window/logMessage" and isinstance(params, dict):
            log.info("server: %s", params.get("message"))

    async def _server_request(self, method: str, params: Any, server_id: Any) -> Any:
        if method == "window/showDocument":
            return await self._show_document(params)
        if method in PAGE_ANSWERS:
            return await self._ask_page(method, params, server_id)
        if method in ("window/workDoneProgress/create", "client/registerCapability"):
            return None
        if method == "workspace/configuration":
            items = params.get("items", []) if isinstance(params, dict) else []
            return [None for _ in items]
        raise ResponseError(METHOD_NOT_FOUND, f"wavehost web does not handle {method}")

    async def _show_document(self, params: Any) -> dict[str, bool]:
        # Only to the page the server names (the one that asked: the file may be private to it).
        if not isinstance(params, dict) or table.PAGE_IDS not in params:
            return {"success": False}
        pages, params = self._addressed(params)
        path = path_from_uri(str(params.get("uri", "")))
        if path is None or len(pages) != 1:
            return {"success": False}
        try:  # bounded, regular files only: the viewer shows config files, not /dev/zero
            data, _ = await asyncio.to_thread(read_bytes, path, limit=MAX_VIEWED_FILE)
            content = decode_lossy(data)
        except OSError as err:
            log.warning("cannot show %s: %s", path, err)
            return {"success": False}
        # Delivered before the answer, so the page has the file before its request returns.
        line, end_line = _selected_lines(params)
        await pages[0].shell(
            table.SHOW_FILE, path=str(path), content=content, line=line, endLine=end_line
        )
        return {"success": True}

    async def _ask_page(self, method: str, params: Any, server_id: Any) -> Any:
        """Ask the page the server names; its answer (or its error) is the answer."""
        pages, params = self._addressed(params)
        if len(pages) != 1:
            raise ResponseError(INTERNAL_ERROR, "the page asked is not open")
        request_id = f"srv-{next(self._ids)}"
        asked = _Asked(pages[0], asyncio.get_running_loop().create_future(), server_id)
        self._asked[request_id] = asked
        try:
            envelope = {"kind": "request", "id": request_id, "method": method, "params": params}
            await asked.page.send(envelope)
            answer = await asked.answer
        except asyncio.CancelledError:  # the server withdrew it ($/cancelRequest)
            if not asked.withdrawn:
                self._spawn(asked.page.send(_withdrawn(request_id)))
            raise
        finally:
            self._asked.pop(request_id, None)
        if "error" in answer and isinstance(answer["error"], dict):
            error = answer["error"]
            raise ResponseError(
                int(error.get("code", INTERNAL_ERROR)),
                str(error.get("message", "")),
                error.get("data"),
            )
        return answer.get("result")

    def _server_withdrew(self, server_id: int | str) -> None:
        """The server withdrew a question ($/cancelRequest): its page hears it in the order of
        the server's messages (before an update that came behind it)."""
        for request_id, asked in self._asked.items():
            if asked.server_id == server_id and not asked.withdrawn:
                asked.withdrawn = True
                self._spawn(asked.page.send(_withdrawn(request_id)))

    def _page_answered(self, page: Page, envelope: dict[str, Any]) -> None:
        asked = self._asked.get(str(envelope.get("id")))
        if asked is not None and asked.page is page and not asked.answer.done():
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
        self.pages[page.id] = page
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
            del self.pages[page.id]
            # A question only this page was asked gets an answer now, not never.
            error = {"error": {"code": INTERNAL_ERROR, "message": "the page was closed"}}
            for asked in list(self._asked.values()):
                if asked.page is page and not asked.answer.done():
                    asked.answer.set_result(error)
            if self.lsp.exit_reason is None:
                with contextlib.suppress(ServerExitedError, ConnectionError):
                    await self.lsp.notify(table.PAGE_CLOSED.name, {table.PAGE_ID: page.id})

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
        params = envelope.get("params")
        # The page is named by the shell, never by itself: a page cannot pose as another.
        named = {**(params if isinstance(params, dict) else {}), table.PAGE_ID: page.id}
        try:
            answer = await self.lsp.send_request(method, named)
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
            response: dict[str, Any] = {"kind": "response", "id": request_id}
            if "error" in message:
                response["error"] = message["error"]
            else:
                response["result"] = message.get("result")
            await page.send(response)

        self._spawn(respond())
        return True

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


def _selected_lines(params: Any) -> tuple[int | None, int | None]:
    """The 1-based first and last lines of a showDocument's selection (an end at the start of
    a line ends the line before it)."""
    selection = params.get("selection") if isinstance(params, dict) else None
    if not isinstance(selection, dict):
        return None, None
    start, end = selection.get("start"), selection.get("end")
    row = start.get("line") if isinstance(start, dict) else None
    if not isinstance(row, int) or row < 0:
        return None, None
    last = end.get("line") if isinstance(end, dict) else None
    column = end.get("character") if isinstance(end, dict) else None
    if not isinstance(last, int) or last <= row:
        return row + 1, None
    return row + 1, last if column == 0 else last + 1
