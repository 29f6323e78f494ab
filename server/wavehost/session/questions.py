"""What a session waits on the user for: permission questions (may this tool call run?), the
model's AskUserQuestion and hooks' prompt actions.

Each is session state until answered (`pending.Pending`): asked through the client's relay,
answerable meanwhile by any page attached to the session (by id), withdrawn when the turn that
asked is cancelled. Every change is reported (`QuestionsChanged`), and Notification hooks hear of
each question (`permission_prompt`, `elicitation_dialog`).
"""

import uuid
from collections.abc import Awaitable, Callable

from wavehost.session.pending import A, P, Pending
from wavehost.session.permissions import PermissionAnswer, PermissionAsker, PermissionPrompt
from wavehost.session.tools import ask
from wavehost.session.updates import QuestionsChanged, SessionUpdate

PERMISSION_MESSAGE = "Wave needs your permission to use {tool}"
QUESTION_MESSAGE = "Wave has a question for you"

Notify = Callable[[str, str], None]  # (notification_type, message): Notification hooks hear it


class SessionQuestions:
    def __init__(
        self,
        session_id: str,
        *,
        ask_permission: PermissionAsker | None,
        ask_question: ask.QuestionRelay | None,
        notify: Notify,
        emit: Callable[[SessionUpdate], None],
    ) -> None:
        self.session_id = session_id
        self._permission_relay = ask_permission
        self._question_relay = ask_question
        self._notify = notify
        self._emit = emit
        self.permissions: dict[str, Pending[PermissionPrompt, PermissionAnswer]] = {}  # toolUseId
        self.asked: dict[str, Pending[ask.QuestionPrompt, dict[str, str] | None]] = {}  # by id
        self.always_allowed: set[str] = set()  # tools the user said not to ask about again

    @property
    def can_ask_user(self) -> bool:
        """A client can show the user the model's questions (and hooks' prompt actions)."""
        return self._question_relay is not None

    @property
    def pending_permissions(self) -> tuple[PermissionPrompt, ...]:
        """The permission questions waiting for an answer, oldest first."""
        return tuple(q.prompt for q in self.permissions.values())

    @property
    def pending_asks(self) -> tuple[ask.QuestionPrompt, ...]:
        """The model's questions (and hooks' prompts) waiting for the user, oldest first."""
        return tuple(q.prompt for q in self.asked.values())

    def answer_permission(self, tool_use_id: str, answer: PermissionAnswer) -> bool:
        """Answer a pending question; False if there is none with this id (any more)."""
        question = self.permissions.get(tool_use_id)
        return question is not None and question.resolve(answer)

    def answer_question(self, question_id: str, answers: dict[str, str] | None) -> bool:
        """Answer (None: dismiss) a pending question of the model's; False if there is none
        with this id (any more)."""
        question = self.asked.get(question_id)
        return question is not None and question.resolve(answers)

    def asker(self) -> PermissionAsker | None:
        """How the agent loop asks about a tool call; None: headless, the mode alone decides."""
        relay = self._permission_relay
        if relay is None:
            return None

        async def asking(prompt: PermissionPrompt) -> PermissionAnswer:
            return await self._ask_permission(prompt, relay)

        return asking

    async def _ask_permission(
        self, prompt: PermissionPrompt, relay: PermissionAsker
    ) -> PermissionAnswer:
        if prompt.tool_name in self.always_allowed:
            return PermissionAnswer(allow=True)
        self._notify("permission_prompt", PERMISSION_MESSAGE.format(tool=prompt.tool_name))
        answer = await self._wait(self.permissions, prompt.tool_use_id, prompt, relay)
        if answer.allow and answer.always:
            self.always_allowed.add(prompt.tool_name)
        return answer

    async def ask_user(self, questions: list[ask.Question]) -> dict[str, str] | None:
        """The model's questions (or a hook's prompt); None: dismissed, or nobody to ask."""
        relay = self._question_relay
        if relay is None:
            return None
        prompt = ask.QuestionPrompt(
            self.session_id, f"question-{uuid.uuid4().hex[:12]}", tuple(questions)
        )
        self._notify("elicitation_dialog", QUESTION_MESSAGE)
        return await self._wait(self.asked, prompt.question_id, prompt, relay)

    async def prompt_action(self, text: str) -> str | None:
        """A hook's prompt action: one question the user answers in words."""
        answers = await self.ask_user([ask.Question(question=text, options=[])])
        return next(iter(answers.values()), None) if answers else None

    async def _wait(
        self,
        registry: dict[str, Pending[P, A]],
        key: str,
        prompt: P,
        relay: Callable[[P], Awaitable[A]],
    ) -> A:
        pending: Pending[P, A] = Pending(prompt)
        registry[key] = pending
        self._changed()
        try:
            return await pending.ask(relay, key)
        finally:
            del registry[key]
            self._changed()

    def _changed(self) -> None:
        self._emit(QuestionsChanged(self.session_id, self.pending_permissions, self.pending_asks))
