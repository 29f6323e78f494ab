"""wave/workspace/setTrusted: the user grants (or revokes) workspace trust without a restart."""

import asyncio
import json

from tests.lsp.client import TIMEOUT, project_hooks, reply, running_server, script
from tests.workspace import Workspace
from wavehost.protocol import table


async def test_granting_trust_lists_project_hooks_as_runnable_and_new_sessions_run_them(
    workspace: Workspace,
) -> None:
    started = workspace.root / "started.json"
    project_hooks(workspace, "SessionStart", f"cat > {started}")
    script(workspace, reply("hi"), reply("again"))
    async with running_server(workspace, options={"trusted": False}) as client:
        await client.watching()
        before = await client.list_hooks()
        untrusted_session = await client.open_chat()
        granted = await client.call(table.WORKSPACE_SET_TRUSTED.name, {"trusted": True})
        changed = await asyncio.wait_for(client.changes.get(), TIMEOUT)
        after = await client.list_hooks()
        trusted_session = await client.open_chat()
        repeated = await client.call(table.WORKSPACE_SET_TRUSTED.name, {"trusted": True})

    assert (before["trusted"], before["hooks"][0]["untrusted"]) == (False, True)
    assert granted == {"trusted": True, "changed": True}
    assert changed == {}
    assert (after["trusted"], after["hooks"][0]["untrusted"]) == (True, None)
    assert repeated == {"trusted": True, "changed": False}
    # Only the session opened after the grant ran the project's SessionStart hook.
    ran = json.loads(started.read_text())
    assert ran["session_id"] == trusted_session["sessionId"]
    assert ran["session_id"] != untrusted_session["sessionId"]


async def test_revoking_trust_stops_project_hooks_in_sessions_opened_after(
    workspace: Workspace,
) -> None:
    started = workspace.root / "started.json"
    project_hooks(workspace, "SessionStart", f"cat >> {started}")
    script(workspace, reply("hi"), reply("again"))
    async with running_server(workspace) as client:
        first = await client.open_chat()
        revoked = await client.call(table.WORKSPACE_SET_TRUSTED.name, {"trusted": False})
        await client.open_chat()
        listed = await client.list_hooks()

    assert revoked == {"trusted": False, "changed": True}
    assert listed["trusted"] is False
    sessions = [json.loads(line)["session_id"] for line in started.read_text().splitlines()]
    assert sessions == [first["sessionId"]]


async def test_a_client_that_says_nothing_about_trust_runs_no_project_hook(
    workspace: Workspace,
) -> None:
    ran = workspace.root / "ran"
    project_hooks(workspace, "UserPromptSubmit", f"touch {ran}")
    script(workspace, reply("hi"))
    async with running_server(workspace, trusted=None) as client:
        listed = await client.list_hooks()
        opened = await client.open_chat()
        view = await client.turn(opened["sessionId"], "hello")

    assert listed["trusted"] is False
    assert listed["hooks"][0]["untrusted"] is True
    assert view.messages[-1]["blocks"][0]["text"] == "hi"  # the turn ran, its project hook not
    assert not ran.exists()
