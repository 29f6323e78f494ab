"""Server logging: stderr always, and the client's `window/logMessage` once it is connected.

stdout carries the LSP stream, so nothing else may ever be written there.
"""

import asyncio
import contextlib
import logging
import sys

from lsprotocol.types import LogMessageParams, MessageType
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

_TYPES = {
    logging.DEBUG: MessageType.Debug,
    logging.INFO: MessageType.Info,
    logging.WARNING: MessageType.Warning,
    logging.ERROR: MessageType.Error,
}


class ClientError(JsonRpcException):
    """A request error that is the client's to handle (bad params, a refused edit): logged in one
    line by the handler, not as pygls' server-error traceback."""


class _NoClientErrorTracebacks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ClientError))


class ClientLogHandler(logging.Handler):
    """Forwards wavehost's log records to the client as `window/logMessage`.

    Records may come from worker threads, so they are handed to the event loop, which is the only
    writer of stdout. Only wavehost's loggers are forwarded: pygls logs every message it sends,
    and forwarding those would loop.
    """

    def __init__(self, server: LanguageServer, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._server = server
        self._loop = loop

    def emit(self, record: logging.LogRecord) -> None:
        level = max((lvl for lvl in _TYPES if lvl <= record.levelno), default=logging.DEBUG)
        params = LogMessageParams(type=_TYPES[level], message=self.format(record))
        with contextlib.suppress(RuntimeError):  # the loop is closed: the session is over
            self._loop.call_soon_threadsafe(self._server.window_log_message, params)


def configure(level: str) -> None:
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s", force=True
    )
    # pygls logs every message body at INFO: only worth it when debugging.
    logging.getLogger("pygls").setLevel(level if level == "DEBUG" else "WARNING")
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_NoClientErrorTracebacks())


def forward_to_client(server: LanguageServer, loop: asyncio.AbstractEventLoop) -> None:
    handler = ClientLogHandler(server, loop)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    logging.getLogger("wavehost").addHandler(handler)
