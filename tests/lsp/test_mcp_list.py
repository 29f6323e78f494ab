"""`wave/mcp/list` over the real server: the configured MCP servers and where each one is."""

import json
from typing import Any

from tests.lsp.client import reply, running_server, script
from tests.mcp.servers import stdio_server, write_mcp_json
from tests.workspace import Workspace
from wavehost.protocol import table


def by_name(listed: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in listed["servers"]}


async def test_the_list_shows_each_server_before_and_after_a_session_started_it(
    workspace: Workspace,
) -> None:
    script(workspace, reply("", ("mcp__memory__recall", {"key": "k"})), reply("ok"))
    user = json.loads(workspace.user_settings.read_text())
    user["mcpServers"] = {"remote": {"type": "http", "url": "${NO_SUCH_VARIABLE}/mcp"}}
    workspace.write(workspace.user_settings, user)
    mcp_json = write_mcp_json(workspace.project, {"memory": stdio_server()})
    async with running_server(workspace) as client:
        before = by_name(await client.call(table.MCP_LIST.name))
        opened = await client.open_chat(permissionMode="bypassPermissions")
        await client.turn(opened["sessionId"], "go")
        after = by_name(await client.call(table.MCP_LIST.name))
        shown = await client.call(
            table.OPEN_CONFIG_FILE.name, {"path": after["memory"]["path"], "line": 1}
        )

    assert before["memory"]["status"] == "notStarted"
    assert before["memory"]["path"] == str(mcp_json)
    assert before["memory"]["line"] == 1
    assert before["memory"]["transport"] == "stdio"
    assert before["remote"]["status"] == "invalid"
    assert before["remote"]["error"] == "missing environment variables: NO_SUCH_VARIABLE"
    assert before["remote"]["source"] == "user"
    assert after["memory"]["status"] == "connected"
    assert "mcp__memory__recall" in after["memory"]["tools"]
    assert client.mcp_changes >= 1  # the page is told to list again
    assert shown == {"opened": True, "reason": None}
    assert client.shown_documents[-1].uri == mcp_json.as_uri()


async def test_an_untrusted_workspace_lists_its_servers_as_never_started(
    workspace: Workspace,
) -> None:
    write_mcp_json(workspace.project, {"memory": stdio_server()})
    async with running_server(workspace, options={"trusted": False}) as client:
        listed = await client.call(table.MCP_LIST.name)
    assert [(s["name"], s["status"]) for s in listed["servers"]] == [("memory", "untrusted")]
    assert listed["configFiles"][-1]["untrusted"] is True


async def test_hooks_on_a_real_mcp_call_are_in_the_run_history_and_explained(
    workspace: Workspace,
) -> None:
    script(workspace, reply("", ("mcp__memory__remember", {"key": "k", "value": "v"})), reply("ok"))
    write_mcp_json(workspace.project, {"memory": stdio_server()})
    groups = [
        {"matcher": "mcp__memory__.*", "hooks": [{"type": "command", "command": "echo all"}]},
        {"matcher": "mcp__memory", "hooks": [{"type": "command", "command": "echo bare"}]},
    ]
    workspace.write(workspace.project_settings, {"hooks": {"PostToolUse": groups}})
    async with running_server(workspace) as client:
        ids = {h["command"]: h["id"] for h in (await client.list_hooks())["hooks"]}
        opened = await client.open_chat(permissionMode="bypassPermissions")
        await client.turn(opened["sessionId"], "remember")
        history = await client.call(table.HOOKS_HISTORY.name, {"id": ids["echo all"]})

        async def matcher(command: str) -> dict[str, Any]:
            answer = await client.call(
                table.HOOKS_EXPLAIN.name, {"id": ids[command], "sessionId": opened["sessionId"]}
            )
            return next(s for s in answer["steps"] if s["code"] == "matcher")

        fired, bare = await matcher("echo all"), await matcher("echo bare")

    [run] = history["runs"]
    assert (run["event"], run["subject"], run["exitCode"]) == (
        "PostToolUse",
        "mcp__memory__remember",
        0,
    )
    assert {c["subject"]: c["verdict"] for c in fired["cases"]} == {
        "mcp__memory__remember": "fired"
    }
    assert bare["status"] == "fail"  # a bare mcp__<server> matches none of its tools
    assert {c["subject"]: c["verdict"] for c in bare["cases"]} == {
        "mcp__memory__remember": "noMatch"
    }
