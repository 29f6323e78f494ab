"""A running hook, live, through the real server: its stderr lines arrive as `wave/chat/updated`
notifications while it runs (bounded, a few a second however much it prints), and
`wave/chat/cancelHook` stops its process tree as a timeout would — the tool call goes on, the
chat says so, and the run history records the run as cancelled."""

import json
import time
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcException

from tests.lsp.client import project_hooks, reply, running_server, script
from tests.processes import alive, until
from tests.workspace import Workspace
from wavehost.hooks import live
from wavehost.hooks.outcome import CANCELLED
from wavehost.protocol import table


def _gate(path: Path) -> str:
    return f"while [ ! -f {path} ]; do sleep 0.05; done"


async def test_a_running_hooks_lines_arrive_live_and_cancel_kills_it_and_the_call_goes_on(
    workspace: Workspace,
) -> None:
    gate, shell_pid, sleep_pid = (workspace.root / n for n in ("gate", "shell.pid", "sleep.pid"))
    command = (
        f"echo $$ > {shell_pid}; echo 'scanning 1/2' >&2; {_gate(gate)}; "
        f"echo 'scanning 2/2' >&2; sleep 300 & echo $! > {sleep_pid}; wait"
    )
    project_hooks(workspace, "PreToolUse", command, matcher="Bash")
    marker = workspace.project / "ran"
    script(workspace, reply("", ("Bash", {"command": f"touch {marker}"})), reply("all done"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        await client.send_chat(session_id, "go")

        def lines() -> list[str]:
            hooks = client.chat(session_id).live_hooks["hooks"]
            return list(hooks[0]["lines"]) if hooks else []

        await client.chat_until(session_id, lambda v: lines() == ["scanning 1/2"])
        assert alive(int(shell_pid.read_text()))  # it came while the hook ran
        gate.touch()
        await client.chat_until(session_id, lambda v: lines() == ["scanning 1/2", "scanning 2/2"])
        await until(lambda: sleep_pid.exists() and bool(sleep_pid.read_text().strip()))
        pids = int(shell_pid.read_text()), int(sleep_pid.read_text())
        [running] = client.chat(session_id).live_hooks["hooks"]
        assert running["hook"]["command"] == command
        assert running["hook"]["event"] == "PreToolUse"
        snapshot = await client.call(table.CHAT_OPEN.name, {"sessionId": session_id})
        assert [h["id"] for h in snapshot["liveHooks"]["hooks"]] == [running["id"]]
        assert not marker.exists()

        cancel = {"sessionId": session_id, "hookRunId": running["id"]}
        cancelled = await client.call(table.CHAT_CANCEL_HOOK.name, cancel)
        view = await client.chat_until(session_id, lambda v: v.turns == 1)
        await until(lambda: not any(alive(pid) for pid in pids))
        again = await client.call(table.CHAT_CANCEL_HOOK.name, cancel)
        history = await client.call(table.HOOKS_HISTORY.name, {"id": running["hook"]["id"]})
        with pytest.raises(JsonRpcException, match="no open chat session"):
            await client.call(table.CHAT_CANCEL_HOOK.name, {**cancel, "sessionId": "elsewhere"})

    assert cancelled == {"cancelled": True}
    assert again == {"cancelled": False}  # it is over
    assert view.live_hooks == {"hooks": [], "more": 0}
    assert any(
        n["liveHooks"] and n["liveHooks"]["hooks"] and n["liveHooks"]["hooks"][0]["cancelling"]
        for n in view.notifications
    )
    # A cancelled PreToolUse hook blocks nothing (as a timeout): the call ran, the turn went on.
    assert marker.exists()
    [tool] = view.blocks("tool")
    assert tool["status"] == "success"
    [notice] = view.blocks("notice")
    assert (notice["level"], notice["text"], notice["hook"]["id"]) == (
        "error",
        CANCELLED,
        running["hook"]["id"],
    )
    assert notice["exitCode"] is None  # the SIGTERM was ours, not the hook's answer
    assert view.blocks("text")[-1]["text"] == "all done"
    [run] = history["runs"]
    assert run["cancelled"] is True
    assert run["timedOut"] is False
    assert run["blocked"] is False
    assert run["sessionId"] == session_id
    assert "scanning 2/2" in run["stderr"]


async def test_a_hook_flooding_stderr_sends_its_last_lines_a_few_times_a_second(
    workspace: Workspace,
) -> None:
    gate = workspace.root / "gate"
    total = 100_000
    project_hooks(workspace, "UserPromptSubmit", f"seq 1 {total} >&2; {_gate(gate)}")
    script(workspace, reply("fine"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        started = time.monotonic()
        await client.send_chat(session_id, "hello")

        def shown() -> list[str]:
            hooks = client.chat(session_id).live_hooks["hooks"]
            return list(hooks[0]["lines"]) if hooks else []

        await client.chat_until(session_id, lambda v: shown()[-1:] == [str(total)])
        elapsed = time.monotonic() - started
        view = client.chat(session_id)
        [hook] = view.live_hooks["hooks"]
        gate.touch()
        await client.chat_until(session_id, lambda v: v.turns == 1)

    assert hook["lines"] == [str(n) for n in range(total - live.LINES + 1, total + 1)]
    assert hook["moreLines"] == total - live.LINES
    told = [n["liveHooks"] for n in view.notifications if n["liveHooks"] is not None]
    # However fast it printed: at most one a throttle interval (and the last one, it ended).
    assert len(told) <= elapsed / live.INTERVAL + 2
    assert max(len(json.dumps(t)) for t in told) < 10_000
    assert view.live_hooks == {"hooks": [], "more": 0}
