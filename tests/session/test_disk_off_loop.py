"""The session's disk writes — the transcript's temp files, fsyncs and renames, the run log's
appends — are made on disk threads, never on the event loop every session and page shares; and
whoever must read the files still finds them written: a hook reading `transcript_path`, the page
when the turn is over, the settings page reading the run history."""

import json
import os
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.session.chat import ChatRunner, turn
from wavehost import paths
from wavehost.hooks.runlog import RunLog


def watched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Each fsync and rename of the process, and each write to a regular file: (what, made on
    the loop's thread). Writes to pipes (a hook's stdin) are the loop's, and not disk waits."""
    calls: list[tuple[str, bool]] = []
    loop_thread = threading.get_ident()  # the tests' event loop runs here

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if name != "write" or stat.S_ISREG(os.fstat(args[0]).st_mode):
                calls.append((name, threading.get_ident() == loop_thread))
            return real(*args, **kwargs)

        return call

    for name in ("fsync", "replace", "write"):
        monkeypatch.setattr(os, name, spy(name, getattr(os, name)))
    return calls


# Appends whether the hook's transcript already holds the tool call it is about.
SEES_ITS_CALL = (
    'python3 -c "import json, sys; p = json.load(sys.stdin); '
    "seen = p['tool_use_id'] in open(p['transcript_path']).read(); "
    "open('{out}', 'a').write(json.dumps(seen) + '\\n')\""
)


async def test_a_turn_with_hooks_writes_its_files_off_the_event_loop(
    chat: ChatRunner, project: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = project / "seen.jsonl"
    hooks = {
        "PreToolUse": [{"hooks": [{"type": "command", "command": SEES_ITS_CALL.format(out=seen)}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "exit 0"}]}],
    }
    calls = [turn("", ("Bash", {"command": f"echo {i}"})) for i in range(3)]
    async with chat.open([*calls, turn("done")], hooks=hooks) as opened:
        disk = watched(monkeypatch)
        opened.session.send("go")
        await opened.session.wait_idle()
        # When the page hears the turn is over, the transcript on disk holds all of it.
        saved = json.loads(opened.session.transcript_path.read_text())
        assert len(saved["state"]["messages"]) == len(opened.messages)
    assert {name for name, _ in disk} == {"fsync", "replace", "write"}
    assert [name for name, on_loop in disk if on_loop] == []
    assert seen.read_text().split() == ["true"] * 3  # each hook found its call on disk
    log = RunLog(paths.run_log(project, home))  # the settings page's reader
    assert len(log.recent_events("PreToolUse", opened.session.id)) == 3
    assert len(log.recent_events("Stop", opened.session.id)) == 1
