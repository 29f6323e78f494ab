"""The chat prompts the settings page prefills for "new hook" and "edit hook".

The Chinese templates are the seed's, literally (故事 新建钩子 / 编辑钩子); English is for `en*`
locales. An edit prompt also names the hook, so the model knows which entry to change.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from wavehost.hooks.config import HookHandler

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


@dataclass(frozen=True)
class Prefill:
    prompt: str
    config_path: Path | None  # the file to open beside the chat; None if none exists yet


def new_hook_prompt(source: Literal["user", "project"], project_name: str, english: bool) -> str:
    if source == "user":
        return NEW_USER_EN if english else NEW_USER_ZH
    return (NEW_PROJECT_EN if english else NEW_PROJECT_ZH).format(project=project_name)


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
    dialect = {"claude": "Claude Code", "copilot": "Copilot CLI", "snow": "Snow CLI"}.get(
        handler.file_format
    )
    return f"{handler.event_name} [{dialect}]" if dialect else handler.event_name
