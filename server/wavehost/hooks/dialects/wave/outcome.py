"""What Wave (Claude Code) hook results mean: a pure function from (payload, runs) to an Outcome.

Texts are the seed's (and Claude Code's) exactly; what each event honours is its catalogue spec.
"""

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wavehost.hooks.catalogue import Event, OnExit2, OnStdout, event_of
from wavehost.hooks.outcome import (
    CANCELLED,
    DECISION_RANK,
    NO_STDERR,
    HookRef,
    HookText,
    Notice,
    NoticeLevel,
    Outcome,
    PermissionDecision,
    RunSummary,
    capped,
    subject_of,
    system_reminder,
)
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookRun
from wavehost.hooks.safe_read import InvalidJsonError, parse

log = logging.getLogger(__name__)

_LEGACY_DECISIONS = {"approve": "allow", "block": "deny"}  # Claude Code's older PreToolUse form


class _PermissionBehavior(BaseModel):
    """PermissionRequest's answer for the user (Claude Code: `decision.behavior` + `message`)."""

    model_config = ConfigDict(extra="allow")

    behavior: Literal["allow", "deny"]
    message: HookText | None = None


class _SpecificOutput(BaseModel):
    model_config = ConfigDict(extra="allow")

    hookEventName: str | None = None  # noqa: N815 - the wire name
    additionalContext: HookText | None = None  # noqa: N815
    permissionDecision: Literal["allow", "deny", "ask", "defer"] | None = None  # noqa: N815
    permissionDecisionReason: HookText | None = None  # noqa: N815
    decision: _PermissionBehavior | None = None


class _JsonOutput(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    continue_: bool | None = Field(default=None, alias="continue")
    stopReason: HookText | None = None  # noqa: N815
    systemMessage: HookText | None = None  # noqa: N815
    decision: str | None = None
    reason: HookText | None = None
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
        raw, _ = parse(text)
    except InvalidJsonError as err:
        if err.kind == "depth":
            return _Stdout(text, True, error=f"invalid hook JSON output ({err.message})")
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
    decided_by: HookRef | None = None  # the hook whose block or decision is in force
    current: HookRun | None = None  # the run being read (its hook decides what it blocks)
    worktree_path: str | None = None
    halt: bool = False
    failures: list[str] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)

    def notice(self, level: NoticeLevel, text: str, run: HookRun) -> None:
        self.notices.append(Notice.of_run(level, text, run, label=self.label))

    def failure(self, run: HookRun, text: str) -> None:
        """A non-blocking error: shown to the user (or only logged where the seed says so)."""
        self.failures.append(f"{run.handler.command}: {text}")
        if self.event.spec.failures_logged_only:
            self.logs.append(f"{self.event.name} hook failed: {run.handler.command}: {text}")
        else:
            self.notice("error", text, run)

    def stop(self, run: HookRun, reason: str | None) -> None:
        """`continue: false`: the agent stops after this step; `stopReason` is for the user."""
        self.halt = True
        text = f"{self.label} hook stopped continuation"
        shown = f"{text}: {reason.strip()}" if reason and reason.strip() else text
        self.notice("warning", shown, run)
        if self.event.spec.on_exit2 is OnExit2.BLOCK_TOOL:
            self.block_tool(f"{text}.")  # the tool does not run (continue:false wins over allow)

    def block_tool(self, text: str) -> None:
        if self.tool_error is None:  # the first blocking hook in config order supplies the text
            self.blocked, self.tool_error = True, text
            self.decided_by = self._hook()

    def _named(self) -> None:
        """A block that makes the agent go on (Stop) names the first hook that made it."""
        if self.decided_by is None:
            self.decided_by = self._hook()

    def _hook(self) -> HookRef | None:
        return HookRef.of(self.current.handler) if self.current is not None else None

    def permission(self, decision: PermissionDecision, reason: str | None) -> None:
        if self.decision is None or DECISION_RANK[decision] > DECISION_RANK[self.decision]:
            self.decision, self.decision_reason = decision, reason
            if self.tool_error is None:  # a block names its own hook
                self.decided_by = self._hook()

    def success(self, run: HookRun, stdout: _Stdout) -> None:
        spec = self.event.spec
        if stdout.text and not stdout.is_json:
            if spec.on_stdout is OnStdout.CONTEXT:
                # Whole: past 10,000 characters the session saves it to a file and the model
                # gets a preview and the path (Claude Code), so the context stays bounded.
                self.plain.append(stdout.text)
            elif spec.on_stdout is OnStdout.INSTRUCTIONS:
                self.instructions.append(capped(stdout.text))
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
            self._named()
        if spec.permission_decision:
            self._permission_json(parsed)
        specific = parsed.hookSpecificOutput
        if spec.permission_behavior and specific is not None and specific.decision is not None:
            answer = specific.decision
            if answer.behavior == "deny":
                self.blocked = True
            self.permission(answer.behavior, None if _blank(answer.message) else answer.message)

    def _permission_json(self, parsed: _JsonOutput) -> None:
        specific = parsed.hookSpecificOutput
        decision: str | None = specific.permissionDecision if specific else None
        reason = specific.permissionDecisionReason if specific else None
        if decision is None and parsed.decision in _LEGACY_DECISIONS:
            decision, reason = _LEGACY_DECISIONS[parsed.decision], parsed.reason
        if decision == "deny":
            self.block_tool(
                f"Hook {self.label} denied this tool"
                if reason is None or _blank(reason)
                else reason.strip()  # Claude Code: the reason as it is (no "hook error" prefix)
            )
        if decision in DECISION_RANK:
            self.permission(cast(PermissionDecision, decision), reason)

    def exit2(self, run: HookRun) -> None:
        stderr = run.stderr.strip()
        behaviour = self.event.spec.on_exit2
        if behaviour is OnExit2.BLOCK_TOOL:
            self.block_tool(f"{self.label} hook error: {stderr or NO_STDERR}")
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
            self._named()
        elif behaviour is OnExit2.DENY:  # seed: the stderr is for the user only, not the model
            self.blocked = True
            self.permission("deny", None)
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
            text = f"{self.label} hook additional context: " + "\n".join(self.contexts)
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
            halt=self.halt,
            halt_everything=self.halt,  # `continue: false` stops everything (Claude Code)
            logs=self.logs,
            runs=[summary(run) for run in runs],
        )


def summary(run: HookRun) -> RunSummary:
    return RunSummary(
        command=run.handler.command,
        source=run.handler.source,
        exit_code=run.exit_code,
        timed_out=run.timed_out,
        cancelled=run.cancelled,
        duration_ms=round(run.duration_ms, 1),
        dialect=run.handler.dialect,
    )


def interpret(payload: HookInput, runs: Sequence[HookRun]) -> Outcome:
    """Decide what an event's hook results mean. Pure: no I/O, no side effects."""
    event = event_of(payload)
    tool = subject_of(payload) if event.spec.matcher_field == "tool_name" else None
    out = _Builder(event, f"{event.name}:{tool}" if tool else event.name)
    for raw_run in runs:
        stderr = capped(raw_run.stderr)
        run = raw_run if stderr is raw_run.stderr else dataclasses.replace(raw_run, stderr=stderr)
        out.current = run
        if run.spawn_error is not None:
            out.failure(run, run.spawn_error)
            continue
        if run.timed_out:
            out.failure(run, f"hook timed out after {run.timeout:g} s and was stopped")
            continue
        if run.cancelled:  # as a timeout: a non-blocking error, its output no answer
            out.failure(run, CANCELLED)
            continue
        stdout = _read_stdout(run.stdout, event)
        if stdout.error is not None:
            out.failure(run, stdout.error)
        parsed = stdout.parsed
        if parsed is not None and parsed.systemMessage and parsed.systemMessage.strip():
            out.notice("info", parsed.systemMessage.strip(), run)
        if parsed is not None and parsed.continue_ is False and event.spec.honours_continue:
            out.stop(run, parsed.stopReason)
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
