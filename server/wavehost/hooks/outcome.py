"""The one answer every dialect gives: what the session must do after an event's hooks ran.

Each dialect's `interpret(payload, runs) -> Outcome` is pure; when hooks of several dialects ran
for one event, `merge` combines their outcomes in the documented dialect order (Wave, Copilot,
Snow). The session applies the result; nothing here touches a UI or a conversation.

Every text a hook contributes (its stderr, each string of its JSON output) is cut at
`OUTPUT_CHARS`, Claude Code's cap, with a line saying so (`capped`, `HookText`): a runaway hook
cannot flood the model's context. Plain stdout for the model stays whole here: the session saves
what is over the cap to a file and gives the model a preview and the path (session/hooks.py).
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, Field

from wavehost.hooks.catalogue import event_of
from wavehost.hooks.payloads import HookInput
from wavehost.wire import WireModel

if TYPE_CHECKING:
    from wavehost.hooks.config import HookHandler
    from wavehost.hooks.runner import HookRun

PermissionDecision = Literal["allow", "deny", "ask"]
NoticeLevel = Literal["info", "warning", "error"]
DECISION_RANK: dict[str, int] = {"allow": 0, "ask": 1, "deny": 2}
NO_STDERR = "No stderr output"
CANCELLED = "hook was cancelled by the user and stopped"  # what a cancelled run reads as
OUTPUT_CHARS = 10_000  # what one hook text may contribute (Claude Code's cap on a hook string)


def capped(text: str) -> str:
    """`text`, or its first `OUTPUT_CHARS` characters and a line saying how much was cut."""
    if len(text) <= OUTPUT_CHARS:
        return text
    return (
        f"{text[:OUTPUT_CHARS]}\n[hook output truncated: {len(text):,} characters, "
        f"only the first {OUTPUT_CHARS:,} are shown]"
    )


HookText = Annotated[str, AfterValidator(capped)]


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
    def of(cls, handler: "HookHandler") -> "HookRef":
        return cls(
            id=handler.id,
            event=handler.event_name,
            matcher=handler.matcher.source,
            source=handler.source,
            plugin=handler.plugin,
            command=handler.command,
        )


class Notice(WireModel):
    """A line for the user only; never sent to the model."""

    level: NoticeLevel
    text: str
    event: str
    command: str | None = None
    exit_code: int | None = None
    label: str | None = None  # "PostToolUse:Write" for tool events, else the event name
    hook: HookRef | None = None

    @classmethod
    def of_run(
        cls,
        level: NoticeLevel,
        text: str,
        run: "HookRun",
        exit_code: int | None = None,
        label: str | None = None,
    ) -> "Notice":
        """About one hook run: its event as its file names it, its command and exit code, and
        the hook itself (the page names it and links to its settings row). A run that was stopped
        (its timeout, Cancel) has no exit code of its own: the signal was ours."""
        handler = run.handler
        code = (None if run.stopped else run.exit_code) if exit_code is None else exit_code
        return cls(
            level=level, text=text, event=handler.event_name, command=handler.command,
            exit_code=code, label=label, hook=HookRef.of(handler),
        )  # fmt: skip


class RunSummary(WireModel):
    command: str
    source: str
    exit_code: int | None
    timed_out: bool
    duration_ms: float
    cancelled: bool = False
    dialect: str = "wave"


class QuestionAnswer(WireModel):
    """An AskUserQuestion answered without asking (Snow's askuser auto-answer)."""

    selected: list[str]
    custom_input: str | None = None

    @property
    def text(self) -> str:
        """Snow's answer string: the choices joined by ", ", then ": " and the custom input."""
        answer = ", ".join(self.selected)
        if self.custom_input:
            answer = f"{answer}: {self.custom_input}" if answer else self.custom_input
        return answer


class Outcome(WireModel):
    """Everything the session must do after an event's hooks ran."""

    event: str
    blocked: bool = False  # tool not run / prompt erased / stop refused / permission denied / …
    tool_error: str | None = None  # the failed tool result the model sees (a refused call)
    meta_messages: list[str] = []  # isMeta user messages for the model, in order
    notices: list[Notice] = []
    permission_decision: PermissionDecision | None = None
    permission_reason: str | None = None
    decided_by: HookRef | None = None  # the hook whose block, deny or ask is in force
    permission_always: bool = False  # with allow: do not ask again about this tool
    # An `ask` nobody can answer (headless): the refusal the model sees, in the dialect's words
    # (None: the hook's reason, as Claude Code does)
    unasked_refusal: str | None = None
    compact_instructions: str | None = None
    worktree_path: str | None = None
    reason: str | None = None  # why a takeover (WorktreeCreate) failed
    updated_input: dict[str, Any] | None = None  # the tool runs with this input instead
    tool_result: str | None = None  # the model sees this as the tool's result instead
    halt: bool = False  # the agent stops: no further model call in this turn
    # With `halt`: everything stops, not only the actor whose hook it was — a subagent's halt
    # ends the reply of the agent that called it too (Claude Code's `continue: false`).
    halt_everything: bool = False
    prompt: str | None = None  # the prompt (the user's, a subagent's) the model gets instead
    prompt_prefix: list[str] = []  # model-only text before the prompt, each + a blank line
    prompt_suffix: list[str] = []  # model-only text after the prompt, appended as it is
    pending_context: str | None = None  # goes before the next prompt sent, once
    clear_pending: bool = False  # the pending context is dropped unsent (a replaced prompt)
    response: str | None = None  # a subagent's report, rewritten
    answer: QuestionAnswer | None = None  # an AskUserQuestion call answered by a hook
    ask_user: str | None = None  # pause: show this to the user, whose reply is the next message
    logs: list[str] = []
    runs: list[RunSummary] = []
    # Copilot's ways, which only a session applies (not part of the wire form):
    # isMeta messages for once the tool call is over (its failure guidance first)
    after_call: list[str] = Field(default=[], exclude=True)
    # meta messages the model gets whole, however long (not saved to a file instead)
    whole_meta: list[str] = Field(default=[], exclude=True)
    # the tool is given these arguments, which are not an object: it fails with this text
    invalid_input: str | None = Field(default=None, exclude=True)
    # a Stop block the session's cap overrides tells the user so (Copilot's says nothing)
    cap_notice: bool = Field(default=True, exclude=True)


def subject_of(payload: HookInput) -> str | None:
    """The value the event's matcher tests (tool name, source, trigger, …)."""
    field_name = event_of(payload).spec.matcher_field
    value = getattr(payload, field_name, None) if field_name else None
    return value if isinstance(value, str) else None


def _first(values: Sequence[Any]) -> Any:
    return next((v for v in values if v is not None), None)


def _last(values: Sequence[Any]) -> Any:
    return _first(list(reversed(values)))


def merge(outcomes: Sequence[Outcome]) -> Outcome:
    """One Outcome from several dialects' (given in the documented order).

    Anything that blocks, halts or denies wins; lists are concatenated in order; a replacement
    (input, result, prompt, response) from a later dialect overrides an earlier one; the first
    tool error, answer and question stand. The permission decision is the most restrictive.
    """
    if len(outcomes) == 1:
        return outcomes[0]
    decided = [o for o in outcomes if o.permission_decision is not None]
    strictest = (
        max(decided, key=lambda o: DECISION_RANK[o.permission_decision or "allow"])
        if decided
        else None
    )
    instructions = [o.compact_instructions for o in outcomes if o.compact_instructions]
    pending = [o.pending_context for o in outcomes if o.pending_context]
    return Outcome(
        event=outcomes[0].event,
        blocked=any(o.blocked for o in outcomes),
        tool_error=_first([o.tool_error for o in outcomes]),
        decided_by=_decided_by(outcomes, strictest),
        meta_messages=[m for o in outcomes for m in o.meta_messages],
        notices=[n for o in outcomes for n in o.notices],
        permission_decision=strictest.permission_decision if strictest else None,
        permission_reason=strictest.permission_reason if strictest else None,
        permission_always=bool(strictest and strictest.permission_always),
        unasked_refusal=strictest.unasked_refusal if strictest else None,
        compact_instructions="\n".join(instructions) or None,
        worktree_path=_first([o.worktree_path for o in outcomes]),
        reason=_first([o.reason for o in outcomes]),
        updated_input=_last([o.updated_input for o in outcomes]),
        tool_result=_last([o.tool_result for o in outcomes]),
        halt=any(o.halt for o in outcomes),
        halt_everything=any(o.halt_everything for o in outcomes),
        prompt=_last([o.prompt for o in outcomes]),
        prompt_prefix=[t for o in outcomes for t in o.prompt_prefix],
        prompt_suffix=[t for o in outcomes for t in o.prompt_suffix],
        pending_context="\n\n".join(pending) or None,
        clear_pending=any(o.clear_pending for o in outcomes),
        response=_last([o.response for o in outcomes]),
        answer=_first([o.answer for o in outcomes]),
        ask_user=_first([o.ask_user for o in outcomes]),
        logs=[line for o in outcomes for line in o.logs],
        runs=[r for o in outcomes for r in o.runs],
        after_call=[m for o in outcomes for m in o.after_call],
        whole_meta=[m for o in outcomes for m in o.whole_meta],
        invalid_input=_last([o.invalid_input for o in outcomes]),
        cap_notice=any(o.cap_notice for o in outcomes if o.blocked)
        or not any(o.blocked for o in outcomes),
    )


def _decided_by(outcomes: Sequence[Outcome], strictest: Outcome | None) -> HookRef | None:
    """The hook behind the merged result: the first tool error's, else the strictest decision's."""
    for outcome in outcomes:
        if outcome.tool_error is not None:
            return outcome.decided_by
    return strictest.decided_by if strictest is not None else None


def edited_prompt(prompt: str, outcome: Outcome) -> str:
    """The model-facing text of a prompt after the hooks' edits (replacement, prefix, suffix)."""
    text = outcome.prompt if outcome.prompt is not None else prompt
    prefix = "".join(part + "\n\n" for part in outcome.prompt_prefix if part)
    return prefix + text + "".join(outcome.prompt_suffix)
