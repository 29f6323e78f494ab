"""What the agent loop needs from a model provider: one streamed reply per request.

A reply is a stream of text deltas and complete tool calls (providers assemble a call's streamed
JSON arguments before handing it over). Provider failures surface as `ProviderError`, whatever the
SDK raised, so the loop has one thing to catch.
"""

import json
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from wavehost.session.messages import ModelMessage, ToolCall

DEFAULT_MAX_TOKENS = 8192


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class ModelRequest:
    system: str
    messages: Sequence[ModelMessage]
    tools: Sequence[ToolSpec]
    max_tokens: int = DEFAULT_MAX_TOKENS


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str
    starts_block: bool = False  # the first piece of a new text block of the model's message


StreamEvent = TextDelta | ToolCall


class ProviderError(Exception):
    """The model could not be reached or answered with an error; the message says which."""


class Provider(Protocol):
    name: str
    model: str

    def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]: ...


def parse_arguments(raw: str, tool: str) -> dict[str, Any]:
    """A tool call's JSON arguments; the streamed text may be empty for a call without input."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as err:
        raise ProviderError(f"the model sent invalid JSON arguments for {tool}: {err}") from err
    if not isinstance(value, dict):
        raise ProviderError(f"the model sent arguments for {tool} that are not a JSON object")
    return value
