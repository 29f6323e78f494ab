"""The routing scenarios (scenarios.json) against browser mode: a real `wavehost web` in this
process, a real `wavehost serve` behind it, each page a real WebSocket. The same file is run by
the VS Code relay's and the JetBrains relay's tests."""

import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.web.browser import TIMEOUT, cookie_session, web_in
from tests.workspace import Workspace
from wavehost.protocol import table
from wavehost.web.app import Running

SCENARIOS = json.loads((Path(__file__).parent / "scenarios.json").read_text(encoding="utf-8"))
WAIT = 30  # seconds any one wait may take


def _script(project: Path) -> dict[str, Any]:
    text = json.dumps(SCENARIOS["script"]).replace("{project}", str(project))
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@dataclass
class _Page:
    socket: aiohttp.ClientWebSocketResponse
    inbox: list[dict[str, Any]] = field(default_factory=list)
    taken: set[int] = field(default_factory=set)  # what earlier waits took (by inbox index)
    mark: int = 0  # the inbox's length when the page's last step was done
    ids: int = 0
    question: dict[str, Any] | None = None  # the question it was last asked
    snapshots: dict[str, dict[str, Any]] = field(default_factory=dict)  # by session name

    async def _next(self) -> dict[str, Any]:
        message = await self.socket.receive(timeout=WAIT)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        envelope: dict[str, Any] = json.loads(message.data)
        self.inbox.append(envelope)
        return envelope

    async def wait(self, what: str, wanted: Any) -> dict[str, Any]:
        """The first envelope no earlier wait took that `wanted` accepts (waiting for it)."""
        looked = 0
        while True:
            for index in range(looked, len(self.inbox)):
                if index not in self.taken and wanted(self.inbox[index]):
                    self.taken.add(index)
                    return self.inbox[index]
            looked = len(self.inbox)
            try:
                await self._next()
            except TimeoutError:
                pytest.fail(f"no {what} within {WAIT} s; the page got {self.inbox}")

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        request_id = f"r{self.ids}"
        await self.socket.send_json(
            {"kind": "request", "id": request_id, "method": method, "params": params}
        )
        response = await self.wait(
            f"answer to {method}", lambda e: e["kind"] == "response" and e["id"] == request_id
        )
        assert "result" in response, response
        result: dict[str, Any] = response["result"]
        return result


@dataclass
class _Run:
    running: Running
    browser: aiohttp.ClientSession
    project: Path
    sessions: dict[str, str] = field(default_factory=dict)
    pages: dict[str, _Page] = field(default_factory=dict)

    def session(self, name: str) -> str:
        return self.sessions.setdefault(name, str(uuid.uuid4()))

    async def page(self, name: str) -> _Page:
        if name not in self.pages:
            origin = self.running.address.rstrip("/")
            socket = await self.browser.ws_connect(
                f"{self.running.address}ws", headers={"Origin": origin}
            )
            self.pages[name] = _Page(socket)
        return self.pages[name]

    def _about(self, envelope: dict[str, Any], name: str) -> bool:
        params = envelope.get("params")
        return isinstance(params, dict) and params.get("sessionId") == self.session(name)

    async def step(self, step: dict[str, Any]) -> None:
        if "file" in step:
            target = self.project / step["file"]
            if step.get("absent"):
                assert not target.exists()
            else:
                assert target.read_text() == step["content"]
            return
        page = await self.page(step["page"])
        if "open" in step:
            params: dict[str, Any] = {"sessionId": self.session(step["open"]), "create": True}
            if "pageId" in step:
                params[table.PAGE_ID] = step["pageId"]
            snapshot = await page.request(table.CHAT_OPEN.name, params)
            assert snapshot["sessionId"] == params["sessionId"]
            page.snapshots[step["open"]] = snapshot
        elif "send" in step:
            sent = {"sessionId": self.session(step["send"]), "text": "go"}
            await page.request(table.CHAT_SEND.name, sent)
        elif "cancel" in step:
            await page.request(table.CHAT_CANCEL.name, {"sessionId": self.session(step["cancel"])})
        elif "close" in step:
            await page.request(table.CHAT_CLOSE.name, {"sessionId": self.session(step["close"])})
        elif "asked" in step:
            page.question = await page.wait(
                "permission question",
                lambda e: (
                    e["kind"] == "request"
                    and e["method"] == table.CHAT_REQUEST_PERMISSION.name
                    and self._about(e, step["asked"])
                ),
            )
            assert table.PAGE_IDS not in page.question["params"]
        elif "allow" in step:
            assert page.question is not None
            answer = {"kind": "response", "id": page.question["id"], "result": {"allow": True}}
            await page.socket.send_json(answer)
        elif "withdrawn" in step:
            assert page.question is not None
            asked_as = page.question["id"]
            await page.wait(
                "withdrawal",
                lambda e: (
                    e.get("method") == table.CANCEL_REQUEST.name and e["params"] == {"id": asked_as}
                ),
            )
        elif "idle" in step:
            await page.wait(
                "idle update",
                lambda e: (
                    e.get("method") == table.CHAT_UPDATED.name
                    and self._about(e, step["idle"])
                    and e["params"]["status"] == "idle"
                ),
            )
        elif "pending" in step:
            assert len(page.snapshots[step["pending"]]["pendingPermissions"]) == 1
        elif "answer" in step:
            (question,) = page.snapshots[step["answer"]]["pendingPermissions"]
            params = {
                "sessionId": self.session(step["answer"]),
                "toolUseId": question["toolUseId"],
                "allow": True,
            }
            assert (await page.request(table.CHAT_ANSWER_PERMISSION.name, params))["answered"]
        elif "quiet" in step:
            await page.request(table.HOOKS_LIST.name, {})
            heard = [e for e in page.inbox[page.mark :] if self._about(e, step["quiet"])]
            assert heard == [], f"the page heard of {step['quiet']}"
        elif "gone" in step:
            await page.socket.close()
            del self.pages[step["page"]]
            return
        else:
            raise AssertionError(f"unknown step {step}")
        page.mark = len(page.inbox)


@pytest.fixture
async def run(workspace: Workspace, dist: Path) -> AsyncIterator[_Run]:
    script = workspace.write(workspace.root / "script.json", _script(workspace.project))
    env = {"WAVE_PROVIDER": "scripted", "WAVE_SCRIPT": str(script)}
    async with web_in(workspace, dist, env=env) as running, cookie_session() as browser:
        async with browser.get(running.url) as response:
            assert response.status == 200
        scenario = _Run(running, browser, workspace.project)
        yield scenario
        for page in scenario.pages.values():
            await page.socket.close()


CASES = SCENARIOS["scenarios"]


@pytest.mark.parametrize("scenario", CASES, ids=[s["name"].split(":")[0] for s in CASES])
async def test_routing_scenario(run: _Run, scenario: dict[str, Any]) -> None:
    for number, step in enumerate(scenario["steps"], 1):
        try:
            await run.step(step)
        except AssertionError as err:
            raise AssertionError(f"{scenario['name']}, step {number} {step}: {err}") from err


def test_the_scenarios_cover_the_cases_the_shells_must_agree_on() -> None:
    names = [s["name"].split(":")[0] for s in SCENARIOS["scenarios"]]
    for case in ("open", "attach", "two pages on one session", "re-attach after reload"):
        assert case in names
    for case in ("page gone mid-question", "close", "cancel"):
        assert case in names
    assert TIMEOUT <= WAIT
