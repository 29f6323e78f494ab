"""A small LSP client over a subprocess's stdio, as the IDE shells have: `wavehost serve`.

JSON-RPC 2.0 with LSP's `Content-Length` framing. Messages are kept as plain dicts: this side only
relays them (the page validates nothing it cannot show; the server validates every param).
"""

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from wavehost.protocol import table

log = logging.getLogger(__name__)

JSON = dict[str, Any]
RequestHandler = Callable[[str, Any, Any], Awaitable[Any]]  # method, params, the request's id
NotificationHandler = Callable[[str, Any], None]

METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800  # LSP ErrorCodes.RequestCancelled


class ResponseError(Exception):
    """Raise from a request handler to answer with this JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def to_json(self) -> JSON:
        error: JSON = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ServerExitedError(Exception):
    pass


def encode(message: JSON) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


async def read_message(reader: asyncio.StreamReader) -> JSON | None:
    """The next framed message, or None at the end of the stream."""
    length: int | None = None
    while True:
        line = await reader.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise ValueError("an LSP message without Content-Length")
    body = await reader.readexactly(length)
    message = json.loads(body)
    if not isinstance(message, dict):
        raise ValueError("an LSP message that is not a JSON object")
    return message


class LspClient:
    """One `wavehost serve` subprocess. Requests return the whole response (result or error)."""

    def __init__(
        self,
        command: Sequence[str],
        cwd: Path,
        on_request: RequestHandler,
        on_notification: NotificationHandler,
        on_exit: Callable[[str], None],
        env: dict[str, str] | None = None,
        on_withdrawn: Callable[[int | str], None] = lambda _id: None,
    ) -> None:
        self._command = list(command)
        self._env = env
        self._cwd = cwd
        self._on_request = on_request
        self._on_notification = on_notification
        self._on_exit = on_exit
        self._on_withdrawn = on_withdrawn
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[JSON]] = {}
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._answering: dict[Any, asyncio.Task[None]] = {}  # the server's requests, by id
        self._write_lock = asyncio.Lock()
        self.exit_reason: str | None = None
        self.stopping = False  # stop() was called: the server's exit is expected

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            *self._command,
            cwd=self._cwd,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=self._env,
            # Its own session: a Ctrl-C in the terminal reaches this process only, which then
            # stops the server as a client should (shutdown, exit), not the server behind it.
            start_new_session=True,
        )
        self._reader = asyncio.create_task(self._read_loop())

    async def _write(self, message: JSON) -> None:
        process = self._process
        if process is None or process.stdin is None or self.exit_reason is not None:
            raise ServerExitedError(self.exit_reason or "the server is not running")
        async with self._write_lock:
            process.stdin.write(encode(message))
            await process.stdin.drain()

    async def send_request(self, method: str, params: Any) -> "asyncio.Future[JSON]":
        """Writes the request now; the returned future is its response (result or error)."""
        request_id = next(self._ids)
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        future.add_done_callback(lambda _: self._pending.pop(request_id, None))
        try:
            await self._write(
                {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
            )
        except BaseException:
            future.cancel()
            raise
        return future

    async def request(self, method: str, params: Any) -> JSON:
        return await (await self.send_request(method, params))

    async def notify(self, method: str, params: Any) -> None:
        await self._write({"jsonrpc": "2.0", "method": method, "params": params})

    async def _read_loop(self) -> None:
        assert self._process is not None
        assert self._process.stdout is not None
        try:
            while (message := await read_message(self._process.stdout)) is not None:
                self._dispatch(message)
        except (ValueError, asyncio.IncompleteReadError) as err:
            log.error("unreadable message from wavehost serve: %s", err)
        code = await self._process.wait()
        self._exited(f"wavehost serve exited with code {code}")

    def _exited(self, reason: str) -> None:
        if self.exit_reason is not None:
            return
        self.exit_reason = reason
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ServerExitedError(reason))
        self._on_exit(reason)

    def _dispatch(self, message: JSON) -> None:
        if "method" not in message:
            future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if future is not None and not future.done():
                future.set_result(message)
            return
        method, params = str(message["method"]), message.get("params")
        if "id" in message:
            request_id = message["id"]
            task = asyncio.create_task(self._answer(request_id, method, params))
            self._tasks.add(task)
            if isinstance(request_id, int | str):
                self._answering[request_id] = task
            task.add_done_callback(self._tasks.discard)
        elif method == table.CANCEL_REQUEST.name:
            # The server withdrew a request of its own: its handler is cancelled (and answers so).
            request_id = params.get("id") if isinstance(params, dict) else None
            answering = (
                self._answering.get(request_id) if isinstance(request_id, int | str) else None
            )
            if answering is not None:
                # Told now, in the order of the server's messages: the handler's cancellation
                # only runs later, after notifications that came behind the withdrawal.
                self._on_withdrawn(request_id)  # type: ignore[arg-type]
                answering.cancel()
        else:
            try:
                self._on_notification(method, params)
            except Exception:
                log.exception("notification %s failed", method)

    async def _answer(self, request_id: Any, method: str, params: Any) -> None:
        response: JSON = {"jsonrpc": "2.0", "id": request_id}
        try:
            response["result"] = await self._on_request(method, params, request_id)
        except asyncio.CancelledError:
            if self.exit_reason is not None:
                raise
            response["error"] = {"code": REQUEST_CANCELLED, "message": "withdrawn by the server"}
        except ResponseError as err:
            response["error"] = err.to_json()
        except Exception as err:
            log.exception("answering %s failed", method)
            response["error"] = {"code": INTERNAL_ERROR, "message": str(err)}
        finally:
            self._answering.pop(request_id, None)
        with contextlib.suppress(ServerExitedError, ConnectionError):
            await self._write(response)

    async def stop(self, grace: float = 5.0) -> None:
        """`shutdown` then `exit`, as a client should; killed if it does not go in time."""
        process = self._process
        self.stopping = True
        if process is None:
            return
        if self.exit_reason is None:
            with contextlib.suppress(ServerExitedError, ConnectionError, asyncio.TimeoutError):
                await asyncio.wait_for(self.request("shutdown", None), grace)
                await self.notify("exit", None)
        try:
            await asyncio.wait_for(process.wait(), grace)
        except TimeoutError:
            process.kill()
            await process.wait()
        if self._reader is not None:
            await self._reader
