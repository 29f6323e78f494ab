"""Permission modes: which tool calls run, which are refused, which need someone to say yes.

A call that needs a yes fires PermissionRequest hooks, then asks the user through the client
(`PermissionAsker`). Without a client (headless) nobody can say yes, so the mode alone decides:
what it would ask about is denied, as Claude Code does in `-p`.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from wavehost.hooks.outcome import HookRef, PermissionDecision
from wavehost.hooks.payloads import PermissionMode
from wavehost.session.mcp.tools import split_name
from wavehost.session.tools.base import ToolKind

Verdict = Literal["allow", "ask", "deny"]
SessionPermissionMode = Literal["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"]
PERMISSION_MODES: tuple[str, ...] = get_args(SessionPermissionMode)


def mode_verdict(mode: PermissionMode, kind: ToolKind) -> Verdict:
    if mode == "bypassPermissions" or kind == "read":
        return "allow"
    if mode == "plan":
        return "deny"  # plan mode looks, it does not touch
    if mode == "acceptEdits" and kind == "edit":
        return "allow"
    return "deny" if mode == "dontAsk" else "ask"


def with_hook_decision(verdict: Verdict, decision: PermissionDecision | None) -> Verdict:
    """A PreToolUse hook's allow skips the question and its ask forces one; a mode's deny holds.

    (A hook's deny never gets here: the engine already turned it into a blocked tool.)
    """
    if verdict == "deny" or decision is None:
        return verdict
    return "allow" if decision == "allow" else "ask"


@dataclass(frozen=True)
class PermissionPrompt:
    """What the client shows when asking the user (`wave/chat/requestPermission`)."""

    session_id: str
    tool_use_id: str
    tool_name: str
    tool_input: dict[str, Any]
    permission_mode: PermissionMode
    reason: str | None = None  # a PreToolUse hook's permissionDecisionReason for "ask"
    asked_by: HookRef | None = None  # the PreToolUse hook that asked
    runs: str | None = None  # what the call runs when its input does not say (EnterWorktree's git)

    @property
    def mcp(self) -> tuple[str, str] | None:
        """(server, tool) when it is an MCP tool (`mcp__<server>__<tool>`)."""
        return split_name(self.tool_name)


@dataclass(frozen=True)
class PermissionAnswer:
    allow: bool
    message: str | None = None  # the user's words to the model on a refusal
    always: bool = False  # with allow: do not ask about this tool again in this session


PermissionAsker = Callable[[PermissionPrompt], Awaitable[PermissionAnswer]]


@dataclass(frozen=True)
class Permissions:
    """One session's permission mode, and who can be asked (None: headless, nobody)."""

    session_id: str
    mode: PermissionMode
    ask: PermissionAsker | None
    always_allowed: set[str] = field(default_factory=set)  # tools nobody is asked about again


def refused_by_mode(tool: str, mode: PermissionMode, headless: bool) -> str:
    if mode == "plan":
        return (
            f"Permission to use {tool} was denied: the session is in plan mode, "
            "so nothing may be changed until the plan is approved."
        )
    why = "no one can be asked in headless mode" if headless and mode != "dontAsk" else ""
    why = why or f"permission mode {mode} does not allow it without asking"
    return f"Permission to use {tool} was denied: {why}."


def refused_by_hook(tool: str, reason: str | None) -> str:
    detail = f": {reason}" if reason else ""
    return f"Permission to use {tool} was denied by a PermissionRequest hook{detail}"


def refused_by_user(tool: str, message: str | None) -> str:
    text = (
        f"The user doesn't want to proceed with this tool use. The {tool} call was rejected "
        "(nothing was changed). Wait for the user to tell you how to proceed."
    )
    return f"{text}\nThe user said: {message}" if message else text
