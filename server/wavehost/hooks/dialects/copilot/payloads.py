"""What a Copilot hook reads on stdin: the payload as Copilot CLI 1.0.102 writes it.

camelCase keys: `sessionId`, `timestamp` (epoch milliseconds, a number), `cwd`, then the event's
fields, tool names and arguments in Copilot's words (`bash`, `view {path}`). PascalCase keys:
`hook_event_name`, `session_id`, `timestamp` (ISO-8601, milliseconds, `Z`), `cwd`, snake_case
fields and Claude tool names — with the arguments still in Copilot's own keys (`path`, `old_str`,
`new_str`). Both forms of one event carry the same instant. `permissionRequest` and `notification`
have one payload for both forms (a file tool's permission is asked as `edit` with `{file_path,
diff}`); `SubagentStart` is a hybrid (as observed). sessionStart comes with the run's first
prompt and carries it (`initialPrompt`), `new` or `resume`; userPromptTransformed's
`transformedPrompt` starts with Copilot's `<current_datetime>…</current_datetime>` line (local
time, milliseconds, offset).
"""

from datetime import UTC, datetime
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.dialects.copilot.diffs import of_call
from wavehost.hooks.dialects.copilot.events import END_REASONS, SESSION_SOURCES, TOOLS, is_pascal
from wavehost.hooks.tools import is_shell, mcp
from wavehost.hooks.tools.edit import EDIT

Doc = dict[str, Any]
# The events whose payloads carry `transcriptPath` / `transcript_path` (`render`); a tool call's
# do not, so a Copilot hook on one needs no transcript save before it starts.
NAMES_TRANSCRIPT = frozenset(
    {Event.Stop, Event.SubagentStart, Event.SubagentStop, Event.PreCompact}
)


def epoch_ms(at: float) -> int:
    return int(at * 1000)


def iso(at: float) -> str:
    stamp = datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


def _camel(payload: p.HookInput) -> Doc:
    return {"sessionId": payload.session_id, "timestamp": epoch_ms(payload.at), "cwd": payload.cwd}


def _pascal(key: str, payload: p.HookInput) -> Doc:
    return {
        "hook_event_name": key,
        "session_id": payload.session_id,
        "timestamp": iso(payload.at),
        "cwd": payload.cwd,
    }


def tool_args(payload: p.PreToolUseInput | p.PostToolUseInput | p.PostToolUseFailureInput) -> Any:
    """`toolArgs` (and PascalCase `tool_input`): Copilot's keys; in a preToolUse chain, what an
    earlier hook rewrote them into, object or not."""
    if isinstance(payload, p.PreToolUseInput) and payload.raw_args is not None:
        return payload.raw_args
    return TOOLS.args(payload.tool_name, payload.tool_input)


def current_datetime(at: float) -> str:
    """Copilot's first line of a prompt for the model: the local time, milliseconds, offset."""
    stamp = datetime.fromtimestamp(at).astimezone().isoformat(timespec="milliseconds")
    return f"<current_datetime>{stamp}</current_datetime>\n\n"


def claude(payload: p.PreToolUseInput | p.PostToolUseInput | p.PostToolUseFailureInput) -> str:
    """The PascalCase payload's `tool_name`: Claude Code's, but an MCP tool's is Copilot's own
    (`<server>-<tool>`, observed)."""
    name = payload.tool_name
    return TOOLS.name(name) if mcp.parts(name) else name


def result_text(payload: p.PostToolUseInput) -> str:
    if payload.result_text is not None:
        return payload.result_text
    response = payload.tool_response
    return response if isinstance(response, str) else str(response)


def render(key: str, payload: p.HookInput) -> Doc:
    """The stdin document for a hook registered under `key` (camelCase or PascalCase)."""
    pascal = is_pascal(key)
    base = _pascal(key, payload) if pascal else _camel(payload)
    match payload:
        case p.SessionStartInput():
            if payload.initial_prompt is None:
                return {**base, "source": SESSION_SOURCES.get(payload.source, payload.source)}
            initial = "initial_prompt" if pascal else "initialPrompt"
            source = "resume" if payload.source == "resume" else "new"
            return {**base, "source": source, initial: payload.initial_prompt}
        case p.SessionEndInput():
            reason = (
                payload.last_turn if payload.last_turn != "complete" else _reason(payload.reason)
            )
            return {**base, "reason": END_REASONS.get(payload.reason, reason)}
        case p.UserPromptSubmitInput():
            return {**base, "prompt": payload.prompt}
        case p.UserPromptTransformedInput():
            return {
                **base,
                "prompt": payload.prompt,
                "transformedPrompt": current_datetime(payload.at) + payload.transformed_prompt,
            }
        case p.PreToolUseInput():
            if pascal:
                return {**base, "tool_name": claude(payload), "tool_input": tool_args(payload)}
            return {
                **base,
                "toolName": TOOLS.name(payload.tool_name),
                "toolArgs": tool_args(payload),
            }
        case p.PostToolUseInput():
            text = result_text(payload)
            kind = payload.result_type or "success"
            if pascal:
                result = {"result_type": kind, "text_result_for_llm": text}
                return {
                    **base,
                    "tool_name": claude(payload),
                    "tool_input": tool_args(payload),
                    "tool_result": result,
                }
            return {
                **base,
                "toolName": TOOLS.name(payload.tool_name),
                "toolArgs": tool_args(payload),
                "toolResult": {"resultType": kind, "textResultForLlm": text},
            }
        case p.PostToolUseFailureInput():
            if pascal:
                return {
                    **base,
                    "tool_name": claude(payload),
                    "tool_input": tool_args(payload),
                    "error": payload.error,
                }
            return {
                **base,
                "toolName": TOOLS.name(payload.tool_name),
                "toolArgs": tool_args(payload),
                "error": payload.error,
            }
        case p.PermissionRequestInput():
            name, args = (
                TOOLS.name(payload.tool_name),
                TOOLS.args(payload.tool_name, payload.tool_input),
            )
            change = of_call(payload.tool_name, payload.tool_input)
            if change is not None:  # a file is created or changed: Copilot asks about an edit
                name, args = TOOLS.name(EDIT.name), change
            elif is_shell(payload.tool_name):
                args = {"command": payload.tool_input.get("command", "")}
            server_tool = mcp.parts(payload.tool_name)
            return {
                "hookName": "permissionRequest",
                **_camel(payload),
                "toolName": mcp.copilot_permission_name(*server_tool) if server_tool else name,
                "toolInput": args,
                "permissionSuggestions": [],
            }
        case p.StopInput():
            if pascal:
                return {
                    **base,
                    "transcript_path": payload.transcript_path,
                    "stop_reason": "end_turn",
                    "stop_hook_active": payload.stop_hook_active,
                }
            return {
                **base,
                "transcriptPath": payload.transcript_path,
                "stopReason": "end_turn",
                "stop_hook_active": payload.stop_hook_active,
            }
        case p.SubagentStartInput():
            doc = {
                **_camel(payload),
                "transcriptPath": payload.transcript_path,
                "agentName": payload.agent_type,
            }
            if pascal:
                return {
                    **doc,
                    "agent_id": payload.agent_id,
                    "agent_type": payload.agent_type,
                    "parent_agent_id": payload.session_id,
                }
            return {
                **doc,
                "agentId": payload.agent_id,
                "agentType": payload.agent_type,
                "parentAgentId": payload.session_id,
            }
        case p.SubagentStopInput():
            response = payload.last_assistant_message or ""
            if pascal:
                return {
                    **base,
                    "agent_id": payload.agent_id,
                    "agent_type": payload.agent_type,
                    "parent_agent_id": payload.session_id,
                    "transcript_path": payload.agent_transcript_path or payload.transcript_path,
                    "agent_name": payload.agent_type,
                    "last_assistant_message": response,
                    "stop_reason": "end_turn",
                    "stop_hook_active": payload.stop_hook_active,
                }
            return {
                **base,
                "transcriptPath": payload.agent_transcript_path or payload.transcript_path,
                "agentId": payload.agent_id,
                "agentType": payload.agent_type,
                "agentName": payload.agent_type,
                "response": response,
                "stopReason": "end_turn",
                "stop_hook_active": payload.stop_hook_active,
                "parentAgentId": payload.session_id,
            }
        case p.ErrorOccurredInput():
            error = payload.error.model_dump(exclude_none=True)
            if pascal:
                return {
                    **base,
                    "error": error,
                    "error_context": payload.error_context,
                    "recoverable": payload.recoverable,
                }
            return {
                **base,
                "errorContext": payload.error_context,
                "recoverable": payload.recoverable,
                "error": error,
            }
        case p.NotificationInput():
            return {
                **_camel(payload),
                "message": payload.message,
                "title": payload.title,
                "hook_event_name": "Notification",
                "notification_type": payload.notification_type,
            }
        case p.PreCompactInput():
            if pascal:
                return {
                    **base,
                    "transcript_path": payload.transcript_path,
                    "trigger": payload.trigger,
                    "custom_instructions": payload.custom_instructions,
                }
            return {
                **base,
                "transcriptPath": payload.transcript_path,
                "trigger": payload.trigger,
                "customInstructions": payload.custom_instructions,
            }
    raise ValueError(f"Copilot has no payload for {event_of(payload).name}")


def _reason(reason: str) -> str:
    return (
        reason if reason in ("complete", "error", "abort", "timeout", "user_exit") else "complete"
    )
