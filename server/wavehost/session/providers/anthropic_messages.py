"""Anthropic Messages API through the official `anthropic` SDK, streamed.

The SDK reads `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` itself. It is imported on first use:
it takes over a second to import, which a session on another provider should not pay.
"""

import os
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from wavehost.session.messages import ModelAssistant, ModelMessage, ModelToolResult, ToolCall
from wavehost.session.providers.base import (
    ModelRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    unreachable,
)


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


class AnthropicProvider:
    name = "anthropic"

    def __init__(
        self, model: str, api_key: str | None = None, auth_token: str | None = None
    ) -> None:
        import anthropic

        self.model = model
        self._sdk = anthropic
        try:  # the keys given, not read by the SDK: they are no longer in os.environ
            self._client = anthropic.AsyncAnthropic(api_key=api_key, auth_token=auth_token)
        except anthropic.AnthropicError as err:
            raise ProviderError(f"anthropic: {err}") from err

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]:
        tools: Any = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
        messages: Any = wire_messages(request.messages)
        extra: dict[str, Any] = {}
        if request.output_schema is not None:  # structured output, as Claude Code asks for it
            answer = {"type": "json_schema", "schema": request.output_schema}
            extra["extra_body"] = {"output_config": {"format": answer}}
        try:
            async with self._client.messages.stream(
                model=request.model or self.model,
                max_tokens=request.max_tokens,
                system=request.system,
                messages=messages,
                tools=tools,
                **extra,
            ) as stream:
                new_block = False  # the model's text blocks stay blocks (Stop joins them by \n)
                async for event in stream:
                    if event.type == "content_block_start" and event.content_block.type == "text":
                        new_block = True
                    elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                        yield TextDelta(event.delta.text, starts_block=new_block)
                        new_block = False
                    elif event.type == "content_block_stop":
                        block = event.content_block
                        if block.type == "tool_use":
                            yield ToolCall(block.id, block.name, dict(block.input))
        except self._sdk.APIConnectionError as err:
            url = self._client.base_url
            raise unreachable("anthropic", url, "ANTHROPIC_BASE_URL", err, os.environ) from err
        except (self._sdk.AnthropicError, ValueError) as err:  # ValueError: bad tool JSON
            raise ProviderError(f"anthropic: {err}") from err
