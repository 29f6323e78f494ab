"""A real HTTP server on 127.0.0.1 for http hooks to POST to: it keeps every request it gets and
answers each path as told (status, body, and a delay for timeouts)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import anyio
from anyio.abc import SocketStream

from tests.loopback import listening


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: bytes


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    delay: float = 0.0  # seconds before answering


@dataclass
class HookServer:
    replies: dict[str, Reply] = field(default_factory=dict)
    requests: list[Request] = field(default_factory=list)
    port: int = 0

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    async def handle(self, stream: SocketStream) -> None:
        async with stream:
            try:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += await stream.receive()
                head, _, body = data.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in lines[1:])
                }
                while len(body) < int(headers.get("content-length", "0")):
                    body += await stream.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError, ValueError):
                return
            self.requests.append(Request(method, path, headers, body))
            reply = self.replies.get(path, Reply())
            await anyio.sleep(reply.delay)
            head_out = (
                f"HTTP/1.1 {reply.status} X\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(reply.body)}\r\nConnection: close\r\n\r\n"
            )
            with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):  # it gave up
                await stream.send(head_out.encode() + reply.body)


@asynccontextmanager
async def hook_server(replies: dict[str, Reply] | None = None) -> AsyncIterator[HookServer]:
    server = HookServer(dict(replies or {}))
    async with listening(server.handle) as port:
        server.port = port
        yield server
