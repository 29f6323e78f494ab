"""`wavehost web`: serves the built webview on 127.0.0.1 and its WebSocket to the browser shell."""

import asyncio
import contextlib
import errno
import logging
import os
import re
import resource
import shlex
import signal
import sys
import webbrowser
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from wavehost import environment
from wavehost.language import default_locale
from wavehost.web.auth import TOKEN_ENV, TokenAuth, check_token, new_token, redacted
from wavehost.web.shell import BrowserShell, Page

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
PORT_ENV = "WAVEHOST_PORT"  # the port when --port is not given (read by the command line)

# No inline script or style, no eval; the socket is this origin's only connection.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

UNPROVEN_CONNECTIONS = 64  # open at once without having shown the token (more: the oldest goes)
PROVE_WITHIN = 10.0  # seconds a connection has to show the token (its first request's headers)


class ConnectionGuard:
    """Connections that have not shown the token yet, bounded in number and in time, so that
    other local users cannot use up the descriptors (1,100 idle connections shut the tab out):
    at most `UNPROVEN_CONNECTIONS` at once — a new one closes the oldest — and each is closed
    `PROVE_WITHIN` seconds after it opened unless one of its requests carried the token."""

    def __init__(self, limit: int = UNPROVEN_CONNECTIONS, within: float = PROVE_WITHIN) -> None:
        self.limit, self.within = limit, within
        self._unproven: dict[object, tuple[asyncio.Transport, asyncio.TimerHandle]] = {}
        self.closed = 0  # connections closed unproven (for tests and logs)

    def made(self, handler: object, transport: asyncio.Transport) -> None:
        timer = asyncio.get_running_loop().call_later(self.within, self._close, handler)
        self._unproven[handler] = (transport, timer)
        while len(self._unproven) > self.limit:
            self._close(next(iter(self._unproven)))

    def proven(self, handler: object) -> None:
        found = self._unproven.pop(handler, None)
        if found is not None:
            found[1].cancel()

    lost = proven  # gone either way: nothing left to close

    def _close(self, handler: object) -> None:
        found = self._unproven.pop(handler, None)
        if found is not None:
            found[1].cancel()
            found[0].abort()  # its descriptor is free now, not after a lingering close
            self.closed += 1
            if self.closed in (1, 100, 10_000):
                log.warning("closed %d connection(s) that never showed the token", self.closed)


class _GuardedRunner(web.AppRunner):
    """The app's runner, telling `guard` of every connection made and lost."""

    def __init__(self, app: web.Application, guard: ConnectionGuard, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._guard = guard

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        made, lost, guard = server.connection_made, server.connection_lost, self._guard

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            guard.made(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            guard.lost(handler)
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]
        return server


@web.middleware
async def proven_connections(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Past the token check: this request's connection has shown the token."""
    request.app[GUARD_KEY].proven(request.protocol)
    return await handler(request)


def more_descriptors() -> None:
    """The soft limit of open files raised to the hard one: headroom for the tabs."""
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio logs every failed accept() with a traceback (1.5 MB/s when out of descriptors):
    once is enough."""
    seen: set[str] = set()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", ""))
        if "out of system resource" in message:
            if message not in seen:
                seen.add(message)
                log.error("%s: %s (said once)", message, context.get("exception"))
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


SHELL_KEY = web.AppKey("shell", BrowserShell)
GUARD_KEY = web.AppKey("guard", ConnectionGuard)
DIST_KEY = web.AppKey("dist", Path)
PORT_KEY = web.AppKey("port", list)  # [port], known once the socket is bound


PACKAGED_DIST = Path(__file__).resolve().parent / "webview"  # put there by the build backend
CHECKOUT = Path(__file__).resolve().parents[3]


def default_dist() -> Path:
    """The webview's build: `$WAVEHOST_WEBVIEW_DIST`; in a checkout (an editable install) its
    `webview/dist`; else the copy installed inside the package."""
    configured = os.environ.get("WAVEHOST_WEBVIEW_DIST")
    if configured:
        return Path(configured)
    if (CHECKOUT / "webview" / "package.json").is_file():
        return CHECKOUT / "webview" / "dist"
    return PACKAGED_DIST


def check_dist(dist: Path) -> None:
    if (dist / "index.html").is_file():
        return
    if os.environ.get("WAVEHOST_WEBVIEW_DIST"):
        fix = "point WAVEHOST_WEBVIEW_DIST at a built webview (the folder of index.html)"
    elif dist == PACKAGED_DIST:
        fix = "this install has no webview: install a wheel built by scripts/build-wheel"
    else:
        fix = f"run `bash {CHECKOUT / 'scripts' / 'setup-web'}`"
    raise FileNotFoundError(f"the webview is not built: {dist / 'index.html'} is missing; {fix}")


def _local_names(port: int) -> set[str]:
    return {f"{HOST}:{port}", f"localhost:{port}"}


@web.middleware
async def security_headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    # Only this machine's own names: a page on another site (or a rebound DNS name) gets nothing.
    port = request.app[PORT_KEY][0]
    if request.host not in _local_names(port):
        raise web.HTTPForbidden(text="wavehost web only answers on 127.0.0.1")
    try:
        response = await handler(request)
    except web.HTTPException as refused:  # refusals and redirects get the headers too
        _secure(refused)
        raise
    _secure(response)
    return response


def _secure(response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"


# A BCP 47-ish tag (zh-CN, en_GB, sr-Latn-RS): nothing else may reach the page's HTML.
_LOCALE = re.compile(r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,4}")


async def index(request: web.Request) -> web.StreamResponse:
    html = (request.app[DIST_KEY] / "index.html").read_text(encoding="utf-8")
    # `?locale=` in the address wins over the shell's (--locale, $LANG) for this page.
    asked = request.query.get("locale", "")
    locale = asked if _LOCALE.fullmatch(asked) else request.app[SHELL_KEY].locale
    # The shell tells the page its locale the way the IDEs do: an attribute on <html>.
    html = html.replace("<html ", f'<html data-locale="{locale}" data-shell="browser" ', 1)
    return web.Response(text=html, content_type="text/html")


async def socket(request: web.Request) -> web.StreamResponse:
    port = request.app[PORT_KEY][0]
    origin = request.headers.get("Origin", "")
    if origin not in {f"http://{name}" for name in _local_names(port)}:
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=16 * 1024 * 1024)
    await ws.prepare(request)
    await request.app[SHELL_KEY].attach(Page(ws))
    return ws


def create_app(
    shell: BrowserShell,
    dist: Path,
    auth: TokenAuth,
    port: int = 0,
    guard: ConnectionGuard | None = None,
) -> web.Application:
    check_dist(dist)
    # Outermost first: the Host check, then the token, then the handlers.
    middlewares = [security_headers, auth.middleware, proven_connections]
    app = web.Application(middlewares=middlewares)
    app[GUARD_KEY] = guard or ConnectionGuard()
    app[SHELL_KEY] = shell
    app[DIST_KEY] = dist
    app[PORT_KEY] = [port]
    app.router.add_get("/", index)
    app.router.add_get("/index.html", index)
    app.router.add_get("/ws", socket)
    app.router.add_static("/assets/", dist / "assets", follow_symlinks=False)
    return app


class PortError(Exception):
    """The port asked for cannot be listened on (taken, or privileged)."""

    def __init__(self, port: int, err: OSError) -> None:
        why = "is in use" if err.errno == errno.EADDRINUSE else f"cannot be used ({err.strerror})"
        super().__init__(
            f"port {port} on {HOST} {why}: choose another with --port N or {PORT_ENV}, "
            "or leave both out to get a free one"
        )


@dataclass
class Running:
    address: str  # http://127.0.0.1:PORT/
    token: str
    runner: web.AppRunner
    shell: BrowserShell

    @property
    def url(self) -> str:
        """The address with the token: what a person opens (and the only way in)."""
        return f"{self.address}?token={self.token}"

    async def stop(self) -> None:
        await self.shell.stop()
        await self.runner.cleanup()


async def start(
    project: Path,
    port: int = 0,
    locale: str | None = None,
    dist: Path | None = None,
    serve: Sequence[str] | None = None,
    env: dict[str, str] | None = None,
    token: str | None = None,
    trusted: bool = True,
) -> Running:
    auth = TokenAuth(check_token(token) if token is not None else new_token())
    # `serve` gets the environment without wavehost's own secret (its provider keys it needs)
    env = env if env is not None else environment.inherited()
    # The UI language's rule (wavehost.language): --locale, else the environment's.
    shell = BrowserShell(project, locale or default_locale(env), serve, env=env, trusted=trusted)
    guard = ConnectionGuard()
    app = create_app(shell, dist or default_dist(), auth, port, guard)
    runner = _GuardedRunner(app, guard, access_log=None)
    await runner.setup()
    # The port first: when it is taken, no server has been started for nothing. Until the
    # shell has started, nobody knows the token (the URL is not printed yet).
    try:
        await web.TCPSite(runner, HOST, port).start()
    except OSError as err:
        await runner.cleanup()
        raise PortError(port, err) from err
    bound = int(runner.addresses[0][1])
    app[PORT_KEY][0] = bound
    try:
        await shell.start()
    except BaseException:
        await shell.stop()
        await runner.cleanup()
        raise
    log.info("browser mode on port %d, token %s", bound, redacted(auth.token))
    return Running(f"http://{HOST}:{bound}/", auth.token, runner, shell)


async def run(
    project: Path,
    port: int,
    open_browser: bool,
    locale: str | None,
    serve: Sequence[str] | None,
    token: str | None = None,
    trusted: bool = True,
) -> int:
    more_descriptors()
    _quiet_accept_errors(asyncio.get_running_loop())
    running = await start(project, port, locale, serve=serve, token=token, trusted=trusted)
    # Ctrl-C stops it quietly from the moment the address is printed (a handler installed after
    # the print left a window where SIGINT raised KeyboardInterrupt with a traceback).
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    print(f"wavehost web: {project} at {running.url}", flush=True)
    if open_browser:
        webbrowser.open(running.url)
    # Up until stopped: when wavehost serve stops, the page says so and can restart it.
    await stop.wait()
    await running.stop()
    return 0


def main(
    project: Path,
    port: int,
    open_browser: bool,
    locale: str | None,
    serve_command: str | None = None,
    token: str | None = None,
    trusted: bool = True,
) -> int:
    serve = shlex.split(serve_command) if serve_command else None
    token = token or environment.started_with().get(TOKEN_ENV) or None
    if token is not None:
        try:
            check_token(token)
        except ValueError as err:
            print(f"wavehost web: {err}", flush=True)
            return 2
    try:
        return asyncio.run(
            run(project.resolve(), port, open_browser, locale, serve, token, trusted)
        )
    except (FileNotFoundError, PortError) as err:
        print(f"wavehost web: {err}", file=sys.stderr, flush=True)
        return 2
