"""wave/openConfigFile: only listed files, never created, opened with window/showDocument."""

from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.hooks_doc import hook
from tests.lsp.client import HostClient, running_server
from tests.workspace import Workspace
from wavehost.protocol import table


async def _open(client: HostClient, path: str) -> dict[str, Any]:
    result: dict[str, Any] = await client.call(table.OPEN_CONFIG_FILE.name, {"path": path})
    return result


async def test_open_asks_the_client_to_show_the_file_by_absolute_uri(workspace: Workspace) -> None:
    settings = workspace.write(workspace.project_settings, {"hooks": {}})
    async with running_server(workspace) as client:
        result = await _open(client, str(settings))
        shown = list(client.shown_documents)

    assert result == {"opened": True, "reason": None}
    assert len(shown) == 1
    assert shown[0].uri == settings.as_uri()
    assert shown[0].uri.startswith("file:///")
    assert shown[0].take_focus is True


async def test_a_missing_file_is_not_opened_and_not_created(workspace: Workspace) -> None:
    async with running_server(workspace) as client:
        result = await _open(client, str(workspace.user_settings))
        shown = list(client.shown_documents)

    assert result == {"opened": False, "reason": "missing"}
    assert shown == []
    assert not workspace.user_settings.exists()
    assert not workspace.user_settings.parent.exists()


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/etc/passwd", id="an unrelated file"),
        pytest.param(".wave/settings.json", id="a relative path"),
        pytest.param(
            "{project}/.wave/../.wave/settings.json", id="a listed file spelled otherwise"
        ),
        pytest.param("{home}/.wave/plugins/off/hooks/hooks.json", id="a disabled plugin's file"),
    ],
)
async def test_paths_the_list_does_not_report_are_refused(workspace: Workspace, path: str) -> None:
    workspace.write(workspace.project_settings, {"hooks": {}})
    workspace.write(workspace.plugin_hooks("off"), {"hooks": {}})
    path = path.format(project=workspace.project, home=workspace.home)
    async with running_server(workspace) as client:
        with pytest.raises(JsonRpcException) as refused:
            await _open(client, path)
        shown = list(client.shown_documents)

    assert refused.value.code == -32803
    assert refused.value.data["reason"] == "unknownPath"
    assert path in refused.value.message
    assert shown == []


async def test_plugin_hook_files_that_are_listed_can_be_opened(workspace: Workspace) -> None:
    workspace.write(workspace.user_settings, {"enabledPlugins": {"kit": True}})
    plugin = workspace.write(
        workspace.plugin_hooks("kit"), {"hooks": {"Stop": [{"hooks": [hook("x")]}]}}
    )
    async with running_server(workspace) as client:
        result = await _open(client, str(plugin))
    assert result["opened"] is True


async def test_the_result_reflects_a_client_that_declines(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, {"hooks": {}})
    async with running_server(workspace) as client:
        client.show_documents = False
        result = await _open(client, str(settings))
    assert result == {"opened": False, "reason": "declined"}


async def test_a_client_without_show_document_is_told_so(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, {"hooks": {}})
    async with running_server(workspace, capabilities=types.ClientCapabilities()) as client:
        result = await _open(client, str(settings))
        shown = list(client.shown_documents)
    assert result == {"opened": False, "reason": "unsupported"}
    assert shown == []


@pytest.mark.parametrize("dialect", ["wave", "copilot"])
async def test_a_hooks_pointer_opens_its_file_at_the_hooks_own_lines(
    workspace: Workspace, dialect: str
) -> None:
    """Edit: the editor is shown the hook's entry (first line to the start of the one after
    it), wherever it stands in its file."""
    if dialect == "wave":
        text = (
            '{\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n'
            '          { "type": "command", "command": "echo one" },\n'
            '          {\n            "type": "command",\n            "command": "echo two"\n'
            "          }\n        ]\n      }\n    ]\n  }\n}\n"
        )
        path = workspace.write(workspace.project_settings, text)
    else:
        text = (
            '{"version": 1, "hooks": {"preToolUse": [\n  {"bash": "echo one"},\n'
            '  {\n    "bash": "echo two"\n  }\n]}}\n'
        )
        path = workspace.write(workspace.project / ".github" / "hooks" / "team.json", text)
    async with running_server(workspace) as client:
        hooks = {h["command"]: h for h in (await client.list_hooks())["hooks"]}
        two = hooks["echo two"]
        params = {"path": str(path), "pointer": two["pointer"]}
        result = await client.call(table.OPEN_CONFIG_FILE.name, params)
        missing = {"path": str(path), "pointer": "/hooks/Nowhere/9"}
        await client.call(table.OPEN_CONFIG_FILE.name, missing)
        shown = list(client.shown_documents)

    lines = text.splitlines()
    opening = "          {" if dialect == "wave" else "  {"  # the entry of "echo two"
    closing = "          }" if dialect == "wave" else "  }"
    assert result == {"opened": True, "reason": None}
    selection = shown[0].selection
    assert selection is not None
    assert selection.start == types.Position(line=lines.index(opening), character=0)
    assert selection.end == types.Position(line=lines.index(closing) + 1, character=0)
    assert shown[1].selection is None  # an entry no longer there: the file, at its top
