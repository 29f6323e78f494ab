"""What a session reports while it runs; the LSP layer turns these into `wave/chat/updated`.

Listeners are called synchronously from the session's task, with the live message: serialise it
right away (`message.to_wire()`) if it must outlive the call.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from wavehost.hooks.live import LiveView
from wavehost.session.messages import AssistantMessage, UserMessage
from wavehost.session.permissions import PermissionPrompt
from wavehost.session.tools.ask import QuestionPrompt

SessionStatus = Literal["idle", "running"]


@dataclass(frozen=True, slots=True)
class MessageChanged:
    """A message was added or changed (streamed text, a tool's status, a notice)."""

    session_id: str
    index: int
    message: UserMessage | AssistantMessage


@dataclass(frozen=True, slots=True)
class MessageRemoved:
    """A message left the conversation (a prompt a UserPromptSubmit hook blocked)."""

    session_id: str
    index: int
    message_id: str


@dataclass(frozen=True, slots=True)
class Queued:
    """A user message waiting in the queue."""

    id: str  # for removing it
    text: str


@dataclass(frozen=True, slots=True)
class StatusChanged:
    session_id: str
    status: SessionStatus
    queued: tuple[Queued, ...]  # the user messages waiting for the running turn, oldest first
    held: bool = False  # Stop held them: they wait for the user to send them


@dataclass(frozen=True, slots=True)
class HooksRunning:
    """The `statusMessage`s of the hooks running now (empty: they are done). Only hooks that have
    one are reported, so a session whose hooks have none never sends this."""

    session_id: str
    status_messages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HooksLive:
    """The hooks that have been running a while, with their last stderr lines (`hooks.live`:
    bounded, and told at most a few times a second); `more`: how many others run too."""

    session_id: str
    hooks: tuple[LiveView, ...]
    more: int = 0


@dataclass(frozen=True, slots=True)
class QuestionsChanged:
    """The questions waiting for an answer now (empty: none): permission questions, and the
    model's questions (AskUserQuestion) or hooks' prompts."""

    session_id: str
    questions: tuple[PermissionPrompt, ...]
    asked: tuple[QuestionPrompt, ...] = ()


SessionUpdate = (
    MessageChanged | MessageRemoved | StatusChanged | HooksRunning | HooksLive | QuestionsChanged
)
UpdateListener = Callable[[SessionUpdate], None]
