"""A session id names a file of its own in the sessions folder, and nothing else.

`chat --resume "<id>/../../x/evil"` read a transcript from outside the sessions folder and wrote
the continued conversation back there. Ids are checked wherever they become a path (`paths`),
so the CLI and the LSP refuse them alike.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp.client import running_server
from tests.workspace import Workspace
from wavehost import paths


def chat(workspace: Workspace, *args: str) -> subprocess.CompletedProcess[str]:
    script = workspace.write(workspace.root / "turns.json", {"turns": [{"text": "hello"}]})
    command = [sys.executable, "-m", "wavehost", "chat", "--provider", "scripted"]
    return subprocess.run(
        [*command, "--script", str(script), "--output-format", "json", *args],
        cwd=workspace.project,
        env={**os.environ, "HOME": str(workspace.home)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_resume_with_a_path_in_the_id_is_refused_and_touches_nothing(
    workspace: Workspace,
) -> None:
    workspace.project.mkdir(parents=True, exist_ok=True)
    first = chat(workspace, "-p", "hi")
    assert first.returncode == 0, first.stderr
    saved = json.loads(first.stdout)["session_id"]
    # a transcript outside the sessions folder, where the traversal lands
    target = paths.wave_home(workspace.home) / "x" / "evil.json"
    target.parent.mkdir(parents=True)
    target.write_bytes(paths.transcript_path(saved, workspace.home).read_bytes())
    (paths.sessions_dir(workspace.home) / f"session_{saved}").mkdir(exist_ok=True)
    before = target.read_bytes()

    hostile = f"{saved}/../../x/evil"
    refused = chat(workspace, "-p", "again", "--resume", hostile)

    assert refused.returncode == 2  # a wrong call, as an unknown id is
    assert "is not a session id" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert target.read_bytes() == before


@pytest.mark.parametrize("session_id", ["../x", "a/b", "..", "a" * 129, "x\ny"])
async def test_the_lsp_refuses_session_ids_that_are_paths(
    workspace: Workspace, session_id: str
) -> None:
    workspace.project.mkdir(parents=True, exist_ok=True)
    async with running_server(workspace) as client:
        with pytest.raises(Exception, match="sessionId"):
            await client.open_chat(sessionId=session_id, create=True)
    assert not list(paths.wave_home(workspace.home).glob("x*"))


def test_every_session_path_checks_its_id(tmp_path: Path) -> None:
    for make in (paths.transcript_path, paths.session_dir, paths.session_env_file):
        with pytest.raises(paths.InvalidIdError):
            make("../../etc/x", tmp_path)
    with pytest.raises(paths.InvalidIdError):
        paths.agent_transcript_path("ok", "../x", tmp_path)
    assert paths.transcript_path("abc-1_2", tmp_path).parent == paths.sessions_dir(tmp_path)
