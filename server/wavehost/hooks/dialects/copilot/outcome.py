"""What Copilot hook results mean (seed 002 "事件选择"; the observed contract where it is silent).

stdout: lines that are each a `{"type":"progress",…}` object are shown and removed; the rest
(after a UTF-8 byte-order mark, if any) is one JSON document, else no output at all. A timeout is
fail-open for every event. Exit 2 of an event without a decision is a warning for the user
(stderr), and its stdout still counts. preToolUse is the strict one: deny and ask end the chain,
exit 2 denies, any other failure denies ("hook errored"). Texts the model sees are Copilot's,
and what a hook gives them passes whole — a reason, a context, a result or response it rewrites —
except the postToolUse guidance, which Copilot cuts silently at 10,240 characters. A reason that
is not a string reads as JavaScript writes it (`5`, `true`, `[object Object]`).
"""

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.dialects.copilot.events import TOOLS, is_pascal
from wavehost.hooks.dialects.copilot.payloads import result_text
from wavehost.hooks.dialects.wave.outcome import summary
from wavehost.hooks.outcome import HookRef, Notice, NoticeLevel, Outcome, PermissionDecision
from wavehost.hooks.runner import HookRun

log = logging.getLogger(__name__)

Doc = dict[str, Any]
# An `ask` with nobody to ask (Copilot under `-p`; wavehost's headless `chat -p`)
UNASKED = "Denied by preToolUse hook (unable to ask user for confirmation)"
NO_REASON = "No reason provided"
POST_GUIDANCE_CHARS = 10_240  # Copilot cuts the postToolUse guidance here, without a word
NOT_AN_OBJECT = "Expected JSON object but got array"
BOM = "\ufeff"


@dataclass(frozen=True)
class Output:
    progress: list[str]
    doc: Doc | None


def read_output(stdout: str) -> Output:
    progress: list[str] = []
    stdout = stdout.removeprefix(BOM)
    rest: list[str] = []
    for line in stdout.splitlines():
        stripped = line.strip()
        if stripped.startswith("{") and '"progress"' in stripped:
            try:
                item = json.loads(stripped)
            except json.JSONDecodeError:
                item = None
            if isinstance(item, dict) and item.get("type") == "progress":
                message = item.get("message")
                if isinstance(message, str) and message.strip():
                    progress.append(message.strip())
                continue
        rest.append(line)
    text = "\n".join(rest).strip()
    if not text:
        return Output(progress, None)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return Output(progress, None)
    return Output(progress, doc if isinstance(doc, dict) else None)


def _text(doc: Doc | None, key: str) -> str | None:
    value = doc.get(key) if doc else None
    return _model_text(value)


def _model_text(value: Any) -> str | None:
    """A non-blank string from a hook's output, whole; None for anything else."""
    return value if isinstance(value, str) and value.strip() else None


def js_string(value: Any) -> str:
    """What JavaScript's `${value}` writes for a JSON value (how Copilot words a reason)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, list):
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"


def _specific(run: HookRun, doc: Doc | None) -> Doc:
    """`hookSpecificOutput`, which only PascalCase PreToolUse reads."""
    value = doc.get("hookSpecificOutput") if doc else None
    if is_pascal(run.handler.key) and isinstance(value, dict):
        return value
    return {}


def origin(run: HookRun) -> str:
    """The hook's file as Copilot names it in a denial: repo-relative, or absolute for users."""
    path = run.handler.path or Path("?")
    parts = path.parts
    if run.handler.source == "project":
        for index in range(len(parts) - 2, -1, -1):
            if parts[index : index + 2] == (".github", "hooks"):
                return "/".join(parts[index:])
    return str(path)


def errored(run: HookRun) -> bool:
    """Neither success, exit 2 nor a timeout: exit 1 or 3, a spawn error, a missing cwd."""
    return not run.stopped and (run.spawn_error is not None or run.exit_code not in (0, 2))


def _decision(run: HookRun, doc: Doc | None) -> Any:
    return _specific(run, doc).get("permissionDecision") or (doc or {}).get("permissionDecision")


def pre_tool_ends_chain(run: HookRun) -> bool:
    """Whether this preToolUse run denies or asks (either ends the chain)."""
    if run.stopped:
        return False
    if errored(run) or run.exit_code == 2:
        return True
    return _decision(run, read_output(run.stdout).doc) in ("deny", "ask")


def modified_args(run: HookRun) -> Any:
    """`modifiedArgs` (an object, a list, or either as a JSON string); PascalCase also
    `updatedInput` in `hookSpecificOutput`. camelCase top-level `updatedInput` is ignored
    (observed). None: no rewrite."""
    if run.stopped or run.exit_code != 0:
        return None
    doc = read_output(run.stdout).doc
    value: Any = (doc or {}).get("modifiedArgs")
    if value is None:
        value = _specific(run, doc).get("updatedInput")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    return value if isinstance(value, dict | list) else None


@dataclass
class _Builder:
    event: Event
    payload: p.HookInput
    blocked: bool = False
    tool_error: str | None = None
    halt: bool = False
    meta: list[str] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    decision: PermissionDecision | None = None
    reason: str | None = None
    unasked: str | None = None
    decided_by: HookRef | None = None  # the hook whose deny, ask or allow is in force
    updated: dict[str, Any] | None = None
    tool_result: str | None = None
    prompt: str | None = None
    prefix: list[str] = field(default_factory=list)
    suffix: list[str] = field(default_factory=list)
    response: str | None = None
    after_call: list[str] = field(default_factory=list)
    invalid_input: str | None = None

    @property
    def key(self) -> str:
        return self.event.name

    def notice(self, level: NoticeLevel, text: str, run: HookRun) -> None:
        self.notices.append(Notice.of_run(level, text, run))

    def decide(self, run: HookRun, decision: PermissionDecision, reason: str | None) -> None:
        self.decision, self.reason = decision, reason
        self.decided_by = HookRef.of(run.handler)

    def build(self, runs: Sequence[HookRun]) -> Outcome:
        return Outcome(
            event=self.event.name,
            blocked=self.blocked,
            tool_error=self.tool_error,
            halt=self.halt,
            meta_messages=self.meta,
            notices=self.notices,
            permission_decision=self.decision,
            permission_reason=self.reason,
            unasked_refusal=self.unasked,
            decided_by=self.decided_by,
            updated_input=self.updated,
            tool_result=self.tool_result,
            prompt=self.prompt,
            prompt_prefix=self.prefix,
            prompt_suffix=self.suffix,
            response=self.response,
            logs=self.logs,
            runs=[summary(run) for run in runs],
            after_call=self.after_call,
            whole_meta=self.meta,
            invalid_input=self.invalid_input,
            cap_notice=False,
        )


def interpret(payload: p.HookInput, runs: Sequence[HookRun]) -> Outcome:
    """Decide what an event's Copilot hook results mean. Pure."""
    event = event_of(payload)
    out = _Builder(event, payload)
    contexts: list[str] = []
    blocked_reason: str | None = None
    for run in runs:
        command = run.handler.command
        if run.timed_out:
            seconds = f"{run.timeout:g}"
            out.logs.append(f"Hook command timed out after {seconds} seconds: {command[:80]}")
            continue
        if run.cancelled:  # as a timeout: no answer, the call goes on
            out.logs.append(f"Hook command was cancelled by the user: {command[:80]}")
            continue
        output = read_output(run.stdout)
        for line in output.progress:
            out.notice("info", line, run)
        doc = output.doc
        if event is Event.PreToolUse:
            if _pre_tool_use(out, run, doc, contexts):
                break
            continue
        if event is Event.PermissionRequest:
            _permission_request(out, run, doc)
            continue
        if errored(run):
            failure = run.spawn_error or f"exit code {run.exit_code}"
            out.logs.append(f"{run.handler.event_name} hook failed ({failure}): {command}")
            if run.spawn_error is not None:  # it never ran: the user should know why
                out.notice("warning", f"{run.handler.event_name} hook: {run.spawn_error}", run)
            continue
        if run.exit_code == 2:
            stderr = run.stderr.strip()
            if event is Event.PostToolUseFailure:
                if stderr:
                    contexts.append(stderr)
                continue  # stdout is ignored
            out.notice("warning", stderr or f"hook exited with code 2: {command}", run)
            # and its stdout still counts, as on exit 0
        context = _text(doc, "additionalContext")
        if context is not None and event is not Event.Stop:
            contexts.append(context)
        pascal = is_pascal(run.handler.key)
        if event is Event.PostToolUse:
            modified = _modified_result(doc)
            if modified is not None:
                out.tool_result = modified[1]  # each hook saw the one before (`advance`)
            if pascal and (doc or {}).get("decision") == "block":
                blocked_reason = _text(doc, "reason") or ""
        elif event is Event.UserPromptSubmit:
            if (doc or {}).get("modifiedPrompt") is not None:
                out.logs.append(
                    "userPromptSubmitted: modifiedPrompt is honoured only for SDK programmatic "
                    f"hooks, not config-file hooks; ignored ({command})"
                )
            if pascal and (doc or {}).get("decision") == "block":
                reason = _text(doc, "reason") or "Prompt blocked by a UserPromptSubmit hook"
                out.blocked = True
                out.notice("error", reason, run)
        elif event is Event.UserPromptTransformed:
            modified_prompt = _text(doc, "modifiedTransformedPrompt")
            if modified_prompt is not None:
                out.prompt = modified_prompt  # not chained: each saw the original; last wins
        elif event in (Event.Stop, Event.SubagentStop):
            why = _text(doc, "reason")
            if (doc or {}).get("decision") == "block" and why is not None:
                out.blocked = True
                out.meta.append(why)
            rewritten = (doc or {}).get("modifiedResponse")
            if event is Event.SubagentStop and isinstance(rewritten, str):
                out.response = rewritten  # the last one wins
    _contexts(out, contexts)
    if blocked_reason is not None:
        out.tool_result = f"Tool result blocked: {blocked_reason}"
    if out.blocked and out.event is Event.SubagentStop:
        out.response = None  # a block beats a rewrite: the subagent goes on
    return out.build(runs)


def post_tool_modified(run: HookRun) -> tuple[str | None, str] | None:
    """What the next postToolUse hook reads after this one (exit 0 or 2: stdout counts)."""
    if errored(run):
        return None
    return _modified_result(read_output(run.stdout).doc)


def _modified_result(doc: Doc | None) -> tuple[str | None, str] | None:
    """A postToolUse `modifiedResult`: (its `resultType`, if given; its text)."""
    modified = (doc or {}).get("modifiedResult")
    if not isinstance(modified, dict) or not isinstance(modified.get("textResultForLlm"), str):
        return None
    kind = modified.get("resultType")
    return (kind if isinstance(kind, str) else None), modified["textResultForLlm"]


def _pre_tool_use(out: _Builder, run: HookRun, doc: Doc | None, contexts: list[str]) -> bool:
    """One preToolUse run; True when it denied or asked (the chain has ended there)."""
    specific = _specific(run, doc)
    top = doc or {}
    if errored(run):
        out.blocked = True
        out.decide(run, "deny", None)
        out.tool_error = f'Denied by preToolUse hook from "{origin(run)}" (hook errored)'
        return True
    given = specific.get("permissionDecisionReason")
    if given is None:
        given = top.get("permissionDecisionReason")
    reason = NO_REASON if given is None else js_string(given)
    if run.exit_code == 2:
        out.blocked = True
        out.decide(run, "deny", reason if given is not None else "hook exited with code 2")
        out.tool_error = f"Denied by preToolUse hook: {out.reason}"
        return True
    decision = specific.get("permissionDecision") or top.get("permissionDecision")
    if decision == "deny":
        out.blocked = True
        out.decide(run, "deny", reason)
        out.tool_error = f"Denied by preToolUse hook: {reason}"
        return True
    context = _model_text(specific.get("additionalContext") or top.get("additionalContext"))
    if context is not None:
        contexts.append(context)
    if decision == "ask":  # the call as it stands is asked about; this hook's own rewrite is not
        out.decide(run, "ask", reason if given is not None else None)
        out.unasked = f"{UNASKED}: {reason}"
        return True
    if decision == "allow" and out.decision is None:
        out.decide(run, "allow", reason if given is not None else None)
    args = modified_args(run)
    assert isinstance(out.payload, p.PreToolUseInput)
    if isinstance(args, dict):
        out.updated = TOOLS.wave_args(out.payload.tool_name, args)
        out.invalid_input = None
    elif isinstance(args, list):  # passed on as it is: the tool cannot take it
        out.updated = None
        out.invalid_input = NOT_AN_OBJECT
    return False


def _permission_request(out: _Builder, run: HookRun, doc: Doc | None) -> None:
    """All permissionRequest hooks run; the last decision wins."""
    if errored(run):
        answer: Doc = {"behavior": "deny", "message": "Permission request hook failed"}
    elif run.exit_code == 2:
        answer = {"behavior": "deny", **(doc or {})}
    else:
        answer = dict(doc or {})
        specific = answer.get("hookSpecificOutput")
        if "behavior" not in answer and isinstance(specific, dict):
            decision = specific.get("decision")
            if isinstance(decision, dict):
                answer = {**decision, **answer}
    behavior = answer.get("behavior")
    if behavior not in ("allow", "deny"):
        return
    message = answer["message"] if isinstance(answer.get("message"), str) else None
    out.decide(run, behavior, message)
    out.blocked = behavior == "deny"
    out.halt = behavior == "deny" and answer.get("interrupt") is True
    out.tool_error = (
        f"Permission denied by a PermissionRequest hook: {message}"
        if behavior == "deny" and message
        else "Permission denied by a PermissionRequest hook"
        if behavior == "deny"
        else None
    )


def _contexts(out: _Builder, contexts: list[str]) -> None:
    """Where each event's additionalContext goes, in Copilot's words."""
    if not contexts:
        return
    payload = out.payload
    event = out.event
    if event is Event.PreToolUse:  # one message, once the call is over (after its failure's)
        out.after_call.append("Additional context from preToolUse hook:\n" + "\n\n".join(contexts))
    elif event is Event.PostToolUse:
        assert isinstance(payload, p.PostToolUseInput)
        name = TOOLS.name(payload.tool_name)
        base = out.tool_result if out.tool_result is not None else result_text(payload)
        guidance = "\n\n".join(contexts)[:POST_GUIDANCE_CHARS]
        out.tool_result = (
            f'{base}\n\nTool "{name}" succeeded. Additional guidance from postToolUse hooks:\n'
            f"{guidance}"
        )
    elif event is Event.PostToolUseFailure:
        assert isinstance(payload, p.PostToolUseFailureInput)
        name = TOOLS.name(payload.tool_name)
        out.meta.append(
            f'Tool "{name}" failed. Additional guidance from postToolUseFailure hooks:\n'
            + "\n\n".join(contexts)
        )
    elif event is Event.UserPromptSubmit:  # only the last one counts
        out.suffix.append(f"\n\n<system_reminder>\n{contexts[-1]}\n</system_reminder>")
    elif event is Event.SubagentStart:
        out.prefix += contexts
    elif event is Event.SessionStart:  # one message
        out.meta.append("\n\n".join(contexts))
    elif event is Event.Notification:
        out.meta += contexts
