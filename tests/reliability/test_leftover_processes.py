"""What a hook, a Bash command or an MCP server starts in a session of its own (`setsid … &`)
does not outlive it.

Before: killing a child's process group missed a grandchild that had called `setsid`, and once
the child exited the grandchild was re-parented to init — a hook's `setsid sleep &` outlived
the hook's timeout, the session and wavehost itself. Now `serve` and `chat` are child subreapers:
such processes are re-parented to them, a timed-out child is ended with its whole tree, what a
session's processes leave running ends with the session, the rest when wavehost exits, and
adopted processes that exit are reaped (no zombies).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.hooks_doc import hook
from tests.lsp.client import reply, running_server
from tests.mcp.servers import stdio_server
from tests.processes import TIMEOUT, until
from tests.workspace import Workspace
from wavehost.protocol import table

SLEEP = "4321"  # the leftovers' marker: `sleep 4321`


def detached(pid_file: Path, *, env_cleared: bool = False) -> str:
    """Shell text starting a `sleep` in a session of its own, its pid written to `pid_file`."""
    start = "env -i /usr/bin/setsid" if env_cleared else "setsid"
    return f"{start} sleep {SLEEP} >/dev/null 2>&1 </dev/null & echo $! > {pid_file}"


def running(pid_file: Path) -> bool:
    """Whether the leftover whose pid the file holds still runs (a zombie does not count)."""
    pid = int(pid_file.read_text())
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return cmdline == f"sleep\0{SLEEP}\0".encode() and state != "Z"


def started(pid_file: Path) -> bool:
    """Whether the leftover still exists at all, under whatever name (not yet `sleep`?)."""
    try:
        state = Path(f"/proc/{int(pid_file.read_text())}/stat").read_text()
    except OSError:
        return False
    return state.rsplit(")", 1)[1].split()[0] != "Z"


def parent_of(pid_file: Path) -> int:
    stat = Path(f"/proc/{int(pid_file.read_text())}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def zombies_of(pid: int) -> list[int]:
    """The children of `pid` that exited and were not reaped."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split():
            try:
                stat = Path(f"/proc/{child}/stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[0] == "Z":
                found.append(int(child))
    return found


def settings(
    workspace: Workspace, hooks: dict[str, list[dict[str, object]]], **more: object
) -> None:
    turns = [reply("", ("Bash", {"command": detached(workspace.root / "bash.pid")})), reply("done")]
    script = workspace.write(workspace.root / "script.json", {"turns": turns})
    workspace.write(
        workspace.user_settings,
        {"provider": "scripted", "script": str(script), "hooks": hooks, **more},
    )


async def test_what_a_sessions_hooks_commands_and_mcp_servers_leave_running_ends_with_it(
    workspace: Workspace,
) -> None:
    pid = {name: workspace.root / f"{name}.pid" for name in ("start", "timeout", "bash", "mcp")}
    mcp = stdio_server()
    run_server = f"{detached(pid['mcp'])}; exec {mcp['command']} {' '.join(mcp['args'])}"
    settings(
        workspace,
        {
            "SessionStart": [{"hooks": [hook(detached(pid["start"]))]}],
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {**hook(f"{detached(pid['timeout'])}; sleep 60"), "timeout": 1},
                        # exits at once; its orphan exits soon after: a zombie to reap
                        hook("(setsid sleep 0.3 >/dev/null 2>&1 </dev/null &)"),
                    ],
                }
            ],
        },
        mcpServers={
            "leaves": {"command": "/bin/sh", "args": ["-c", run_server], "env": mcp["env"]}
        },
    )
    workspace.project.mkdir(parents=True, exist_ok=True)
    async with running_server(workspace) as client:
        assert client._server is not None
        server = client._server.pid
        opened = await client.open_chat(permissionMode="bypassPermissions")
        session_id = opened["sessionId"]
        view = await client.turn(session_id, "go")
        assert [b["text"] for b in view.blocks("text")] == ["done"]
        await until(lambda: all(p.exists() and p.read_text().strip() for p in pid.values()))

        # the timed-out hook was ended with its whole tree, its setsid grandchild too
        await until(lambda: not running(pid["timeout"]), 30)
        # what exited normally may keep a helper for the session: adopted by the server
        assert all(running(pid[name]) for name in ("start", "bash", "mcp"))
        assert parent_of(pid["start"]) == server
        assert parent_of(pid["bash"]) == server
        # the short-lived orphan was reaped once it exited
        await until(lambda: not zombies_of(server), 30)

        closed = await client.call(table.CHAT_CLOSE.name, {"sessionId": session_id})
        assert closed == {"closed": True}
        left = [name for name, file in pid.items() if running(file)]
        zombies = zombies_of(server)

    assert left == []  # ended with the session, not merely with the server
    assert zombies == []


def test_nothing_a_headless_chat_started_outlives_it(workspace: Workspace) -> None:
    pid = {name: workspace.root / f"{name}.pid" for name in ("hook", "bash", "bare")}
    settings(
        workspace,
        {
            "UserPromptSubmit": [
                {
                    "hooks": [
                        hook(detached(pid["hook"])),
                        hook(detached(pid["bare"], env_cleared=True)),
                    ]
                }
            ]
        },
    )
    workspace.project.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "chat", "-p", "go", "--permission-mode",
         "bypassPermissions", "--output-format", "json"],
        cwd=workspace.project,
        env={**os.environ, "HOME": str(workspace.home)},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == "done"
    # the tagged ones with the session, the one that cleared its environment with the process
    assert {name: running(file) for name, file in pid.items()} == dict.fromkeys(pid, False)


async def test_what_a_tested_hook_leaves_running_ends_with_its_test(workspace: Workspace) -> None:
    left = workspace.root / "test.pid"
    workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook(detached(left))]}]}}
    )
    workspace.project.mkdir(parents=True, exist_ok=True)
    async with running_server(workspace) as client:
        assert client._server is not None
        [entry] = (await client.list_hooks())["hooks"]
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": entry["id"]})
        result = await client.call(
            table.HOOKS_TEST.name, {"id": entry["id"], "payload": sample["payload"]}
        )
        assert result["exitCode"] == 0
        # it was started as `setsid sleep`: left running, it soon is the `sleep`
        await until(lambda: running(left) or not started(left))
        still = started(left)
        zombies = zombies_of(client._server.pid)
    assert still is False
    assert zombies == []
