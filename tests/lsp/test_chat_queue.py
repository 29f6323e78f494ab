"""Stop and the queue (issue 30 item 5): Stop ends the running turn only. The messages queued
behind it stay queued — held, shown as such, none starting by itself — until the user sends them
(wave/chat/sendQueued, or a new message, which goes after them) or removes them one by one
(wave/chat/removeQueued, by id). The real server, the scripted provider, a real Bash process."""

from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException

from tests.lsp.client import ChatView, HostClient, reply, running_server, script
from tests.workspace import Workspace
from wavehost.protocol import table


def _gated_bash(gate: Path) -> tuple[str, dict[str, str]]:
    """A command that runs until the test lets it go (or Stop kills it)."""
    return ("Bash", {"command": f"while [ ! -f {gate} ]; do sleep 0.05; done; echo slow"})


async def _stopped_with_queue(client: HostClient, texts: list[str]) -> tuple[str, ChatView]:
    """A turn that runs a command, messages queued behind it, then Stop: the session's view once
    the turn has ended."""
    session_id = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
    await client.send_chat(session_id, "first")
    await client.chat_until(
        session_id, lambda v: any(b["status"] == "running" for b in v.blocks("tool"))
    )
    for text in texts:
        await client.send_chat(session_id, text)
    await client.chat_until(session_id, lambda v: v.queued_texts == texts)
    cancelled = await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
    assert cancelled == {"cancelled": True}
    view = await client.chat_until(session_id, lambda v: v.turns == 1)
    return session_id, view


def _users(view: ChatView) -> list[str]:
    return [m["content"] for m in view.messages if m["role"] == "user"]


async def test_stop_ends_the_turn_only_and_the_queued_messages_stay_queued_held(
    workspace: Workspace,
) -> None:
    script(workspace, reply("", _gated_bash(workspace.root / "gate")), reply("never asked"))
    async with running_server(workspace) as client:
        session_id, view = await _stopped_with_queue(client, ["second", "third"])
        # A round trip later nothing has started by itself: still idle, still both queued.
        missing = {"sessionId": session_id, "id": "no-such-message"}
        assert await client.call(table.CHAT_REMOVE_QUEUED.name, missing) == {"removed": False}
        assert (view.status, view.turns) == ("idle", 1)
        # A page attaching now sees the held queue too, each message with its id.
        snapshot = await client.open_chat(sessionId=session_id)

    assert _users(view) == ["first"]
    assert [q["text"] for q in view.queue] == ["second", "third"]
    assert view.queued_texts == ["second", "third"]
    assert view.held
    assert len({q["id"] for q in view.queue}) == 2
    assert (snapshot["status"], snapshot["queueHeld"]) == ("idle", True)
    assert snapshot["queuedMessages"] == view.queue
    [tool] = view.blocks("tool")
    assert tool["status"] == "cancelled"


async def test_a_removed_queued_message_never_runs_and_send_queued_runs_the_rest_in_order(
    workspace: Workspace,
) -> None:
    gate = workspace.root / "gate"
    script(workspace, reply("", _gated_bash(gate)), reply("third done"), reply("fourth done"))
    async with running_server(workspace) as client:
        session_id, view = await _stopped_with_queue(client, ["second", "third", "fourth"])
        second = next(q["id"] for q in view.queue if q["text"] == "second")
        target = {"sessionId": session_id, "id": second}
        removed = await client.call(table.CHAT_REMOVE_QUEUED.name, target)
        again = await client.call(table.CHAT_REMOVE_QUEUED.name, target)
        view = await client.chat_until(session_id, lambda v: v.queued_texts == ["third", "fourth"])
        assert view.held
        assert view.status == "idle"
        sent = await client.call(table.CHAT_SEND_QUEUED.name, {"sessionId": session_id})
        # The two run back to back: one running → idle stretch.
        view = await client.chat_until(session_id, lambda v: v.turns == 2 and not v.queue)
        nothing_held = await client.call(table.CHAT_SEND_QUEUED.name, {"sessionId": session_id})

    assert (removed, again) == ({"removed": True}, {"removed": False})
    assert sent == {"sent": True}
    assert nothing_held == {"sent": False}
    assert _users(view) == ["first", "third", "fourth"]
    assert [b["text"] for b in view.blocks("text")] == ["third done", "fourth done"]
    assert (view.queue, view.held) == ([], False)


async def test_a_new_message_after_stop_sends_the_held_ones_first_then_itself(
    workspace: Workspace,
) -> None:
    gate = workspace.root / "gate"
    script(workspace, reply("", _gated_bash(gate)), reply("second done"), reply("new done"))
    async with running_server(workspace) as client:
        session_id, view = await _stopped_with_queue(client, ["second"])
        assert view.held
        await client.send_chat(session_id, "new")
        view = await client.chat_until(session_id, lambda v: v.turns == 2 and not v.queue)

    assert _users(view) == ["first", "second", "new"]
    assert [b["text"] for b in view.blocks("text")] == ["second done", "new done"]
    assert not view.held


async def test_removing_the_last_held_message_ends_the_hold(workspace: Workspace) -> None:
    script(workspace, reply("", _gated_bash(workspace.root / "gate")), reply("next done"))
    async with running_server(workspace) as client:
        session_id, view = await _stopped_with_queue(client, ["second"])
        [queued] = view.queue
        await client.call(
            table.CHAT_REMOVE_QUEUED.name, {"sessionId": session_id, "id": queued["id"]}
        )
        view = await client.chat_until(session_id, lambda v: not v.queue)
        assert not view.held
        view = await client.turn(session_id, "next")  # runs at once, as any message when idle

    assert _users(view) == ["first", "next"]


async def test_remove_queued_checks_its_params(workspace: Workspace) -> None:
    script(workspace, reply("unused"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        with pytest.raises(JsonRpcException, match="id"):
            await client.call(table.CHAT_REMOVE_QUEUED.name, {"sessionId": session_id, "id": ""})
        with pytest.raises(JsonRpcException, match="sessionId"):
            await client.call(table.CHAT_SEND_QUEUED.name, {})
