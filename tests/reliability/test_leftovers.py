"""What a killed or careless client leaves behind does not stay: a `kill -9`ed `chat -p` left its
last save's temp file for good, and `exit` without `shutdown` ended the server with status 0."""

import os
import subprocess
import sys
import time

from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace
from wavehost import paths


def test_the_next_session_removes_the_temp_files_a_killed_chat_left(workspace: Workspace) -> None:
    sessions = paths.sessions_dir(workspace.home)
    sessions.mkdir(parents=True)
    killed = sessions / ".session_0d4c9a1e-killed.json.ab12cd34.tmp"  # as kill -9 leaves it
    killed.write_text('{"half": ')
    an_hour_ago = time.time() - 3600
    os.utime(killed, (an_hour_ago, an_hour_ago))
    writing = sessions / ".session_other-live.json.zz99yy88.tmp"  # another chat, saving now
    writing.write_text("{")
    unrelated = sessions / ".notes.tmp"
    unrelated.write_text("mine")
    os.utime(unrelated, (an_hour_ago, an_hour_ago))
    script = workspace.write(workspace.root / "turns.json", {"turns": [{"text": "hello"}]})
    workspace.project.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "chat", "-p", "hi", "--provider", "scripted",
         "--script", str(script)],
        cwd=workspace.project,
        env={**os.environ, "HOME": str(workspace.home)},
        capture_output=True,
        text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert not killed.exists()
    assert writing.exists()  # a minute old at most: someone may be writing it
    assert unrelated.exists()  # not a transcript's temp file


def test_exit_without_shutdown_exits_1_and_after_shutdown_0(workspace: Workspace) -> None:
    workspace.project.mkdir(parents=True, exist_ok=True)
    codes = []
    for shut_down_first in (False, True):
        server = RawServer(workspace)
        server.initialize()
        if shut_down_first:
            server.response(server.request("shutdown"))
        server.notify("exit")
        codes.append(server.process.wait(timeout=30))
    assert codes == [1, 0]
