"""Snow CLI's nine hook types and its tool names, mapped onto the catalogue and wavehost's tools."""

from collections.abc import Callable

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects.snow.sensitive import sensitive_call
from wavehost.hooks.dialects.vocabulary import Vocabulary
from wavehost.hooks.tools import mcp

TYPES: dict[str, Event] = {
    "onSessionStart": Event.SessionStart,
    "onUserMessage": Event.UserPromptSubmit,
    "beforeToolCall": Event.PreToolUse,
    "toolConfirmation": Event.PermissionRequest,
    "afterToolCall": Event.PostToolUse,
    "beforeSubAgentStart": Event.SubagentStart,
    "onSubAgentComplete": Event.SubagentStop,
    "beforeCompress": Event.PreCompact,
    "onStop": Event.Stop,
}
TOOL_TYPES = {"beforeToolCall", "toolConfirmation", "afterToolCall"}
PROMPT_TYPES = {"onSubAgentComplete", "onStop"}  # where a `prompt` action may stand (alone)
CONTEXT_TYPES = {"onSessionStart", "onUserMessage", "beforeSubAgentStart"}  # `context` actions
SESSION_TYPES = CONTEXT_TYPES  # their stdin carries the session metadata


def _asking(payload: p.HookInput) -> bool:
    """toolConfirmation: only when a confirmation would be shown, and for a sensitive command
    even when the permission mode would not ask (Snow confirms those in YOLO mode too)."""
    if not isinstance(payload, p.PermissionRequestInput):
        return False
    return payload.asking or sensitive_call(payload) is not None


def _not_compaction(payload: p.HookInput) -> bool:
    return getattr(payload, "source", None) != "compact"


CONDITIONS: dict[Event, Callable[[p.HookInput], bool]] = {
    Event.PermissionRequest: _asking,
    Event.SessionStart: _not_compaction,
}


TOOLS = Vocabulary.of(lambda tool: tool.snow, mcp.SNOW)
