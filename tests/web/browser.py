"""Fixtures for browser mode: a stand-in webview build, a running `wavehost web` (in this process,
with a real `wavehost serve` behind it) and a client that came in through the printed URL."""

import asyncio
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.hooks_doc import hook
from tests.workspace import Workspace
from wavehost.web.app import Running, start


def stand_in_dist(root: Path) -> Path:
    """A stand-in build of the webview: tests of the shell look at the shell, not the page."""
    (root / "dist" / "assets").mkdir(parents=True)
    (root / "dist" / "index.html").write_text('<!doctype html><html lang="en"></html>')
    (root / "dist" / "assets" / "webview.js").write_text("export {};")
    return root / "dist"


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    return stand_in_dist(tmp_path)


@asynccontextmanager
async def web_in(
    workspace: Workspace, dist: Path, locale: str = "zh-CN", env: dict[str, str] | None = None
) -> AsyncIterator[Running]:
    """`wavehost web` on the workspace, in this process (HOME is the workspace's; `env` adds to
    the server's environment)."""
    env = {**os.environ, "HOME": str(workspace.home), **(env or {})}
    running = await start(workspace.project, locale=locale, dist=dist, env=env)
    try:
        yield running
    finally:
        await running.stop()


@pytest.fixture
async def web(workspace: Workspace, dist: Path) -> AsyncIterator[Running]:
    workspace.write(
        workspace.project_settings,
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("./guard.sh")]}]}},
    )
    async with web_in(workspace, dist) as running:
        yield running


def cookie_session() -> aiohttp.ClientSession:
    # unsafe: keep cookies of an IP-address host (127.0.0.1), as browsers do.
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


@pytest.fixture
async def browser(web: Running) -> AsyncIterator[aiohttp.ClientSession]:
    """A client that opened the printed URL, as a browser does: it holds the token's cookie."""
    async with cookie_session() as session:
        async with session.get(web.url) as response:
            assert response.status == 200
        yield session


TIMEOUT = 20


class PageSocket:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.ids = 0

    async def send(self, envelope: dict[str, Any]) -> None:
        await self.socket.send_str(json.dumps(envelope))

    async def receive(self) -> dict[str, Any]:
        message = await asyncio.wait_for(self.socket.receive(), TIMEOUT)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        envelope: dict[str, Any] = json.loads(message.data)
        return envelope

    async def request(self, method: str, params: Any) -> list[dict[str, Any]]:
        """Sends a request; returns what arrived up to and including its response."""
        self.ids += 1
        request_id = f"t-{self.ids}"
        await self.send({"kind": "request", "id": request_id, "method": method, "params": params})
        seen = []
        while True:
            envelope = await self.receive()
            seen.append(envelope)
            if envelope.get("kind") == "response" and envelope.get("id") == request_id:
                return seen


URL_LINE = re.compile(r"at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)")


@dataclass
class WebProcess:
    """`wavehost web` as people run it: a real process, its URL read from what it prints."""

    url: str
    process: asyncio.subprocess.Process
    stderr: Path

    @property
    def address(self) -> str:
        return self.url.split("?", 1)[0]


@asynccontextmanager
async def web_process(
    workspace: Workspace,
    dist: Path,
    *args: str,
    env: dict[str, str] | None = None,
    prefix: Sequence[str] = (),
) -> AsyncIterator[WebProcess]:
    """`prefix`: what runs it (`prlimit …`, `setpriv …`)."""
    stderr = workspace.root / "web.stderr"
    environment = {
        **os.environ,
        "HOME": str(workspace.home),
        "WAVEHOST_WEBVIEW_DIST": str(dist),
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    if "WAVEHOST_TOKEN" not in (env or {}):
        environment.pop("WAVEHOST_TOKEN", None)  # a token in the test's own environment
    command = [*prefix, sys.executable, "-m", "wavehost", "--log-level", "DEBUG", "web"]
    with stderr.open("wb") as errors:
        process = await asyncio.create_subprocess_exec(
            *command,
            "--project",
            str(workspace.project),
            *args,
            env=environment,
            stdout=asyncio.subprocess.PIPE,
            stderr=errors,
        )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        match = URL_LINE.search(line.decode())
        assert match, f"no URL in {line!r}; stderr: {stderr.read_text()}"
        yield WebProcess(match.group(1), process, stderr)
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 15)
            except TimeoutError:
                process.kill()
                await process.wait()
