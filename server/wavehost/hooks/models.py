"""What a session lends the hooks that need a model: Claude Code's `prompt` and `agent` hooks.

The engine never imports the session: the session hands it an object with these two calls (on
`HookContext.models`), so a prompt hook is one model call on the session's provider and an agent
hook a short read-only subagent of the session, while what they ask and what their answers mean
stays here, in the hooks layer (`hooks.dialects.wave.model_hooks`).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class HookModelError(Exception):
    """The model could not be asked (the provider failed); the message says why."""


@dataclass(frozen=True)
class Judgement:
    """One model call with no tools, answered by a JSON object that matches `schema`."""

    system: str
    prompt: str
    schema: Mapping[str, Any]
    with_transcript: bool = False  # the conversation so far goes before the prompt (Stop hooks)
    agent_id: str | None = None  # whose conversation: a subagent's, else the main agent's
    model: str | None = None  # the hook's own `model`, else the session's


@dataclass(frozen=True)
class Verification:
    """A short subagent with read-only tools that answers by calling `tool` (Claude Code's
    `StructuredOutput`) once."""

    system: str
    prompt: str
    tool: str
    tool_description: str
    schema: Mapping[str, Any]
    reminder: str  # said once when it stops without calling `tool`
    cwd: str
    max_turns: int = 50
    model: str | None = None


class HookModels(Protocol):
    async def judge(self, request: Judgement) -> str:
        """The model's answer as text. Raises `HookModelError`."""
        ...

    async def verify(self, request: Verification) -> Mapping[str, Any] | None:
        """What the subagent called `tool` with; None if it never did (within its turns).
        Raises `HookModelError`."""
        ...
