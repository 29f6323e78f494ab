"""Anthropic Messages API, streamed, spoken over HTTP as Claude Code speaks it.

`ANTHROPIC_API_KEY` travels as `x-api-key`, `ANTHROPIC_AUTH_TOKEN` as a bearer token, to
`$ANTHROPIC_BASE_URL/v1/messages` (default `https://api.anthropic.com`), with the
`anthropic-version` Claude Code sends and any `ANTHROPIC_CUSTOM_HEADERS` ("Name: value" lines).
Why not through the official SDK: `providers/http.py`.
"""

import functools
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

from wavehost.session.messages import ModelAssistant, ModelMessage, ModelToolResult, ToolCall
from wavehost.session.providers.base import (
    ModelRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    ToolSpec,
    parse_arguments,
    unreachable,
)
from wavehost.session.providers.http import Connection, as_string, error_text, event_data

DEFAULT_BASE_URL = "https://api.anthropic.com"
API_VERSION = "2023-06-01"


def wire_messages(messages: Sequence[ModelMessage]) -> list[dict[str, Any]]:
    """Neutral messages as Messages API turns; consecutive same-role turns are merged (tool
    results and isMeta hook text both travel in user turns)."""
    turns: list[dict[str, Any]] = []

    def add(role: str, block: dict[str, Any]) -> None:
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].append(block)
        else:
            turns.append({"role": role, "content": [block]})

    for message in messages:
        if isinstance(message, ModelAssistant):
            if message.text:
                add("assistant", {"type": "text", "text": message.text})
            for call in message.calls:
                add(
                    "assistant",
                    {"type": "tool_use", "id": call.id, "name": call.name, "input": call.input},
                )
        elif isinstance(message, ModelToolResult):
            result = {"type": "tool_result", "tool_use_id": message.call_id}
            add("user", {**result, "content": message.text, "is_error": message.is_error})
        elif message.text:  # the API refuses empty text blocks
            add("user", {"type": "text", "text": message.text})
    return turns


def wire_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {"name": t.name, "description": t.description, "input_schema": t.input_schema}
        for t in tools
    ]


def request_headers(env: Mapping[str, str]) -> dict[str, str]:
    headers = {"anthropic-version": API_VERSION}
    for line in env.get("ANTHROPIC_CUSTOM_HEADERS", "").splitlines():
        name, colon, value = line.partition(":")
        if colon and name.strip():
            headers[name.strip().lower()] = value.strip()
    if token := env.get("ANTHROPIC_AUTH_TOKEN"):
        headers["authorization"] = f"Bearer {token}"
    if key := env.get("ANTHROPIC_API_KEY"):
        headers["x-api-key"] = key
    return headers


@dataclass
class _Block:
    """A content block being streamed: text, or a tool call whose JSON input comes in pieces."""

    type: str
    id: str = ""
    name: str = ""
    input: Any = None  # as the block's start gave it (the pieces of JSON normally follow)
    input_json: str = ""

    def arguments(self) -> dict[str, Any]:
        if self.input_json or not isinstance(self.input, dict):
            return parse_arguments(self.input_json, self.name)
        return dict(self.input)


class AnthropicProvider:
    name = "anthropic"

    def __init__(self, model: str, env: Mapping[str, str]) -> None:
        self.model = model
        base = env.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL
        unreached = functools.partial(unreachable, self.name, base, "ANTHROPIC_BASE_URL", env=env)
        self._url = base.rstrip("/") + "/v1/messages"
        self._headers = request_headers(env)
        self._connection = Connection(self.name, self._url, unreached)

    async def aclose(self) -> None:
        await self._connection.aclose()

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]:
        body: dict[str, Any] = {
            "model": request.model or self.model,
            "max_tokens": request.max_tokens,
            "system": request.system,
            "messages": wire_messages(request.messages),
            "tools": wire_tools(request.tools),
            "stream": True,
        }
        if request.output_schema is not None:  # structured output, as Claude Code asks for it
            answer = {"type": "json_schema", "schema": request.output_schema}
            body["output_config"] = {"format": answer}
        blocks: dict[int, _Block] = {}
        new_block = False  # the model's text blocks stay blocks (Stop joins them by \n)
        events = self._connection.events(self._headers, body)
        async with aclosing(events):  # an interrupt closes the HTTP stream now
            async for event in events:
                if event.event == "ping":
                    continue
                data = event_data(self.name, event)
                kind = data.get("type")
                try:
                    if kind == "content_block_start":
                        start = data["content_block"]
                        block = _Block(
                            as_string(start["type"]),
                            as_string(start.get("id", "")),
                            as_string(start.get("name", "")),
                            start.get("input"),
                        )
                        blocks[data["index"]] = block
                        new_block = block.type == "text"
                        if new_block and start.get("text"):
                            yield TextDelta(as_string(start["text"]), starts_block=True)
                            new_block = False
                    elif kind == "content_block_delta":
                        delta, block = data["delta"], blocks[data["index"]]
                        if delta["type"] == "text_delta" and block.type == "text":
                            yield TextDelta(as_string(delta["text"]), starts_block=new_block)
                            new_block = False
                        elif delta["type"] == "input_json_delta":
                            block.input_json += as_string(delta["partial_json"])
                    elif kind == "content_block_stop":
                        block = blocks.pop(data["index"])
                        if block.type == "tool_use":
                            yield ToolCall(block.id, block.name, block.arguments())
                    elif kind == "error":
                        raise ProviderError(f"{self.name}: {error_text(data)}")
                except (KeyError, TypeError) as err:
                    raise ProviderError(
                        f"{self.name}: the server sent a malformed {kind} event"
                    ) from err
