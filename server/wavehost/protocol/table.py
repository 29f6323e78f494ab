"""The method table: every custom method and every shell-local command, declared once.

Everything else derives from these rows: the server registers each feature's handlers from them,
every shell's relay allow-list is read from them, and `wavehost protocol-schema` exports them
(with the JSON Schema of the models they name) for the generated TypeScript and Kotlin types.
Method names appear here and nowhere else in the code (a test greps for stray ones).

Plain data, no pydantic: `wavehost serve` imports this at start-up. Models are named by class
name; `wavehost.protocol.schema.model` resolves a name to its pydantic class.
"""

from dataclasses import dataclass
from typing import Literal

Direction = Literal["clientToServer", "serverToClient"]
Kind = Literal["request", "notification"]
# "pages": the server's own page routing (`wavehost.lsp.pages`), not a feature built on demand
Feature = Literal["settings", "chat", "pages"]
# How a message relates to chat sessions; the server routes by it (`wavehost.lsp.pages`):
#   "opens"   the page that asks is attached to `params.sessionId` (from the request on) and to
#             the answer's `sessionId`
#   "closes"  the session `params.sessionId` ends: no page is attached to it any more
#   "scoped"  `params.sessionId` names the session; a server→client message goes only to the
#             pages attached to it
#   None      not about one session; a server→client message goes to every page
SessionRole = Literal["opens", "closes", "scoped"]

# How messages name pages (docs/protocol.md, "Sessions and pages"). A shell shows many pages over
# one connection: it adds the page's id to the params of every request it relays from that page
# (replacing whatever the page put there), and delivers a server→client message to the pages its
# params name under PAGE_IDS (removed before delivery), or to every page when there is none.
PAGE_ID = "pageId"
PAGE_IDS = "pageIds"
ShellDirection = Literal["pageToShell", "shellToPage"]


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    constant: str  # the name generated code gives it (HOOKS_LIST)
    direction: Direction
    params: str  # model class names (wavehost.protocol.schema.model)
    result: str | None  # None: a notification
    feature: Feature  # which server feature handles it (or, server→client, sends it)
    doc: str
    session: SessionRole | None = None
    standard: bool = False  # an LSP method (not `wave/…`) that shells relay like the table's
    # Only the shell itself sends it, never a page (workspace trust is the IDE's to say: a page
    # that could send it would grant itself trust). Every relay's allow-list leaves it out.
    shell_only: bool = False

    @property
    def kind(self) -> Kind:
        return "notification" if self.result is None else "request"


@dataclass(frozen=True, slots=True)
class ShellCommand:
    """A shell-local action in the `{kind: "shell", command, args}` envelope (never relayed)."""

    name: str
    constant: str
    direction: ShellDirection
    args: str
    doc: str


# -- the settings page ---------------------------------------------------------------------------

HOOKS_LIST = Method(
    "wave/hooks/list",
    "HOOKS_LIST",
    "clientToServer",
    "HooksListParams",
    "HooksListResult",
    "settings",
    "Every file-based hook by source, the config files, and what is wrong in them; where two "
    "dialects' hooks both fire on one call (overlaps) and which dialects the user switched off "
    "(dialectsOff: the chat's line when hooks are not running reads this list too).",
)
HOOKS_DELETE = Method(
    "wave/hooks/delete",
    "HOOKS_DELETE",
    "clientToServer",
    "HooksDeleteParams",
    "HooksDeleteResult",
    "settings",
    "Delete one hook by id; the file keeps every other byte. Answers with the list as it is now "
    "and the last runs under its ids (listing, lastRuns: one round trip; no wave/hooks/changed "
    "for this write of the server's own). Errors carry SettingsErrorData.",
)
HOOKS_PREFILL = Method(
    "wave/hooks/prefill",
    "HOOKS_PREFILL",
    "clientToServer",
    "HooksPrefillParams",
    "HooksPrefillResult",
    "settings",
    "The localized chat prompt for New / Edit, and the config file to open beside the chat.",
)
OPEN_CONFIG_FILE = Method(
    "wave/openConfigFile",
    "OPEN_CONFIG_FILE",
    "clientToServer",
    "OpenConfigFileParams",
    "OpenConfigFileResult",
    "settings",
    "Open a listed config file in the IDE: the server asks with window/showDocument and answers "
    "once the client did (or declined).",
)
WORKSPACE_SET_TRUSTED = Method(
    "wave/workspace/setTrusted",
    "WORKSPACE_SET_TRUSTED",
    "clientToServer",
    "WorkspaceSetTrustedParams",
    "WorkspaceSetTrustedResult",
    "settings",
    "The user changed workspace trust: the settings list and sessions opened from now on use it "
    "(no restart); wave/hooks/changed follows when it changed. Sent by the shell, never a page.",
    shell_only=True,
)
HOOKS_HISTORY = Method(
    "wave/hooks/history",
    "HOOKS_HISTORY",
    "clientToServer",
    "HooksHistoryParams",
    "HooksHistoryResult",
    "settings",
    "The recorded runs of one hook (`id`), newest first — when, the event and what its matcher "
    "was tested against, the session, exit code, duration, whether it blocked, the first lines of "
    "its output — or the last run of every hook.",
)
HOOKS_SAMPLE = Method(
    "wave/hooks/sample",
    "HOOKS_SAMPLE",
    "clientToServer",
    "HooksSampleParams",
    "HooksSampleResult",
    "settings",
    "A sample payload of a hook's event that its matcher accepts, to edit before a test.",
)
HOOKS_TEST = Method(
    "wave/hooks/test",
    "HOOKS_TEST",
    "clientToServer",
    "HooksTestParams",
    "HooksTestResult",
    "settings",
    "Run one hook for real with a payload: its exit code, output, timing and what the agent "
    "would do with it; recorded in its history. An untrusted project's hook is refused "
    "(untrusted), so is a payload that is not its event's (invalidPayload).",
)
HOOKS_EXPLAIN = Method(
    "wave/hooks/explain",
    "HOOKS_EXPLAIN",
    "clientToServer",
    "HooksExplainParams",
    "HooksExplainResult",
    "settings",
    "Why a hook fires or not: each step from its file to its process (found, parsed, trusted, "
    "switched on, allowed, its event, its matcher, its if rule, deduplicated), decided by the "
    "engine's own code over the project's recent real events.",
)
HOOKS_CHANGED = Method(
    "wave/hooks/changed",
    "HOOKS_CHANGED",
    "serverToClient",
    "HooksChangedParams",
    None,
    "settings",
    "Something the hooks list depends on changed (a config file, trust): list again.",
)

MCP_LIST = Method(
    "wave/mcp/list",
    "MCP_LIST",
    "clientToServer",
    "McpListParams",
    "McpListResult",
    "settings",
    "The configured MCP servers (project .mcp.json, user settings), each with its file and line "
    "(for wave/openConfigFile) and where it is in the newest open chat session: starting, "
    "connected with its tools, failed and why, stopped, or not started (untrusted, invalid).",
)
MCP_CHANGED = Method(
    "wave/mcp/changed",
    "MCP_CHANGED",
    "serverToClient",
    "McpChangedParams",
    None,
    "chat",
    "A chat session's MCP server changed state (connected, failed, its tools): list again (a "
    ".mcp.json change sends wave/hooks/changed, which lists again too).",
)

# -- the chat panel ------------------------------------------------------------------------------

CHAT_OPEN = Method(
    "wave/chat/open",
    "CHAT_OPEN",
    "clientToServer",
    "ChatOpenParams",
    "ChatOpenResult",
    "chat",
    "Open a new session or attach to one by id (open, saved, or new with that id): the answer "
    "is a full snapshot; wave/chat/updated deltas follow.",
    "opens",
)
CHAT_SEND = Method(
    "wave/chat/send",
    "CHAT_SEND",
    "clientToServer",
    "ChatSendParams",
    "ChatSendResult",
    "chat",
    "A user message; it waits in the queue while a turn runs.",
    "scoped",
)
CHAT_CANCEL = Method(
    "wave/chat/cancel",
    "CHAT_CANCEL",
    "clientToServer",
    "ChatCancelParams",
    "ChatCancelResult",
    "chat",
    "Interrupt the running turn (Stop): its tools and hooks are killed, its questions withdrawn. "
    "The queued messages stay queued, held: none starts by itself.",
    "scoped",
)
CHAT_REMOVE_QUEUED = Method(
    "wave/chat/removeQueued",
    "CHAT_REMOVE_QUEUED",
    "clientToServer",
    "ChatRemoveQueuedParams",
    "ChatRemoveQueuedResult",
    "chat",
    "Take one queued message out of the queue by id (queuedMessages), before it starts.",
    "scoped",
)
CHAT_SEND_QUEUED = Method(
    "wave/chat/sendQueued",
    "CHAT_SEND_QUEUED",
    "clientToServer",
    "ChatSendQueuedParams",
    "ChatSendQueuedResult",
    "chat",
    "Send the messages Stop held (queueHeld), in order; a new message sends them too, before it.",
    "scoped",
)
CHAT_CANCEL_HOOK = Method(
    "wave/chat/cancelHook",
    "CHAT_CANCEL_HOOK",
    "clientToServer",
    "ChatCancelHookParams",
    "ChatCancelHookResult",
    "chat",
    "Cancel one running hook (a liveHooks entry's id): its process tree is stopped as its "
    "timeout would stop it and the run reads as a non-blocking error (docs/hooks.md); the turn "
    "goes on.",
    "scoped",
)
CHAT_COMPACT = Method(
    "wave/chat/compact",
    "CHAT_COMPACT",
    "clientToServer",
    "ChatCompactParams",
    "ChatCompactResult",
    "chat",
    "Compact the conversation once the running turn is over (may take minutes).",
    "scoped",
)
CHAT_CLOSE = Method(
    "wave/chat/close",
    "CHAT_CLOSE",
    "clientToServer",
    "ChatCloseParams",
    "ChatCloseResult",
    "chat",
    "End a session: its turn, background hooks, tasks and crons are stopped, SessionEnd runs "
    "(reason clear when a new chat takes its place, as the panel's New chat does).",
    "closes",
)
CHAT_ANSWER_PERMISSION = Method(
    "wave/chat/answerPermission",
    "CHAT_ANSWER_PERMISSION",
    "clientToServer",
    "ChatAnswerPermissionParams",
    "ChatAnswerPermissionResult",
    "chat",
    "Answer a pending permission question of the session (from its snapshot or updates), from "
    "any page attached to it: the first answer wins, the question is withdrawn everywhere.",
    "scoped",
)
CHAT_ANSWER_QUESTION = Method(
    "wave/chat/answerQuestion",
    "CHAT_ANSWER_QUESTION",
    "clientToServer",
    "ChatAnswerQuestionParams",
    "ChatAnswerQuestionResult",
    "chat",
    "Answer (or dismiss) a pending question of the model's or a hook's prompt (from the "
    "session's snapshot or updates), from any page attached to it: the first answer wins.",
    "scoped",
)
CHAT_UPDATED = Method(
    "wave/chat/updated",
    "CHAT_UPDATED",
    "serverToClient",
    "ChatUpdatedParams",
    None,
    "chat",
    "What changed in a session since the last update (or the snapshot): message deltas (text "
    "appended, a block or a message put or removed), then the state fields that changed.",
    "scoped",
)
CHAT_REQUEST_PERMISSION = Method(
    "wave/chat/requestPermission",
    "CHAT_REQUEST_PERMISSION",
    "serverToClient",
    "ChatRequestPermissionParams",
    "ChatRequestPermissionResult",
    "chat",
    "May this tool call run? Withdrawn with $/cancelRequest when the turn ends or is cancelled. "
    "For an MCP tool, mcpServer and mcpTool name its server and its own name.",
    "scoped",
)

CHAT_ASK_QUESTION = Method(
    "wave/chat/askQuestion",
    "CHAT_ASK_QUESTION",
    "serverToClient",
    "ChatAskQuestionParams",
    "ChatAskQuestionResult",
    "chat",
    "The model asks the user (AskUserQuestion), or a hook's prompt action waits for the user's "
    "words. Withdrawn with $/cancelRequest when the turn is cancelled.",
    "scoped",
)

PAGE_CLOSED = Method(
    "wave/page/closed",
    "PAGE_CLOSED",
    "clientToServer",
    "PageClosedParams",
    None,
    "pages",
    "A page is gone for good (its tab or view was closed): it is attached to no session any "
    "more. Sent by the shell, never a page; the shell has answered the questions it held.",
    shell_only=True,
)

CANCEL_REQUEST = Method(
    "$/cancelRequest",
    "CANCEL_REQUEST",
    "serverToClient",
    "CancelParams",
    None,
    "chat",
    "Standard LSP: the server withdraws a request it sent (a permission question answered "
    "elsewhere, or whose turn ended). A shell passes it to each page it asked, under the id it "
    "gave that page.",
    standard=True,
)

METHODS: tuple[Method, ...] = (
    HOOKS_LIST,
    HOOKS_DELETE,
    HOOKS_PREFILL,
    OPEN_CONFIG_FILE,
    WORKSPACE_SET_TRUSTED,
    HOOKS_HISTORY,
    HOOKS_SAMPLE,
    HOOKS_TEST,
    HOOKS_EXPLAIN,
    HOOKS_CHANGED,
    MCP_LIST,
    MCP_CHANGED,
    CHAT_OPEN,
    CHAT_SEND,
    CHAT_CANCEL,
    CHAT_CANCEL_HOOK,
    CHAT_REMOVE_QUEUED,
    CHAT_SEND_QUEUED,
    CHAT_COMPACT,
    CHAT_CLOSE,
    CHAT_ANSWER_PERMISSION,
    CHAT_ANSWER_QUESTION,
    CHAT_UPDATED,
    CHAT_REQUEST_PERMISSION,
    CHAT_ASK_QUESTION,
    PAGE_CLOSED,
)
BY_NAME: dict[str, Method] = {m.name: m for m in METHODS}
# Standard LSP methods a shell relays to its pages (not custom: not in METHODS, not an allow-list
# entry); named here so that no code spells them either.
STANDARD: tuple[Method, ...] = (CANCEL_REQUEST,)


def client_requests(feature: Feature | None = None) -> tuple[Method, ...]:
    """What clients may send (the relay allow-list), optionally of one feature."""
    return tuple(
        m
        for m in METHODS
        if m.direction == "clientToServer" and (feature is None or m.feature == feature)
    )


def page_requests() -> tuple[Method, ...]:
    """What a relay passes on from its pages: the client requests minus the shell-only ones."""
    return tuple(m for m in client_requests() if not m.shell_only)


def server_notifications() -> tuple[Method, ...]:
    return tuple(m for m in METHODS if m.direction == "serverToClient" and m.result is None)


def server_requests() -> tuple[Method, ...]:
    return tuple(m for m in METHODS if m.direction == "serverToClient" and m.result is not None)


# -- shell-local commands ------------------------------------------------------------------------

READY = ShellCommand(
    "ready",
    "READY",
    "pageToShell",
    "ReadyArgs",
    "The page listens now (a shell holds back what it has for the page until then).",
)
CLOSE_SETTINGS = ShellCommand(
    "closeSettings",
    "CLOSE_SETTINGS",
    "pageToShell",
    "NoArgs",
    "Close the settings page (it may be destroyed: the page sends nothing after this).",
)
OPEN_CHAT = ShellCommand(
    "openChat",
    "OPEN_CHAT",
    "pageToShell",
    "OpenChatArgs",
    "Show the chat panel, its input prefilled with `prefill` when given.",
)
OPEN_SETTINGS = ShellCommand(
    "openSettings",
    "OPEN_SETTINGS",
    "pageToShell",
    "OpenSettingsArgs",
    "Show the settings page; with `hookId`, at that hook's row (the shell sends the settings "
    "page `showView` with the same `hookId` once it listens).",
)
SHOW_VIEW = ShellCommand(
    "showView",
    "SHOW_VIEW",
    "shellToPage",
    "ShowViewArgs",
    "Switch the page to a view (a shell that has one page for both views); with `hookId`, the "
    "settings view shows that hook's row (every shell sends it to its settings page).",
)
PREFILL = ShellCommand(
    "prefill",
    "PREFILL",
    "shellToPage",
    "PrefillArgs",
    "Put text in the chat input (editable; sent as a normal user message).",
)
SHOW_FILE = ShellCommand(
    "showFile",
    "SHOW_FILE",
    "shellToPage",
    "ShowFileArgs",
    "Show a file read-only beside the view (browser mode's window/showDocument).",
)
SET_LOCALE = ShellCommand(
    "setLocale",
    "SET_LOCALE",
    "shellToPage",
    "SetLocaleArgs",
    "The IDE's language changed: render in this locale from now on.",
)
RESTART_SERVER = ShellCommand(
    "restartServer",
    "RESTART_SERVER",
    "pageToShell",
    "NoArgs",
    "Start wavehost serve again after it stopped (the shell answers with serverState; VS Code "
    "loads its pages anew instead once the server runs, and the chat re-attaches to its session).",
)
MANAGE_TRUST = ShellCommand(
    "manageTrust",
    "MANAGE_TRUST",
    "pageToShell",
    "NoArgs",
    "Show the IDE's own workspace-trust action (VS Code: Manage Workspace Trust; JetBrains: the "
    "Trusted Locations settings): the chat's way out when project hooks do not run because the "
    "workspace is not trusted. The page never changes trust itself; browser mode has none.",
)
SERVER_STATE = ShellCommand(
    "serverState",
    "SERVER_STATE",
    "shellToPage",
    "ServerStateArgs",
    "wavehost serve stopped (running false, with why) or runs again: the page disables its "
    "actions and offers Restart, then reloads its views.",
)

SHELL_COMMANDS: tuple[ShellCommand, ...] = (
    READY,
    CLOSE_SETTINGS,
    OPEN_CHAT,
    OPEN_SETTINGS,
    SHOW_VIEW,
    PREFILL,
    SHOW_FILE,
    SET_LOCALE,
    RESTART_SERVER,
    MANAGE_TRUST,
    SERVER_STATE,
)
