"""The settings methods behind the LSP edge: params validated, work off the event loop, errors
turned into JSON-RPC errors the page can act on.

Imported on first use, not at start-up: it pulls in pydantic and the hook engine.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from anyio import to_thread
from lsprotocol.types import ShowDocumentParams
from pydantic import ValidationError
from pygls.exceptions import JsonRpcInvalidParams

from wavehost.hooks.safe_read import is_regular_file
from wavehost.lsp import methods
from wavehost.lsp.logs import ClientError
from wavehost.lsp.options import session_of
from wavehost.lsp.protocol import (
    HooksDeleteParams,
    HooksDeleteResult,
    HooksListParams,
    HooksPrefillParams,
    OpenConfigFileParams,
    OpenConfigFileResult,
)
from wavehost.settings.errors import SettingsError
from wavehost.settings.service import SettingsService
from wavehost.settings.watch import ConfigWatcher
from wavehost.wire import WireModel

if TYPE_CHECKING:
    from wavehost.lsp.server import WaveServer

log = logging.getLogger(__name__)

REQUEST_FAILED = -32803  # LSP ErrorCodes.RequestFailed: well-formed, but it could not be done
M = TypeVar("M", bound=WireModel)
T = TypeVar("T")
Params = Any  # a raw JSON value (see converter.py)


def parse(model: type[M], params: Params, method: str) -> M:
    """Validate raw params; anything wrong is error -32602 with a sentence a person can act on."""
    params = {} if params is None else params
    if not isinstance(params, dict):
        return _invalid(method, f"params must be an object, not {type(params).__name__}")
    try:
        return model.model_validate(params)
    except ValidationError as err:
        problems = "; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + e["msg"]
            for e in err.errors()
        )
        return _invalid(method, problems, err)


def _invalid(method: str, problems: str, cause: Exception | None = None) -> NoReturn:
    message = f"Invalid params for {method}: {problems}"
    log.info(message)
    raise ClientError(message, JsonRpcInvalidParams.CODE) from cause


def dump(model: WireModel) -> dict[str, Any]:
    return model.to_wire()


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run blocking file work in a worker thread; a `SettingsError` becomes a RequestFailed error
    whose `data` is `{reason, path, message}`."""
    try:
        return await to_thread.run_sync(work, *args)
    except SettingsError as err:
        log.info("%s: %s", err.reason, err.message)
        data = err.data().to_wire()
        raise ClientError(err.message, REQUEST_FAILED, data) from err


class Host:
    def __init__(self, server: "WaveServer") -> None:
        self._server = server
        assert server.init_params is not None, "the client sends initialize first"
        session = session_of(server.init_params)
        self.options = session
        for warning in session.warnings:
            log.warning(warning)
        log.info("project %s (trusted: %s)", session.project_dir, session.trusted)
        self.settings = SettingsService(
            session.project_dir,
            trusted=session.trusted,
            programmatic=session.hooks,
            locale=session.locale,
        )
        self._watcher = ConfigWatcher(self.settings.inputs, self._changed)
        self._watching: asyncio.Task[None] | None = None
        self.methods: dict[str, Callable[[Params], Awaitable[dict[str, Any]]]] = {
            methods.HOOKS_LIST: self.hooks_list,
            methods.HOOKS_DELETE: self.hooks_delete,
            methods.OPEN_CONFIG_FILE: self.open_config_file,
            methods.HOOKS_PREFILL: self.hooks_prefill,
        }

    def stop_watching(self) -> None:
        self._watcher.stop()

    def start_watching(self) -> None:
        self._watching = asyncio.ensure_future(self._watcher.run())
        self._watching.add_done_callback(_report_failure)

    async def stop(self) -> None:
        self.stop_watching()
        if self._watching is not None:
            await asyncio.wait([self._watching], timeout=2)

    async def _changed(self) -> None:
        self._server.protocol.notify(methods.HOOKS_CHANGED, {})

    async def hooks_list(self, params: Params) -> dict[str, Any]:
        parse(HooksListParams, params, methods.HOOKS_LIST)
        return dump(await off_loop(self.settings.list_hooks))

    async def hooks_delete(self, params: Params) -> dict[str, Any]:
        request = parse(HooksDeleteParams, params, methods.HOOKS_DELETE)
        deleted = await off_loop(self.settings.delete, request.id)
        log.info("deleted hook %s from %s", request.id, deleted.path)
        return dump(HooksDeleteResult(deleted=deleted))

    async def hooks_prefill(self, params: Params) -> dict[str, Any]:
        request = parse(HooksPrefillParams, params, methods.HOOKS_PREFILL)
        return dump(await off_loop(self.settings.prefill, request))

    async def open_config_file(self, params: Params) -> dict[str, Any]:
        request = parse(OpenConfigFileParams, params, methods.OPEN_CONFIG_FILE)
        file = await off_loop(self.settings.config_file, request.path)
        if not await to_thread.run_sync(is_regular_file, file.path):
            return dump(OpenConfigFileResult(opened=False, reason="missing"))
        window = self._server.client_capabilities.window
        if not (window and window.show_document and window.show_document.support):
            return dump(OpenConfigFileResult(opened=False, reason="unsupported"))
        shown = await self._server.window_show_document_async(
            ShowDocumentParams(uri=file.path.absolute().as_uri(), take_focus=True)
        )
        return dump(
            OpenConfigFileResult(opened=shown.success, reason=None if shown.success else "declined")
        )


def _report_failure(task: "asyncio.Task[None]") -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("watching the hook config failed", exc_info=task.exception())
