"""Tabs in browser mode are isolated by chat session: what the server says about a session goes
to the pages attached to it, never to another tab; settings news goes to every page; a file the
server shows goes to the page that asked for it. Two real WebSockets, a real `wavehost serve`."""

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.web.browser import PageSocket, cookie_session, web_in
from tests.workspace import Workspace
from wavehost.protocol import table
from wavehost.web.app import Running

QUIET = 1.0  # seconds a page is watched for what it must not get


@pytest.fixture
async def chat_web(workspace: Workspace, dist: Path) -> AsyncIterator[Running]:
    target = workspace.project / "a.txt"
    write = {"name": "Write", "input": {"file_path": str(target), "content": "x"}}
    turns = [{"text": "", "tool_calls": [write]}, {"text": "written", "tool_calls": []}]
    script = workspace.write(workspace.root / "script.json", {"turns": turns})
    workspace.write(workspace.user_settings, {"provider": "scripted", "script": str(script)})
    async with web_in(workspace, dist, locale="en") as running:
        yield running


@pytest.fixture
async def tabs(chat_web: Running) -> AsyncIterator[Callable[[], Any]]:
    """Opens pages (tabs) of one browser: they share the token's cookie."""
    async with cookie_session() as browser:
        async with browser.get(chat_web.url) as response:
            assert response.status == 200
        sockets: list[aiohttp.ClientWebSocketResponse] = []

        async def tab() -> PageSocket:
            origin = chat_web.address.rstrip("/")
            socket = await browser.ws_connect(f"{chat_web.address}ws", headers={"Origin": origin})
            sockets.append(socket)
            return PageSocket(socket)

        yield tab
        for socket in sockets:
            await socket.close()


async def _open(page: PageSocket, session_id: str) -> dict[str, Any]:
    *_, response = await page.request(
        table.CHAT_OPEN.name, {"sessionId": session_id, "create": True}
    )
    result: dict[str, Any] = response["result"]
    return result


async def _until(
    page: PageSocket, wanted: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """What the page got up to and including the first envelope `wanted` accepts."""
    seen = []
    while True:
        try:
            envelope = await page.receive()
        except TimeoutError:
            raise AssertionError(f"not there; the page got {seen}") from None
        seen.append(envelope)
        if wanted(envelope):
            return seen


async def _quiet(page: PageSocket) -> list[dict[str, Any]]:
    """Everything the page gets in the next moment."""
    seen = []
    try:
        while True:
            message = await asyncio.wait_for(page.socket.receive(), QUIET)
            seen.append(json.loads(message.data))
    except TimeoutError:
        return seen


def _asks(envelope: dict[str, Any]) -> bool:
    return envelope.get("method") == table.CHAT_REQUEST_PERMISSION.name


async def _two_tabs_asked(
    tabs: Callable[[], Any],
) -> tuple[str, tuple[PageSocket, dict[str, Any]], tuple[PageSocket, dict[str, Any]]]:
    """Two tabs on one new session; the first sends a message and both are asked about Write:
    the session id, and each tab with the question it got."""
    first, second = await tabs(), await tabs()
    session_id = str(uuid.uuid4())
    await _open(first, session_id)
    await _open(second, session_id)  # a second tab on the same session
    await first.request(table.CHAT_SEND.name, {"sessionId": session_id, "text": "write"})
    return (
        session_id,
        (first, (await _until(first, _asks))[-1]),
        (second, (await _until(second, _asks))[-1]),
    )


def _about(envelopes: list[dict[str, Any]], session_id: str) -> list[dict[str, Any]]:
    return [e for e in envelopes if session_id in json.dumps(e)]


async def test_a_sessions_updates_and_questions_reach_only_the_pages_attached_to_it(
    tabs: Callable[[], Any], workspace: Workspace
) -> None:
    mine, theirs = await tabs(), await tabs()
    my_session, their_session = str(uuid.uuid4()), str(uuid.uuid4())
    await _open(mine, my_session)
    await _open(theirs, their_session)

    await mine.send(
        {"kind": "request", "id": "s1", "method": table.CHAT_SEND.name,
         "params": {"sessionId": my_session, "text": "write"}}
    )  # fmt: skip
    got = await _until(mine, _asks)
    question = got[-1]
    assert question["params"]["sessionId"] == my_session
    assert any(e.get("method") == table.CHAT_UPDATED.name for e in got)
    assert _about(await _quiet(theirs), my_session) == []  # not the updates, not the question

    await mine.send({"kind": "response", "id": question["id"], "result": {"allow": True}})
    await _until(mine, lambda e: e.get("method") == table.CHAT_UPDATED.name
                 and e["params"]["status"] == "idle")  # fmt: skip
    assert (workspace.project / "a.txt").read_text() == "x"
    assert _about(await _quiet(theirs), my_session) == []


async def test_every_page_of_the_session_is_asked_and_the_first_answer_withdraws_the_rest(
    tabs: Callable[[], Any], workspace: Workspace
) -> None:
    _, (first, asked_first), (second, asked_second) = await _two_tabs_asked(tabs)
    assert asked_first["params"] == asked_second["params"]
    assert asked_first["id"] != asked_second["id"]  # each page is asked under its own id

    await second.send({"kind": "response", "id": asked_second["id"], "result": {"allow": True}})
    withdrawn = (await _until(first, lambda e: e.get("method") == table.CANCEL_REQUEST.name))[-1]
    assert withdrawn["params"] == {"id": asked_first["id"]}
    await _until(first, lambda e: e.get("method") == table.CHAT_UPDATED.name
                 and e["params"]["status"] == "idle")  # fmt: skip
    assert (workspace.project / "a.txt").read_text() == "x"


async def test_stop_withdraws_the_question_from_every_page_of_the_session(
    tabs: Callable[[], Any], workspace: Workspace
) -> None:
    session_id, (first, asked_first), (second, asked_second) = await _two_tabs_asked(tabs)
    asked = {asked_first["id"], asked_second["id"]}

    await first.send({"kind": "request", "id": "stop", "method": table.CHAT_CANCEL.name,
                      "params": {"sessionId": session_id}})  # fmt: skip
    withdrawn = set()
    for page in (first, second):
        got = await _until(page, lambda e: e.get("method") == table.CANCEL_REQUEST.name)
        withdrawn.add(got[-1]["params"]["id"])
        update = await _until(page, lambda e: e.get("method") == table.CHAT_UPDATED.name
                              and e["params"]["pendingPermissions"] == [])  # fmt: skip
        assert update[-1]["params"]["sessionId"] == session_id
    assert withdrawn == asked
    assert not (workspace.project / "a.txt").exists()


async def test_settings_news_reaches_every_page_and_a_shown_file_only_the_page_that_asked(
    tabs: Callable[[], Any], workspace: Workspace
) -> None:
    asker, other = await tabs(), await tabs()
    settings = workspace.user_settings
    seen = await asker.request(table.OPEN_CONFIG_FILE.name, {"path": str(settings)})
    assert [e["kind"] for e in seen] == ["shell", "response"]
    assert seen[0]["command"] == table.SHOW_FILE.name
    assert seen[1]["result"]["opened"] is True
    assert [e for e in await _quiet(other) if e["kind"] == "shell"] == []

    await asker.request(table.HOOKS_LIST.name, {})
    for attempt in range(10):  # the watcher starts in the background: write until it is seen
        workspace.write(settings, {"provider": "scripted", "model": f"m{attempt}"})
        got = await _quiet(other)
        if any(e.get("method") == table.HOOKS_CHANGED.name for e in got):
            break
    else:
        pytest.fail("no wave/hooks/changed after 10 writes")
    assert any(e.get("method") == table.HOOKS_CHANGED.name for e in await _quiet(asker))
