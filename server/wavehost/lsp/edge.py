"""The edge kit every feature uses: raw params in, wire dicts out, errors the client can act on.

- `parse`: validate raw params with the method's model; anything wrong is error -32602 with a
  sentence a person can act on.
- `dump`: a wire model as the JSON-RPC result.
- `off_loop`: blocking work in a worker thread.
- `RequestFailedError`: a well-formed request that could not be done (-32803), with typed `data`.
- `spawn`: a background task whose failure is logged, never lost.
- `handlers_for`: a feature's handlers, checked against the method table.

Imported with the first feature, not at start-up: it pulls in pydantic.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, NoReturn, TypeVar

from anyio import to_thread
from pydantic import ValidationError
from pygls.exceptions import JsonRpcInvalidParams

from wavehost.lsp.framing import Encoded
from wavehost.lsp.logs import ClientError
from wavehost.protocol import table
from wavehost.wire import WireModel

log = logging.getLogger(__name__)

REQUEST_FAILED = -32803  # LSP ErrorCodes.RequestFailedError: well-formed, but it could not be done
M = TypeVar("M", bound=WireModel)
T = TypeVar("T")
Params = Any  # a raw JSON value (see converter.py)
Handler = Callable[[Params], Awaitable[dict[str, Any] | Encoded]]


class RequestFailedError(ClientError):
    """The request was understood but could not be done; `data` says why, as the table's error
    model for the feature (SettingsErrorData, ChatErrorData)."""

    def __init__(self, message: str, data: WireModel) -> None:
        log.info("request failed: %s", message)
        super().__init__(message, REQUEST_FAILED, data.to_wire())


def parse(model: type[M], params: Params, method: table.Method) -> M:
    """Validate raw params; anything wrong is error -32602 with a sentence a person can act on."""
    params = {} if params is None else params
    if not isinstance(params, dict):
        _invalid(method, f"params must be an object, not {type(params).__name__}")
    try:
        return model.model_validate(params)
    except ValidationError as err:
        problems = "; ".join(
            (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + e["msg"]
            for e in err.errors()
        )
        _invalid(method, problems, err)


def _invalid(method: table.Method, problems: str, cause: Exception | None = None) -> NoReturn:
    message = f"Invalid params for {method.name}: {problems}"
    log.info(message)
    raise ClientError(message, JsonRpcInvalidParams.CODE) from cause


def dump(model: WireModel) -> dict[str, Any]:
    return model.to_wire()


async def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run blocking file work in a worker thread, off the event loop."""
    return await to_thread.run_sync(work, *args)


def spawn(work: Coroutine[Any, Any, None], what: str) -> "asyncio.Task[None]":
    """Run `work` in the background; if it fails, the failure is logged (as `what` failed)."""
    task = asyncio.ensure_future(work)

    def report(done: "asyncio.Task[None]") -> None:
        if not done.cancelled() and done.exception() is not None:
            log.error("%s failed", what, exc_info=done.exception())

    task.add_done_callback(report)
    return task


def handlers_for(
    feature: table.Feature, handlers: Mapping[table.Method, Handler]
) -> dict[str, Handler]:
    """A feature's handlers by method name; exactly the table's client→server methods of it."""
    wanted = set(table.client_requests(feature))
    given = set(handlers)
    if wanted != given:
        missing = sorted(m.name for m in wanted - given)
        extra = sorted(m.name for m in given - wanted)
        raise RuntimeError(f"{feature} handlers do not match the table: {missing=} {extra=}")
    return {m.name: handler for m, handler in handlers.items()}
