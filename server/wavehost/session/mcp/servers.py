"""A session's MCP servers: each one connected through the official SDK, its tools kept current.

Every startable server of the configuration (`settings.mcp_servers`) gets a connection task when
the session opens; none blocks the session's start. A stdio server runs as its own process group
(the SDK's `stdio_client`: closed stdin, then SIGTERM, then SIGKILL to the group when it stops)
with the session root as its cwd and wavehost's environment plus the server's `env`; its stderr
goes to the server log line by line. A streamable-HTTP server is reached with its `headers`.

The handshake is MCP's `initialize` (as Claude Code does), bounded by `MCP_TIMEOUT` (ms, Claude
Code's variable; 30 s by default); so is each call, by `MCP_TOOL_TIMEOUT` (default 10 minutes).
Tools are listed once connected and again on `notifications/tools/list_changed`. A server that
fails to start, hangs, or goes away later is `failed` with the reason; its tools leave the
toolbox and the user is told once (`take_notices`). Leaving the context stops every server.

The SDK is imported on first use, off the event loop: its import costs about half a second.
"""

import importlib
import logging
import math
import os
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

import anyio
import anyio.abc
import anyio.to_thread

from wavehost import environment as wavehost_environment
from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.settings.mcp_servers import McpServerConfig

if TYPE_CHECKING:
    from mcp_types import CallToolResult

log = logging.getLogger(__name__)

ServerStatus = Literal["starting", "connected", "failed", "stopped"]
STARTUP_TIMEOUT_VAR = "MCP_TIMEOUT"  # ms, as Claude Code reads it
CALL_TIMEOUT_VAR = "MCP_TOOL_TIMEOUT"
DEFAULT_STARTUP_TIMEOUT = 30.0  # seconds
DEFAULT_CALL_TIMEOUT = 600.0
STDERR_LINE_LIMIT = 2_000  # characters of one stderr line the log keeps
END_GRACE = 1.0  # seconds a server that went away has to finish its stderr
CLIENT_NAME = "wavehost"


def timeout_from(env: Mapping[str, str], name: str, default: float) -> float:
    """Seconds from a variable in milliseconds; the default when it is unset or not a number."""
    text = env.get(name, "").strip()
    try:
        value = float(text) / 1000 if text else default
    except ValueError:
        return default
    return value if value > 0 else default


@dataclass(frozen=True, slots=True)
class McpToolInfo:
    """One tool a server offers, as it listed it."""

    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ServerState:
    """Where one server is: starting, connected (with its tools), failed (why), stopped."""

    config: McpServerConfig
    status: ServerStatus = "starting"
    tools: tuple[McpToolInfo, ...] = ()
    error: str | None = None


class McpCallError(Exception):
    """A call that got no result: the server is gone, timed out, or answered nonsense."""


_sdk: ModuleType | None = None


async def sdk() -> ModuleType:
    """The `mcp` package, imported once, in a worker thread (the loop keeps serving)."""
    global _sdk
    if _sdk is None:
        _sdk = await anyio.to_thread.run_sync(importlib.import_module, "mcp")
    return _sdk


class _WatchedRead:
    """The transport's read stream, telling `ended` when the server's side is over."""

    def __init__(self, inner: Any, ended: anyio.Event) -> None:
        self._inner = inner
        self._ended = ended

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._ended.set()
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> "_WatchedRead":
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> "_WatchedRead":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __getattr__(self, name: str) -> Any:  # `last_context`, where the inner stream has it
        return getattr(self._inner, name)


async def _pump_stderr(fd: int, name: str, tail: deque[str], done: anyio.Event) -> None:
    """The server's stderr into the log, one line at a time (each line bounded)."""
    os.set_blocking(fd, False)
    pending = b""
    try:
        while True:
            await anyio.wait_readable(fd)
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                break
            *lines, pending = (pending + chunk).split(b"\n")
            pending = pending[-STDERR_LINE_LIMIT * 4 :]
            for line in lines:
                _log_stderr(name, line, tail)
    except OSError:
        pass
    finally:
        if pending:
            _log_stderr(name, pending, tail)
        done.set()


def _log_stderr(name: str, line: bytes, tail: deque[str]) -> None:
    text = line.decode("utf-8", errors="replace").rstrip()[:STDERR_LINE_LIMIT]
    if text:
        log.info("MCP server %s (stderr): %s", name, text)
        tail.append(text)


class McpConnection:
    """One server: its task connects, lists its tools, and holds the connection until stopped."""

    def __init__(
        self,
        config: McpServerConfig,
        *,
        root: Path,
        env: Mapping[str, str],
        changed: Callable[["McpConnection"], None],
    ) -> None:
        self.config = config
        self.state = ServerState(config)
        self._root = root
        self._env = dict(env)
        self._changed = changed
        self._client: Any = None
        self._stop = anyio.Event()
        self._settled = anyio.Event()  # no longer starting
        self._relist = anyio.Event()
        self._listed = anyio.Event()  # no listing asked for is still under way
        self._listed.set()
        self._ended: anyio.Event | None = None  # the server's side of this connection is over
        self._down = anyio.Event()  # failed or stopped: its tools have left
        self.stderr_tail: deque[str] = deque(maxlen=3)  # its last lines on stderr
        self.stderr_done = anyio.Event()  # its stderr is over (or it has none: HTTP)
        if config.transport == "http":
            self.stderr_done.set()
        self.startup_timeout = timeout_from(env, STARTUP_TIMEOUT_VAR, DEFAULT_STARTUP_TIMEOUT)
        self.call_timeout = timeout_from(env, CALL_TIMEOUT_VAR, DEFAULT_CALL_TIMEOUT)

    @property
    def name(self) -> str:
        return self.config.name

    async def settled(self) -> None:
        """Return once it is connected or failed, and its tools are listed as it last said."""
        await self._settled.wait()
        await self._listed.wait()

    def stop(self) -> None:
        self._stop.set()

    def _set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)
        if self.state.status != "starting":
            self._settled.set()
        if self.state.status in ("failed", "stopped"):
            self._down.set()
        self._changed(self)

    async def run(self) -> None:
        try:
            await self._run()
        except Exception as err:  # any failure of one server is its own, never the session's
            if self.state.status in ("starting", "connected"):
                error = self._with_stderr(describe(err))
                log.warning("MCP server %s failed: %s", self.name, error)
                self._set(status="failed", tools=(), error=error)
        finally:
            self._client = None
            if self.state.status in ("starting", "connected"):
                self._set(status="stopped", tools=())
            self._settled.set()
            self._listed.set()

    async def _run(self) -> None:
        mcp = await sdk()
        ended = self._ended = anyio.Event()

        async def on_message(message: Any) -> None:
            if isinstance(message, Exception):
                log.warning("MCP server %s sent a malformed message: %s", self.name, message)
            elif type(message).__name__ == "ToolListChangedNotification":
                # Before the answer of the call that changed them: the next model call waits.
                if self._listed.is_set():
                    self._listed = anyio.Event()
                self._relist.set()

        client = mcp.Client(
            self._transport(mcp, ended),
            mode="legacy",
            message_handler=on_message,
            client_info=mcp.types.Implementation(name=CLIENT_NAME, version=_version()),
            cache=None,
        )
        # One scope holds the whole connection: its deadline bounds the start (handshake and the
        # first listing) and is lifted once connected. (A deadline on the client's entry alone
        # would leave the SDK's task groups open across the scope.)
        with anyio.CancelScope(deadline=anyio.current_time() + self.startup_timeout) as scope:
            async with client:
                self._client = client
                try:
                    tools = await self._list()
                    scope.deadline = math.inf
                    log.info("MCP server %s connected with %d tools", self.name, len(tools))
                    self._set(status="connected", tools=tools, error=None)
                    async with anyio.create_task_group() as group:
                        group.start_soon(self._relisting)
                        group.start_soon(self._watch_end, ended)
                        await self._stop.wait()
                        group.cancel_scope.cancel()
                finally:
                    self._client = None
        if scope.cancelled_caught and self.state.status == "starting":
            raise TimeoutError

    async def _watch_end(self, ended: anyio.Event) -> None:
        await ended.wait()
        if not self._stop.is_set():
            with anyio.move_on_after(END_GRACE):  # a server that exited: its last words
                await self.stderr_done.wait()
            error = self._with_stderr("the server closed the connection")
            log.warning("MCP server %s failed: %s", self.name, error)
            self._set(status="failed", tools=(), error=error)
            self._stop.set()

    def _with_stderr(self, error: str) -> str:
        if self.stderr_tail:
            return f"{error} (its stderr: {self.stderr_tail[-1]})"
        return error

    async def _relisting(self) -> None:
        while True:
            await self._relist.wait()
            self._relist = anyio.Event()
            listed = self._listed
            try:
                with anyio.fail_after(self.startup_timeout):
                    tools = await self._list()
            except Exception as err:
                log.warning("MCP server %s: listing its tools again failed: %s", self.name, err)
            else:
                log.info("MCP server %s: its tools changed (%d now)", self.name, len(tools))
                self._set(tools=tools)
            finally:
                if not self._relist.is_set():
                    listed.set()

    async def _list(self) -> tuple[McpToolInfo, ...]:
        found: list[McpToolInfo] = []
        cursor: str | None = None
        for _ in range(100):  # a paginator that never ends cannot hang us
            page = await self._client.list_tools(cursor=cursor)
            found += [
                McpToolInfo(t.name, t.description or "", dict(t.input_schema or {}))
                for t in page.tools
            ]
            cursor = page.next_cursor
            if cursor is None:
                break
        return tuple(found)

    def _transport(self, mcp: ModuleType, ended: anyio.Event) -> Any:
        config = self.config
        if config.transport == "http":
            return _watched(self._http(), ended)
        params = mcp.StdioServerParameters(
            command=config.command,
            args=list(config.args),
            env={**self._env, **config.env},
            cwd=str(self._root),
            encoding_error_handler="replace",
        )
        return _stdio(mcp, params, self.name, self.stderr_tail, self.stderr_done, ended)

    @asynccontextmanager
    async def _http(self) -> AsyncIterator[Any]:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        async with (
            create_mcp_http_client(headers=dict(self.config.headers)) as http,
            streamable_http_client(self.config.url, http_client=http) as streams,
        ):
            yield streams

    async def call(self, tool: str, arguments: dict[str, Any]) -> "CallToolResult":
        """Call one of its tools; McpCallError when no result comes back."""
        if self.state.status == "starting":
            with anyio.move_on_after(self.startup_timeout):
                await self.settled()
        client = self._client
        if client is None or self.state.status != "connected":
            why = f": {self.state.error}" if self.state.error else ""
            raise McpCallError(
                f"MCP server {self.name} is not connected ({self.state.status}{why})"
            )
        try:
            with anyio.fail_after(self.call_timeout):
                result: CallToolResult = await client.call_tool(tool, arguments)
        except TimeoutError:
            raise McpCallError(
                f"MCP server {self.name} did not answer the call of {tool} within "
                f"{self.call_timeout:g} s ({CALL_TIMEOUT_VAR})"
            ) from None
        except Exception as err:
            if self._ended is not None and self._ended.is_set():
                # The server went away under this call: its tools leave before the model hears
                # of it, so its next call of them is "no such tool", not another dead call.
                with anyio.move_on_after(END_GRACE + 1):
                    await self._down.wait()
            raise McpCallError(f"MCP server {self.name}: {describe(err)}") from err
        return result


def describe(err: BaseException) -> str:
    """One readable line for a failure (groups from task groups unwrapped)."""
    while isinstance(err, BaseExceptionGroup) and len(err.exceptions) == 1:
        err = err.exceptions[0]
    if isinstance(err, TimeoutError):
        return "it did not answer in time (MCP_TIMEOUT)"
    if isinstance(err, FileNotFoundError):
        return f"cannot start it: {err.strerror}: {err.filename}"
    if type(err).__name__ == "ValidationError":
        return "it sent a malformed answer"
    text = str(err).strip() or type(err).__name__
    message = getattr(getattr(err, "error", None), "message", None)
    if type(err).__name__ == "MCPError" and message:
        text = str(message)
    return text.splitlines()[0][:500]


@asynccontextmanager
async def _watched(inner: Any, ended: anyio.Event) -> AsyncIterator[Any]:
    async with inner as (read, write):
        yield _WatchedRead(read, ended), write


@asynccontextmanager
async def _stdio(
    mcp: ModuleType,
    params: Any,
    name: str,
    tail: deque[str],
    pumped: anyio.Event,
    ended: anyio.Event,
) -> AsyncIterator[Any]:
    """The SDK's stdio transport with the server's stderr piped into our log."""
    read_fd, write_fd = os.pipe()
    errlog = os.fdopen(write_fd, "w")
    try:
        async with anyio.create_task_group() as group:
            try:
                async with mcp.stdio_client(params, errlog=errlog) as (read, write):
                    errlog.close()  # the server has its copy: EOF comes when it exits
                    group.start_soon(_pump_stderr, read_fd, name, tail, pumped)
                    yield _WatchedRead(read, ended), write
            finally:
                errlog.close()
                with anyio.move_on_after(1, shield=True):  # what it said on its way out
                    await pumped.wait()
                group.cancel_scope.cancel()
    finally:
        errlog.close()
        os.close(read_fd)


def _version() -> str:
    from wavehost import __version__

    return __version__


@dataclass
class McpServers:
    """The servers of one session, each on its own task of the session's group."""

    connections: dict[str, McpConnection] = field(default_factory=dict)
    listeners: list[Callable[[McpConnection], None]] = field(default_factory=list)
    _notices: list[str] = field(default_factory=list)

    def states(self) -> tuple[ServerState, ...]:
        return tuple(c.state for c in self.connections.values())

    async def settled(self) -> None:
        """Return once no server is starting any more (each bounded by its own timeout)."""
        for connection in list(self.connections.values()):
            await connection.settled()

    def tell(self, text: str) -> None:
        """Something the user is to hear of with the next model call."""
        self._notices.append(text)

    def take_notices(self) -> list[str]:
        """What the user has not yet been told: servers that failed or went away."""
        notices, self._notices = self._notices, []
        return notices

    def _changed(self, connection: McpConnection) -> None:
        state = connection.state
        if state.status == "failed":
            self.tell(f"MCP server {connection.name} failed: {state.error}")
        for listener in self.listeners:
            listener(connection)


@asynccontextmanager
async def started(
    configs: tuple[McpServerConfig, ...], *, root: Path, env: Mapping[str, str] | None = None
) -> AsyncIterator[McpServers]:
    """Start every server (in the background) and stop them all on exit."""
    servers = McpServers()
    if not configs:
        yield servers
        return
    environment = dict(wavehost_environment.inherited() if env is None else env)
    environment.setdefault("WAVE_PROJECT_DIR", str(root))
    environment.setdefault("CLAUDE_PROJECT_DIR", str(root))
    async with OwnedTaskGroup() as group:
        for config in configs:
            connection = McpConnection(config, root=root, env=environment, changed=servers._changed)
            servers.connections[config.name] = connection
            group.start_soon(connection.run)
        try:
            yield servers
        finally:
            group.cancel()  # each connection closes its client (bounded, shielded) as it ends
