"""A fake model server on 127.0.0.1 speaking the real wire protocols, SSE streaming included.

`POST /v1/messages` answers as the Anthropic Messages API, `POST /v1/chat/completions` as OpenAI
Chat Completions; both stream (under any path prefix, e.g. a proxy's), connections kept alive as
the real APIs keep them. Each request takes the next scripted turn (or asks `respond`): a turn,
an `HttpError` (with the headers a server adds, e.g. `retry-after-ms`), or `RawEvents` sent as
they are (a stream that fails or lies). Every request's path, headers and body are kept for
assertions. Claude Code, the Copilot CLI and the official SDKs talk to it unmodified.
"""

import json
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import SocketStream

from tests.loopback import listening
from wavehost.session.providers.scripted import ScriptedTurn


@dataclass
class HttpError:
    status: int
    message: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class RawEvents:
    """Server-sent events as written (each a complete `event: …\ndata: …\n\n` text)."""

    events: list[str]


@dataclass
class Slow:
    """An answer that comes only after `seconds` (a model call past a hook's timeout)."""

    answer: "ScriptedTurn | HttpError | RawEvents"
    seconds: float


Answer = ScriptedTurn | HttpError | RawEvents | Slow
Responder = Callable[[int, dict[str, Any]], Answer]


@dataclass
class FakeLLM:
    turns: list[Answer] = field(default_factory=list)
    respond: Responder | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request_texts(self) -> list[str]:
        """Each request's strings (keys and values) joined by newlines: what the model saw."""
        return ["\n".join(_strings(r)) for r in self.requests]

    def next_turn(self, body: dict[str, Any]) -> Answer:
        index = len(self.requests)
        self.requests.append(body)
        if self.respond is not None:
            return self.respond(index, body)
        if index < len(self.turns):
            return self.turns[index]
        return HttpError(400, f"the fake server has no turn {index} ({len(self.turns)} scripted)")

    async def handle(self, stream: SocketStream) -> None:
        """Requests one after another on the connection, kept alive as the real APIs keep it,
        until the client closes it."""
        gone = (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError)
        async with stream:
            buffered = b""
            while True:
                try:
                    head, headers, body, buffered = await _read_request(stream, buffered)
                    await self.answer(stream, head, headers, body)
                except (*gone, ValueError):
                    return
                if headers.get("connection", "").lower() == "close":
                    return

    async def answer(
        self, stream: SocketStream, head: str, headers: dict[str, str], body: bytes
    ) -> None:
        method, path, _ = head.split(" ", 2)
        self.paths.append(path)
        self.headers.append(headers)
        payload = json.loads(body or b"{}")
        route = path.partition("?")[0].rstrip("/")  # Claude Code asks for ?beta=true
        speaker = next((s for r, s in SPEAKERS.items() if route.endswith(r)), None)
        if method != "POST" or speaker is None:
            await _send_json(stream, 404, {"error": {"message": f"no route {path}"}})
            return
        turn = self.next_turn(payload)
        if isinstance(turn, Slow):
            await anyio.sleep(turn.seconds)
            turn = turn.answer
        if isinstance(turn, HttpError):
            error = {"type": "error", "error": {"type": "api_error", "message": turn.message}}
            await _send_json(stream, turn.status, error, turn.headers)
        elif isinstance(turn, RawEvents):
            await _send_sse(stream, iter(turn.events))
        else:
            await _send_sse(stream, speaker(turn, payload.get("model", "fake")))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


async def _read_request(
    stream: SocketStream, data: bytes
) -> tuple[str, dict[str, str], bytes, bytes]:
    """The next request on the connection (`data`: what was read of it already): its first
    line, headers, body, and whatever came after the body."""
    while b"\r\n\r\n" not in data:
        data += await stream.receive()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        body += await stream.receive()
    return lines[0], headers, body[:length], body[length:]


async def _send_json(
    stream: SocketStream, status: int, document: Any, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps(document).encode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = (
        f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n{extra}"
        f"Content-Length: {len(body)}\r\nConnection: keep-alive\r\n\r\n"
    )
    await stream.send(head.encode() + body)


async def _send_sse(stream: SocketStream, events: Iterator[str]) -> None:
    head = (
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
        "Transfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n"
    )
    await stream.send(head.encode())
    for event in events:
        data = event.encode()
        await stream.send(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    await stream.send(b"0\r\n\r\n")


def _pieces(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def anthropic_events(turn: ScriptedTurn, model: str) -> Iterator[str]:
    def event(kind: str, data: dict[str, Any]) -> str:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

    message = {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 12, "output_tokens": 1},
    }
    yield event("message_start", {"message": message})
    index = 0
    for text in turn.texts():
        empty = {"type": "text", "text": ""}
        yield event("content_block_start", {"index": index, "content_block": empty})
        yield event("ping", {})
        for piece in _pieces(text):
            delta = {"type": "text_delta", "text": piece}
            yield event("content_block_delta", {"index": index, "delta": delta})
        yield event("content_block_stop", {"index": index})
        index += 1
    for call in turn.tool_calls:
        block = {"type": "tool_use", "id": call.id, "name": call.name, "input": {}}
        yield event("content_block_start", {"index": index, "content_block": block})
        for piece in _pieces(json.dumps(call.input), 11):
            delta = {"type": "input_json_delta", "partial_json": piece}
            yield event("content_block_delta", {"index": index, "delta": delta})
        yield event("content_block_stop", {"index": index})
        index += 1
    stop = "tool_use" if turn.tool_calls else "end_turn"
    final = {"stop_reason": stop, "stop_sequence": None}
    yield event("message_delta", {"delta": final, "usage": {"output_tokens": 20}})
    yield event("message_stop", {})


def openai_events(turn: ScriptedTurn, model: str) -> Iterator[str]:
    chunk_id, created = f"chatcmpl-{uuid.uuid4().hex[:20]}", int(time.time())

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        body = {
            "id": chunk_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [choice],
        }
        return f"data: {json.dumps(body)}\n\n"

    yield chunk({"role": "assistant", "content": ""})
    for piece in _pieces(turn.joined()):
        yield chunk({"content": piece})
    for index, call in enumerate(turn.tool_calls):
        start = {"index": index, "id": call.id, "type": "function"}
        yield chunk({"tool_calls": [{**start, "function": {"name": call.name, "arguments": ""}}]})
        for piece in _pieces(json.dumps(call.input), 11):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if turn.tool_calls else "stop")
    yield "data: [DONE]\n\n"


SPEAKERS: dict[str, Callable[[ScriptedTurn, str], Iterator[str]]] = {
    "/v1/messages": anthropic_events,
    "/v1/chat/completions": openai_events,
}


@asynccontextmanager
async def serve(
    turns: Sequence[Answer] = (), respond: Responder | None = None
) -> AsyncIterator[FakeLLM]:
    """Run a FakeLLM on a free 127.0.0.1 port for the duration of the block."""
    fake = FakeLLM(list(turns), respond)
    async with listening(fake.handle) as port:
        fake.port = port
        yield fake
