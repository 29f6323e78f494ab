"""wave/hooks/prefill: the seed's prompts, localized, with the file to open beside the chat."""

from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.hooks_doc import hook
from tests.lsp.client import HostClient, running_server
from tests.workspace import Workspace
from wavehost.protocol import table


async def _prefill(client: HostClient, **params: Any) -> dict[str, Any]:
    result: dict[str, Any] = await client.call(table.HOOKS_PREFILL.name, params)
    return result


def _settings(workspace: Workspace) -> None:
    workspace.write(
        workspace.user_settings,
        {
            "enabledPlugins": {"kit": True},
            "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [hook("python3 guard.py", timeout=10)]}]
            },
        },
    )
    workspace.write(workspace.plugin_hooks("kit"), {"hooks": {"Stop": [{"hooks": [hook("x")]}]}})


async def test_new_hook_prompts_are_the_seed_texts_for_a_chinese_ui(workspace: Workspace) -> None:
    _settings(workspace)
    async with running_server(workspace, locale="zh-CN") as client:
        user = await _prefill(client, action="new", source="user")
        project = await _prefill(client, action="new", source="project")

    assert user == {
        "prompt": "帮我配一个用户级钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>",
        "configPath": str(workspace.user_settings),
    }
    assert project == {
        "prompt": "帮我在【my-app】新建钩子：<事件>时，<matcher 工具>，跑<命令>，<超时/异步>",
        "configPath": None,  # the project has no settings file yet: no placeholder path
    }


async def test_edit_prompt_names_the_hook_and_its_file(workspace: Workspace) -> None:
    _settings(workspace)
    async with running_server(workspace, locale="zh-CN") as client:
        listed = await client.list_hooks()
        guard = next(h for h in listed["hooks"] if h["command"] == "python3 guard.py")
        result = await _prefill(client, action="edit", source="user", id=guard["id"])

    first, second = result["prompt"].split("\n")
    assert first == "帮我编辑钩子：把<事件/匹配/命令/超时>改成<新内容>"
    assert second == (
        "要编辑的钩子：PreToolUse（工具调用前；可阻止调用），匹配 Bash，命令 `python3 guard.py`，"
        f"超时 10 秒；配置文件 {workspace.user_settings}"
    )
    assert result["configPath"] == str(workspace.user_settings)


@pytest.mark.parametrize(
    ("env", "prompt"),
    [
        ({"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}, "帮我配一个用户级钩子"),
        ({"LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}, "Help me set up a user-level hook"),
    ],
    ids=["zh_CN.UTF-8", "C.UTF-8"],
)
async def test_a_client_that_names_no_locale_gets_the_servers_environment_by_the_one_rule(
    workspace: Workspace, env: dict[str, str], prompt: str
) -> None:
    _settings(workspace)
    async with running_server(workspace, env=env) as client:
        user = await _prefill(client, action="new", source="user")
    assert user["prompt"].startswith(prompt)


async def test_english_locales_get_english_prompts(workspace: Workspace) -> None:
    _settings(workspace)
    async with running_server(workspace, locale="en-GB") as client:
        project = await _prefill(client, action="new", source="project")
        listed = await client.list_hooks()
        guard = next(h for h in listed["hooks"] if h["command"] == "python3 guard.py")
        edit = await _prefill(client, action="edit", source="user", id=guard["id"])

    assert project["prompt"] == (
        "Help me create a hook in [my-app]: when <event>, for <matcher tool>, run <command>, "
        "<timeout/async>"
    )
    assert edit["prompt"].startswith(
        "Help me edit a hook: change <event/matcher/command/timeout> to <new value>\n"
        "Hook to edit: PreToolUse (Before a tool runs; can block it), matcher Bash"
    )


async def test_the_locale_option_overrides_the_lsp_locale(workspace: Workspace) -> None:
    async with running_server(workspace, options={"locale": "zh-CN"}, locale="en-US") as client:
        result = await _prefill(client, action="new", source="user")
    assert result["prompt"].startswith("帮我配一个用户级钩子")


async def test_the_pages_locale_picks_the_prompts_language_over_the_workspaces(
    workspace: Workspace,
) -> None:
    # Browser mode: one server (here in Chinese), a page opened with ?locale=en renders in English.
    _settings(workspace)
    async with running_server(workspace, locale="zh-CN") as client:
        new = await _prefill(client, action="new", source="user", locale="en")
        listed = await client.list_hooks()
        guard = next(h for h in listed["hooks"] if h["command"] == "python3 guard.py")
        edit = await _prefill(client, action="edit", source="user", id=guard["id"], locale="en")
        default = await _prefill(client, action="new", source="user", locale=None)
    assert new["prompt"].startswith("Help me set up a user-level hook")
    assert edit["prompt"].startswith("Help me edit a hook")
    assert default["prompt"].startswith("帮我配一个用户级钩子")


async def test_plugin_hooks_cannot_be_edited(workspace: Workspace) -> None:
    _settings(workspace)
    async with running_server(workspace) as client:
        listed = await client.list_hooks()
        plugged = next(h for h in listed["hooks"] if h["source"] == "plugin")
        with pytest.raises(JsonRpcException) as refused:
            await _prefill(client, action="edit", source="plugin", id=plugged["id"])
    assert refused.value.data["reason"] == "readOnly"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"action": "edit", "source": "user"}, '"id" is required when action is "edit"'),
        ({"action": "new", "source": "plugin"}, "plugin hooks are read-only"),
        ({"action": "rename", "source": "user"}, "action: Input should be 'new' or 'edit'"),
    ],
)
async def test_invalid_prefill_params_are_error_32602(
    workspace: Workspace, params: dict[str, Any], message: str
) -> None:
    async with running_server(workspace) as client:
        with pytest.raises(JsonRpcException) as invalid:
            await _prefill(client, **params)
    assert invalid.value.code == -32602
    assert message in invalid.value.message


@pytest.mark.parametrize(
    ("locale", "source", "starter", "prompt"),
    [
        (
            "zh-CN",
            "user",
            "blockRmRf",
            "帮我配一个用户级钩子：PreToolUse 时，Bash，跑一个拒绝 rm -rf 的命令"
            "（退出码 2，在 stderr 说明原因），超时 10 秒",
        ),
        (
            "en",
            "project",
            "formatAfterEdit",
            "Help me create a hook in [my-app]: when PostToolUse, for Write|Edit, run this "
            "project's formatter on the file just changed, timeout 30 s",
        ),
        (
            "en",
            "user",
            "logPrompts",
            "Help me set up a user-level hook: when UserPromptSubmit, for every prompt, run a "
            "command that appends the prompt to ~/.wave/prompts.log, async",
        ),
    ],
)
async def test_a_starter_hook_prefills_the_new_prompt_with_its_blanks_filled_in(
    workspace: Workspace, locale: str, source: str, starter: str, prompt: str
) -> None:
    async with running_server(workspace) as client:
        params = {"action": "new", "source": source, "locale": locale, "starter": starter}
        result = await client.call(table.HOOKS_PREFILL.name, params)
    assert result["prompt"] == prompt
