"""OpenAI-compatible Chat Completions through the official `openai` SDK, streamed.

The SDK reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` itself, so any compatible server works.
A tool call's id and name come in its first chunk and its JSON arguments in pieces after it, keyed
by the call's index: they are assembled here and handed over once the stream ends.
"""

import json
import os
import uuid
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Any

from wavehost.session.messages import ModelAssistant, ModelMessage, ModelToolResult, ToolCall
from wavehost.session.providers.base import (
    ModelRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    parse_arguments,
    unreachable,
)


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


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


class OpenAIProvider:
    name = "openai"

    def __init__(self, model: str, api_key: str | None = None) -> None:
        import openai

        self.model = model
        self._sdk = openai
        try:  # the key given, not read by the SDK: it is no longer in os.environ
            self._client = openai.AsyncOpenAI(api_key=api_key)
        except openai.OpenAIError as err:
            raise ProviderError(f"openai: {err}") from err

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]:
        tools: Any = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                },
            }
            for t in request.tools
        ]
        messages: Any = wire_messages(request.system, request.messages)
        calls: dict[int, _PartialCall] = {}
        extra: dict[str, Any] = {"tools": tools} if tools else {}  # `[]` is refused
        if request.output_schema is not None:
            schema = {"name": "answer", "schema": dict(request.output_schema)}
            extra["response_format"] = {"type": "json_schema", "json_schema": schema}
        try:
            stream = await self._client.chat.completions.create(
                model=request.model or self.model,
                messages=messages,
                stream=True,  # no token limit: compatible servers disagree on its name
                **extra,
            )
            async with stream:
                async for chunk in stream:
                    for choice in chunk.choices:
                        delta = choice.delta
                        if delta.content:
                            yield TextDelta(delta.content)
                        for piece in delta.tool_calls or ():
                            call = calls.setdefault(piece.index, _PartialCall())
                            call.id = call.id or piece.id or ""
                            if piece.function is not None:
                                call.name = call.name or piece.function.name or ""
                                call.arguments += piece.function.arguments or ""
        except self._sdk.APIConnectionError as err:
            url = self._client.base_url
            raise unreachable("openai", url, "OPENAI_BASE_URL", err, os.environ) from err
        except self._sdk.OpenAIError as err:
            raise ProviderError(f"openai: {err}") from err
        for index in sorted(calls):
            call = calls[index]
            call_id = call.id or f"call_{uuid.uuid4().hex[:24]}"
            yield ToolCall(call_id, call.name, parse_arguments(call.arguments, call.name))
