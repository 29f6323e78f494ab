"""What Snow hook results mean (seed 004 "退出码规则"; the observed contract where it is silent).

Exit 0 continues (and, on the injection types, JSON `additionalContext` is prepended to what the
model sees); exit 1 is a warning or a replacement; 2 and above stop the current operation. A
timeout or output over Snow's 10,000-byte buffer counts as exit 1, a hook that could not start as
exit 2. Actions run in order and a command exiting 2+ ends the chain; each type acts on the
**first** failed command. Preset texts are Snow's.
"""

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.dialects.wave.outcome import summary
from wavehost.hooks.outcome import (
    HookRef,
    Notice,
    NoticeLevel,
    Outcome,
    PermissionDecision,
    QuestionAnswer,
)
from wavehost.hooks.runner import HookRun
from wavehost.hooks.tools.ask_user_question import ASK_USER_QUESTION

log = logging.getLogger(__name__)

CONTEXT_CAP = 8192  # UTF-16 units of joined additionalContext (and of a prompt override)
UNKNOWN_ERROR = "未知错误"
KILLED = "Process killed by signal SIGTERM"
REJECTED = "Rejected by toolConfirmation hook"
CONFIRMATIONS: dict[str, tuple[PermissionDecision, bool]] = {
    "approve": ("allow", False),
    "approve_once": ("allow", False),
    "approve_always": ("allow", True),
    "reject": ("deny", False),
    "reject_with_reply": ("deny", False),
}


@dataclass(frozen=True)
class Result:
    """One action's result as Snow sees it."""

    run: HookRun
    code: int
    stdout: str
    stderr: str

    @property
    def command(self) -> str:
        return self.run.handler.command

    @property
    def text(self) -> str:
        """stderr, else stdout (what exit 1 and 2+ hand on)."""
        return self.stderr.strip() or self.stdout.strip()


def result_of(run: HookRun) -> Result:
    if run.spawn_error is not None:
        return Result(run, 2, "", run.spawn_error)
    if run.stopped or run.truncated or run.exit_code is None:
        reason = "stdout maxBuffer length exceeded" if run.truncated else KILLED
        return Result(run, 1, run.stdout, run.stderr if run.stderr.strip() else reason)
    return Result(run, run.exit_code, run.stdout, run.stderr)


def ends_chain(run: HookRun) -> bool:
    return result_of(run).code >= 2


def warning(hook_type: str, result: Result) -> str:
    return f"[{hook_type} Hook Warning] Command: {result.command} exited with code {result.code}"


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text.strip())
    except (json.JSONDecodeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def cap(text: str, limit: int = CONTEXT_CAP) -> tuple[str, bool]:
    """At most `limit` UTF-16 code units (JavaScript string length)."""
    units = text.encode("utf-16-le")
    if len(units) <= limit * 2:
        return text, False
    return units[: limit * 2].decode("utf-16-le", errors="ignore"), True


@dataclass(frozen=True)
class Injection:
    context: str | None
    prompt: str | None  # beforeSubAgentStart: the whole prompt, replaced
    display: str | None


def injection(result: Result) -> Injection | None:
    """An injection protocol answer on stdout (`additionalContext`, `prompt`, `display`)."""
    doc = _json_object(result.stdout)
    if doc is None:
        return None  # non-JSON stdout is never injected (it may be a log)
    specific = doc.get("hookSpecificOutput")
    context = doc.get("additionalContext")
    if not isinstance(context, str) and isinstance(specific, dict):
        context = specific.get("additionalContext")
    prompt, display = doc.get("prompt"), doc.get("display")
    return Injection(
        context if isinstance(context, str) and context.strip() else None,
        prompt if isinstance(prompt, str) and prompt.strip() else None,
        display if isinstance(display, str) and display.strip() else None,
    )


def answer(stdout: str) -> QuestionAnswer | None:
    """askuser-ask_question auto-answer: text, `{selected, customInput?}` or a JSON array."""
    text = stdout.strip()
    if not text:
        return None
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return QuestionAnswer(selected=[text])  # plain text is the choice, verbatim
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return QuestionAnswer(selected=value)
    if isinstance(value, dict):
        selected = value.get("selected")
        custom = value.get("customInput")
        custom = custom if isinstance(custom, str) and custom else None
        if isinstance(selected, str):
            return QuestionAnswer(selected=[selected], custom_input=custom)
        if isinstance(selected, list) and all(isinstance(v, str) for v in selected):
            return QuestionAnswer(selected=selected, custom_input=custom)
    return None  # other JSON: the user is asked as usual


def confirmation(stdout: str) -> tuple[PermissionDecision, bool, str | None] | None:
    """toolConfirmation auto-answer: a keyword or `{result, reason?}`."""
    text = stdout.strip()
    doc = _json_object(text)
    if doc is not None:
        result = doc.get("result")
        if not isinstance(result, str) or result.lower() not in CONFIRMATIONS:
            return None
        decision, always = CONFIRMATIONS[result.lower()]
        reason = doc.get("reason")
        if decision == "deny":
            return decision, False, reason if isinstance(reason, str) and reason else REJECTED
        return decision, always, None
    keyword = text.lower()
    if keyword in CONFIRMATIONS:
        decision, always = CONFIRMATIONS[keyword]
        return decision, always, REJECTED if decision == "deny" else None
    return None


@dataclass
class _Builder:
    event: Event
    hook_type: str
    outcome: dict[str, Any] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
    meta: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)

    def notice(self, level: NoticeLevel, text: str, r: Result) -> None:
        self.notices.append(Notice.of_run(level, text, r.run, exit_code=r.code))

    def decided(self, r: Result) -> None:
        """`r`'s hook is behind the block or decision in force (named in the chat)."""
        self.outcome["decided_by"] = HookRef.of(r.run.handler)

    def build(self, runs: Sequence[HookRun]) -> Outcome:
        return Outcome(
            event=self.event.name,
            meta_messages=self.meta,
            notices=self.notices,
            logs=self.logs,
            runs=[summary(run) for run in runs],
            **self.outcome,
        )


def interpret(payload: p.HookInput, runs: Sequence[HookRun]) -> Outcome:
    """Decide what an event's Snow hook results mean. Pure."""
    event = event_of(payload)
    hook_type = runs[0].handler.event_name if runs else event.name
    out = _Builder(event, hook_type)
    results = [result_of(run) for run in runs]
    failed = next((r for r in results if r.code != 0), None)
    ok = [r for r in results if r.code == 0]
    for r in results:
        if r.code == 1 and r is not failed:
            out.logs.append(f"{hook_type} hook exited 1: {r.command}: {r.text}")
    strategy = _STRATEGIES.get(event)
    if strategy is not None:
        strategy(out, payload, failed, ok)
    return out.build(runs)


def _stop_flow(out: _Builder, failed: Result) -> None:
    """2+: the operation is stopped, the AI flow ends, the user is shown why."""
    out.outcome["halt"] = True
    text = failed.text or f"Command: {failed.command} exited with code {failed.code}"
    out.notice("error", text, failed)


def _before_tool(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    if failed is not None:
        blocked = failed.text or warning("beforeToolCall", failed)
        out.outcome.update(blocked=True, tool_error=blocked)
        out.decided(failed)
        if failed.code >= 2:
            _stop_flow(out, failed)
        return
    if isinstance(payload, p.PreToolUseInput) and payload.tool_name == ASK_USER_QUESTION.name:
        for r in ok:
            if r.run.handler.kind == "command":
                found = answer(r.stdout)
                if found is not None:
                    out.outcome["answer"] = found
                    return


def _after_tool(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    if failed is None:
        return
    if failed.code == 1:
        out.outcome["tool_result"] = failed.text or warning("afterToolCall", failed)
    else:
        _stop_flow(out, failed)


def _confirmation(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    if failed is not None and failed.code >= 2:
        out.outcome.update(blocked=True, permission_decision="deny", permission_reason=REJECTED)
        out.decided(failed)
        out.notice("error", failed.text or REJECTED, failed)
        return
    if failed is not None:
        out.notice("warning", failed.text or warning("toolConfirmation", failed), failed)
    for r in ok:
        found = confirmation(r.stdout)
        if found is not None:
            decision, always, reason = found
            out.outcome.update(
                permission_decision=decision,
                permission_always=always,
                permission_reason=reason,
                blocked=decision == "deny",
            )
            out.decided(r)
            return


def _contexts(out: _Builder, ok: list[Result]) -> tuple[str | None, str | None]:
    """The joined additionalContext (capped) and the first prompt override of the successes."""
    texts: list[str] = []
    override: str | None = None
    for r in ok:
        found = injection(r)
        if found is None:
            continue
        if found.context:
            texts.append(found.context.strip())
        if found.prompt and override is None:
            override = found.prompt
        if found.display:
            out.notice("info", found.display.strip(), r)
    joined, cut = cap("\n\n".join(texts))
    if cut:
        out.logs.append(f"{out.hook_type} additionalContext over {CONTEXT_CAP} chars: truncated")
    return joined or None, override


def _user_message(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    if failed is not None and failed.code >= 2:
        out.outcome["blocked"] = True
        text = failed.text or f"Command: {failed.command} exited with code {failed.code}"
        out.notice("error", text, failed)
        return
    if failed is not None:  # the model gets this instead of the message (the bubble keeps it)
        out.outcome.update(prompt=failed.text or warning("onUserMessage", failed))
        out.outcome["clear_pending"] = True
        return
    context, _ = _contexts(out, ok)
    if context:
        out.outcome["prompt_prefix"] = [context]


def _session_start(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    if failed is not None and failed.code >= 2:
        out.notice("error", failed.text or warning("onSessionStart", failed), failed)
        return
    if failed is not None:
        out.notice("warning", failed.text or warning("onSessionStart", failed), failed)
    context, _ = _contexts(out, ok)
    if context:
        out.outcome["pending_context"] = context


def _subagent_start(
    out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]
) -> None:
    """Fail-open: failures change nothing. A prompt override replaces the whole prompt (the
    first one wins); else the context goes before it."""
    if failed is not None:
        out.logs.append(f"beforeSubAgentStart hook failed (ignored): {failed.command}")
    context, override = _contexts(out, ok)
    if override is not None:
        out.outcome["prompt"] = cap(override)[0]
    elif context:
        out.outcome["prompt_prefix"] = [context]


def _ends(out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]) -> None:
    """onStop / onSubAgentComplete: 2+ hands stderr (else stdout, else 未知错误) to the model as
    a user message and the agent goes on; a prompt action pauses for the user."""
    for r in ok:
        if r.run.handler.kind == "prompt":
            out.outcome["ask_user"] = r.stdout
            return
    if failed is not None and failed.code >= 2:
        out.outcome["blocked"] = True
        out.meta.append(failed.text or UNKNOWN_ERROR)


def _compress(out: _Builder, payload: p.HookInput, failed: Result | None, ok: list[Result]) -> None:
    if failed is None:
        return
    if failed.code >= 2:
        out.outcome["blocked"] = True  # no compaction
        _stop_flow(out, failed)
    else:
        out.notice("warning", failed.text or warning("beforeCompress", failed), failed)


_STRATEGIES = {
    Event.PreToolUse: _before_tool,
    Event.PostToolUse: _after_tool,
    Event.PermissionRequest: _confirmation,
    Event.UserPromptSubmit: _user_message,
    Event.SessionStart: _session_start,
    Event.SubagentStart: _subagent_start,
    Event.SubagentStop: _ends,
    Event.Stop: _ends,
    Event.PreCompact: _compress,
}
