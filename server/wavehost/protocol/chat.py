"""Wire models of the chat panel's methods (`wave/chat/*`)."""

from typing import Annotated, Any, Literal, Self

from pydantic import Field

from wavehost import paths
from wavehost.hooks.live import LiveView
from wavehost.hooks.outcome import HookRef
from wavehost.hooks.payloads import PermissionMode
from wavehost.session.messages import Block, Message
from wavehost.session.permissions import PermissionPrompt, SessionPermissionMode
from wavehost.session.tools.ask import QuestionPrompt
from wavehost.session.updates import SessionStatus
from wavehost.wire import WireModel

SessionId = Annotated[
    str,
    Field(
        pattern=paths.ID_PATTERN,
        description="A session id (wave/chat/open's answer; the transcript is "
        "~/.wave/sessions/session_<id>.json)",
    ),
]
ProviderName = Literal["anthropic", "openai", "scripted"]


class ChatOpenParams(WireModel):
    session_id: SessionId | None = Field(
        default=None,
        description="Attach to this session: the open one with this id, else its saved "
        "transcript is resumed (SessionStart source `resume`). Absent: a new session",
    )
    create: bool = Field(
        default=False,
        description="With sessionId: if no session has this id (open or saved), start a new one "
        "under it. A page that picks its id first and asks again after a timeout attaches to the "
        "session its first request opened: no orphan session",
    )
    permission_mode: SessionPermissionMode | None = Field(
        default=None, description="Default: `default` (an open session keeps its mode)"
    )
    provider: ProviderName | None = Field(
        default=None,
        description="Default: WAVE_PROVIDER, then `provider` in settings, then whichever API key "
        "is set",
    )
    model: str | None = Field(
        default=None,
        min_length=1,
        description="Default: WAVE_MODEL, then settings, then the provider's default",
    )


class QueuedMessage(WireModel):
    """A user message waiting in the queue."""

    id: str = Field(description="For removing it (wave/chat/removeQueued)")
    text: str


class ChatOpenResult(WireModel):
    session_id: str
    transcript_path: str
    status: SessionStatus
    queued: int = Field(description="User messages waiting for the running turn to end")
    queued_texts: list[str] = Field(description="Their texts, oldest first")
    queued_messages: list[QueuedMessage] = Field(
        description="The same messages, oldest first, each with its id"
    )
    queue_held: bool = Field(
        description="Stop held the queue: its messages wait for the user to send them "
        "(wave/chat/sendQueued, or a new message) or remove them"
    )
    running_hooks: list[str] = Field(
        description="The `statusMessage`s of the hooks running now (of every dispatch)"
    )
    live_hooks: "LiveHooks" = Field(
        description="The hook processes running a while now, with their last stderr lines "
        "(wave/chat/cancelHook stops one)"
    )
    pending_permissions: list["ChatRequestPermissionParams"] = Field(
        description="Permission questions waiting for an answer (wave/chat/answerPermission)"
    )
    pending_questions: list["ChatAskQuestionParams"] = Field(
        description="The model's questions (AskUserQuestion) and hooks' prompts waiting for the "
        "user (wave/chat/answerQuestion)"
    )
    permission_mode: PermissionMode
    provider: str
    model: str
    messages: list[Message] = Field(
        description="The whole conversation now; `wave/chat/updated` deltas apply to it"
    )


class ChatSendParams(WireModel):
    session_id: SessionId
    text: str = Field(min_length=1, description="The user's message")


class ChatSendResult(WireModel):
    queued: bool = Field(
        description="True: a turn is running, the message waits for it to end (and for any "
        "message queued before it)"
    )


class ChatCancelParams(WireModel):
    session_id: SessionId


class ChatCancelResult(WireModel):
    cancelled: bool = Field(
        description="A turn was running and is interrupted: its tools and hooks are killed. "
        "Queued messages stay queued, held: none starts until the user sends them"
    )


class ChatRemoveQueuedParams(WireModel):
    session_id: SessionId
    id: str = Field(min_length=1, description="The queued message's id (queuedMessages)")


class ChatRemoveQueuedResult(WireModel):
    removed: bool = Field(
        description="True: it was waiting and is gone from the queue. False: no message with this "
        "id waits (any more: it started, or was removed)"
    )


class ChatSendQueuedParams(WireModel):
    session_id: SessionId


class ChatSendQueuedResult(WireModel):
    sent: bool = Field(
        description="True: the held messages go, in order, as if just sent. False: none was held"
    )


class ChatCancelHookParams(WireModel):
    session_id: SessionId
    hook_run_id: str = Field(
        min_length=1, max_length=64, description="The running hook's `id` (`liveHooks.hooks`)"
    )


class ChatCancelHookResult(WireModel):
    cancelled: bool = Field(
        description="True: it was running and is being stopped, as its timeout would stop it "
        "(SIGTERM to its process tree, SIGKILL a second later); the run reads as a non-blocking "
        "error and is recorded as cancelled. False: no such hook is running (it ended)"
    )


class LiveHook(WireModel):
    """A hook process that has been running a while, as the chat shows it."""

    id: str = Field(description="This run's id in its session (wave/chat/cancelHook)")
    hook: HookRef = Field(description="The configured hook (the settings row has its id)")
    elapsed_ms: int = Field(description="How long it has run, when this was sent")
    lines: list[str] = Field(
        description="Its last stderr lines, oldest first, each cut to 300 characters; the last "
        "may be one it is still writing"
    )
    more_lines: int = Field(description="Lines it wrote to stderr before these")
    cancelling: bool = Field(description="Cancel was asked: it is being stopped")

    @classmethod
    def of(cls, view: LiveView) -> Self:
        return cls(
            id=view.id,
            hook=HookRef.of(view.handler),
            elapsed_ms=view.elapsed_ms,
            lines=list(view.lines),
            more_lines=view.more_lines,
            cancelling=view.cancelling,
        )


class LiveHooks(WireModel):
    hooks: list[LiveHook] = Field(description="Oldest first, at most 8")
    more: int = Field(description="Hooks running a while that are not listed")

    @classmethod
    def of(cls, views: tuple[tuple[LiveView, ...], int]) -> Self:
        shown, more = views
        return cls(hooks=[LiveHook.of(view) for view in shown], more=more)


class ChatCompactParams(WireModel):
    session_id: SessionId
    instructions: str | None = Field(
        default=None,
        description="What the summary should keep or focus on (like `/compact <instructions>`); "
        "PreCompact hooks' output is added to it",
    )


class ChatCompactResult(WireModel):
    compacted: bool = Field(
        description="True: the model now continues from a summary. False: the summary call "
        "failed and the conversation is unchanged (an error notice says why). Answered once any "
        "running turn and the compaction are over"
    )


class ChatCloseParams(WireModel):
    session_id: SessionId
    reason: Literal["clear", "other"] | None = Field(
        default=None,
        description="Why (SessionEnd's `reason`): `clear` when the user starts a new chat in its "
        "place (Claude Code's /clear; Copilot hooks read `user_exit`). Default: `other`",
    )


class ChatCloseResult(WireModel):
    closed: bool = Field(
        description="True: the session was open and has ended (SessionEnd ran). False: no such "
        "session was open"
    )


class MessagePut(WireModel):
    """The message at `index` is this one now: a new message when `index` is the length of the
    list, else a replacement (a message that changed otherwise than block by block)."""

    op: Literal["put"] = "put"
    index: int = Field(ge=0)
    message: Message


class MessageRemove(WireModel):
    """The message at `index` (whose id is `messageId`) left the conversation, e.g. a prompt a
    UserPromptSubmit hook blocked; later messages move up by one."""

    op: Literal["remove"] = "remove"
    index: int = Field(ge=0)
    message_id: str


class BlockPut(WireModel):
    """Block `block` of the assistant message at `index` is this one now: a new block when `block`
    is the number of its blocks, else a replacement (a tool's status, its result)."""

    op: Literal["block"] = "block"
    index: int = Field(ge=0)
    block: int = Field(ge=0)
    value: Block


class TextAppend(WireModel):
    """Streamed text: `text` goes at the end of the text block `block` of the assistant message
    at `index` (the block the message already has)."""

    op: Literal["text"] = "text"
    index: int = Field(ge=0)
    block: int = Field(ge=0)
    text: str


MessageDelta = Annotated[
    MessagePut | MessageRemove | BlockPut | TextAppend, Field(discriminator="op")
]
UNCHANGED = "null: unchanged since the last update (or the snapshot)"


class ChatUpdatedParams(WireModel):
    """What changed in a session since the last notification (or the snapshot). Deltas apply in
    order; each other field, when not null, is the state after them."""

    session_id: str
    deltas: list[MessageDelta]
    status: SessionStatus | None = Field(description=UNCHANGED)
    queued: int | None = Field(
        description=f"User messages waiting for the running turn to end; {UNCHANGED}"
    )
    queued_texts: list[str] | None = Field(description=f"Their texts, oldest first; {UNCHANGED}")
    queued_messages: list[QueuedMessage] | None = Field(
        description=f"The same messages, each with its id; {UNCHANGED}"
    )
    queue_held: bool | None = Field(
        description=f"Stop held the queue: its messages wait for the user; {UNCHANGED}"
    )
    running_hooks: list[str] | None = Field(
        description="The `statusMessage`s of the hooks running now (hooks without one are not "
        f"listed), of every dispatch; {UNCHANGED}"
    )
    live_hooks: LiveHooks | None = Field(
        description="The hook processes running a while, with their last stderr lines (sent "
        f"at most 4 times a second however much they print); {UNCHANGED}"
    )
    pending_permissions: list["ChatRequestPermissionParams"] | None = Field(
        description="Permission questions waiting for an answer: a question answered, withdrawn "
        f"or whose turn ended is no longer listed; {UNCHANGED}"
    )
    pending_questions: list["ChatAskQuestionParams"] | None = Field(
        description=f"The model's questions and hooks' prompts waiting for the user; {UNCHANGED}"
    )


class ChatRequestPermissionParams(WireModel):
    """Server→client: may this tool call run? Sent after PreToolUse and PermissionRequest hooks
    left the question open."""

    session_id: str
    tool_use_id: str
    tool_name: str
    tool_input: dict[str, Any]
    mode: PermissionMode = Field(description="The session's permission mode")
    reason: str | None = Field(
        default=None, description="Why it asks: a PreToolUse hook's permissionDecisionReason"
    )
    asked_by: HookRef | None = Field(
        default=None, description="The PreToolUse hook that asked (its settings row has its id)"
    )
    mcp_server: str | None = Field(
        default=None, description="An MCP tool's server (`mcp__<server>__<tool>`)"
    )
    mcp_tool: str | None = Field(default=None, description="An MCP tool's name on its server")
    runs: str | None = Field(
        default=None,
        description="What the call will run when its input does not show it (EnterWorktree: "
        "the git commands, and whether the repository's own hooks run)",
    )

    @classmethod
    def of(cls, prompt: PermissionPrompt) -> Self:
        server, tool = prompt.mcp or (None, None)
        return cls(
            mcp_server=server,
            mcp_tool=tool,
            session_id=prompt.session_id,
            tool_use_id=prompt.tool_use_id,
            tool_name=prompt.tool_name,
            tool_input=prompt.tool_input,
            mode=prompt.permission_mode,
            reason=prompt.reason,
            asked_by=prompt.asked_by,
            runs=prompt.runs,
        )


class ChatRequestPermissionResult(WireModel):
    allow: bool
    always: bool = Field(
        default=False,
        description="With allow: do not ask again about this tool in this session",
    )
    message: str | None = Field(
        default=None, description="With a refusal: the user's words, passed on to the model"
    )


class ChatAnswerPermissionParams(ChatRequestPermissionResult):
    """The answer to a pending question (as wave/chat/requestPermission's result), and which."""

    session_id: SessionId
    tool_use_id: str = Field(min_length=1, description="The question's toolUseId")


class ChatAnswerPermissionResult(WireModel):
    answered: bool = Field(
        description="False: no such question is pending (already answered, or withdrawn)"
    )


class ChatQuestionOption(WireModel):
    label: str
    description: str = ""


class ChatQuestion(WireModel):
    question: str = Field(description="The question; the answer is keyed by this text")
    header: str = Field(default="", description="A very short label for it (a chip)")
    options: list[ChatQuestionOption] = Field(
        description="The choices; none: the user answers in their own words (a hook's prompt "
        "action)"
    )
    multi_select: bool = Field(default=False, description="Several options may be chosen")


class ChatAskQuestionParams(WireModel):
    """Server→client: the model asks the user (the AskUserQuestion tool), or a hook's prompt
    action pauses the reply for the user's words. Withdrawn with $/cancelRequest when the turn
    is cancelled."""

    session_id: str
    question_id: str
    questions: list[ChatQuestion]

    @classmethod
    def of(cls, prompt: QuestionPrompt) -> Self:
        return cls(
            session_id=prompt.session_id,
            question_id=prompt.question_id,
            questions=[
                ChatQuestion(
                    question=q.question,
                    header=q.header,
                    options=[
                        ChatQuestionOption(label=o.label, description=o.description)
                        for o in q.options
                    ],
                    multi_select=q.multi_select,
                )
                for q in prompt.questions
            ],
        )


class ChatAskQuestionResult(WireModel):
    answers: dict[str, str] = Field(
        description="The answer to each question, by its text (several choices joined with "
        '", "); empty: the user dismissed the questions'
    )


class ChatAnswerQuestionParams(WireModel):
    """The answer to a pending question of the model's (as wave/chat/askQuestion's result)."""

    session_id: SessionId
    question_id: str = Field(min_length=1, description="The question's questionId")
    answers: dict[str, str] = Field(
        description="The answer to each question, by its text; empty: the user dismissed them"
    )


class ChatAnswerQuestionResult(WireModel):
    answered: bool = Field(
        description="False: no such question is pending (already answered, or withdrawn)"
    )


class CancelParams(WireModel):
    """`$/cancelRequest` (standard LSP): the id of the request withdrawn."""

    id: int | str


class ChatErrorData(WireModel):
    """`error.data` of a chat request that failed (JSON-RPC code -32803, RequestFailed)."""

    reason: Literal["sessionNotFound", "sessionNotOpen", "noProvider", "unreadableSession"]
    session_id: str | None = None
    message: str


ChatOpenResult.model_rebuild()
ChatUpdatedParams.model_rebuild()
