"""What the agent loop needs from a model provider: one streamed reply per request.

A reply is a stream of text deltas and complete tool calls (providers assemble a call's streamed
JSON arguments before handing it over). Provider failures surface as `ProviderError`, whatever the
server or the connection did, so the loop has one thing to catch.
"""

import json
import os
from collections.abc import AsyncGenerator, Mapping, Sequence
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
    # The answer is one JSON object of this JSON Schema (a prompt hook's `{ok, reason}`)
    output_schema: Mapping[str, Any] | None = None
    model: str | None = None  # another model of the same provider (a hook's own `model`)


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str
    starts_block: bool = False  # the first piece of a new text block of the model's message


StreamEvent = TextDelta | ToolCall


class ProviderError(Exception):
    """The model could not be reached or answered with an error; the message says which."""


def unreachable(
    provider: str, url: object, variable: str, err: BaseException, env: Mapping[str, str]
) -> ProviderError:
    """A connection that failed, said with where it went and what chose that address: the fix is
    most often that variable."""
    chosen_by = variable if env.get(variable) else f"the default; {variable} sets another"
    return ProviderError(f"{provider}: cannot connect to {url} ({chosen_by}): {_reason(err)}")


def _reason(err: BaseException) -> str:
    """The innermost cause's words (`Connection refused`), not the SDK's `Connection error.`"""
    reason = str(err)
    seen: set[int] = set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and cause.errno is not None:
            # A resolver error's number is negative: its own words then (name not known).
            return os.strerror(cause.errno) if cause.errno > 0 else str(cause.strerror)
        reason = str(cause) or reason
        cause = cause.__cause__ or cause.__context__
    return reason


class Provider(Protocol):
    """A model provider; the session that uses it closes it at its end (`aclose`)."""

    name: str
    model: str

    def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]: ...

    async def aclose(self) -> None:
        """Let go of its connections."""


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
