"""MCP tools as the model and hooks see them: `mcp__<server>__<tool>`, the server's JSON Schema,
results in Claude Code's shapes.

A result's `structuredContent` is what the model gets (as compact JSON), else its content blocks:
text as text, an image or audio as a placeholder naming its type and size (the providers carry
text results only), a resource by its URI or text. `isError` makes the call a failure with that
text. Hooks' `tool_response` is what Claude Code gives them: the structured result as a JSON
string, else the content blocks. A text longer than `SPILL_OVER` characters is saved to a file in
the session's folder and the model gets a preview and the path, in Claude Code's words.
"""

import base64
import binascii
import itertools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wavehost.hooks.tools import mcp
from wavehost.session.mcp.servers import McpCallError, McpConnection, McpToolInfo
from wavehost.session.tools.base import Tool, ToolInput, ToolResult, Workspace

SPILL_OVER = 100_000  # characters of one result beyond which the model gets a preview
PREVIEW = 2_000
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def tool_name(server: str, tool: str) -> str:
    """The name the model and hooks use (Claude Code's), any other character made `_`."""
    return mcp.wave_name(_UNSAFE.sub("_", server), _UNSAFE.sub("_", tool))


split_name = mcp.parts  # (server, tool) of an MCP tool's name; None for any other tool


def _size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(block.text)
    if kind in ("image", "audio"):
        what = "Image" if kind == "image" else "Audio"
        return f"[{what}: {block.mime_type}, {_size(block.data)} bytes — not shown to the model]"
    if kind == "resource_link":
        return f"[Resource: {block.uri}]"
    if kind == "resource":
        inner = block.resource
        text = getattr(inner, "text", None)
        return str(text) if text is not None else f"[Resource: {inner.uri}, binary]"
    return f"[{kind or 'unknown'} content]"


def _block_response(block: Any) -> dict[str, Any]:
    """A content block as Claude Code hands it to hooks."""
    kind = getattr(block, "type", "")
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "image":
        source = {"type": "base64", "media_type": block.mime_type, "data": block.data}
        return {"type": "image", "source": source}
    dumped: dict[str, Any] = block.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def content_text(result: Any) -> str:
    """A CallToolResult's content blocks as text (placeholders for what is not text)."""
    return "\n".join(_block_text(b) for b in result.content or [])


def rendered(result: Any) -> tuple[bool, str, Any]:
    """(ok, what the model sees, `tool_response`) of a CallToolResult."""
    blocks = list(result.content or [])
    text = content_text(result)
    if result.is_error:
        return False, text or "The MCP tool reported an error without a message.", text
    structured = result.structured_content
    if structured is not None:
        compact = json.dumps(structured, ensure_ascii=False, separators=(",", ":"))
        return True, compact, compact
    return True, text, [_block_response(b) for b in blocks]


class McpInput(ToolInput):
    """Unused: the server validates its own arguments against its schema."""


class McpTool(Tool[McpInput]):
    """One tool of one connected server."""

    kind = "execute"  # asked about in default mode, as Claude Code does with MCP tools
    input_model = McpInput

    def __init__(
        self,
        connection: McpConnection,
        info: McpToolInfo,
        spill: Callable[[str, str], Path | None],
    ) -> None:
        self.connection = connection
        self.info = info
        self.server = connection.name
        self.name = tool_name(connection.name, info.name)
        self.description = info.description or f"{info.name} (MCP server {connection.name})"
        self._spill = spill

    def input_schema(self) -> dict[str, Any]:
        schema = dict(self.info.input_schema)
        schema.setdefault("type", "object")
        return schema

    async def __call__(self, raw: dict[str, Any], workspace: Workspace) -> ToolResult:
        return await self.run(McpInput(), workspace, raw)

    async def run(
        self, args: McpInput, workspace: Workspace, raw: dict[str, Any] | None = None
    ) -> ToolResult:
        try:
            result = await self.connection.call(self.info.name, dict(raw or {}))
            ok, text, response = rendered(result)
        except McpCallError as err:
            return ToolResult.failure(str(err))
        except (AttributeError, TypeError, ValueError) as err:  # a result we cannot read
            return ToolResult.failure(
                f"MCP server {self.server} returned a malformed result for {self.info.name}: {err}"
            )
        if not ok:
            return ToolResult(False, text, {"success": False, "error": text})
        if not text:
            text = f"({self.name} completed with no output)"
        return ToolResult(True, self._bounded(text), response)

    def _bounded(self, text: str) -> str:
        if len(text) <= SPILL_OVER:
            return text
        path = self._spill(self.name, text)
        if path is None:
            return text[:SPILL_OVER] + f"\n… [{len(text) - SPILL_OVER} characters cut]"
        return (
            f"<persisted-output>\nOutput too large ({len(text) / 1024:.1f}KB). "
            f"Full output saved to: {path}\n\nPreview (first {PREVIEW // 1000}KB):\n"
            f"{text[:PREVIEW]}\n...\n</persisted-output>"
        )


def spiller(folder: Path) -> Callable[[str, str], Path | None]:
    """Saves a long result in the session's folder (None if it cannot)."""
    counter = itertools.count(1)

    def spill(name: str, text: str) -> Path | None:
        path = folder / "tool-results" / f"{name}-{next(counter)}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
        except OSError:
            return None
        return path

    return spill
