"""The browser shell: what the VS Code extension and the JetBrains plugin do, for a browser tab.

It starts `wavehost serve` over stdio like the IDEs, relays the page's envelope to it (only the
protocol's methods: the allow-list comes from the method table, `wavehost.protocol.table`), and
does the table's shell-local commands itself: `closeSettings` / `openChat` switch the page to
the chat view, and the server's `window/showDocument` shows the file read-only in the page.

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

PAGE_REQUESTS = frozenset(m.name for m in table.client_requests())
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


class BrowserShell:
    def __init__(
        self,
        project: Path,
        locale: str,
        command: Sequence[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.project = project
        self.locale = locale
        self.pages: list[Page] = []
        self._ids = itertools.count(1)
        self._page_answers: dict[str, tuple[Page, asyncio.Future[dict[str, Any]]]] = {}
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
                "initializationOptions": {"projectDir": str(self.project), "locale": self.locale},
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

    def _server_notification(self, method: str, params: Any) -> None:
        if method in PAGE_NOTIFICATIONS:
            envelope = {"kind": "notification", "method": method, "params": params or {}}
            for page in list(self.pages):
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
        if path is None or not self.pages:
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
        for page in list(self.pages):
            await page.shell(table.SHOW_FILE, path=str(path), content=content, line=line)
        return {"success": True}

    async def _ask_page(self, method: str, params: Any) -> Any:
        if not self.pages:
            raise ResponseError(INTERNAL_ERROR, "no page is open to answer")
        page = self.pages[-1]  # the tab opened last is the one in front
        request_id = f"srv-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._page_answers[request_id] = (page, future)
        try:
            await page.send(
                {"kind": "request", "id": request_id, "method": method, "params": params}
            )
            answer = await future
        finally:
            self._page_answers.pop(request_id, None)
        if "error" in answer and isinstance(answer["error"], dict):
            error = answer["error"]
            raise ResponseError(
                int(error.get("code", INTERNAL_ERROR)),
                str(error.get("message", "")),
                error.get("data"),
            )
        return answer.get("result")

    def _server_exited(self, reason: str) -> None:
        log.error("%s", reason)
        for _, future in self._page_answers.values():
            if not future.done():
                future.set_exception(ServerExitedError(reason))
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
            for asked, future in self._page_answers.values():
                if asked is page and not future.done():
                    error = {"code": INTERNAL_ERROR, "message": "the page was closed"}
                    future.set_result({"error": error})

    async def _from_page(self, page: Page, envelope: dict[str, Any]) -> None:
        kind = envelope.get("kind")
        if kind == "request":
            await self._relay(page, envelope)
        elif kind == "response":
            pending = self._page_answers.get(str(envelope.get("id")))
            if pending is not None and pending[0] is page and not pending[1].done():
                pending[1].set_result(envelope)
        elif kind == "shell":
            args = envelope.get("args") if isinstance(envelope.get("args"), dict) else {}
            await self._shell_command(page, str(envelope.get("command")), args or {})

    async def _relay(self, page: Page, envelope: dict[str, Any]) -> None:
        request_id, method = envelope.get("id"), str(envelope.get("method"))
        if method not in PAGE_REQUESTS:
            error = {"code": METHOD_NOT_FOUND, "message": f"{method} is not a wavehost method"}
            await page.send({"kind": "response", "id": request_id, "error": error})
            return
        try:
            answer = await self.lsp.send_request(method, envelope.get("params") or {})
        except ServerExitedError as err:
            error = {"code": INTERNAL_ERROR, "message": str(err)}
            await page.send({"kind": "response", "id": request_id, "error": error})
            return

        async def respond() -> None:
            try:
                message = await answer
            except ServerExitedError as err:
                message = {"error": {"code": INTERNAL_ERROR, "message": str(err)}}
            response: dict[str, Any] = {"kind": "response", "id": request_id}
            if "error" in message:
                response["error"] = message["error"]
            else:
                response["result"] = message.get("result")
            await page.send(response)

        self._spawn(respond())

    async def _shell_command(self, page: Page, command: str, args: dict[str, Any]) -> None:
        if command == table.CLOSE_SETTINGS.name:
            await page.shell(table.SHOW_VIEW, view="chat")
        elif command == table.OPEN_CHAT.name:
            await page.shell(table.SHOW_VIEW, view="chat")
            prefill = args.get("prefill")
            if isinstance(prefill, str):
                await page.shell(table.PREFILL, text=prefill)
        elif command == table.OPEN_SETTINGS.name:
            await page.shell(table.SHOW_VIEW, view="settings")
        elif command == table.RESTART_SERVER.name:
            self._spawn(self.restart())  # the page's other messages go on meanwhile
        elif command != table.READY.name:
            log.warning("unknown shell command from the page: %s", command)
