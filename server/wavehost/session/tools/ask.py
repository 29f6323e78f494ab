"""AskUserQuestion: the model asks the user multiple-choice questions (Claude Code's tool name,
inputs and result text). The chat shows them as a question card (`wave/chat/askQuestion`); a hook
may answer instead of the user (Snow's `askuser-ask_question` auto-answer), and without anyone to
ask (headless) the call fails with a text telling the model to go on by itself.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

from wavehost.hooks.outcome import QuestionAnswer
from wavehost.hooks.tools.ask_user_question import ASK_USER_QUESTION
from wavehost.session.tools.base import Tool, ToolError, ToolInput, ToolResult, Workspace

NOBODY = (
    "No one can answer questions in this session (it runs without a user interface). "
    "Decide on your own, and say which assumption you made."
)
UNANSWERED = "The user did not answer the questions. Ask again later or go on without them."


class Option(BaseModel):
    model_config = ConfigDict(extra="ignore")

    label: str = Field(description="The choice as shown (1-5 words)")
    description: str = Field("", description="What choosing it means")


class Question(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    question: str = Field(description="The complete question, ending with a question mark")
    header: str = Field("", description="A very short label (max 12 chars), e.g. 'Auth method'")
    options: list[Option] = Field(max_length=4, description="The choices (2-4)")
    multi_select: bool = Field(
        False, alias="multiSelect", description="Whether several options may be chosen"
    )


class AskInput(ToolInput):
    questions: list[Question] = Field(
        min_length=1, max_length=4, description="Questions to ask the user (1-4)"
    )

    @model_validator(mode="after")
    def _choices(self) -> "AskInput":
        for question in self.questions:
            if len(question.options) < 2:
                raise ValueError(f"question {question.question!r} needs 2-4 options")
        return self


# Asks the user; the answers by question text, or None when nobody answered.
QuestionAsker = Callable[[list[Question]], Awaitable[dict[str, str] | None]]


@dataclass(frozen=True)
class QuestionPrompt:
    """What the client shows (`wave/chat/askQuestion`): the model's questions, or a hook's
    prompt action (one question without options: the user types the answer)."""

    session_id: str
    question_id: str
    questions: tuple[Question, ...]


# How a question reaches the client: the answers by question text, or None (dismissed).
QuestionRelay = Callable[[QuestionPrompt], Awaitable[dict[str, str] | None]]


def result_text(answers: dict[str, str]) -> str:
    """Claude Code's words for the answers."""
    pairs = ", ".join(f'"{q}"="{a}"' for q, a in answers.items())
    return (
        f"User has answered your questions: {pairs}. "
        "You can now continue with the user's answers in mind."
    )


class AskUserQuestion(Tool[AskInput]):
    name = ASK_USER_QUESTION.name
    kind = "read"  # asking changes nothing
    description = (
        "Asks the user one to four multiple-choice questions while you work: to clarify what "
        "they want, to let them pick between approaches. They can always type their own answer "
        "instead of an option. Use it when you cannot reasonably decide on your own."
    )
    input_model = AskInput

    def __init__(self, ask: QuestionAsker | None) -> None:
        self.ask = ask

    async def run(self, args: AskInput, workspace: Workspace) -> ToolResult:
        if self.ask is None:
            raise ToolError(NOBODY)
        answers = await self.ask(args.questions)
        if not answers:
            raise ToolError(UNANSWERED)
        return self._result(args, answers)

    def answered(self, raw: dict[str, object], answer: QuestionAnswer) -> ToolResult:
        """The call answered by a hook: its answer goes to the first question."""
        try:
            args = AskInput.model_validate(raw)
        except ValueError:
            return ToolResult.failure(f"InputValidationError: {self.name} input is invalid")
        return self._result(args, {args.questions[0].question: answer.text})

    @staticmethod
    def _result(args: AskInput, answers: dict[str, str]) -> ToolResult:
        questions = [q.model_dump(by_alias=True) for q in args.questions]
        return ToolResult.success(result_text(answers), questions=questions, answers=answers)
