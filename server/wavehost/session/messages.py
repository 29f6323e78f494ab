"""The conversation as the session keeps it, and the slice of it the model may see.

A session's messages are user messages (`isMeta` ones are hook text: model-visible, UI-hidden)
and assistant messages made of blocks: text, tool calls with their results, and notices (lines for
the user only). `to_model_messages` is the one place that decides what reaches a provider: notices
never do, isMeta user messages always do.
"""

import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from wavehost.hooks.outcome import HookRef, Notice
from wavehost.wire import WireModel

NoticeLevel = Literal["info", "warning", "error"]
ToolStatus = Literal["pending", "running", "success", "error", "cancelled", "blocked"]
INTERRUPTED = "Interrupted by user"


def new_id() -> str:
    return uuid.uuid4().hex[:16]


class SessionModel(WireModel):
    """A wire model (one form in transcripts and on the LSP) that is mutable: messages grow while
    they stream."""

    model_config = ConfigDict(frozen=False)


class TextBlock(SessionModel):
    type: Literal["text"] = "text"
    text: str = ""


class ToolBlock(SessionModel):
    """One tool call. `error` is the failure text; when set, it is what the model sees."""

    type: Literal["tool"] = "tool"
    id: str
    name: str
    input: dict[str, Any]
    status: ToolStatus = "pending"
    result: str | None = None  # a cancelled call's: what it printed before it was stopped
    error: str | None = None
    blocked_by: HookRef | None = None  # status "blocked": the hook that refused it (when known)

    @property
    def failed(self) -> bool:
        return self.error is not None

    def model_text(self) -> str:
        if self.error is not None and self.status == "cancelled" and self.result:
            return f"{self.error}\n{self.result}"  # an interrupted command: what it printed
        if self.error is not None:
            return self.error
        return self.result if self.result is not None else INTERRUPTED

    def succeed(self, result: str) -> None:
        self.status, self.result, self.error = "success", result, None

    def fail(self, error: str, status: ToolStatus = "error") -> None:
        self.status, self.error = status, error

    def block(self, error: str, by: HookRef | None) -> None:
        """A hook refused the call: it never ran (not a tool that ran and failed)."""
        self.status, self.error, self.blocked_by = "blocked", error, by


class NoticeBlock(SessionModel):
    """A line shown to the user only (hook errors, systemMessage, provider failures)."""

    type: Literal["notice"] = "notice"
    level: NoticeLevel
    text: str
    event: str | None = None
    command: str | None = None
    exit_code: int | None = None
    label: str | None = None  # "PostToolUse:Write" for tool events, else the event name
    hook: HookRef | None = None  # the hook it came from
    # "stopContinue": a Stop hook refused to let the agent stop (`text`: its reason), shown
    # between the reply it refused and the one it made the agent go on with
    kind: Literal["stopContinue"] | None = None

    @classmethod
    def from_hook(cls, notice: Notice) -> "NoticeBlock":
        return cls(
            level=notice.level,
            text=notice.text,
            event=notice.event,
            command=notice.command,
            exit_code=notice.exit_code,
            label=notice.label,
            hook=notice.hook,
        )


Block = Annotated[TextBlock | ToolBlock | NoticeBlock, Field(discriminator="type")]


class UserMessage(SessionModel):
    role: Literal["user"] = "user"
    id: str = Field(default_factory=new_id)
    content: str  # what the user typed: the bubble shows it
    model_content: str | None = None  # what the model gets instead, once hooks edited it
    is_meta: bool = False
    is_compact_summary: bool = False  # compaction's summary: the model sees nothing before it

    @property
    def model_text(self) -> str:
        return self.content if self.model_content is None else self.model_content


class AssistantMessage(SessionModel):
    role: Literal["assistant"] = "assistant"
    id: str = Field(default_factory=new_id)
    blocks: list[Block] = []

    def tools(self) -> Iterator[ToolBlock]:
        return (b for b in self.blocks if isinstance(b, ToolBlock))

    def notices(self) -> Iterator[NoticeBlock]:
        return (b for b in self.blocks if isinstance(b, NoticeBlock))

    def text(self) -> str:
        """Its text blocks joined with newlines and trimmed (Stop's `last_assistant_message`)."""
        return "\n".join(b.text for b in self.blocks if isinstance(b, TextBlock)).strip()

    def add_text(self, delta: str, *, starts_block: bool = False) -> None:
        last = self.blocks[-1] if self.blocks else None
        if isinstance(last, TextBlock) and not starts_block:
            last.text += delta
        else:
            self.blocks.append(TextBlock(text=delta))


Message = Annotated[UserMessage | AssistantMessage, Field(discriminator="role")]


# What a provider is given: neutral shapes each provider maps to its own wire format.


@dataclass(frozen=True, slots=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ModelUser:
    text: str


@dataclass(frozen=True, slots=True)
class ModelAssistant:
    text: str
    calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True, slots=True)
class ModelToolResult:
    call_id: str
    text: str
    is_error: bool


ModelMessage = ModelUser | ModelAssistant | ModelToolResult


def to_model_messages(messages: Sequence[UserMessage | AssistantMessage]) -> list[ModelMessage]:
    """The conversation as the model sees it: no notices; isMeta user messages kept; nothing
    before the latest compaction summary (the user still sees it all).

    Each tool's result follows its assistant message directly (both wire formats require it),
    before any isMeta message a hook added while the tools ran.
    """
    start = 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, UserMessage) and message.is_compact_summary:
            start = index
            break
    out: list[ModelMessage] = []
    for message in messages[start:]:
        if isinstance(message, UserMessage):
            out.append(ModelUser(message.model_text))
            continue
        calls = tuple(ToolCall(b.id, b.name, b.input) for b in message.tools())
        text = message.text()
        if not text and not calls:
            continue  # only notices (or nothing yet): the model never sees it
        out.append(ModelAssistant(text, calls))
        out.extend(ModelToolResult(b.id, b.model_text(), b.failed) for b in message.tools())
    return out


def history(messages: Sequence[UserMessage | AssistantMessage]) -> list[dict[str, Any]]:
    """The conversation the model sees as `{role, content}` dicts (what Snow's hooks read):
    user text, assistant text with its `tool_calls`, tool results as `role: "tool"`."""
    out: list[dict[str, Any]] = []
    for message in to_model_messages(messages):
        if isinstance(message, ModelUser):
            out.append({"role": "user", "content": message.text})
        elif isinstance(message, ModelAssistant):
            entry: dict[str, Any] = {"role": "assistant", "content": message.text}
            if message.calls:
                entry["tool_calls"] = [
                    {"id": c.id, "name": c.name, "arguments": c.input} for c in message.calls
                ]
            out.append(entry)
        else:
            out.append({"role": "tool", "tool_call_id": message.call_id, "content": message.text})
    return out
