"""Copilot and Snow hook files are read as safely as Wave's: the bad-file zoo in their folders."""

from pathlib import Path

import pytest

from tests.dialects.conftest import action, bash, copilot_file, rule, write
from tests.reliability.bad_files import ZOO, BadFile, bounded
from wavehost import paths
from wavehost.hooks.sources import load_hook_config

# What safe_read refuses (the other zoo entries are about the Wave format's own shape).
FORMAT = ("must contain", "duplicate")
UNREADABLE = [b for b in ZOO if b.problem and not b.problem.startswith(FORMAT)]


@pytest.mark.parametrize("bad", UNREADABLE, ids=[b.name for b in UNREADABLE])
def test_a_bad_copilot_or_snow_file_is_reported_and_the_rest_loads(
    home: Path, project: Path, bad: BadFile
) -> None:
    copilot = paths.copilot_project_hooks(project)
    copilot_file(copilot, "a.json", {"agentStop": [bash("echo copilot-good")]})
    bad_copilot = copilot / "z.json"
    bad_copilot.parent.mkdir(parents=True, exist_ok=True)
    bad.make(bad_copilot)
    write(paths.snow_user_hooks(home) / "onStop.json", [rule(action("echo snow-good"))])
    bad_snow = paths.snow_project_hooks(project) / "onStop.json"
    bad_snow.parent.mkdir(parents=True, exist_ok=True)
    bad.make(bad_snow)

    config = bounded(lambda: load_hook_config(project))
    assert [h.command for h in config.runnable()] == ["echo copilot-good", "echo snow-good"]
    # A folder named z.json is a subfolder to Copilot (searched, empty), a bad file to Snow.
    for path in (bad_snow,) if bad.name == "directory" else (bad_copilot, bad_snow):
        problems = [d for d in config.diagnostics if d.path == str(path)]
        assert problems, f"{bad.name} at {path} was not reported"
        assert bad.problem in problems[0].message
