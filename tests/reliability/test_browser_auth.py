"""Browser mode requires its token: on every HTTP request and WebSocket upgrade, from anyone."""

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.web.browser import cookie_session, web_process
from tests.workspace import Workspace
from wavehost.web.app import Running
from wavehost.web.auth import cookie_name

INTRUDER = Path(__file__).with_name("intruder.py")
NOBODY = 65534


def port_of(web: Running) -> int:
    return int(web.address.rstrip("/").rsplit(":", 1)[1])


async def ws_status(session: aiohttp.ClientSession, url: str, origin: str) -> int:
    try:
        async with session.ws_connect(url, headers={"Origin": origin}):
            return 101
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status


@pytest.mark.parametrize("path", ["", "index.html", "assets/webview.js", "no-such-page"])
async def test_without_the_token_every_http_request_is_403(web: Running, path: str) -> None:
    async with cookie_session() as session, session.get(web.address + path) as response:
        assert response.status == 403
        assert "token" in await response.text()
        assert "Set-Cookie" not in response.headers


async def test_without_the_token_the_websocket_upgrade_is_403(web: Running) -> None:
    async with cookie_session() as session:
        origin = web.address.rstrip("/")
        assert await ws_status(session, f"{web.address}ws", origin) == 403


async def test_a_wrong_token_is_403_in_the_query_the_header_and_the_cookie(web: Running) -> None:
    wrong = web.token[:-1] + ("A" if web.token[-1] != "A" else "B")
    origin = web.address.rstrip("/")
    async with cookie_session() as session:
        async with session.get(f"{web.address}?token={wrong}") as response:
            assert response.status == 403
        async with session.get(web.address, headers={"Authorization": f"token {wrong}"}) as r:
            assert r.status == 403
        assert await ws_status(session, f"{web.address}ws?token={wrong}", origin) == 403
    cookies = {cookie_name(port_of(web)): wrong}
    async with aiohttp.ClientSession(cookies=cookies) as session:
        async with session.get(web.address) as response:
            assert response.status == 403
        assert await ws_status(session, f"{web.address}ws", origin) == 403


async def test_the_token_is_traded_for_a_strict_http_only_cookie_and_a_clean_url(
    web: Running,
) -> None:
    async with cookie_session() as session:
        async with session.get(web.url, allow_redirects=False) as response:
            assert response.status == 303
            assert response.headers["Location"] == "/"
            cookie = response.cookies[cookie_name(port_of(web))]
            assert cookie.value == web.token
            assert cookie["httponly"] is True
            assert cookie["samesite"] == "Strict"
            assert cookie["path"] == "/"
        # From now on the cookie alone lets the page, its assets and its socket in.
        async with session.get(web.address) as response:
            assert response.status == 200
        async with session.get(f"{web.address}assets/webview.js") as response:
            assert response.status == 200
        assert await ws_status(session, f"{web.address}ws", web.address.rstrip("/")) == 101


async def test_opening_the_printed_url_again_with_the_cookie_still_cleans_it(
    web: Running, browser: aiohttp.ClientSession
) -> None:
    async with browser.get(f"{web.url}&view=chat", allow_redirects=False) as response:
        assert response.status == 303
        assert response.headers["Location"] == "/?view=chat"


async def test_the_cookie_of_another_port_does_not_open_this_one(web: Running) -> None:
    other = {cookie_name(port_of(web) + 1): web.token}
    async with aiohttp.ClientSession(cookies=other) as session, session.get(web.address) as r:
        assert r.status == 403


async def test_the_token_does_not_lift_the_origin_check(web: Running) -> None:
    async with cookie_session() as session:
        async with session.get(web.url) as response:
            assert response.status == 200
        assert await ws_status(session, f"{web.address}ws", "http://attacker.example") == 403


async def test_a_token_set_by_the_environment_is_used_and_never_logged_in_full(
    workspace: Workspace, dist: Path
) -> None:
    token = "env-given-token-0123456789abcdef"
    async with web_process(workspace, dist, env={"WAVEHOST_TOKEN": token}) as web:
        assert web.url.endswith(f"/?token={token}")
        async with cookie_session() as session, session.get(web.url) as response:
            assert response.status == 200
        wrong = f"{web.address}?token=not-{token}"
        async with cookie_session() as session, session.get(wrong) as response:
            assert response.status == 403
    logged = web.stderr.read_text()
    assert "token" in logged  # it does log the start, with the token's first characters
    assert token not in logged


def test_a_malformed_token_is_a_clear_error(workspace: Workspace, dist: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "web", "--project", str(workspace.project)],
        env={**os.environ, "HOME": str(workspace.home), "WAVEHOST_TOKEN": "short"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "a token must be 16 to 256 characters" in done.stdout


async def intrude(port: int, token: str | None = None, *, as_nobody: bool) -> dict[str, object]:
    prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    command = [*(prefix if as_nobody else []), "/usr/bin/python3", str(INTRUDER), str(port)]
    process = await asyncio.create_subprocess_exec(
        *command, *([token] if token else []), stdout=asyncio.subprocess.PIPE, cwd="/"
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0
    report: dict[str, object] = json.loads(out)
    return report


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
@pytest.mark.parametrize("given", ["generated", "environment"])
async def test_another_local_user_cannot_connect(
    workspace: Workspace, dist: Path, given: str
) -> None:
    env = {"WAVEHOST_TOKEN": "secret-from-the-env-0123456789"} if given == "environment" else {}
    async with web_process(workspace, dist, env=env) as web:
        port = int(web.address.rstrip("/").rsplit(":", 1)[1])
        token = web.url.split("token=", 1)[1]
        intruder = await intrude(port, as_nobody=True)
        # The same script holding the token gets in: what keeps `nobody` out is the token.
        holder = await intrude(port, token, as_nobody=False)
    assert intruder["uid"] == NOBODY
    refused = {"page": 403, "asset": 403, "socket": 403}
    assert intruder["bare"] == intruder["guessed"] == refused
    assert intruder["admitted_with_found"] == []
    assert holder["given"] == {"page": 303, "asset": 303, "socket": 101}
