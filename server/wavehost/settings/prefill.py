"""The chat prompts the settings page prefills for "new hook" and "edit hook".

The Chinese templates are the seed's, literally (故事 新建钩子 / 编辑钩子); English is for `en*`
locales. An edit prompt also names the hook, so the model knows which entry to change.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialect_registry import title
from wavehost.hooks.tools.bash import BASH
from wavehost.hooks.tools.edit import EDIT
from wavehost.hooks.tools.write import WRITE

NEW_USER_ZH = "帮我配一个用户级钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>"
NEW_PROJECT_ZH = "帮我在【{project}】新建钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>"
EDIT_ZH = "帮我编辑钩子：把<事件/匹配/命令/超时>改成<新内容>"

NEW_USER_EN = (
    "Help me set up a user-level hook: when <event>, for <matcher tool>, run <command>, "
    "<timeout/async>"
)
NEW_PROJECT_EN = (
    "Help me create a hook in [{project}]: when <event>, for <matcher tool>, run <command>, "
    "<timeout/async>"
)
EDIT_EN = "Help me edit a hook: change <event/matcher/command/timeout> to <new value>"


Starter = Literal["blockRmRf", "formatAfterEdit", "logPrompts"]

# The settings page's starter hooks (its empty state): the New prompt with every blank filled in,
# the user still free to change it before sending — (event, matcher, command, timing) per language
# (False: Chinese, where a space keeps the event's name apart from the 时 after it).
STARTERS: dict[Starter, dict[bool, tuple[str, str, str, str]]] = {
    "blockRmRf": {
        False: (
            "PreToolUse ",
            BASH.name,
            "一个拒绝 rm -rf 的命令（退出码 2，在 stderr 说明原因）",
            "超时 10 秒",
        ),
        True: (
            "PreToolUse",
            BASH.name,
            "a command that refuses rm -rf (exit 2, the reason on stderr)",
            "timeout 10 s",
        ),
    },
    "formatAfterEdit": {
        False: (
            "PostToolUse ",
            f"{WRITE.name}|{EDIT.name}",
            "本项目的格式化工具，格式化刚改过的文件",
            "超时 30 秒",
        ),
        True: (
            "PostToolUse",
            f"{WRITE.name}|{EDIT.name}",
            "this project's formatter on the file just changed",
            "timeout 30 s",
        ),
    },
    "logPrompts": {
        False: (
            "UserPromptSubmit ",
            "所有提示词",
            "把提示词追加到 ~/.wave/prompts.log 的命令",
            "异步",
        ),
        True: (
            "UserPromptSubmit",
            "every prompt",
            "a command that appends the prompt to ~/.wave/prompts.log",
            "async",
        ),
    },
}
_BLANKS = {
    False: ("<事件>", "<matcher 工具>", "<命令>", "<超时/异步>"),
    True: ("<event>", "<matcher tool>", "<command>", "<timeout/async>"),
}


@dataclass(frozen=True)
class Prefill:
    prompt: str
    config_path: Path | None  # the file to open beside the chat; None if none exists yet


def new_hook_prompt(
    source: Literal["user", "project"],
    project_name: str,
    english: bool,
    starter: Starter | None = None,
) -> str:
    """The New prompt (the seed's template), or a starter hook's: the template filled in."""
    if source == "user":
        prompt = NEW_USER_EN if english else NEW_USER_ZH
    else:
        prompt = (NEW_PROJECT_EN if english else NEW_PROJECT_ZH).format(project=project_name)
    if starter is not None:
        for blank, value in zip(_BLANKS[english], STARTERS[starter][english], strict=True):
            prompt = prompt.replace(blank, value)
    return prompt


def edit_hook_prompt(handler: HookHandler, english: bool) -> str:
    spec = handler.event.spec
    timeout = f"{handler.timeout:g}" if handler.timeout is not None else None
    if english:
        parts = [f"{_event(handler)} ({spec.summary_en})"]
        parts += [f"matcher {handler.matcher.source}"] if handler.matcher.source else []
        parts += [f"command `{handler.command}`"]
        parts += [f"timeout {timeout} s"] if timeout else []
        parts += ["async"] if handler.in_background else []
        return f"{EDIT_EN}\nHook to edit: {', '.join(parts)}; config file {handler.path}"
    parts = [f"{_event(handler)}（{spec.summary_zh}）"]
    parts += [f"匹配 {handler.matcher.source}"] if handler.matcher.source else []
    parts += [f"命令 `{handler.command}`"]
    parts += [f"超时 {timeout} 秒"] if timeout else []
    parts += ["异步"] if handler.in_background else []
    return f"{EDIT_ZH}\n要编辑的钩子：{'，'.join(parts)}；配置文件 {handler.path}"


def _event(handler: HookHandler) -> str:
    """The event as its file names it, and whose format that is when not Wave's."""
    if handler.file_format == "wave":
        return handler.event_name
    return f"{handler.event_name} [{title(handler.file_format)}]"
