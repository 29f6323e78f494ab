"""wave/hooks/delete: exactly one entry goes, every other byte stays, failures leave the file."""

import asyncio
import os
import shutil
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.hooks_doc import hook
from tests.lsp.client import HostClient, as_user, running_server
from tests.workspace import Workspace
from wavehost.protocol import table

ORIGINAL = """{
    "model": "opus",
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    { "type": "command", "command": "first" },
                    { "type": "command", "command": "second", "timeout": 1.50 }
                ]
            },
            {"matcher": "Write", "hooks": [{"type": "command", "command": "solo"}]}
        ],
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": "bye"}
                ]
            }
        ]
    },
    "env": {"GREETING": "h\\u00e9llo"}
}
"""


def _ids(result: dict[str, Any]) -> dict[str, str]:
    return {h["command"]: h["id"] for h in result["hooks"]}


async def _delete(client: HostClient, hook_id: str) -> dict[str, Any]:
    result: dict[str, Any] = await client.call(table.HOOKS_DELETE.name, {"id": hook_id})
    return result


async def _refused(client: HostClient, hook_id: str) -> dict[str, Any]:
    with pytest.raises(JsonRpcException) as refused:
        await _delete(client, hook_id)
    assert refused.value.code == -32803
    data: dict[str, Any] = refused.value.data
    assert data["message"] == refused.value.message
    return data


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "first",
            ORIGINAL.replace('{ "type": "command", "command": "first" },\n' + " " * 20, ""),
            id="one of two handlers",
        ),
        pytest.param(
            "second",
            ORIGINAL.replace(
                ",\n" + " " * 20 + '{ "type": "command", "command": "second", "timeout": 1.50 }',
                "",
            ),
            id="the last handler",
        ),
        pytest.param(
            "solo",
            ORIGINAL.replace(
                ',\n            {"matcher": "Write", "hooks": [{"type": "command", "command": '
                '"solo"}]}',
                "",
            ),
            id="a group left empty",
        ),
        pytest.param(
            "bye",
            ORIGINAL.replace(
                ',\n        "Stop": [\n            {\n                "hooks": [\n'
                '                    {"type": "command", "command": "bye"}\n'
                "                ]\n            }\n        ]",
                "",
            ),
            id="an event left empty",
        ),
    ],
)
async def test_delete_removes_only_that_entry_and_keeps_every_other_byte(
    workspace: Workspace, command: str, expected: str
) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    settings.chmod(0o640)
    assert expected != ORIGINAL
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())[command]
        result = await _delete(client, hook_id)
        after = await client.list_hooks()

    assert result["deleted"]["id"] == hook_id
    assert result["deleted"]["command"] == command
    assert settings.read_bytes() == expected.encode()
    assert settings.stat().st_mode & 0o777 == 0o640
    assert command not in _ids(after)
    assert [p.name for p in settings.parent.iterdir()] == ["settings.json"]  # no temp left


async def test_deleting_the_only_hook_leaves_an_empty_hooks_object_without_newline_change(
    workspace: Workspace,
) -> None:
    settings = workspace.write(
        workspace.project_settings,
        '{\r\n\t"hooks": {\r\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]\r\n'
        "\t}\r\n}",
    )
    async with running_server(workspace) as client:
        await _delete(client, _ids(await client.list_hooks())["x"])
    assert settings.read_bytes() == b'{\r\n\t"hooks": {}\r\n}'


async def test_two_concurrent_deletes_in_one_file_lose_nothing(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        ids = _ids(await client.list_hooks())
        results = await asyncio.gather(_delete(client, ids["bye"]), _delete(client, ids["solo"]))
        remaining = _ids(await client.list_hooks())

    assert {r["deleted"]["command"] for r in results} == {"bye", "solo"}
    assert set(remaining) == {"first", "second"}
    expected = ORIGINAL.replace(
        ',\n            {"matcher": "Write", "hooks": [{"type": "command", "command": "solo"}]}',
        "",
    ).replace(
        ',\n        "Stop": [\n            {\n                "hooks": [\n'
        '                    {"type": "command", "command": "bye"}\n'
        "                ]\n            }\n        ]",
        "",
    )
    assert settings.read_bytes() == expected.encode()


async def test_an_entry_edited_elsewhere_since_the_list_is_a_conflict(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["second"]
        edited = ORIGINAL.replace('"timeout": 1.50', '"timeout": 3')
        settings.write_text(edited)
        data = await _refused(client, hook_id)

    assert data["reason"] == "conflict"
    assert data["path"] == str(settings)
    assert settings.read_text() == edited


async def test_an_entry_moved_since_the_list_is_a_conflict(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["first"]
        moved = ORIGINAL.replace(
            '{ "type": "command", "command": "first" },',
            '{ "type": "command", "command": "new" }, { "type": "command", "command": "first" },',
        )
        settings.write_text(moved)
        data = await _refused(client, hook_id)

    assert data["reason"] == "conflict"
    assert settings.read_text() == moved


async def test_a_file_deleted_after_the_list_is_not_found_and_not_recreated(
    workspace: Workspace,
) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["bye"]
        settings.unlink()
        data = await _refused(client, hook_id)

    assert (data["reason"], data["path"]) == ("notFound", str(settings))
    assert not settings.exists()


async def test_an_unknown_id_is_not_found(workspace: Workspace) -> None:
    workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        data = await _refused(client, "no-such-hook")
    assert data["reason"] == "notFound"


async def test_a_deleted_hook_cannot_be_deleted_twice(workspace: Workspace) -> None:
    workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["bye"]
        await _delete(client, hook_id)
        data = await _refused(client, hook_id)
    assert data["reason"] == "notFound"


async def test_broken_json_is_malformed_config_and_left_as_is(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["bye"]
        broken = ORIGINAL.replace('"model": "opus",', '"model": "opus"')
        settings.write_text(broken)
        data = await _refused(client, hook_id)

    assert data["reason"] == "malformedConfig"
    # Where the fix goes (the line after "opus"), as the list's Problems says it.
    assert "line 2, column 20: a comma is missing after this value" in data["message"]
    assert settings.read_text() == broken


async def test_plugin_hooks_are_read_only(workspace: Workspace) -> None:
    workspace.write(workspace.user_settings, {"enabledPlugins": {"kit": True}})
    plugin = workspace.write(
        workspace.plugin_hooks("kit"), {"hooks": {"Stop": [{"hooks": [hook("plugged")]}]}}
    )
    before = plugin.read_bytes()
    async with running_server(workspace) as client:
        data = await _refused(client, _ids(await client.list_hooks())["plugged"])

    assert (data["reason"], data["path"]) == ("readOnly", str(plugin))
    assert "kit" in data["message"]
    assert plugin.read_bytes() == before


async def test_a_file_that_cannot_be_read_is_an_io_error(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    async with running_server(workspace) as client:
        hook_id = _ids(await client.list_hooks())["bye"]
        settings.unlink()
        settings.mkdir()  # something else now stands where the file was
        data = await _refused(client, hook_id)
    assert (data["reason"], data["path"]) == ("ioError", str(settings))
    assert settings.is_dir()


@pytest.mark.parametrize("locked", ["file", "folder"])
async def test_no_write_permission_is_permission_denied(workspace: Workspace, locked: str) -> None:
    # As root, chmod denies nothing: the server then runs as an unprivileged user.
    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("needs setpriv to drop root privileges")
        prefix = as_user(65534, 65534)
    settings = workspace.write(workspace.user_settings, ORIGINAL)
    if prefix:
        workspace.give_to(65534, 65534)
    async with running_server(workspace, prefix=prefix) as client:
        listed = await client.list_hooks()
        assert all(not h["readOnly"] for h in listed["hooks"])
        if locked == "file":
            settings.chmod(0o444)
        else:
            settings.parent.chmod(0o555)
        data = await _refused(client, _ids(listed)["bye"])

    assert (data["reason"], data["path"]) == ("permissionDenied", str(settings))
    assert settings.read_text() == ORIGINAL
    assert [p.name for p in settings.parent.iterdir()] == ["settings.json"]


async def test_invalid_delete_params_are_error_32602_with_a_readable_message(
    workspace: Workspace,
) -> None:
    async with running_server(workspace) as client:
        with pytest.raises(JsonRpcException) as missing:
            await client.call(table.HOOKS_DELETE.name, {"hookId": "x"})
        with pytest.raises(JsonRpcException) as wrong_type:
            await client.call(table.HOOKS_DELETE.name, {"id": 7})
        with pytest.raises(JsonRpcException) as not_an_object:
            await client.call(table.HOOKS_DELETE.name, ["x"])

    assert missing.value.code == wrong_type.value.code == not_an_object.value.code == -32602
    assert missing.value.message == "Invalid params for wave/hooks/delete: id: Field required"
    assert "id: Input should be a valid string" in wrong_type.value.message
    assert not_an_object.value.message.endswith("params must be an object, not list")
