"""The `scripted` provider: replays model turns from a JSON file (demos, tests, benchmarks).

The file is a list of turns (or `{"turns": [...]}`); each model call takes the next one:
`{"text": "…", "tool_calls": [{"name": "Write", "input": {…}, "id"?: "…"}]}`. The test suite's fake
HTTP server speaks the real wire protocols from the same turns, so one script drives either.
"""

import uuid
from collections.abc import AsyncGenerator, Sequence
from pathlib import Path
from typing import Any

import anyio
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from wavehost.hooks.safe_read import read_json
from wavehost.session.messages import ToolCall
from wavehost.session.providers.base import ModelRequest, ProviderError, StreamEvent, TextDelta


class ScriptedToolCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    input: dict[str, Any] = {}
    id: str = Field(default_factory=lambda: f"toolu_{uuid.uuid4().hex[:20]}")


class ScriptedTurn(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    text: str | list[str] = ""  # a list: several text blocks
    tool_calls: list[ScriptedToolCall] = Field(default=[], alias="toolCalls")

    def texts(self) -> list[str]:
        """The text blocks, empty ones left out."""
        return [t for t in ([self.text] if isinstance(self.text, str) else self.text) if t]

    def joined(self) -> str:
        """All text in one piece (a wire protocol without text blocks)."""
        return "".join(self.texts())

    def chunks(self, size: int = 16) -> list[TextDelta]:
        """The text in small pieces, the way a model streams it, block by block."""
        return [
            TextDelta(text[i : i + size], starts_block=i == 0)
            for text in self.texts()
            for i in range(0, len(text), size)
        ]


_TURNS = TypeAdapter(list[ScriptedTurn])


def load_script(path: Path) -> list[ScriptedTurn]:
    read = read_json(path)
    if not read.exists or read.error is not None:
        raise ProviderError(f"cannot read the script {path}: {read.error or 'no such file'}")
    raw: Any = read.document
    if isinstance(raw, dict):
        raw = raw.get("turns")
    try:
        return _TURNS.validate_python(raw)
    except ValidationError as err:
        raise ProviderError(f"invalid script {path}: {err}") from err


class ScriptedProvider:
    name = "scripted"

    def __init__(self, turns: Sequence[ScriptedTurn], model: str = "scripted") -> None:
        self.model = model
        self.turns = list(turns)
        self.requests: list[ModelRequest] = []

    async def aclose(self) -> None:
        pass  # nothing to let go of

    async def stream(self, request: ModelRequest) -> AsyncGenerator[StreamEvent, None]:
        self.requests.append(request)
        index = len(self.requests) - 1
        if index >= len(self.turns):
            raise ProviderError(
                f"the scripted provider has no turn left ({len(self.turns)} in the script)"
            )
        turn = self.turns[index]
        for chunk in turn.chunks():
            await anyio.lowlevel.checkpoint()  # let updates flow as with a real stream
            yield chunk
        for call in turn.tool_calls:
            yield ToolCall(call.id, call.name, call.input)
