"""Fixtures for browser mode: a stand-in webview build, a running `wavehost web` (in this process,
with a real `wavehost serve` behind it) and a client that came in through the printed URL."""

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from tests.workspace import Workspace, hook
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


@pytest.fixture
async def web(workspace: Workspace, dist: Path) -> AsyncIterator[Running]:
    workspace.write(
        workspace.project_settings,
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("./guard.sh")]}]}},
    )
    env = {**os.environ, "HOME": str(workspace.home)}
    running = await start(workspace.project, locale="zh-CN", dist=dist, env=env)
    try:
        yield running
    finally:
        await running.stop()


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
    workspace: Workspace, dist: Path, *args: str, env: dict[str, str] | None = None
) -> AsyncIterator[WebProcess]:
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
    command = [sys.executable, "-m", "wavehost", "--log-level", "DEBUG", "web"]
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
