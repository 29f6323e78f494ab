"""What hook results mean: a pure function from (payload, raw runs) to an `Outcome`.

The session applies the Outcome to its messages; nothing here touches a UI or a conversation.
Texts are the seed's (and Claude Code's) exactly.
"""

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from wavehost.hooks.catalogue import Event, OnExit2, OnStdout, event_of
from wavehost.hooks.config import HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookRun
from wavehost.wire import WireModel

log = logging.getLogger(__name__)

PermissionDecision = Literal["allow", "deny", "ask"]
_DECISION_RANK: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}
_LEGACY_DECISIONS = {"approve": "allow", "block": "deny"}  # Claude Code's older PreToolUse form
NO_STDERR = "No stderr output"


def system_reminder(text: str) -> str:
    """Wrap model-visible hook text the way Claude Code does, so it cannot close the wrapper."""
    safe = text.replace("</system-reminder>", "<\\/system-reminder>")
    return f"<system-reminder>\n{safe}\n</system-reminder>"


class HookRef(WireModel):
    """Which configured hook a notice, a blocked tool or a question came from: what the user
    needs to find it (the settings page's row has the same `id`)."""

    id: str
    event: str
    matcher: str | None
    source: str  # user / project / plugin / programmatic
    plugin: str | None
    command: str

    @classmethod
    def of(cls, handler: HookHandler) -> "HookRef":
        return cls(
            id=handler.id,
            event=handler.event.name,
            matcher=handler.matcher.source,
            source=handler.source,
            plugin=handler.plugin,
            command=handler.command,
        )


class Notice(WireModel):
    """A line for the user only; never sent to the model."""

    level: Literal["info", "warning", "error"]
    text: str
    event: str
    command: str | None = None
    exit_code: int | None = None
    label: str | None = None  # "PostToolUse:Write" for tool events, else the event name
    hook: HookRef | None = None


class RunSummary(WireModel):
    command: str
    source: str
    exit_code: int | None
    timed_out: bool
    duration_ms: float


class Outcome(WireModel):
    """Everything the session must do after an event's hooks ran."""

    event: str
    blocked: bool = False  # tool not run / prompt erased / stop refused / permission denied / …
    tool_error: str | None = None  # PreToolUse: the failed tool result the model sees
    meta_messages: list[str] = []  # isMeta user messages for the model, in order
    notices: list[Notice] = []
    permission_decision: PermissionDecision | None = None
    permission_reason: str | None = None
    decided_by: HookRef | None = None  # the hook whose block, deny or ask is in force
    compact_instructions: str | None = None
    worktree_path: str | None = None
    reason: str | None = None  # why a takeover (WorktreeCreate) failed
    logs: list[str] = []
    runs: list[RunSummary] = []


class _PermissionBehavior(BaseModel):
    """PermissionRequest's answer for the user (Claude Code: `decision.behavior` + `message`)."""

    model_config = ConfigDict(extra="allow")

    behavior: Literal["allow", "deny"]
    message: str | None = None


class _SpecificOutput(BaseModel):
    model_config = ConfigDict(extra="allow")

    hookEventName: str | None = None  # noqa: N815 - the wire name
    additionalContext: str | None = None  # noqa: N815
    permissionDecision: Literal["allow", "deny", "ask", "defer"] | None = None  # noqa: N815
    permissionDecisionReason: str | None = None  # noqa: N815
    decision: _PermissionBehavior | None = None


class _JsonOutput(BaseModel):
    model_config = ConfigDict(extra="allow")

    systemMessage: str | None = None  # noqa: N815
    decision: str | None = None
    reason: str | None = None
    hookSpecificOutput: _SpecificOutput | None = None  # noqa: N815


@dataclass(frozen=True)
class _Stdout:
    """Stdout read as Claude Code does: JSON when its first non-space character is `{`."""

    text: str
    is_json: bool = False
    parsed: _JsonOutput | None = None
    error: str | None = None  # JSON that is not valid hook output: a non-blocking error


def _read_stdout(stdout: str, event: Event) -> _Stdout:
    text = stdout.strip()
    if not text.startswith("{"):
        return _Stdout(text)
    try:
        raw: Any = json.loads(text)
    except json.JSONDecodeError:
        log.debug("hook stdout starts with { but is not JSON; treating it as plain text")
        return _Stdout(text)
    try:
        parsed = _JsonOutput.model_validate(raw)
    except ValidationError as err:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        return _Stdout(text, True, error=f"invalid hook JSON output ({problems})")
    specific = parsed.hookSpecificOutput
    if specific is not None and specific.hookEventName != event.name:
        return _Stdout(
            text,
            True,
            error=(
                f"invalid hook JSON output: hookSpecificOutput.hookEventName is "
                f'"{specific.hookEventName}" but the hook ran for "{event.name}"'
            ),
        )
    return _Stdout(text, True, parsed)


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


@dataclass
class _Builder:
    event: Event
    label: str  # "PreToolUse:Write" for tool events, else the event name
    blocked: bool = False
    tool_error: str | None = None
    feedback_given: bool = False
    meta: list[str] = field(default_factory=list)
    plain: list[str] = field(default_factory=list)
    contexts: list[str] = field(default_factory=list)
    instructions: list[str] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    decision: PermissionDecision | None = None
    decision_reason: str | None = None
    decided_by: HookRef | None = None
    worktree_path: str | None = None
    failures: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)

    def notice(self, level: Literal["info", "warning", "error"], text: str, run: HookRun) -> None:
        command = run.handler.command
        self.notices.append(
            Notice(
                level=level,
                text=text,
                event=self.event.name,
                command=command,
                exit_code=run.exit_code,
                label=self.label,
                hook=HookRef.of(run.handler),
            )
        )

    def failure(self, run: HookRun, text: str) -> None:
        """A non-blocking error: shown to the user (or only logged where the seed says so)."""
        self.failures.append(f"{run.handler.command}: {text}")
        if self.event.spec.failures_logged_only:
            self.logs.append(f"{self.event.name} hook failed: {run.handler.command}: {text}")
        else:
            self.notice("error", text, run)

    def block_tool(self, text: str, run: HookRun) -> None:
        if self.tool_error is None:  # the first blocking hook in config order supplies the text
            self.blocked, self.tool_error = True, text
            self.decided_by = HookRef.of(run.handler)

    def permission(self, decision: PermissionDecision, reason: str | None, run: HookRun) -> None:
        if self.decision is None or _DECISION_RANK[decision] > _DECISION_RANK[self.decision]:
            self.decision, self.decision_reason = decision, reason
            if self.tool_error is None:  # a block names its own hook
                self.decided_by = HookRef.of(run.handler)

    def success(self, run: HookRun, stdout: _Stdout) -> None:
        spec = self.event.spec
        if stdout.text and not stdout.is_json:
            if spec.on_stdout is OnStdout.CONTEXT:
                self.plain.append(stdout.text)
            elif spec.on_stdout is OnStdout.INSTRUCTIONS:
                self.instructions.append(stdout.text)
            elif spec.on_stdout is OnStdout.WORKTREE_PATH and self.worktree_path is None:
                self.worktree_path = stdout.text.splitlines()[-1].strip()
        elif spec.on_stdout is OnStdout.WORKTREE_PATH:
            self.failures.append(f"{run.handler.command}: printed no worktree path")
        parsed = stdout.parsed
        if parsed is None:
            return
        if spec.decision_block and parsed.decision == "block" and not _blank(parsed.reason):
            assert parsed.reason is not None
            self.blocked = True
            self.meta.append(parsed.reason.strip())
        if spec.permission_decision:
            self._permission_json(parsed, run)
        specific = parsed.hookSpecificOutput
        if spec.permission_behavior and specific is not None and specific.decision is not None:
            answer = specific.decision
            if answer.behavior == "deny":
                self.blocked = True
            message = None if _blank(answer.message) else answer.message
            self.permission(answer.behavior, message, run)

    def _permission_json(self, parsed: _JsonOutput, run: HookRun) -> None:
        specific = parsed.hookSpecificOutput
        decision: str | None = specific.permissionDecision if specific else None
        reason = specific.permissionDecisionReason if specific else None
        if decision is None and parsed.decision in _LEGACY_DECISIONS:
            decision, reason = _LEGACY_DECISIONS[parsed.decision], parsed.reason
        if decision == "deny":
            self.block_tool(
                f"Hook {self.label} denied this tool"
                if reason is None or _blank(reason)
                else f"{self.label} hook error: {reason.strip()}",
                run,
            )
        if decision in _DECISION_RANK:
            self.permission(cast(PermissionDecision, decision), reason, run)

    def exit2(self, run: HookRun) -> None:
        stderr = run.stderr.strip()
        behaviour = self.event.spec.on_exit2
        if behaviour is OnExit2.BLOCK_TOOL:
            self.block_tool(f"{self.label} hook error: {stderr or NO_STDERR}", run)
        elif behaviour is OnExit2.FEEDBACK:
            if not self.feedback_given:
                self.feedback_given = True
                command = run.handler.command
                message = f'{self.label} hook blocking error from command: "{command}": '
                self.meta.append(message + (stderr or NO_STDERR))
        elif behaviour is OnExit2.BLOCK_PROMPT:
            self.blocked = True
            self.notice("error", stderr or NO_STDERR, run)
        elif behaviour is OnExit2.CONTINUE:
            self.blocked = True
            self.meta.append(stderr or NO_STDERR)
        elif behaviour is OnExit2.DENY:
            self.blocked = True
            self.permission("deny", stderr or None, run)
            self.notice("error", stderr or NO_STDERR, run)
        elif behaviour is OnExit2.FAIL:
            self.failure(run, stderr or f"exited with code {run.exit_code}")
        elif behaviour is OnExit2.SILENT:
            self.logs.append(f"{self.event.name} hook exited 2; stderr dropped")
        else:
            self.notice("error", stderr or NO_STDERR, run)

    def build(self, runs: Sequence[HookRun]) -> Outcome:
        meta = list(self.meta)
        if self.plain:
            meta.insert(0, "\n".join(self.plain))
        if self.contexts:
            text = f"{self.event.name} hook additional context: " + "\n".join(self.contexts)
            meta.append(system_reminder(text))
        reason = None
        if self.event.spec.on_stdout is OnStdout.WORKTREE_PATH and self.worktree_path is None:
            self.blocked = True  # the hooks took over creating it, and none did
            reason = f"{self.event.name} hook failed: " + "; ".join(
                self.failures or ["no path printed"]
            )
        return Outcome(
            event=self.event.name,
            blocked=self.blocked,
            tool_error=self.tool_error,
            meta_messages=meta,
            notices=self.notices,
            permission_decision=self.decision,
            permission_reason=self.decision_reason,
            decided_by=self.decided_by,
            compact_instructions="\n".join(self.instructions) or None,
            worktree_path=self.worktree_path,
            reason=reason,
            logs=self.logs,
            runs=[_summary(run) for run in runs],
        )


def _summary(run: HookRun) -> RunSummary:
    return RunSummary(
        command=run.handler.command,
        source=run.handler.source,
        exit_code=run.exit_code,
        timed_out=run.timed_out,
        duration_ms=round(run.duration_ms, 1),
    )


def subject_of(payload: HookInput) -> str | None:
    """The value the event's matcher tests (tool name, source, trigger, …)."""
    field_name = event_of(payload).spec.matcher_field
    value = getattr(payload, field_name, None) if field_name else None
    return value if isinstance(value, str) else None


def interpret(payload: HookInput, runs: Sequence[HookRun]) -> Outcome:
    """Decide what an event's hook results mean. Pure: no I/O, no side effects."""
    event = event_of(payload)
    tool = subject_of(payload) if event.spec.matcher_field == "tool_name" else None
    out = _Builder(event, f"{event.name}:{tool}" if tool else event.name)
    for run in runs:
        if run.spawn_error is not None:
            out.failure(run, run.spawn_error)
            continue
        if run.timed_out:
            out.failure(run, f"hook timed out after {run.timeout:g} s and was stopped")
            continue
        stdout = _read_stdout(run.stdout, event)
        if stdout.error is not None:
            out.failure(run, stdout.error)
        parsed = stdout.parsed
        if parsed is not None and parsed.systemMessage and parsed.systemMessage.strip():
            out.notice("info", parsed.systemMessage.strip(), run)
        if run.exit_code == 0:
            out.success(run, stdout)
        elif run.exit_code == 2:
            out.exit2(run)
        else:
            out.failure(run, run.stderr.strip() or f"hook exited with code {run.exit_code}")
        specific = parsed.hookSpecificOutput if parsed is not None else None
        if event.spec.additional_context and specific and not _blank(specific.additionalContext):
            assert specific.additionalContext is not None
            out.contexts.append(specific.additionalContext.strip())
    return out.build(runs)
