"""A newcomer's first `bash scripts/demo` talks: it says what it installs before each slow step.

Each step is watched until its line appears, then stopped (the installs themselves are what
tests/test_distribution.py and every other test exercise).
"""

import os
import shutil
import signal
import subprocess
from pathlib import Path

from tests.checkout import REPO, fresh_clone


def first_lines(script: Path, until: str, env: dict[str, str]) -> list[str]:
    """The script's output lines (stdout and stderr) up to the first that contains `until`."""
    run = subprocess.Popen(
        ["bash", str(script)], env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    assert run.stdout is not None
    seen: list[str] = []
    try:
        for line in run.stdout:
            seen.append(line.rstrip("\n"))
            if until in line:
                return seen
        raise AssertionError(f"never said {until!r}: {seen}")
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait(timeout=60)


def test_a_first_demo_says_what_it_installs_and_how_long_it_takes(tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WAVEHOST_", "VIRTUAL_ENV"))}
    lines = first_lines(clone / "scripts" / "demo", "into .venv", env)
    assert lines[0] == "demo: first run: installing .venv and the webview (about 2 minutes)"
    assert lines[1].startswith("setup: creating .venv (Python 3.")
    assert lines[2] == (
        "setup: installing wavehost and its Python packages into .venv "
        "(about a minute the first time)"
    )


def test_the_webview_setup_says_what_it_installs_then_what_it_builds(tmp_path: Path) -> None:
    clone = fresh_clone(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    setup_web = clone / "scripts" / "setup-web"
    lines = first_lines(setup_web, "npm packages", env)
    assert lines == ["setup: installing the webview's npm packages (about 30 s the first time)"]
    # Its packages in place (as npm ci leaves them): the build is announced next.
    shutil.rmtree(clone / "webview" / "node_modules", ignore_errors=True)  # npm ci's start
    (clone / "webview" / "node_modules").symlink_to(REPO / "webview" / "node_modules")
    lines = first_lines(setup_web, "building", env)
    assert lines[-1] == "setup: building the webview (about 10 s)"
