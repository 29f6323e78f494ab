"""OpenAI-compatible Chat Completions, streamed, spoken over HTTP as the official SDK speaks it.

`OPENAI_API_KEY` travels as a bearer token to `$OPENAI_BASE_URL/chat/completions` (default
`https://api.openai.com/v1`), so any compatible server works; `OPENAI_ORG_ID` and
`OPENAI_PROJECT_ID` as the SDK sends them. A tool call's id and name come in its first chunk and
its JSON arguments in pieces after it, keyed by the call's index: they are assembled here and
handed over once the stream ends. Why not through the official SDK: `providers/http.py`.
"""

import functools
import json
import uuid
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

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def wire_messages(system: str, messages: Sequence[ModelMessage]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for message in messages:
        if isinstance(message, ModelAssistant):
            turn: dict[str, Any] = {"role": "assistant", "content": message.text or None}
            if message.calls:
                turn["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.input)},
                    }
                    for call in message.calls
                ]
            out.append(turn)
        elif isinstance(message, ModelToolResult):
            out.append({"role": "tool", "tool_call_id": message.call_id, "content": message.text})
        else:
            out.append({"role": "user", "content": message.text})
    return out


def wire_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description,
                "parameters": t.input_schema,
            },
        }
        for t in tools
    ]


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


def request_headers(env: Mapping[str, str]) -> dict[str, str]:
    headers = {"authorization": f"Bearer {env.get('OPENAI_API_KEY', '')}"}
    if organization := env.get("OPENAI_ORG_ID"):
        headers["openai-organization"] = organization
    if project := env.get("OPENAI_PROJECT_ID"):
        headers["openai-project"] = project
    return headers


class OpenAIProvider:
    name = "openai"

    def __init__(self, model: str, env: Mapping[str, str]) -> None:
        self.model = model
        base = env.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
        unreached = functools.partial(unreachable, self.name, base, "OPENAI_BASE_URL", env=env)
        self._url = base.rstrip("/") + "/chat/completions"
        self._headers = request_headers(env)
        self._connection = Connection(self.name, self._url, unreached)

    async def aclose(self) -> None:
        await self._connection.aclose()

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]:
        tools = wire_tools(request.tools)
        body: dict[str, Any] = {
            "model": request.model or self.model,
            "messages": wire_messages(request.system, request.messages),
            "stream": True,  # no token limit: compatible servers disagree on its name
        }
        if tools:  # `[]` is refused
            body["tools"] = tools
        if request.output_schema is not None:
            schema = {"name": "answer", "schema": dict(request.output_schema)}
            body["response_format"] = {"type": "json_schema", "json_schema": schema}
        calls: dict[int, _PartialCall] = {}
        events = self._connection.events(self._headers, body)
        async with aclosing(events):  # an interrupt closes the HTTP stream now
            async for event in events:
                if event.data.strip() == "[DONE]":
                    break
                chunk = event_data(self.name, event)
                if "error" in chunk:  # a compatible server's way of failing mid-stream
                    raise ProviderError(f"{self.name}: {error_text(chunk)}")
                try:
                    for choice in chunk.get("choices") or ():
                        delta = choice.get("delta") or {}
                        if content := delta.get("content"):
                            yield TextDelta(as_string(content))
                        for piece in delta.get("tool_calls") or ():
                            if not isinstance(piece["index"], int):
                                raise TypeError("a tool call's index is not a number")
                            call = calls.setdefault(piece["index"], _PartialCall())
                            call.id = call.id or as_string(piece.get("id") or "")
                            function = piece.get("function") or {}
                            call.name = call.name or as_string(function.get("name") or "")
                            call.arguments += as_string(function.get("arguments") or "")
                except (AttributeError, KeyError, TypeError) as err:
                    raise ProviderError(f"{self.name}: the server sent a malformed chunk") from err
        for index in sorted(calls):
            call = calls[index]
            call_id = call.id or f"call_{uuid.uuid4().hex[:24]}"
            yield ToolCall(call_id, call.name, parse_arguments(call.arguments, call.name))
