"""`wavehost web` as a shell: real `wavehost serve` behind it, a real WebSocket in front of it."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.hooks_doc import hook
from tests.web.browser import TIMEOUT, PageSocket
from tests.workspace import Workspace
from wavehost.protocol import table
from wavehost.web.app import CSP, Running, check_dist
from wavehost.web.lsp_client import ResponseError
from wavehost.web.shell import path_from_uri


@pytest.fixture
async def page(web: Running, browser: aiohttp.ClientSession) -> AsyncIterator[PageSocket]:
    origin = web.address.rstrip("/")
    async with browser.ws_connect(f"{web.address}ws", headers={"Origin": origin}) as socket:
        yield PageSocket(socket)


async def test_the_page_is_served_under_a_strict_csp_with_the_locale(
    web: Running, browser: aiohttp.ClientSession
) -> None:
    async with browser.get(web.address) as response:
        assert response.status == 200
        assert response.headers["Content-Security-Policy"] == CSP
        assert 'data-locale="zh-CN"' in await response.text()
    async with browser.get(f"{web.address}assets/webview.js") as response:
        assert response.status == 200
        assert response.headers["Content-Security-Policy"] == CSP
    assert "'unsafe-inline'" not in CSP
    assert "'unsafe-eval'" not in CSP


async def test_other_hosts_and_origins_are_refused_even_with_the_token(
    web: Running, browser: aiohttp.ClientSession
) -> None:
    async with browser.get(web.url, headers={"Host": "attacker.example"}) as response:
        assert response.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await browser.ws_connect(f"{web.address}ws", headers={"Origin": "http://attacker.example"})
    assert refused.value.status == 403


async def test_requests_are_relayed_to_the_server(page: PageSocket, workspace: Workspace) -> None:
    *_, response = await page.request("wave/hooks/list", {})
    result = response["result"]
    assert result["project"] == {
        "dir": str(workspace.project),
        "name": "my-app",
        "home": str(workspace.home),
    }
    assert [h["command"] for h in result["hooks"]] == ["./guard.sh"]


async def test_the_servers_errors_reach_the_page_unchanged(page: PageSocket) -> None:
    *_, response = await page.request("wave/hooks/delete", {"id": "no-such-hook"})
    assert response["error"]["code"] == -32803
    assert response["error"]["data"]["reason"] == "notFound"


async def test_only_protocol_methods_are_relayed(page: PageSocket) -> None:
    *_, response = await page.request("shutdown", None)
    assert response["error"] == {"code": -32601, "message": "shutdown is not a wavehost method"}
    # The server is still there.
    *_, response = await page.request("wave/hooks/list", {})
    assert "result" in response


async def test_a_page_cannot_grant_itself_workspace_trust(page: PageSocket) -> None:
    # Trust is the user's to give through the shell; the table marks the method shell-only.
    assert table.WORKSPACE_SET_TRUSTED.shell_only
    method = table.WORKSPACE_SET_TRUSTED.name
    *_, response = await page.request(method, {"trusted": True})
    assert response["error"] == {"code": -32601, "message": f"{method} is not a wavehost method"}


async def test_open_config_file_shows_it_in_the_page_before_answering(
    page: PageSocket, workspace: Workspace
) -> None:
    seen = await page.request("wave/openConfigFile", {"path": str(workspace.project_settings)})
    assert [e["kind"] for e in seen] == ["shell", "response"]
    assert seen[0]["command"] == "showFile"
    assert seen[0]["args"]["path"] == str(workspace.project_settings)
    assert seen[0]["args"]["content"] == workspace.project_settings.read_text()
    assert seen[1]["result"]["opened"] is True


async def test_close_settings_and_open_chat_switch_the_page_to_the_chat(page: PageSocket) -> None:
    await page.send({"kind": "shell", "command": "closeSettings", "args": {}})
    assert await page.receive() == {
        "kind": "shell",
        "command": "showView",
        "args": {"view": "chat", "hookId": None},
    }
    await page.send({"kind": "shell", "command": "openChat", "args": {"prefill": "帮我配一个"}})
    assert await page.receive() == {
        "kind": "shell",
        "command": "showView",
        "args": {"view": "chat", "hookId": None},
    }
    assert await page.receive() == {
        "kind": "shell",
        "command": "prefill",
        "args": {"text": "帮我配一个"},
    }
    await page.send({"kind": "shell", "command": "openSettings", "args": {}})
    assert (await page.receive())["args"] == {"view": "settings", "hookId": None}


async def test_open_settings_with_a_hook_id_shows_the_settings_view_at_that_row(
    page: PageSocket,
) -> None:
    # A chat's "Show in settings": browser mode has one page, switched to the settings view with
    # the row to show (IDE shells send the same showView to their settings page).
    *_, listed = await page.request("wave/hooks/list", {})
    hook_id = listed["result"]["hooks"][0]["id"]
    await page.send({"kind": "shell", "command": "openSettings", "args": {"hookId": hook_id}})
    assert await page.receive() == {
        "kind": "shell",
        "command": "showView",
        "args": {"view": "settings", "hookId": hook_id},
    }
    for args in ({"hookId": ""}, {"hookId": 7}):  # not an id: the settings view, no row
        await page.send({"kind": "shell", "command": "openSettings", "args": args})
        assert (await page.receive())["args"] == {"view": "settings", "hookId": None}


async def test_server_notifications_reach_the_page(page: PageSocket, workspace: Workspace) -> None:
    await page.request("wave/hooks/list", {})
    # The server's watcher starts in the background: write until a change is seen (bounded).
    for attempt in range(10):
        command = f"echo {attempt}"
        workspace.write(workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook(command)]}]}})
        try:
            envelope = await asyncio.wait_for(page.receive(), 3)
            break
        except TimeoutError:
            continue
    else:
        pytest.fail("no wave/hooks/changed after 10 writes")
    assert envelope == {"kind": "notification", "method": "wave/hooks/changed", "params": {}}


async def test_when_the_server_dies_the_page_is_told_why_and_can_restart_it(
    web: Running, page: PageSocket
) -> None:
    process = web.shell.lsp._process
    assert process is not None
    process.kill()
    state = await page.receive()
    assert (state["kind"], state["command"]) == ("shell", "serverState")
    assert state["args"]["running"] is False
    assert "wavehost serve exited with code -9" in state["args"]["reason"]
    # The page stays connected; a request now fails in words instead of hanging.
    [answer] = await page.request("wave/hooks/list", {})
    assert "error" in answer
    await page.send({"kind": "shell", "command": "restartServer", "args": {}})
    state = await page.receive()
    assert (state["command"], state["args"]) == ("serverState", {"running": True, "reason": None})
    restarted = web.shell.lsp._process
    assert restarted is not None
    assert restarted.pid != process.pid
    [listed] = await page.request("wave/hooks/list", {})
    assert "hooks" in listed["result"]


async def test_a_page_that_connects_while_the_server_is_down_hears_it_at_once(
    web: Running, browser: aiohttp.ClientSession
) -> None:
    process = web.shell.lsp._process
    assert process is not None
    process.kill()
    await process.wait()
    origin = web.address.rstrip("/")
    async with browser.ws_connect(f"{web.address}ws", headers={"Origin": origin}) as socket:
        state = await PageSocket(socket).receive()
    assert state["command"] == "serverState"
    assert state["args"]["running"] is False


async def test_a_restart_that_cannot_start_says_why(
    web: Running, page: PageSocket, workspace: Workspace
) -> None:
    process = web.shell.lsp._process
    assert process is not None
    process.kill()
    assert (await page.receive())["args"]["running"] is False
    web.shell._command = [str(workspace.root / "no-such-wavehost"), "serve"]
    await page.send({"kind": "shell", "command": "restartServer", "args": {}})
    state = await page.receive()
    assert state["args"]["running"] is False
    assert "no-such-wavehost" in state["args"]["reason"]


def test_a_missing_build_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"the webview is not built: .*index\.html"):
        check_dist(tmp_path)


def test_file_uris_become_paths() -> None:
    assert path_from_uri("file:///tmp/a%20b/settings.json") == Path("/tmp/a b/settings.json")
    assert path_from_uri("https://example.com/x") is None


def _only_page(web: Running) -> str:
    (page_id,) = web.shell.pages
    return page_id


async def test_a_server_request_is_asked_of_the_page_it_names(
    web: Running, page: PageSocket
) -> None:
    # The relay itself, without a turn: the server names the page, the shell asks it.
    params = {"sessionId": "s1", "toolName": "Write"}
    named = {**params, table.PAGE_IDS: [_only_page(web)]}
    asked = asyncio.create_task(web.shell._ask_page(table.CHAT_REQUEST_PERMISSION.name, named, 1))
    request = await page.receive()
    assert request["kind"] == "request"
    assert (request["method"], request["params"]) == (table.CHAT_REQUEST_PERMISSION.name, params)
    await page.send({"kind": "response", "id": request["id"], "result": {"allow": True}})
    assert await asyncio.wait_for(asked, TIMEOUT) == {"allow": True}


async def test_a_question_to_a_page_that_closes_fails_instead_of_hanging(
    web: Running, page: PageSocket
) -> None:
    named = {"sessionId": "s1", table.PAGE_IDS: [_only_page(web)]}
    asked = asyncio.create_task(web.shell._ask_page(table.CHAT_REQUEST_PERMISSION.name, named, 1))
    await page.receive()
    await page.socket.close()
    with pytest.raises(ResponseError, match="the page was closed"):
        await asyncio.wait_for(asked, TIMEOUT)


async def test_a_question_for_a_page_that_is_not_there_fails_at_once(
    web: Running, page: PageSocket
) -> None:
    named = {"sessionId": "s1", table.PAGE_IDS: ["tab-gone"]}
    with pytest.raises(ResponseError, match="the page asked is not open"):
        await web.shell._ask_page(table.CHAT_REQUEST_PERMISSION.name, named, 1)


async def test_a_withdrawn_question_reaches_the_page_in_the_order_the_server_sent_it(
    web: Running, page: PageSocket
) -> None:
    # The server's messages as the shell reads them, several in one read: a question, then its
    # withdrawal and an update in one batch. The page hears the withdrawal first, as it was sent.
    lsp, to_page = web.shell.lsp, [_only_page(web)]
    question = {"sessionId": "s1", "toolName": "Write", table.PAGE_IDS: to_page}
    lsp._dispatch({"id": "q1", "method": table.CHAT_REQUEST_PERMISSION.name, "params": question})
    asked = await page.receive()
    assert asked["method"] == table.CHAT_REQUEST_PERMISSION.name
    update = {"sessionId": "s1", "deltas": [], "pendingPermissions": [], table.PAGE_IDS: to_page}
    lsp._dispatch({"method": table.CANCEL_REQUEST.name, "params": {"id": "q1"}})
    lsp._dispatch({"method": table.CHAT_UPDATED.name, "params": update})
    got = [await page.receive(), await page.receive()]
    assert [e["method"] for e in got] == [table.CANCEL_REQUEST.name, table.CHAT_UPDATED.name]
    assert got[0]["params"] == {"id": asked["id"]}
