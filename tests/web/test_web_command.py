"""`wavehost web` as a newcomer runs it: ports, Ctrl-C, the locale in the address."""

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.hook_rows import filled
from tests.hooks_doc import hook
from tests.web.browser import URL_LINE, PageSocket, cookie_session, web_process
from tests.workspace import Workspace
from wavehost.protocol import table
from wavehost.web.app import Running


def run_web(
    workspace: Workspace, dist: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    environment |= {"HOME": str(workspace.home), "WAVEHOST_WEBVIEW_DIST": str(dist)}
    return subprocess.run(
        [sys.executable, "-m", "wavehost", "web", "--project", str(workspace.project), *args],
        env=environment | (env or {}), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port someone else listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_port_asked_for_and_taken_is_one_line_with_the_fix(
    workspace: Workspace, dist: Path, taken_port: int
) -> None:
    line = (
        f"wavehost web: port {taken_port} on 127.0.0.1 is in use: choose another with --port N "
        "or WAVEHOST_PORT, or leave both out to get a free one\n"
    )
    for args, env in (
        (["--port", str(taken_port)], {}),
        ([], {"WAVEHOST_PORT": str(taken_port)}),
    ):
        done = run_web(workspace, dist, *args, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", line)


def test_a_port_that_is_no_port_is_one_line(workspace: Workspace, dist: Path) -> None:
    done = run_web(workspace, dist, env={"WAVEHOST_PORT": "http"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "wavehost: WAVEHOST_PORT must be a port from 0 to 65535 (0: any free one), not 'http'\n"
    )


async def test_without_a_port_each_gets_a_free_one_and_says_which(
    workspace: Workspace, dist: Path
) -> None:
    async with (
        web_process(workspace, dist) as first,
        web_process(workspace, dist, env={"WAVEHOST_PORT": ""}) as second,
    ):
        assert first.address != second.address
        async with cookie_session() as session:
            for web in (first, second):
                async with session.get(web.url) as response:
                    assert response.status == 200


async def test_wavehost_port_picks_the_port(workspace: Workspace, dist: Path) -> None:
    port = free_port()
    async with web_process(workspace, dist, env={"WAVEHOST_PORT": str(port)}) as web:
        assert web.address == f"http://127.0.0.1:{port}/"
    async with web_process(workspace, dist, "--port", "0", env={"WAVEHOST_PORT": str(port)}) as web:
        assert web.address != f"http://127.0.0.1:{port}/"  # --port wins over the variable


async def test_untrusted_lists_the_project_hooks_as_inert_and_no_page_can_grant_trust(
    workspace: Workspace, dist: Path
) -> None:
    workspace.write(
        workspace.project_settings,
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook("./guard.sh")]}]}},
    )
    listing = table.HOOKS_LIST.name
    for args, trusted in (((), True), (("--untrusted",), False)):
        async with web_process(workspace, dist, *args) as web, cookie_session() as session:
            async with session.get(web.url) as response:
                assert response.status == 200
            origin = web.address.rstrip("/")
            async with session.ws_connect(f"{web.address}ws", headers={"Origin": origin}) as ws:
                page = PageSocket(ws)
                *_, listed = await page.request(listing, {})
                assert listed["result"]["trusted"] is trusted
                assert [h["untrusted"] for h in filled(listed["result"])["hooks"]] == [
                    None if trusted else True
                ]
                method = table.WORKSPACE_SET_TRUSTED.name
                *_, refused = await page.request(method, {"trusted": True})
                assert refused["error"]["code"] == -32601
                *_, listed = await page.request(listing, {})
                assert listed["result"]["trusted"] is trusted


def test_the_help_lists_untrusted(workspace: Workspace, dist: Path) -> None:
    done = run_web(workspace, dist, "--help")
    assert done.returncode == 0
    assert "--untrusted" in done.stdout
    assert "listed but never run" in " ".join(done.stdout.split())


def test_ctrl_c_stops_it_quietly(workspace: Workspace, dist: Path) -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    web = subprocess.Popen(
        [sys.executable, "-m", "wavehost", "web", "--project", str(workspace.project)],
        env=environment | {"HOME": str(workspace.home), "WAVEHOST_WEBVIEW_DIST": str(dist)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )  # fmt: skip
    assert web.stdout is not None
    assert URL_LINE.search(web.stdout.readline())
    os.killpg(web.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
    out, err = web.communicate(timeout=60)
    assert (web.returncode, out, err) == (0, "", "")


async def page_locale(session: aiohttp.ClientSession, url: str) -> str:
    async with session.get(url) as response:
        assert response.status == 200
        html = await response.text()
    return html.split('data-locale="', 1)[1].split('"', 1)[0]


async def test_the_locale_in_the_address_reaches_the_page(web: Running) -> None:
    async with cookie_session() as session:
        assert await page_locale(session, web.url) == "zh-CN"  # the shell's (--locale)
        assert await page_locale(session, f"{web.url}&locale=en-GB") == "en-GB"
        assert await page_locale(session, f"{web.address}?locale=zh_TW") == "zh_TW"
        # Only a locale tag gets into the HTML; anything else leaves the shell's.
        hostile = '"><script>alert(1)</script>'
        assert await page_locale(session, f"{web.address}?locale={hostile}") == "zh-CN"
