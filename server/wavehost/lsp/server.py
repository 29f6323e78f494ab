"""`wavehost serve`: the pygls language server the IDE shells start over stdio.

Start-up imports only pygls and lsprotocol, like a bare pygls server: the settings host (pydantic,
the hook engine, the file watcher) and the chat host (the session runtime) are imported when the
client first needs them.
"""

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from wavehost import __version__
from wavehost.lsp import logs, methods
from wavehost.lsp.converter import raw_converter

if TYPE_CHECKING:
    from wavehost.lsp.chat import ChatHost
    from wavehost.lsp.host import Host

SETTINGS_METHODS = (
    methods.HOOKS_LIST,
    methods.HOOKS_DELETE,
    methods.OPEN_CONFIG_FILE,
    methods.HOOKS_PREFILL,
)
CHAT_METHODS = (methods.CHAT_OPEN, methods.CHAT_SEND, methods.CHAT_CANCEL, methods.CHAT_COMPACT)


class WaveServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "wavehost",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.None_,
            converter_factory=raw_converter,
            max_workers=4,  # one worker always reads stdin
        )
        self.init_params: types.InitializeParams | None = None
        self._host: Host | None = None
        self._chat: ChatHost | None = None

    @property
    def host(self) -> "Host":
        if self._host is None:
            from wavehost.lsp.host import Host  # lazy: see the module docstring

            self._host = Host(self)
        return self._host

    @property
    def chat(self) -> "ChatHost":
        if self._chat is None:
            from wavehost.lsp.chat import ChatHost  # lazy: see the module docstring

            self._chat = ChatHost(self, self.host.options)
        return self._chat


def _settings_handler(method: str) -> Callable[[WaveServer, Any], Coroutine[Any, Any, Any]]:
    async def handle(ls: WaveServer, params: Any) -> Any:
        return await ls.host.methods[method](params)

    return handle


def _chat_handler(method: str) -> Callable[[WaveServer, Any], Coroutine[Any, Any, Any]]:
    async def handle(ls: WaveServer, params: Any) -> Any:
        return await ls.chat.methods[method](params)

    return handle


def create_server() -> WaveServer:
    server = WaveServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: WaveServer, params: types.InitializeParams) -> None:
        # Only remembered here: the answer to initialize must not wait for the host's imports.
        ls.init_params = params
        logs.forward_to_client(ls, asyncio.get_running_loop())

    @server.feature(types.INITIALIZED)
    def initialized(ls: WaveServer, params: types.InitializedParams) -> None:
        ls.host.start_watching()

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: WaveServer, params: None) -> None:
        if ls._chat is not None:  # sessions end first: their SessionEnd hooks run now
            await ls._chat.stop()
        if ls._host is not None:
            await ls._host.stop()

    @server.feature(types.EXIT)
    def on_exit(ls: WaveServer, params: None) -> None:
        # Without a shutdown first, the watch thread would hold the exit up to its timeout.
        if ls._host is not None:
            ls._host.stop_watching()

    for method in SETTINGS_METHODS:
        server.feature(method)(_settings_handler(method))
    for method in CHAT_METHODS:
        server.feature(method)(_chat_handler(method))
    return server


def serve(log_level: str) -> int:
    logs.configure(log_level)
    create_server().start_io()
    return 0
