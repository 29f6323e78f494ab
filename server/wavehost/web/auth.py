"""Browser mode's secret: a token in the printed URL, traded for a cookie, required everywhere.

As Jupyter does it: a random token is made at start (or given with `--token` / `WAVEHOST_TOKEN`)
and printed in the URL `wavehost web` shows. A request carrying it (`?token=`, or an
`Authorization: token …` header for scripts) gets an HttpOnly, SameSite=Strict cookie and, for a
page load, a redirect to the same URL without the token, so it leaves the address bar and the
history. Every HTTP request and WebSocket upgrade without the token or the cookie is refused with
403. Comparisons are constant-time; logs only ever show the token's first characters.

The cookie's name carries the port: browsers share cookies between the ports of one host, and two
`wavehost web` on one machine must not overwrite each other's.
"""

import hmac
import logging
import re
import secrets
from collections.abc import Awaitable, Callable

from aiohttp import web

log = logging.getLogger(__name__)

TOKEN_ENV = "WAVEHOST_TOKEN"
TOKEN_PARAM = "token"
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,256}")  # URL-safe as it is: no escaping needed

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def check_token(token: str) -> str:
    """`token` if it is usable as given; else ValueError saying what a token must look like."""
    if not _TOKEN_SHAPE.fullmatch(token):
        raise ValueError(
            "a token must be 16 to 256 characters of letters, digits, '-' and '_' "
            f"(got {len(token)} characters)"
        )
    return token


def redacted(token: str) -> str:
    """What a log may show of a token."""
    return f"{token[:4]}…"


def cookie_name(port: int) -> str:
    return f"wavehost-token-{port}"


def _matches(candidate: str | None, token: str) -> bool:
    if not candidate:
        return False
    return hmac.compare_digest(candidate.encode("utf-8"), token.encode("utf-8"))


def _header_token(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() in ("token", "bearer") else None


class TokenAuth:
    """The aiohttp middleware; behind the Host check, so the request's port is the bound one."""

    def __init__(self, token: str) -> None:
        self.token = token

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        has_cookie = _matches(request.cookies.get(cookie_name(request.url.port or 0)), self.token)
        offered = request.query.get(TOKEN_PARAM)
        granted = _matches(offered, self.token) or _matches(_header_token(request), self.token)
        if not (has_cookie or granted):
            # Neither the path nor the query go to the log: a wrong token may be a near miss.
            log.info("refused a request without a valid token (%s)", request.method)
            raise web.HTTPForbidden(
                text="wavehost web needs its token: open the address `wavehost web` printed"
            )
        if offered is not None and request.method == "GET" and not _is_upgrade(request):
            # A page load: the token leaves the address bar and the history.
            clean = request.rel_url.without_query_params(TOKEN_PARAM)
            redirect = web.HTTPSeeOther(location=str(clean))
            if granted:
                self._grant(request, redirect)
            raise redirect
        response = await handler(request)
        if granted and not response.prepared:  # a WebSocket has sent its headers already
            self._grant(request, response)
        return response

    def _grant(self, request: web.Request, response: web.StreamResponse) -> None:
        name = cookie_name(request.url.port or 0)
        response.set_cookie(name, self.token, path="/", httponly=True, samesite="Strict")


def _is_upgrade(request: web.Request) -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"
