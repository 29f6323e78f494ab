"""No lost updates: deletes from several servers at once, an editor saving meanwhile, `kill -9`.

Four real `wavehost serve` processes delete every hook of one settings file, each from its own
(soon stale) list, relisting after a `conflict` or `notFound` as the page does; an editor that
does not take the lock keeps saving the same file (by rename and in place). At the end the file
must be exactly: the editor's keys, every one of them, and the hooks nobody reported deleted.
"""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from tests.reliability import edit_race
from tests.reliability.figures import record
from tests.workspace import Workspace
from wavehost.settings.files import temp_pattern

SERVERS = 4


@pytest.mark.parametrize("kind", ["rename", "in-place"])
def test_deletes_from_four_servers_and_an_editor_lose_nothing(
    workspace: Workspace, kind: str
) -> None:
    outcome = edit_race.run(workspace, SERVERS, kind)
    record(f"concurrent deletes ({SERVERS} servers + an editor, {kind})", **outcome.figures())

    assert outcome.failures == []
    assert outcome.corrupted == 0
    assert outcome.lost == 0, outcome.figures()
    assert outcome.final["model"] == "keep-me"
    assert len(outcome.deleted) == outcome.hooks  # everything was deleted in the end
    assert edit_race.commands_in(outcome.final) == []
    assert set(outcome.reasons) <= {"conflict", "notFound", "malformedConfig"}
    assert outcome.strays == []


KILLS = 8


KEPT = 5  # the killed loops leave these, so the last edit always has one to delete


def delete_loop(workspace: Workspace, count: int = -1, keep: int = 0) -> subprocess.Popen[str]:
    """tests/reliability/delete_loop.py in a process of its own."""
    command = [sys.executable, str(edit_race.HERE / "delete_loop.py"), str(workspace.home)]
    command += [str(workspace.project), str(count), str(keep)]
    env = {**os.environ, "PYTHONPATH": str(edit_race.HERE.parents[1])}
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)


def test_kill_9_during_writes_never_corrupts_and_the_next_edit_removes_the_litter(
    workspace: Workspace,
) -> None:
    document = edit_race.initial_document(10)
    document["padding"] = "p" * (1024 * 1024)  # long writes: kills land inside them
    settings = workspace.write(workspace.user_settings, document)
    pattern = temp_pattern(settings)
    kills = corrupted = strays_seen = 0
    rounds = random.Random(7)
    for _ in range(KILLS):
        loop = delete_loop(workspace, keep=KEPT)
        assert loop.stdout is not None
        assert loop.stdout.readline().strip() == "ready"
        time.sleep(rounds.uniform(0.05, 0.4))
        loop.send_signal(signal.SIGKILL)
        loop.wait()
        kills += 1
        try:
            json.loads(settings.read_text())
        except ValueError:
            corrupted += 1
        strays_seen += sum(1 for p in settings.parent.iterdir() if pattern.fullmatch(p.name))
    hooks_before = len(edit_race.commands_in(json.loads(settings.read_text())))
    assert hooks_before >= KEPT
    delete_loop(workspace, 1).communicate(timeout=120)  # one more edit removes the litter
    left = sorted(p.name for p in settings.parent.iterdir() if p.name != "settings.json")
    record(
        "kill -9 during deletes",
        kills=kills,
        corrupted=corrupted,
        stray_temp_files_after_kills=strays_seen,
        stray_files_after_next_edit=len(left),
    )
    assert corrupted == 0
    assert left == []
    assert len(edit_race.commands_in(json.loads(settings.read_text()))) == hooks_before - 1
