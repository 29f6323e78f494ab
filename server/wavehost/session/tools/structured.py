"""StructuredOutput: how an agent hook's subagent gives its answer (Claude Code's tool of that
name). Its input is the answer, in the schema the hook asks for; calling it ends the reply."""

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict

from wavehost.session.tools.base import Tool, ToolInput, ToolKind, ToolResult, Workspace

DONE = "Structured output provided successfully"


class _Answer(ToolInput):
    model_config = ConfigDict(extra="allow")  # the schema is the hook's: checked by the hook


class StructuredOutput(Tool[_Answer]):
    kind: ToolKind = "read"  # it touches nothing
    input_model = _Answer

    def __init__(self, name: str, description: str, schema: Mapping[str, Any]) -> None:
        self.name = name  # one per agent hook, named as it asks
        self.description = description
        self._schema = dict(schema)
        self.answer: dict[str, Any] | None = None

    def input_schema(self) -> dict[str, Any]:
        return self._schema

    async def run(self, args: _Answer, workspace: Workspace) -> ToolResult:
        self.answer = args.model_dump()
        result = ToolResult.success(DONE)
        return ToolResult(result.ok, result.text, result.response, ends_reply=True)
