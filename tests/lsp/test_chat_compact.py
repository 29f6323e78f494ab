"""wave/chat/compact through the real server: PreCompact / PostCompact hooks as real processes,
the scripted provider answering the summary call."""

import json
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException

from tests.hooks_doc import hook
from tests.lsp.client import reply, running_server, script
from tests.workspace import Workspace
from wavehost.protocol import table


def recorder(path: Path) -> str:
    return f"cat > {path}"


async def test_compact_runs_the_compaction_hooks_and_answers_when_it_is_done(
    workspace: Workspace,
) -> None:
    pre, post = workspace.root / "pre.json", workspace.root / "post.json"
    workspace.write(
        workspace.project_settings,
        {
            "hooks": {
                "PreCompact": [
                    {"matcher": "manual", "hooks": [hook(f"{recorder(pre)}; echo keep the TODOs")]}
                ],
                "PostCompact": [{"hooks": [hook(recorder(post))]}],
            }
        },
    )
    script(workspace, reply("hello"), reply("The user said hi."), reply("still here"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        await client.turn(session_id, "hi")
        result = await client.call(
            table.CHAT_COMPACT.name, {"sessionId": session_id, "instructions": "focus on tests"}
        )
        view = await client.chat_until(
            session_id, lambda v: any("compacted" in n["text"] for n in v.blocks("notice"))
        )
        after = await client.turn(session_id, "are you there?")

    assert result == {"compacted": True}
    started = json.loads(pre.read_text())
    assert (started["trigger"], started["custom_instructions"]) == ("manual", "focus on tests")
    assert json.loads(post.read_text())["compact_summary"] == "The user said hi."
    assert [n["text"] for n in view.blocks("notice")] == ["Conversation compacted (manual)"]
    assert after.messages[-1]["blocks"] == [{"type": "text", "text": "still here"}]


async def test_compact_on_a_session_that_is_not_open_is_refused(workspace: Workspace) -> None:
    script(workspace)
    async with running_server(workspace) as client:
        with pytest.raises(JsonRpcException) as raised:
            await client.call(table.CHAT_COMPACT.name, {"sessionId": "nope"})

    assert "no open chat session 'nope'" in str(raised.value)
