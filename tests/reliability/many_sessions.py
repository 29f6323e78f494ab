"""Many chat sessions through one real `wavehost serve`, all at once, each turn a real model
request to the fake Anthropic server (the `anthropic` provider, over HTTP).

Used by the reliability suite (which asserts 0 errors and 0 cross-talk at a small size) and by
bench/sessions.py (which times 50 sessions × 100 turns). Every prompt carries its session's and
turn's token, and the fake model answers with the token of the last prompt it was sent: a reply,
an update or a transcript holding another session's token is cross-talk. Each session sends its
turns one after the other, as a user does; the sessions run together. A turn's latency is from
sending the prompt to the page's view (`ChatView`, built from `wave/chat/updated`) showing it
idle with the reply.
"""

import asyncio
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.lsp.client import ChatView
from tests.session.fake_llm import serve
from tests.workspace import Workspace
from wavehost import paths
from wavehost.protocol import table
from wavehost.session.providers.scripted import ScriptedTurn

TOKEN = re.compile(r"s\d+-t\d+")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def token(session: int, turn: int) -> str:
    return f"s{session}-t{turn}"


def answer(_index: int, body: dict[str, Any]) -> ScriptedTurn:
    """The fake model's reply: the token of the last user text it was sent."""
    last = body["messages"][-1]["content"]
    texts = [last] if isinstance(last, str) else [b.get("text", "") for b in last]
    found = TOKEN.findall(" ".join(texts))
    return ScriptedTurn(text=f"ack {found[-1] if found else 'nothing'}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


@dataclass
class Outcome:
    sessions: int
    turns: int
    errors: list[str] = field(default_factory=list)
    cross_talk: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # seconds per turn
    seconds: float = 0.0  # all the turns, wall
    server_cpu: float = 0.0  # seconds the server spent during the turns
    model_requests: int = 0

    def figures(self) -> dict[str, Any]:
        done = len(self.latencies)
        ordered = sorted(self.latencies) or [0.0]
        return {
            "sessions": self.sessions,
            "turns_each": self.turns,
            "turns_done": done,
            "errors": len(self.errors),
            "cross_talk": len(self.cross_talk),
            "server_cpu_ms_per_turn": round(1000 * self.server_cpu / max(done, 1), 2),
            "latency_p50_ms": round(1000 * ordered[len(ordered) // 2], 1),
            "latency_p99_ms": round(
                1000 * ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)], 1
            ),
            "turns_per_second": round(done / self.seconds, 1) if self.seconds else 0.0,
        }


class Client:
    """A lean LSP client over the server's pipes: responses to futures, each session's updates
    into its `ChatView` (waking only that session's waiter)."""

    def __init__(self, process: asyncio.subprocess.Process, home: Path) -> None:
        self.process = process
        self.home = home
        self.views: dict[str, ChatView] = {}
        self.changed: dict[str, asyncio.Event] = {}
        self.foreign: list[str] = []  # updates for sessions nobody opened
        self._ids = 0
        self._waiting: dict[int, asyncio.Future[Any]] = {}

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async def call(self, method: str, params: Any) -> Any:
        self._ids += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[self._ids] = future
        self.send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := await stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line:
                for future in self._waiting.values():
                    future.set_exception(EOFError("the server closed its output"))
                return
            self.receive(json.loads(await stream.readexactly(length)))

    def receive(self, message: dict[str, Any]) -> None:
        if "method" not in message:
            future = self._waiting.pop(message["id"])
            if "error" in message:
                future.set_exception(RuntimeError(json.dumps(message["error"])))
            else:
                future.set_result(message.get("result"))
            return
        if "id" in message:  # a request to the client: nothing to ask here
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        if message["method"] == table.CHAT_UPDATED.name:
            session_id = message["params"]["sessionId"]
            view = self.views.get(session_id)
            if view is None:
                self.foreign.append(session_id)
                return
            view.apply(message["params"])
            self.changed[session_id].set()

    async def until(self, session_id: str, condition: Callable[[ChatView], bool]) -> ChatView:
        view, changed = self.views[session_id], self.changed[session_id]
        while not condition(view):
            changed.clear()
            await changed.wait()
        return view


def replies(view: ChatView) -> list[str]:
    """The texts of the assistant's messages, in order."""
    texts = []
    for message in view.messages:
        if message["role"] == "assistant":
            texts.append(
                "".join(b.get("text", "") for b in message["blocks"] if b["type"] == "text")
            )
    return texts


def tokens_in(value: Any) -> set[str]:
    return set(TOKEN.findall(json.dumps(value, ensure_ascii=False)))


async def _open(client: Client) -> str:
    opened = await client.call(table.CHAT_OPEN.name, {"create": True, "provider": "anthropic"})
    session_id: str = opened["sessionId"]
    client.views[session_id] = ChatView(messages=list(opened["messages"]))
    client.changed[session_id] = asyncio.Event()
    return session_id


async def _session(
    client: Client, session_id: str, index: int, turns: int, outcome: Outcome, limit: float
) -> None:
    view = client.views[session_id]
    mine = {token(index, t) for t in range(turns)}
    for turn in range(turns):
        wanted = f"ack {token(index, turn)}"
        began = time.perf_counter()
        try:
            await client.call(
                table.CHAT_SEND.name,
                {"sessionId": session_id, "text": f"turn {token(index, turn)}"},
            )
            await asyncio.wait_for(
                client.until(
                    session_id,
                    lambda v, wanted=wanted: (
                        v.status == "idle" and v.queued == 0 and wanted in replies(v)
                    ),
                ),
                limit,
            )
        except Exception as err:  # TimeoutError included
            outcome.errors.append(f"session {index} turn {turn}: {type(err).__name__}: {err}")
            return
        outcome.latencies.append(time.perf_counter() - began)
        if foreign := tokens_in(view.messages) - mine:
            outcome.cross_talk.append(f"session {index} shows {sorted(foreign)}")
            return
        for notice in (b for m in view.messages if m["role"] == "assistant" for b in m["blocks"]):
            if notice["type"] == "notice" and notice.get("level") == "error":
                outcome.errors.append(f"session {index} turn {turn}: {notice.get('text')}")
                return
    expected = [f"ack {token(index, t)}" for t in range(turns)]
    if replies(view) != expected:
        outcome.cross_talk.append(f"session {index} replies {replies(view)[:3]}…")
    saved = json.loads(paths.transcript_path(session_id, client.home).read_text())
    if tokens_in(saved) != mine:
        outcome.cross_talk.append(f"session {index}'s transcript holds {sorted(tokens_in(saved))}")


SERVE = [sys.executable, "-m", "wavehost", "serve"]


async def run(
    workspace: Workspace,
    sessions: int,
    turns: int,
    *,
    limit: float = 120.0,
    server_env: dict[str, str] | None = None,
) -> Outcome:
    """`sessions` sessions of `turns` turns each, at once, through one server (the server's CPU
    counted from when they are all open)."""
    outcome = Outcome(sessions, turns)
    async with serve(respond=answer) as llm:
        env = {
            **os.environ,
            "HOME": str(workspace.home),
            "ANTHROPIC_BASE_URL": llm.url,
            "ANTHROPIC_API_KEY": "many-sessions",
            **(server_env or {}),
        }
        process = await asyncio.create_subprocess_exec(
            *SERVE,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, cwd=workspace.project, env=env,
        )  # fmt: skip
        client = Client(process, workspace.home)
        reader = asyncio.create_task(client.read())
        try:
            options = {"projectDir": str(workspace.project)}
            params = {"processId": None, "capabilities": {}, "initializationOptions": options}
            await client.call("initialize", params)
            client.notify("initialized", {})
            opened = await asyncio.gather(*(_open(client) for _ in range(sessions)))
            cpu_before, began = cpu_seconds(process.pid), time.perf_counter()
            await asyncio.gather(
                *(_session(client, s, i, turns, outcome, limit) for i, s in enumerate(opened))
            )
            outcome.seconds = time.perf_counter() - began
            outcome.server_cpu = cpu_seconds(process.pid) - cpu_before
            outcome.model_requests = len(llm.requests)
            if client.foreign:
                outcome.cross_talk.append(f"updates for unknown sessions {client.foreign[:3]}")
            await client.call("shutdown", None)
            client.notify("exit", None)
            await asyncio.wait_for(process.wait(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            reader.cancel()
    return outcome
