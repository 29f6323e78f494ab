"""Another local user cannot shut browser mode out by opening connections and saying nothing.

Before: 1,100 idle connections without the token used up the descriptors of `wavehost web`
(1,024 here: the test starts it under `prlimit`), the tab's requests timed out, and stderr took
1.5 MB/s of accept() tracebacks.
"""

import asyncio
import contextlib
import json
import os
import resource
import socket
import time
from pathlib import Path

import aiohttp

from tests.reliability.figures import record
from tests.web.browser import cookie_session, stand_in_dist, web_process
from tests.workspace import Workspace
from wavehost.protocol import table
from wavehost.web.app import Running
from wavehost.web.shell import MAX_IN_FLIGHT

IDLE = 1_100
LIMIT = ("prlimit", "--nofile=1024:1024")


def port_of(url: str) -> int:
    return int(url.split("?", 1)[0].rstrip("/").rsplit(":", 1)[1])


def idle_connections(port: int, count: int) -> list[socket.socket]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * count)), hard))
    opened = []
    for _ in range(count):
        connection = socket.socket()
        connection.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            connection.connect(("127.0.0.1", port))
        opened.append(connection)
    return opened


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def test_idle_connections_without_the_token_cannot_lock_the_tab_out(
    workspace: Workspace, tmp_path: Path
) -> None:
    workspace.project.mkdir(parents=True, exist_ok=True)
    async with web_process(workspace, stand_in_dist(tmp_path), prefix=LIMIT) as web:
        flood = idle_connections(port_of(web.url), IDLE)
        try:
            await asyncio.sleep(2)  # accepted (or refused) by now
            began = time.monotonic()
            async with cookie_session() as session:
                async with session.get(web.url, timeout=aiohttp.ClientTimeout(total=30)) as page:
                    assert page.status == 200  # the tab gets in, token and all
                answered_s = time.monotonic() - began
            deadline = time.monotonic() + 60  # the idle ones are let go
            while time.monotonic() < deadline and descriptors(web.process.pid) > 32:
                await asyncio.sleep(1)
            left = descriptors(web.process.pid)
        finally:
            for connection in flood:
                connection.close()
        stderr_bytes = web.stderr.stat().st_size
    record(
        "browser flood", idle=IDLE, tab_answered_s=round(answered_s, 2), stderr_bytes=stderr_bytes
    )
    assert left <= 32  # its own few: every idle connection was closed
    assert stderr_bytes < 200_000  # no traceback per refused accept()


async def test_a_page_flooding_requests_is_not_read_past_its_in_flight_cap(
    web: Running, browser: aiohttp.ClientSession
) -> None:
    """An authenticated request flood (responses never read) grew the web process without
    bound: every request became a task holding its answer."""
    origin = web.address.rstrip("/")
    async with browser.ws_connect(f"{web.address}ws", headers={"Origin": origin}) as ws:
        envelope = {"kind": "request", "method": table.HOOKS_LIST.name, "params": {}}
        sent = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):  # until the socket pushes back, or 5,000 sent
                while sent < 5_000:
                    await ws.send_str(json.dumps({**envelope, "id": f"f-{sent}"}))
                    sent += 1
        await asyncio.sleep(2)  # whatever was read is relayed by now
        waiting = len(web.shell._tasks) + len(web.shell.lsp._pending)
    record("browser flood", requests_sent=sent, waiting_in_web=waiting)
    assert MAX_IN_FLIGHT <= 64
    assert waiting <= 200  # a task and a pending answer each, per slot; 2,537 without the cap
