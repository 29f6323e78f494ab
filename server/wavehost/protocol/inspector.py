"""Wire models of the hook inspector on the settings page: run history, Test this hook, and
"Why didn't my hook fire?"."""

from typing import Annotated, Any, Self

from pydantic import Field, model_validator

from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runlog import RunRecord, Trigger
from wavehost.settings.explain import CaseVerdict, Explanation, StepCode, StepStatus
from wavehost.settings.trial import TrialResult
from wavehost.wire import WireModel

TEST_OUTPUT_CHARS = 64 * 1024  # of each stream, in a test's answer


class HookRunEntry(WireModel):
    """One recorded run of a hook (output cut to its first lines)."""

    hook_id: str
    at: float = Field(description="When it finished, in seconds since the epoch")
    event: str
    subject: str | None = Field(description="What the matcher was tested against (tool name, …)")
    session_id: str | None = Field(description="The chat session it ran in; null for a test")
    trigger: Trigger
    exit_code: int | None
    duration_ms: float
    timed_out: bool
    cancelled: bool = Field(
        default=False, description="The user cancelled it while it ran (the chat's Cancel)"
    )
    spawn_error: str | None
    blocked: bool = Field(description="This run blocked what the event was about")
    stdout: str
    stderr: str
    input: str | None = Field(
        default=None,
        description="The input this run received, kept to run the hook on it again "
        "(wave/hooks/sample and wave/hooks/test take it); null when it was not kept (too large)",
    )

    @classmethod
    def of(cls, record: RunRecord) -> Self:
        return cls(
            hook_id=record.hook_id,
            at=record.at,
            event=record.event,
            subject=record.subject,
            session_id=record.session_id,
            trigger=record.trigger,
            exit_code=record.exit_code,
            duration_ms=record.duration_ms,
            timed_out=record.timed_out,
            cancelled=record.cancelled,
            spawn_error=record.spawn_error,
            blocked=record.blocked,
            stdout=record.stdout,
            stderr=record.stderr,
            input=record.input,
        )


class HooksHistoryParams(WireModel):
    id: str | None = Field(
        default=None, description="A hook id: its runs. Absent: the last run of every hook"
    )


class HooksHistoryResult(WireModel):
    runs: list[HookRunEntry] = Field(description="Newest first")


InputId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]


class HooksSampleParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")
    input: InputId | None = Field(
        default=None, description="A run's kept input (a history row's `input`) instead of a sample"
    )


class HooksSampleResult(WireModel):
    event: str
    payload: dict[str, Any] = Field(
        description="A payload of the hook's event that its matcher accepts (what wave/hooks/test "
        "takes back)"
    )
    stdin: str = Field(
        description="What the hook reads on stdin, in its own dialect's shape (Copilot's "
        "toolName/toolArgs, Snow's context), laid out to be edited"
    )


class HooksTestParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")
    payload: dict[str, Any] | None = Field(
        default=None, description="The sample's payload (a Wave hook's: as edited)"
    )
    stdin: str | None = Field(
        default=None,
        description="The (edited) stdin to send, as wave/hooks/sample showed it: sent as one line "
        "of compact JSON; a Wave hook's is its payload",
    )
    input: InputId | None = Field(
        default=None, description="Run on a run's kept input (Run again with this input)"
    )

    @model_validator(mode="after")
    def _names_an_input(self) -> Self:
        if self.payload is None and self.input is None:
            raise ValueError('"payload" or "input" is required')
        return self


class HooksTestResult(WireModel):
    stdin: str = Field(description="What the hook read on stdin")
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: float
    timed_out: bool
    timeout: float = Field(description="Seconds the test allowed")
    spawn_error: str | None
    outcome: Outcome = Field(description="What the agent would do with this result")
    run: HookRunEntry = Field(description="The run as the history records it")

    @classmethod
    def of(cls, trial: TrialResult) -> Self:
        run = trial.run
        return cls(
            stdin=trial.stdin,
            exit_code=run.exit_code,
            stdout=run.stdout[:TEST_OUTPUT_CHARS],
            stderr=run.stderr[:TEST_OUTPUT_CHARS],
            duration_ms=round(run.duration_ms, 1),
            timed_out=run.timed_out,
            timeout=trial.timeout,
            spawn_error=run.spawn_error,
            outcome=trial.outcome,
            run=HookRunEntry.of(trial.record),
        )


class HooksExplainParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")
    session_id: str | None = Field(
        default=None, description="Test the matcher against this session's events only"
    )


class ExplainCase(WireModel):
    subject: str
    verdict: CaseVerdict
    count: int
    last_at: float
    hint: str | None


class ExplainStep(WireModel):
    code: StepCode
    status: StepStatus
    args: dict[str, str]
    cases: list[ExplainCase]


class HooksExplainResult(WireModel):
    id: str
    fires: bool = Field(description="No step stops it")
    steps: list[ExplainStep]

    @classmethod
    def of(cls, explanation: Explanation) -> Self:
        return cls(
            id=explanation.hook_id,
            fires=explanation.fires,
            steps=[
                ExplainStep(
                    code=s.code,
                    status=s.status,
                    args=s.args,
                    cases=[
                        ExplainCase(
                            subject=c.subject,
                            verdict=c.verdict,
                            count=c.count,
                            last_at=c.last_at,
                            hint=c.hint,
                        )
                        for c in s.cases
                    ],
                )
                for s in explanation.steps
            ],
        )
