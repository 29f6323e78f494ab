"""The wavehost protocol: every custom method's params and result, in one place.

camelCase on the wire (`WireModel`). The JSON Schema of these models (`protocol_schema`) is what
the webview's TypeScript types and the shells' relay allow-list are generated from.
"""

from typing import Annotated, Any, Literal, NamedTuple, Self

from pydantic import Field, model_validator
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from wavehost.hooks.payloads import PermissionMode
from wavehost.lsp import methods
from wavehost.session.messages import Message
from wavehost.session.permissions import SessionPermissionMode
from wavehost.session.updates import SessionStatus
from wavehost.wire import WireModel

HookSource = Literal["user", "project", "plugin"]
HookDialect = Literal["wave", "copilot", "snow"]


class ProjectInfo(WireModel):
    dir: str
    name: str


class ConfigFileEntry(WireModel):
    source: HookSource
    path: str
    exists: bool
    read_only: bool
    error: str | None = None
    plugin: str | None = None
    dialect: HookDialect = Field(default="wave", description="Whose format the file is in")


class HookEntry(WireModel):
    id: str
    source: HookSource
    path: str
    read_only: bool
    event: str = Field(description="The event as the file names it (`preToolUse`, `onStop`, …)")
    catalogue_event: str = Field(
        description="The wavehost event it runs on (a `HOOK_EVENTS` key, e.g. `PreToolUse`)"
    )
    matcher: str | None = None
    type: Literal["command", "prompt", "context"] = Field(
        default="command",
        description="Snow's `prompt` (asks the user) and `context` (static text) actions run "
        "no command; `command` holds their text",
    )
    command: str
    timeout: float | None = None
    async_: bool | None = Field(default=None, alias="async")
    async_rewake: bool | None = None
    status_message: str | None = None
    description: str | None = None
    plugin: str | None = None
    dialect: HookDialect = Field(default="wave", description="Whose format its file is in")
    untrusted: bool | None = None
    disabled: bool | None = Field(
        default=None, description="Listed but never run (a Snow action without `enabled: true`)"
    )


class DiagnosticEntry(WireModel):
    path: str
    pointer: str | None = None
    message: str


class HooksListParams(WireModel):
    pass


class HooksListResult(WireModel):
    project: ProjectInfo
    config_files: list[ConfigFileEntry]
    hooks: list[HookEntry]
    diagnostics: list[DiagnosticEntry]
    trusted: bool = Field(
        default=True, description="False: project hooks are listed but never run (untrusted)"
    )


ErrorReason = Literal[
    "notFound",
    "readOnly",
    "conflict",
    "permissionDenied",
    "malformedConfig",
    "ioError",
    "unknownPath",
]


class SettingsErrorData(WireModel):
    """`error.data` of a settings request that failed (JSON-RPC code -32803, RequestFailed)."""

    reason: ErrorReason
    path: str | None = None
    message: str


class HooksDeleteParams(WireModel):
    id: str = Field(min_length=1, description="A hook id from wave/hooks/list")


class HooksDeleteResult(WireModel):
    deleted: HookEntry


class OpenConfigFileParams(WireModel):
    path: str = Field(min_length=1, description="A config file path that wave/hooks/list reported")


class OpenConfigFileResult(WireModel):
    opened: bool
    reason: Literal["missing", "unsupported", "declined"] | None = Field(
        default=None,
        description="Why not opened: the file does not exist (nothing is created), the client "
        "cannot show documents, or the client declined",
    )


class HooksPrefillParams(WireModel):
    action: Literal["new", "edit"]
    source: HookSource
    id: str | None = Field(default=None, description="The hook to edit (required for edit)")

    @model_validator(mode="after")
    def _edit_names_a_hook(self) -> Self:
        if self.action == "edit" and not self.id:
            raise ValueError('"id" is required when action is "edit"')
        if self.action == "new" and self.source == "plugin":
            raise ValueError("plugin hooks are read-only: new hooks go in user or project settings")
        return self


class HooksPrefillResult(WireModel):
    prompt: str
    config_path: str | None = Field(
        description="Absolute path of the config file to open beside the chat; null if none exists"
    )


class HooksChangedParams(WireModel):
    pass


# -- chat sessions -------------------------------------------------------------------------------

SessionId = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9_-]{1,128}$",
        description="A session id (wave/chat/open's answer; the transcript is "
        "~/.wave/sessions/session_<id>.json)",
    ),
]
ProviderName = Literal["anthropic", "openai", "scripted"]


class ChatOpenParams(WireModel):
    session_id: SessionId | None = Field(
        default=None,
        description="Resume this session: the open one with this id, else its saved transcript "
        "(SessionStart source `resume`). Absent: a new session",
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


class ChatOpenResult(WireModel):
    session_id: str
    transcript_path: str
    status: SessionStatus
    queued: int = Field(description="User messages waiting for the running turn to end")
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
        "Queued messages stay queued"
    )


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


class MessagePut(WireModel):
    """The message at `index` is this one now: a new message when `index` is the length of the
    list, else a replacement (streamed text, a tool's status, a notice)."""

    op: Literal["put"] = "put"
    index: int = Field(ge=0)
    message: Message


class MessageRemove(WireModel):
    """The message at `index` (whose id is `messageId`) left the conversation, e.g. a prompt a
    UserPromptSubmit hook blocked; later messages move up by one."""

    op: Literal["remove"] = "remove"
    index: int = Field(ge=0)
    message_id: str


MessageDelta = Annotated[MessagePut | MessageRemove, Field(discriminator="op")]


class ChatUpdatedParams(WireModel):
    """What changed in a session since the last notification. Deltas apply in order; the other
    fields are the state after them."""

    session_id: str
    deltas: list[MessageDelta]
    status: SessionStatus
    queued: int = Field(description="User messages waiting for the running turn to end")
    running_hooks: list[str] = Field(
        description="The `statusMessage`s of the hooks running now (hooks without one are not "
        "listed)"
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


class ChatRequestPermissionResult(WireModel):
    allow: bool
    always: bool = Field(
        default=False,
        description="With allow: do not ask again about this tool in this session",
    )
    message: str | None = Field(
        default=None, description="With a refusal: the user's words, passed on to the model"
    )


class ChatErrorData(WireModel):
    """`error.data` of a chat request that failed (JSON-RPC code -32803, RequestFailed)."""

    reason: Literal["sessionNotFound", "sessionNotOpen", "noProvider", "unreadableSession"]
    session_id: str | None = None
    message: str


class InitializationOptions(WireModel):
    """`initializationOptions` of the LSP `initialize` request."""

    project_dir: str | None = Field(
        default=None,
        description="The session workdir; default: first workspace folder, else root URI, else cwd",
    )
    locale: str | None = Field(default=None, description="UI locale; default: the LSP locale")
    trusted: bool = Field(
        default=True, description="Workspace trust: if false, project hooks never run"
    )
    hooks: dict[str, Any] | None = Field(
        default=None, description="Programmatic hooks: run first, never listed"
    )


class Method(NamedTuple):
    name: str
    direction: Literal["clientToServer", "serverToClient"]
    params: type[WireModel]
    result: type[WireModel] | None  # None: a notification


METHODS: tuple[Method, ...] = (
    Method(methods.HOOKS_LIST, "clientToServer", HooksListParams, HooksListResult),
    Method(methods.HOOKS_DELETE, "clientToServer", HooksDeleteParams, HooksDeleteResult),
    Method(methods.OPEN_CONFIG_FILE, "clientToServer", OpenConfigFileParams, OpenConfigFileResult),
    Method(methods.HOOKS_PREFILL, "clientToServer", HooksPrefillParams, HooksPrefillResult),
    Method(methods.HOOKS_CHANGED, "serverToClient", HooksChangedParams, None),
    Method(methods.CHAT_OPEN, "clientToServer", ChatOpenParams, ChatOpenResult),
    Method(methods.CHAT_SEND, "clientToServer", ChatSendParams, ChatSendResult),
    Method(methods.CHAT_CANCEL, "clientToServer", ChatCancelParams, ChatCancelResult),
    Method(methods.CHAT_COMPACT, "clientToServer", ChatCompactParams, ChatCompactResult),
    Method(methods.CHAT_UPDATED, "serverToClient", ChatUpdatedParams, None),
    Method(
        methods.CHAT_REQUEST_PERMISSION,
        "serverToClient",
        ChatRequestPermissionParams,
        ChatRequestPermissionResult,
    ),
)
EXTRA_MODELS: tuple[type[WireModel], ...] = (InitializationOptions, SettingsErrorData)
ERROR_DATA: tuple[type[WireModel], ...] = (SettingsErrorData, ChatErrorData)


def protocol_schema() -> dict[str, Any]:
    """One JSON document: every model under `$defs`, and each method's direction and shapes.

    What the server reads is described as it is validated, what it writes as it is serialised:
    params of client→server methods and results of server→client requests are read.
    """

    def modes(m: Method) -> tuple[JsonSchemaMode, JsonSchemaMode]:
        return (
            ("validation", "serialization")
            if m.direction == "clientToServer"
            else (
                "serialization",
                "validation",
            )
        )

    wanted: list[tuple[type[WireModel], JsonSchemaMode]] = []
    for m in METHODS:
        params_mode, result_mode = modes(m)
        wanted.append((m.params, params_mode))
        if m.result is not None:
            wanted.append((m.result, result_mode))
    wanted += [(m, "validation") for m in EXTRA_MODELS]
    wanted += [(m, "serialization") for m in ERROR_DATA]
    refs, schema = models_json_schema(
        list(dict.fromkeys(wanted)), by_alias=True, title="wavehost protocol"
    )
    schema["methods"] = {
        m.name: {
            "direction": m.direction,
            "kind": "notification" if m.result is None else "request",
            "params": refs[(m.params, modes(m)[0])],
            **({"result": refs[(m.result, modes(m)[1])]} if m.result is not None else {}),
        }
        for m in METHODS
    }
    schema["initializationOptions"] = refs[(InitializationOptions, "validation")]
    schema["errorData"] = refs[(SettingsErrorData, "serialization")]
    schema["chatErrorData"] = refs[(ChatErrorData, "serialization")]
    return schema
