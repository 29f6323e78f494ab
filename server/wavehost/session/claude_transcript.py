"""A conversation in Claude Code's transcript format: one JSON line per entry (`.jsonl`).

With `"transcriptFormat": "claude-code"` in a settings file, `transcript_path` points here
instead of at the session JSON (seed 000's `.state.messages`, the default), so hooks written for
Claude Code — TDD guards, "was X run?" Stop guards, exporters — read what they expect. It is
written before each hook runs, from the conversation as it is then, in the line format Claude Code
2.1.197 writes: `type` `user` / `assistant`; `message` with `role` and `content` (a user prompt's
text; assistant content blocks one line each — `text`, `tool_use` — with the message's `id`; tool
results as a user line of `tool_result` blocks, `is_error` on failures); `uuid` / `parentUuid`
chaining the lines; `isMeta` on hook text for the model; `sessionId`, `cwd`, `timestamp`,
`isSidechain` (true in a subagent's), `userType`, `entrypoint`, `version`. Notices (for the user
only) are not written. Ids are derived from the messages', so a line keeps its `uuid` from one
write to the next and across a resume.
"""

import functools
import json
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from wavehost import __version__
from wavehost.plumbing import disk
from wavehost.plumbing.atomic import write_atomically
from wavehost.session import transcript
from wavehost.session.messages import AssistantMessage, TextBlock, ToolBlock, UserMessage

FORMAT = "claude-code"  # the settings value that turns it on
SETTING = "transcriptFormat"
_NAMESPACE = uuid.UUID("6f1c3a7e-2b0d-4c55-9a3e-5d9e7f2b8c41")  # wavehost's, for stable uuids


class ClaudeTranscript:
    """Writes one conversation as Claude Code's JSONL at `path` (only when it changed)."""

    def __init__(
        self,
        path: Path,
        session_id: str,
        entrypoint: str,
        *,
        sidechain: bool = False,
        agent_id: str | None = None,
    ) -> None:
        self.path = path
        self.session_id = session_id
        self.entrypoint = entrypoint
        self.sidechain = sidechain
        self.agent_id = agent_id
        self._seen: dict[str, str] = {}  # message id → when it was first written
        self._written: bytes | None = None
        self._lane = disk.lane(path)

    async def flush(self, messages: Sequence[UserMessage | AssistantMessage], cwd: Path) -> None:
        """Write the conversation as it is now, if it changed, and wait for the file (written on
        a disk thread, not the event loop; not fsynced: the session's own transcript is the
        durable one, this is what its hooks read)."""
        data = "".join(
            json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines(messages, cwd)
        ).encode("utf-8")
        if data != self._written:
            self._written = data
            self._lane.submit(functools.partial(self._write, data))
        await self._lane.settled()

    def _write(self, data: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(self.path, data, durable=False)

    def lines(
        self, messages: Sequence[UserMessage | AssistantMessage], cwd: Path
    ) -> Iterator[dict[str, Any]]:
        parent: str | None = None
        for message in messages:
            for key, entry in self._entries(message):
                line_id = str(uuid.uuid5(_NAMESPACE, f"{self.session_id}/{message.id}/{key}"))
                yield {
                    "parentUuid": parent,
                    "isSidechain": self.sidechain,
                    **({"agentId": self.agent_id} if self.agent_id else {}),
                    **entry,
                    "uuid": line_id,
                    "timestamp": self._when(message.id),
                    "userType": "external",
                    "entrypoint": self.entrypoint,
                    "cwd": str(cwd),
                    "sessionId": self.session_id,
                    "version": __version__,
                }
                parent = line_id

    def _entries(self, message: UserMessage | AssistantMessage) -> Iterator[tuple[str, Any]]:
        if isinstance(message, UserMessage):
            entry: dict[str, Any] = {
                "type": "user",
                "message": {"role": "user", "content": message.model_text},
            }
            if message.is_meta:
                entry["isMeta"] = True
            if message.is_compact_summary:
                entry["isCompactSummary"] = True
            yield "user", entry
            return
        head = {"id": f"msg_{message.id}", "type": "message", "role": "assistant"}
        tools = list(message.tools())
        stop = "tool_use" if tools else "end_turn"
        for index, block in enumerate(message.blocks):
            if isinstance(block, TextBlock) and block.text:
                content: dict[str, Any] = {"type": "text", "text": block.text}
            elif isinstance(block, ToolBlock):
                content = {"type": "tool_use", "id": block.id, "name": block.name}
                content["input"] = block.input
            else:
                continue  # notices are for the user only
            body = {**head, "content": [content], "stop_reason": stop}
            yield f"block-{index}", {"type": "assistant", "message": body}
        for block in tools:
            if block.status in ("pending", "running"):
                continue  # no result yet: a PreToolUse hook sees the call without one
            result = {
                "tool_use_id": block.id,
                "type": "tool_result",
                "content": block.model_text(),
                "is_error": block.failed,
            }
            entry = {"type": "user", "message": {"role": "user", "content": [result]}}
            if block.failed:
                entry["toolUseResult"] = f"Error: {block.model_text()}"
            yield f"result-{block.id}", entry

    def _when(self, message_id: str) -> str:
        seen = self._seen.get(message_id)
        if seen is None:
            seen = self._seen[message_id] = transcript.now().replace("+00:00", "Z")
        return seen
