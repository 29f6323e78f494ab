"""What happened, per event: the Wave (Claude Code) stdin, snake_case, compact JSON.

Fields that are None are left out of the JSON (`last_assistant_message` when there is no text,
for instance); lists are always present. Fields marked `exclude` are facts other dialects render
(the instant, the model-visible tool result, the history, …): never part of the Wave stdin.
"""

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

PermissionMode = Literal["default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"]

LONG_FIELD_LIMIT = 1000


def clip(text: str, limit: int = LONG_FIELD_LIMIT) -> str:
    """Cut a long text to `limit` characters, saying how many were cut (seed: `… [+N chars]`)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [+{len(text) - limit} chars]"


class Effort(BaseModel):
    """Claude Code's `effort` field: the reasoning effort level the turn runs at."""

    model_config = ConfigDict(frozen=True)

    level: str


_EXPECTED = {  # pydantic's error types → what the value must be
    "string_type": "text",
    "int_type": "wholeNumber",
    "int_parsing": "wholeNumber",
    "float_type": "number",
    "float_parsing": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "list_type": "list",
}
_IN_WORDS = {
    "text": "text",
    "wholeNumber": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "object": "an object",
    "list": "a list",
}
Expected = Literal["text", "wholeNumber", "number", "boolean", "object", "list"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a payload: a field missing, of the wrong kind, or not one of its
    choices — in terms a page can word in its own language."""

    field: str
    kind: Literal["missing", "type", "choice", "other"]
    expected: Expected | None = None
    choices: tuple[str, ...] = ()


def problems_of(err: ValidationError) -> list[Problem]:
    found = []
    for error in err.errors():
        name = ".".join(map(str, error["loc"])) or "payload"
        kind = error["type"]
        if kind == "missing":
            found.append(Problem(name, "missing"))
        elif kind == "literal_error":
            expected = str((error.get("ctx") or {}).get("expected", ""))
            words = (c.strip().strip("'\"") for c in expected.replace(" or ", ", ").split(","))
            found.append(Problem(name, "choice", choices=tuple(c for c in words if c)))
        elif kind in _EXPECTED:
            found.append(Problem(name, "type", cast(Expected, _EXPECTED[kind])))
        else:
            found.append(Problem(name, "other"))
    return found


def _and(names: list[str], word: str = "and") -> str:
    *rest, last = names
    return f"{', '.join(rest)} {word} {last}" if rest else last


def plain_problems(err: ValidationError) -> str:
    """What is wrong with a payload, in plain words on one line: the missing fields by name,
    then each wrong value (`missing tool_name and tool_input; permission_mode must be "default"
    or …`) — field names and what they must be, never the validator's own phrasing."""
    problems = problems_of(err)
    missing = [p.field for p in problems if p.kind == "missing"]
    said = ["missing " + _and(missing)] if missing else []
    for p in problems:
        if p.kind == "type" and p.expected is not None:
            said.append(f"{p.field} must be {_IN_WORDS[p.expected]}")
        elif p.kind == "choice":
            said.append(f"{p.field} must be " + _and([f'"{c}"' for c in p.choices], "or"))
        elif p.kind == "other":
            said.append(f"{p.field} has a value it cannot take")
    return "; ".join(said)


class HookInput(BaseModel):
    """Fields every event carries (`prompt_id`: the user prompt whose turn fired it, if any)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    session_id: str
    transcript_path: str
    cwd: str
    hook_event_name: str
    permission_mode: PermissionMode = "default"
    prompt_id: str | None = None
    at: float = Field(default_factory=time.time, exclude=True)  # when it fired (epoch seconds)

    def to_stdin(self) -> bytes:
        """What a hook reads: compact JSON and a newline, as Claude Code writes it (without the
        newline a hook's `read -r line` reports end of input and its `if read …` never runs)."""
        return self.model_dump_json(exclude_none=True).encode("utf-8") + b"\n"


History = Callable[[], list[dict[str, Any]]]  # the conversation so far as {role, content} dicts


class PreToolUseInput(HookInput):
    hook_event_name: Literal["PreToolUse"] = "PreToolUse"
    tool_name: str
    tool_input: dict[str, Any]
    tool_use_id: str | None = None
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop
    # Arguments an earlier Copilot hook rewrote into something that is not an object (a list):
    # what the next Copilot hook reads as `toolArgs`
    raw_args: Any = Field(default=None, exclude=True)


class PostToolUseInput(HookInput):
    hook_event_name: Literal["PostToolUse"] = "PostToolUse"
    tool_name: str
    tool_input: dict[str, Any]
    tool_response: Any
    tool_use_id: str | None = None
    duration_ms: int | None = None
    result_text: str | None = Field(default=None, exclude=True)  # what the model sees
    blocked: bool = Field(default=False, exclude=True)  # a pre-tool hook kept it from running
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop
    # A command that ran to its end (Bash): its exit status, whatever it was
    exit_code: int | None = Field(default=None, exclude=True)
    # Copilot's `resultType` as an earlier postToolUse hook's `modifiedResult` set it
    result_type: str | None = Field(default=None, exclude=True)


class PostToolUseFailureInput(HookInput):
    hook_event_name: Literal["PostToolUseFailure"] = "PostToolUseFailure"
    tool_name: str
    tool_input: dict[str, Any]
    error: str
    is_interrupt: bool = False
    tool_use_id: str | None = None
    duration_ms: int | None = None
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop
    # A command that ran to its end and exited non-zero (Bash): its exit status
    exit_code: int | None = Field(default=None, exclude=True)


class UserPromptSubmitInput(HookInput):
    hook_event_name: Literal["UserPromptSubmit"] = "UserPromptSubmit"
    prompt: str
    message_count: int = Field(default=0, exclude=True)  # messages before this one


class UserPromptTransformedInput(HookInput):
    """The prompt as the model will get it (after every UserPromptSubmit hook), before it is
    written to the history. No Wave (Claude Code) name: Copilot's `userPromptTransformed`."""

    hook_event_name: Literal["UserPromptTransformed"] = "UserPromptTransformed"
    prompt: str
    transformed_prompt: str


class BackgroundTask(BaseModel):
    """A piece of background work still running when Stop fires (a snapshot at trigger time)."""

    model_config = ConfigDict(frozen=True)

    type: Literal["shell", "subagent", "workflow"]
    status: Literal["running"] = "running"
    command: str | None = None
    agent_type: str | None = None
    description: str | None = None
    name: str | None = None

    @field_validator("command", "description")
    @classmethod
    def _clip(cls, value: str | None) -> str | None:
        return None if value is None else clip(value)


class SessionCron(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    schedule: str
    recurring: bool
    prompt: str


class StopInput(HookInput):
    hook_event_name: Literal["Stop"] = "Stop"
    stop_hook_active: bool = False
    last_assistant_message: str | None = None
    background_tasks: list[BackgroundTask] = []
    session_crons: list[SessionCron] = []
    history: History | None = Field(default=None, exclude=True)
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop
    # The user interrupted the turn: only Snow's onStop fires then (seed 004: "Ctrl+C")
    interrupted: bool = Field(default=False, exclude=True)


def not_interrupted(payload: HookInput) -> bool:
    """Stop hooks (Claude Code's, Copilot's agentStop) do not hear of an interrupted turn."""
    return not (isinstance(payload, StopInput) and payload.interrupted)


class SubagentStartInput(HookInput):
    hook_event_name: Literal["SubagentStart"] = "SubagentStart"
    agent_id: str
    agent_type: str
    prompt: str | None = Field(default=None, exclude=True)  # the task the subagent is given


class SubagentStopInput(HookInput):
    hook_event_name: Literal["SubagentStop"] = "SubagentStop"
    stop_hook_active: bool = False
    last_assistant_message: str | None = None
    agent_id: str
    agent_type: str
    agent_transcript_path: str | None = None
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop


class PermissionRequestInput(HookInput):
    hook_event_name: Literal["PermissionRequest"] = "PermissionRequest"
    tool_name: str
    tool_input: dict[str, Any]
    permission_suggestions: list[dict[str, Any]] = []
    # False: the permission mode lets the call run without a question (Copilot's
    # permissionRequest still fires then; Wave's and Snow's hooks only hear of real questions).
    asking: bool = Field(default=True, exclude=True)
    effort: Effort | None = None  # Claude Code sends it on tool events and Stop


class NotificationInput(HookInput):
    hook_event_name: Literal["Notification"] = "Notification"
    message: str
    title: str | None = None
    notification_type: str


class SessionStartInput(HookInput):
    hook_event_name: Literal["SessionStart"] = "SessionStart"
    source: Literal["startup", "resume", "clear", "compact"]
    model: str | None = None
    agent_type: str | None = None
    history: History | None = Field(default=None, exclude=True)
    # The session starts with this prompt (Copilot's sessionStart: `new`, `initialPrompt`)
    initial_prompt: str | None = Field(default=None, exclude=True)


class SessionEndInput(HookInput):
    hook_event_name: Literal["SessionEnd"] = "SessionEnd"
    reason: str
    # How the session's last turn ended: Copilot's reasons `error` (ErrorOccurred fired) and
    # `abort` (interrupted)
    last_turn: Literal["complete", "error", "abort"] = Field(default="complete", exclude=True)


class PreCompactInput(HookInput):
    hook_event_name: Literal["PreCompact"] = "PreCompact"
    trigger: Literal["manual", "auto"]
    custom_instructions: str = ""
    history: History | None = Field(default=None, exclude=True)


class PostCompactInput(HookInput):
    hook_event_name: Literal["PostCompact"] = "PostCompact"
    trigger: Literal["manual", "auto"]
    compact_summary: str


class WorktreeCreateInput(HookInput):
    hook_event_name: Literal["WorktreeCreate"] = "WorktreeCreate"
    name: str


class WorktreeRemoveInput(HookInput):
    hook_event_name: Literal["WorktreeRemove"] = "WorktreeRemove"
    worktree_path: str


class CwdChangedInput(HookInput):
    hook_event_name: Literal["CwdChanged"] = "CwdChanged"
    old_cwd: str
    new_cwd: str


class ErrorInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    name: str = "Error"
    stack: str | None = None


class ErrorOccurredInput(HookInput):
    """A turn failed (the model call, for instance). No Wave name: Copilot's `errorOccurred`."""

    hook_event_name: Literal["ErrorOccurred"] = "ErrorOccurred"
    error: ErrorInfo
    error_context: Literal["model_call", "tool_execution", "system", "user_input"] = "model_call"
    recoverable: bool = True
