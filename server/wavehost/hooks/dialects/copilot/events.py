"""Copilot CLI's event names and tool names, mapped onto the catalogue and wavehost's tools.

Each event has a camelCase name (`sessionId`, epoch-ms timestamps) and, for most, a PascalCase
"VS Code compatible" one (`session_id`, `hook_event_name`, ISO-8601 timestamps) from the official
alias table: not always the first letter capitalised (`agentStop` ↔ `Stop`,
`userPromptSubmitted` ↔ `UserPromptSubmit`); `userPromptTransformed` has none.
"""

from collections.abc import Callable

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects.vocabulary import Vocabulary
from wavehost.hooks.tools import mcp

CAMEL: dict[str, Event] = {
    "sessionStart": Event.SessionStart,
    "sessionEnd": Event.SessionEnd,
    "userPromptSubmitted": Event.UserPromptSubmit,
    "userPromptTransformed": Event.UserPromptTransformed,
    "preToolUse": Event.PreToolUse,
    "postToolUse": Event.PostToolUse,
    "postToolUseFailure": Event.PostToolUseFailure,
    "permissionRequest": Event.PermissionRequest,
    "preCompact": Event.PreCompact,
    "subagentStart": Event.SubagentStart,
    "subagentStop": Event.SubagentStop,
    "agentStop": Event.Stop,
    "notification": Event.Notification,
    "errorOccurred": Event.ErrorOccurred,
}
PASCAL: dict[str, Event] = {
    "SessionStart": Event.SessionStart,
    "SessionEnd": Event.SessionEnd,
    "UserPromptSubmit": Event.UserPromptSubmit,
    "PreToolUse": Event.PreToolUse,
    "PostToolUse": Event.PostToolUse,
    "PostToolUseFailure": Event.PostToolUseFailure,
    "PermissionRequest": Event.PermissionRequest,
    "PreCompact": Event.PreCompact,
    "SubagentStart": Event.SubagentStart,
    "SubagentStop": Event.SubagentStop,
    "Stop": Event.Stop,
    "Notification": Event.Notification,
    "ErrorOccurred": Event.ErrorOccurred,
}
EVENT_KEYS: dict[str, Event] = {**CAMEL, **PASCAL}

# Events whose matcher Copilot honours, and the payload field it tests (seed 002 "Matcher").
MATCHED = {
    Event.PreToolUse,
    Event.PostToolUse,
    Event.PostToolUseFailure,
    Event.PermissionRequest,
    Event.SubagentStart,
    Event.PreCompact,
    Event.Notification,
}
TOOL_EVENTS = {
    Event.PreToolUse,
    Event.PostToolUse,
    Event.PostToolUseFailure,
    Event.PermissionRequest,
}
GENERAL_PURPOSE = "general-purpose"  # Copilot's built-in that emits no subagent hooks (seed 002)


def is_pascal(key: str) -> bool:
    return key[:1].isupper()


def _succeeded(payload: p.HookInput) -> bool:
    """postToolUse: only after a tool that ran and succeeded (failures go to postToolUseFailure).
    A command that ran to its end succeeded, whatever its exit status (Copilot's bash tool)."""
    if not isinstance(payload, p.PostToolUseInput) or payload.blocked:
        return False
    response = payload.tool_response
    failed = isinstance(response, dict) and response.get("success") is False
    return not failed or payload.exit_code is not None


def _did_not_run_to_its_end(payload: p.HookInput) -> bool:
    """postToolUseFailure: not for a command that exited non-zero (that is a success here)."""
    return getattr(payload, "exit_code", None) is None


def _not_general_purpose(payload: p.HookInput) -> bool:
    return getattr(payload, "agent_type", None) != GENERAL_PURPOSE


def _not_compaction(payload: p.HookInput) -> bool:
    return getattr(payload, "source", None) != "compact"


CONDITIONS: dict[Event, Callable[[p.HookInput], bool]] = {
    Event.PostToolUse: _succeeded,
    Event.PostToolUseFailure: _did_not_run_to_its_end,
    Event.SubagentStart: _not_general_purpose,
    Event.SubagentStop: _not_general_purpose,
    Event.SessionStart: _not_compaction,
    Event.Stop: p.not_interrupted,
}

SESSION_SOURCES = {"startup": "startup", "resume": "resume", "clear": "new"}
END_REASONS = {"clear": "user_exit", "logout": "user_exit", "prompt_input_exit": "user_exit"}


TOOLS = Vocabulary.of(lambda tool: tool.copilot, mcp.COPILOT)
