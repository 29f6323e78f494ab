"""`wavehost serve`: the pygls language server the IDE shells start over stdio.

Handlers are registered from the method table at start-up, but each feature (settings, chat) is
imported and built only when the client first needs it: start-up imports only pygls, lsprotocol
and the table, like a bare pygls server. A feature module registers its own methods: it hands
back a handler for each of the table's client→server methods it owns.
"""

import asyncio
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, Protocol

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from wavehost import __version__
from wavehost.lsp import framing, logs
from wavehost.lsp.converter import raw_converter
from wavehost.lsp.pages import Pages
from wavehost.plumbing import orphans
from wavehost.protocol import table

if TYPE_CHECKING:
    from wavehost.lsp.workspace import WorkspaceOptions


class Feature(Protocol):
    handlers: Mapping[str, Callable[[Any], Awaitable[dict[str, Any] | framing.Encoded]]]

    def start(self) -> None:
        """Start its background work (called once, right after it is built)."""

    def halt(self) -> None:
        """Stop at once (LSP `exit` without `shutdown`)."""

    async def stop(self) -> None: ...


# Where each feature lives (module, class); built as `Class(server, options)`. The "pages" rows
# are the server's own routing (`Pages`), there from the start.
FEATURES: dict[table.Feature, tuple[str, str]] = {
    "settings": ("wavehost.lsp.settings", "SettingsFeature"),
    "chat": ("wavehost.lsp.chat", "ChatFeature"),
}
STOP_ORDER: tuple[table.Feature, ...] = ("chat", "settings")  # sessions end first: SessionEnd


class WaveServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "wavehost",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.None_,
            converter_factory=raw_converter,
            protocol_cls=framing.WaveProtocol,  # UTF-8, and pre-encoded results as they are
            max_workers=4,  # one worker always reads stdin
        )
        self.init_params: types.InitializeParams | None = None
        self._options: WorkspaceOptions | None = None
        self._features: dict[table.Feature, Feature] = {}
        self.pages = Pages(self.protocol)  # which pages show which sessions

    @property
    def options(self) -> "WorkspaceOptions":
        if self._options is None:
            from wavehost.lsp.workspace import options_of  # lazy: see the module docstring

            if self.init_params is None:
                raise RuntimeError("the client sends initialize first")
            self._options = options_of(self.init_params)
        return self._options

    def part(self, name: table.Feature) -> Feature:
        """The feature `name`, built (and started) on first use."""
        feature = self._features.get(name)
        if feature is None:
            module, cls = FEATURES[name]
            built: Feature = getattr(importlib.import_module(module), cls)(self, self.options)
            feature = self._features[name] = built
            feature.start()
        return feature

    def built(self, name: table.Feature) -> Feature | None:
        return self._features.get(name)

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
        """Serve until the input ends or `exit`; the exit code (see `framing.start_io`)."""
        return framing.start_io(self, stdin, stdout)  # bounded frames, every request answered


def _handler(method: table.Method) -> Callable[[WaveServer, Any], Coroutine[Any, Any, Any]]:
    async def handle(ls: WaveServer, params: Any) -> Any:
        with ls.pages.serving(method, params) as (params, answer):
            answer.result = await ls.part(method.feature).handlers[method.name](params)
        return answer.result

    return handle


def _page_closed(ls: WaveServer, params: Any) -> None:
    page = params.get(table.PAGE_ID) if isinstance(params, dict) else None
    if isinstance(page, str):
        ls.pages.closed(page)


def create_server() -> WaveServer:
    server = WaveServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: WaveServer, params: types.InitializeParams) -> None:
        # Only remembered here: the answer to initialize must not wait for the features' imports.
        ls.init_params = params
        logs.forward_to_client(ls, asyncio.get_running_loop())

    @server.feature(types.INITIALIZED)
    def initialized(ls: WaveServer, params: types.InitializedParams) -> None:
        ls.part("settings")  # starts watching the hook config

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: WaveServer, params: None) -> None:
        for name in STOP_ORDER:
            feature = ls.built(name)
            if feature is not None:
                await feature.stop()

    @server.feature(types.EXIT)
    def on_exit(ls: WaveServer, params: None) -> None:
        # Without a shutdown first, the watch thread would hold the exit up to its timeout.
        for name in STOP_ORDER:
            feature = ls.built(name)
            if feature is not None:
                feature.halt()

    for method in table.client_requests():
        if method.feature != "pages":
            server.feature(method.name)(_handler(method))
    server.feature(table.PAGE_CLOSED.name)(_page_closed)
    return server


def serve(log_level: str) -> NoReturn:
    """Serve on stdio, then end the process at once: the client is gone, and a thread still
    working (a hook's pipes, a matcher) must not keep it alive; nor does anything its hooks and
    commands left running (`plumbing.orphans`)."""
    logs.configure(log_level)
    orphans.adopt_orphans()
    code = create_server().start_io()
    orphans.end_all()
    logging.shutdown()
    with contextlib.suppress(ValueError, OSError):  # closed by pygls at `exit`, or a lost pipe
        sys.stdout.flush()
    os._exit(code)
