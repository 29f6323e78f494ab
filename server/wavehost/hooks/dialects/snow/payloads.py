"""What a Snow hook reads on stdin: the context Snow CLI passes each hook type, then enriched.

The context is what the matcher sees; the hook reads it enriched with `platform` ("snow") and
`cwd`, and — for the session hooks (`onSessionStart`, `onUserMessage`, `beforeSubAgentStart`,
seed 004 "session 元数据") — `sessionId` and `session_id` last. Tool names and arguments are
Snow's (`terminal-execute`, `filesystem-create {filePath, content}`).
"""

import json
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import event_of
from wavehost.hooks.dialects.snow.events import TOOLS

Doc = dict[str, Any]
PLATFORM = "snow"


def _history(payload: p.HookInput) -> list[dict[str, Any]]:
    history = getattr(payload, "history", None)
    return history() if history is not None else []


def context(payload: p.HookInput) -> Doc:
    """The context of the hook type this catalogue event is (before enrichment)."""
    match payload:
        case p.SessionStartInput():
            messages = _history(payload)
            return {
                "messages": messages,
                "messageCount": len(messages),
                "sessionId": payload.session_id,
                "cwd": payload.cwd,
                "isResume": payload.source == "resume" or bool(messages),
            }
        case p.UserPromptSubmitInput():
            return {
                "message": payload.prompt,
                "imageCount": 0,
                "source": "normal",
                "sessionId": payload.session_id,
                "cwd": payload.cwd,
                "messageCount": payload.message_count,
            }
        case p.PreToolUseInput():
            return {
                "toolName": TOOLS.name(payload.tool_name),
                "args": TOOLS.args(payload.tool_name, payload.tool_input),
            }
        case p.PermissionRequestInput():
            args = TOOLS.args(payload.tool_name, payload.tool_input)
            return {
                "toolName": TOOLS.name(payload.tool_name),
                "args": json.dumps(args, ensure_ascii=False, separators=(",", ":")),
                "isSensitive": False,
            }
        case p.PostToolUseInput():
            failed = isinstance(payload.tool_response, dict) and (
                payload.tool_response.get("success") is False
            )
            text = payload.result_text if payload.result_text is not None else ""
            return {
                "toolName": TOOLS.name(payload.tool_name),
                "args": TOOLS.args(payload.tool_name, payload.tool_input),
                "result": {"tool_call_id": payload.tool_use_id, "role": "tool", "content": text},
                "error": text if failed and not payload.blocked else None,
            }
        case p.SubagentStartInput():
            return {
                "agentId": payload.agent_id,
                "agentName": payload.agent_type,
                "prompt": payload.prompt or "",
                "cwd": payload.cwd,
                "sessionId": payload.session_id,
            }
        case p.SubagentStopInput():
            return {
                "agentId": payload.agent_id,
                "agentName": payload.agent_type,
                "content": payload.last_assistant_message or "",
                "success": True,
            }
        case p.PreCompactInput():
            messages = _history(payload)
            return {
                "messages": messages,
                "conversationJson": json.dumps(messages, ensure_ascii=False),
            }
        case p.StopInput():
            return {"messages": _history(payload)}
    raise ValueError(f"Snow has no hook type for {event_of(payload).name}")


def enrich(ctx: Doc, cwd: str) -> Doc:
    """`platform` and `cwd` appended (unless the context has them), then the session id under
    both keys, last."""
    session_id = ctx.get("sessionId")
    out = {k: v for k, v in ctx.items() if k not in ("sessionId", "session_id")}
    out.setdefault("platform", PLATFORM)
    out.setdefault("cwd", cwd)
    if isinstance(session_id, str) and session_id.strip():
        out["sessionId"] = out["session_id"] = session_id
    return out


def compact(document: Any) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"))


def placeholders(ctx: Doc) -> dict[str, str]:
    """`$TOOLSRESULT$`, `$STOPSESSION$` and `$SUBAGENTRESULT$`, for the contexts that have them."""
    found: dict[str, str] = {}
    if "toolName" in ctx or "args" in ctx:
        tool = {"toolName": ctx.get("toolName"), "args": ctx.get("args")}
        tool |= {k: ctx[k] for k in ("result", "error") if k in ctx}
        found["$TOOLSRESULT$"] = compact(tool)
    if "messages" in ctx:
        found["$STOPSESSION$"] = compact(ctx["messages"])
    if "agentId" in ctx or "agentName" in ctx:
        keys = ("agentId", "agentName", "content", "success", "usage")
        found["$SUBAGENTRESULT$"] = compact({k: ctx.get(k) for k in keys})
    return found


def fill(text: str, ctx: Doc, quote: Any = None) -> str:
    """`text` with its placeholders replaced by their JSON (`quote` applied to each, e.g. shell
    quoting in a command)."""
    for name, value in placeholders(ctx).items():
        if name in text:
            text = text.replace(name, quote(value) if quote else value)
    return text
