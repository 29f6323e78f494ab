"""The real server as a subprocess, driven by pytest-lsp's client."""

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, log_message, register_lsp_features

from tests.workspace import Workspace
from wavehost.lsp import methods
from wavehost.lsp.converter import raw_converter

SERVER = [sys.executable, "-m", "wavehost", "serve", "--log-level", "INFO"]


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

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def logged(params: types.LogMessageParams) -> None:
            log_message(self, params)
            if "for hook config changes" in params.message:
                self.watch_started.set()

        @self.feature(methods.HOOKS_CHANGED)
        def changed(params: Any) -> None:
            self.changes.put_nowait(params)

        @self.feature(types.WINDOW_SHOW_DOCUMENT)
        def show_document(params: types.ShowDocumentParams) -> types.ShowDocumentResult:
            self.shown_documents.append(params)
            return types.ShowDocumentResult(success=self.show_documents)

    async def call(self, method: str, params: Any = None) -> Any:
        return await self.protocol.send_request_async(method, {} if params is None else params)

    async def watching(self) -> None:
        """Wait until the server has started watching the config (it logs it)."""
        await asyncio.wait_for(self.watch_started.wait(), 10)

    async def list_hooks(self) -> dict[str, Any]:
        result: dict[str, Any] = await self.call(methods.HOOKS_LIST)
        return result


def as_user(uid: int, gid: int) -> list[str]:
    return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]


@asynccontextmanager
async def running_server(
    workspace: Workspace,
    *,
    options: dict[str, Any] | None = None,
    capabilities: types.ClientCapabilities | None = None,
    prefix: list[str] | None = None,
    **initialize: Any,
) -> AsyncIterator[HostClient]:
    """Start `wavehost serve` with HOME set to the workspace's, and initialize it."""
    config = ClientServerConfig(
        server_command=[*(prefix or []), *SERVER],
        server_env={**os.environ, "HOME": str(workspace.home)},
        client_factory=HostClient,
    )
    client = await config.start()
    assert isinstance(client, HostClient)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities or client_capabilities("visual-studio-code"),
            initialization_options={"projectDir": str(workspace.project), **(options or {})},
            **initialize,
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()
