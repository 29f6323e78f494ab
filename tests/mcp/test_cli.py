"""`wavehost mcp list` as a real subprocess: each server started to see it connect, then stopped;
an untrusted workspace's servers listed but never started."""

import json
import os
import sys
from pathlib import Path

import anyio

from tests.mcp.servers import living, server_pids, stdio_server, write_mcp_json
from tests.session.chat import PROCESS_TIMEOUT


async def mcp_list(project: Path, home: Path, *options: str) -> tuple[int, str, str]:
    env = {**os.environ, "HOME": str(home)}
    command = [sys.executable, "-m", "wavehost", "mcp", "list", "--project", str(project)]
    with anyio.fail_after(PROCESS_TIMEOUT):
        done = await anyio.run_process([*command, *options], env=env, check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def test_mcp_list_connects_each_server_and_names_its_tools(
    project: Path, home: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "started.txt"
    write_mcp_json(
        project,
        {"memory": stdio_server("--marker", str(marker)), "bad": {"command": "no-such-program"}},
    )
    code, out, _ = await mcp_list(project, home)
    assert code == 0
    assert "  memory (project, stdio): connected, 10 tools\n" in out
    assert "    - mcp__memory__remember\n" in out
    assert "  bad (project, stdio): failed: cannot start it: No such file or directory" in out
    assert living(server_pids(marker)) == []  # started to be asked, and stopped


async def test_mcp_list_of_an_untrusted_workspace_starts_nothing(
    project: Path, home: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "started.txt"
    write_mcp_json(project, {"memory": stdio_server("--marker", str(marker))})
    code, out, _ = await mcp_list(project, home, "--untrusted", "--json")
    assert code == 0
    listed = json.loads(out)
    assert [(s["name"], s["status"]) for s in listed["servers"]] == [("memory", "untrusted")]
    assert not marker.exists()
