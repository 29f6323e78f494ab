"""The event catalogue: the one table of hook events. Everything else derives from it.

Each member of `Event` is named exactly as the Wave (Claude Code) event and carries its spec: the
payload field its matcher tests, its payload model, which outputs it honours in the Wave format,
and what exit codes mean for it there (seed 000 "退出码 2 行为"; Claude Code where the seed is
silent). The other dialects (`hooks.dialects`) map their own event names onto these members; a
point only they know (Copilot's prompt transform and error events) is a member with `wave=False`:
the Wave settings format has no name for it.
"""

from dataclasses import dataclass
from enum import Enum, auto

from wavehost.hooks import payloads as p


class OnExit2(Enum):
    """What exit code 2 does on an event."""

    BLOCK_TOOL = (
        auto()
    )  # the tool does not run; its result is `<Event>:<tool> hook error: <stderr>`
    FEEDBACK = auto()  # an isMeta user message `<Event>:<tool> hook blocking error from command…`
    BLOCK_PROMPT = auto()  # the prompt is erased, stderr shown to the user only
    CONTINUE = auto()  # stopping is refused; stderr becomes an isMeta user message
    DENY = auto()  # the permission is denied; stderr shown to the user only
    FAIL = auto()  # the hook failed like any non-zero exit (worktree events)
    SILENT = auto()  # nothing happens, stderr is dropped
    NOTIFY_USER = auto()  # stderr shown to the user only


class OnStdout(Enum):
    """What plain (non-JSON) stdout of a successful hook is for."""

    IGNORED = auto()
    CONTEXT = auto()  # injected for the model
    INSTRUCTIONS = auto()  # merged into the compaction instructions
    WORKTREE_PATH = auto()  # the path of the worktree the hook created


@dataclass(frozen=True)
class EventSpec:
    payload: type[p.HookInput]
    summary_en: str
    summary_zh: str
    matcher_field: str | None = None
    on_exit2: OnExit2 = OnExit2.NOTIFY_USER
    on_stdout: OnStdout = OnStdout.IGNORED
    additional_context: bool = False  # honours hookSpecificOutput.additionalContext
    decision_block: bool = False  # honours top-level decision:"block" + reason
    permission_decision: bool = False  # honours hookSpecificOutput.permissionDecision
    permission_behavior: bool = False  # honours hookSpecificOutput.decision.behavior
    failures_logged_only: bool = False  # failures go to the log, never to the user
    takes_over: bool = False  # hooks replace wavehost's own action (worktrees)
    honours_continue: bool = True  # JSON `continue: false` stops the agent (Claude Code)
    wave: bool = True  # the Wave settings format names it (else only other dialects do)


class Event(Enum):
    PreToolUse = EventSpec(
        p.PreToolUseInput,
        "Before a tool runs; can block it",
        "工具调用前；可阻止调用",
        matcher_field="tool_name",
        on_exit2=OnExit2.BLOCK_TOOL,
        additional_context=True,
        permission_decision=True,
    )
    PostToolUse = EventSpec(
        p.PostToolUseInput,
        "After a tool succeeds",
        "工具成功执行后",
        matcher_field="tool_name",
        on_exit2=OnExit2.FEEDBACK,
        additional_context=True,
    )
    PostToolUseFailure = EventSpec(
        p.PostToolUseFailureInput,
        "After a tool fails",
        "工具执行失败后",
        matcher_field="tool_name",
        on_exit2=OnExit2.FEEDBACK,
    )
    UserPromptSubmit = EventSpec(
        p.UserPromptSubmitInput,
        "When you send a prompt, before the model sees it",
        "提交提示词时，在模型处理之前",
        on_exit2=OnExit2.BLOCK_PROMPT,
        on_stdout=OnStdout.CONTEXT,
        additional_context=True,
    )
    UserPromptTransformed = EventSpec(
        p.UserPromptTransformedInput,
        "After a prompt became the model's input, before it joins the history",
        "提示转为模型输入后、写入历史前",
        wave=False,
    )
    Stop = EventSpec(
        p.StopInput,
        "When the agent finishes its reply; can make it continue",
        "智能体完成回复时；可让其继续",
        on_exit2=OnExit2.CONTINUE,
        decision_block=True,
    )
    SubagentStart = EventSpec(
        p.SubagentStartInput,
        "When a subagent starts",
        "子代理启动时",
        matcher_field="agent_type",
    )
    SubagentStop = EventSpec(
        p.SubagentStopInput,
        "When a subagent finishes; can make it continue",
        "子代理完成时；可让其继续",
        matcher_field="agent_type",
        on_exit2=OnExit2.CONTINUE,
        decision_block=True,
    )
    PermissionRequest = EventSpec(
        p.PermissionRequestInput,
        "When a tool asks for permission",
        "工具请求权限时",
        matcher_field="tool_name",
        on_exit2=OnExit2.DENY,
        permission_behavior=True,
    )
    Notification = EventSpec(
        p.NotificationInput,
        "When the agent sends a notification",
        "智能体发出通知时",
        matcher_field="notification_type",
        honours_continue=False,  # Claude Code discards `continue` here
    )
    SessionStart = EventSpec(
        p.SessionStartInput,
        "When a session starts or resumes",
        "会话开始或恢复时",
        matcher_field="source",
        additional_context=True,  # seed: plain stdout reaches the model only for UserPromptSubmit
    )
    SessionEnd = EventSpec(
        p.SessionEndInput,
        "When a session ends",
        "会话结束时",
        honours_continue=False,  # Claude Code discards `continue` here
    )
    PreCompact = EventSpec(
        p.PreCompactInput,
        "Before the conversation is compacted",
        "对话压缩前",
        matcher_field="trigger",
        on_exit2=OnExit2.SILENT,
        on_stdout=OnStdout.INSTRUCTIONS,
        honours_continue=False,  # Claude Code discards `continue` here
    )
    PostCompact = EventSpec(
        p.PostCompactInput,
        "After the conversation is compacted",
        "对话压缩后",
        matcher_field="trigger",
        honours_continue=False,  # Claude Code discards `continue` here
    )
    WorktreeCreate = EventSpec(
        p.WorktreeCreateInput,
        "Creates a worktree in place of git",
        "代替 git 创建 worktree",
        on_exit2=OnExit2.FAIL,
        on_stdout=OnStdout.WORKTREE_PATH,
        takes_over=True,
        honours_continue=False,  # Claude Code discards `continue` here
    )
    WorktreeRemove = EventSpec(
        p.WorktreeRemoveInput,
        "Removes a worktree a hook created",
        "删除由钩子创建的 worktree",
        on_exit2=OnExit2.FAIL,
        failures_logged_only=True,
        takes_over=True,
        honours_continue=False,  # Claude Code discards `continue` here
    )
    CwdChanged = EventSpec(
        p.CwdChangedInput,
        "When the working directory changes",
        "工作目录变化时",
    )

    ErrorOccurred = EventSpec(
        p.ErrorOccurredInput,
        "When a turn fails with an error",
        "执行出错时",
        wave=False,
    )

    @property
    def spec(self) -> EventSpec:
        value: EventSpec = self.value
        return value


EVENTS_BY_NAME: dict[str, Event] = {event.name: event for event in Event}
WAVE_EVENTS: dict[str, Event] = {event.name: event for event in Event if event.spec.wave}
EVENT_NAMES: tuple[str, ...] = tuple(WAVE_EVENTS)  # the names the Wave settings format knows


def event_of(payload: p.HookInput) -> Event:
    return EVENTS_BY_NAME[payload.hook_event_name]
