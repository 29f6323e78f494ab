"""A real TCP server on a free 127.0.0.1 port for the duration of a block (the fake model
server, the http hooks' server)."""

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio
from anyio.abc import SocketStream


@asynccontextmanager
async def listening(handle: Callable[[SocketStream], Awaitable[None]]) -> AsyncIterator[int]:
    """Serve each connection with `handle` while the block runs; the port it listens on."""
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1", local_port=0)
    port: int = listener.extra(anyio.abc.SocketAttribute.local_port)
    async with listener, anyio.create_task_group() as group:
        group.start_soon(listener.serve, handle)
        try:
            yield port
        finally:
            group.cancel_scope.cancel()
