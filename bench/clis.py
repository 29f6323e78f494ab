"""Running wavehost and the real peers (Claude Code, the Copilot CLI) as processes, measured the
same way: wall time, CPU (the process's own and its children's: hooks, tools) and peak RSS.

The peers are found through `$CLAUDE_BIN` / `$COPILOT_BIN`, else the peers' npm install
(/work/peers/node_modules/.bin), else PATH; a benchmark prints its peer figures only when found.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PEERS = Path("/work/peers/node_modules/.bin")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
WAVEHOST = [sys.executable, "-m", "wavehost"]


def peer(name: str, variable: str) -> str | None:
    """A peer CLI: `$variable`, else the peers' install, else on PATH."""
    found = os.environ.get(variable) or (str(PEERS / name) if (PEERS / name).exists() else None)
    return found or shutil.which(name)


@dataclass
class Run:
    wall: float  # seconds, start to exit
    own_cpu: float  # seconds, the process itself
    children_cpu: float  # seconds, the children it waited for (hooks, tools, helpers)
    rss_mib: float  # peak, of the process or any child

    @property
    def cpu(self) -> float:
        return self.own_cpu + self.children_cpu


def run(command: Sequence[str], env: dict[str, str], cwd: Path, expect: str = "") -> Run:
    """Start one process and wait for it; its own and its children's CPU are read from /proc
    while it is a zombie, before it is reaped."""
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=err)
        assert child.stdout is not None
        out = child.stdout.read()  # to its end
        os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
        wall = time.perf_counter() - started
        fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        own = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        children = (int(fields[13]) + int(fields[14])) / CLOCK_TICKS
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = code = os.waitstatus_to_exitcode(status)
        child.stdout.close()
        if code != 0 or expect not in out.decode(errors="replace"):
            err.seek(0)
            tail = err.read()[-2000:]
            raise RuntimeError(f"{command[0]} failed ({code}): {out[-2000:]!r} {tail!r}")
    return Run(wall, own, children, usage.ru_maxrss / 1024)


def prepare(root: Path, *tools: str) -> tuple[Path, dict[str, Path]]:
    """A project under `root` (with a `notes.txt` to read) and a throwaway HOME per tool. Claude
    Code's says its onboarding is done and the project trusted."""
    project = root / "project"
    project.mkdir(parents=True)
    (project / "notes.txt").write_text("line\n" * 50)
    homes = {tool: root / f"home-{tool}" for tool in tools}
    for tool, home in homes.items():
        home.mkdir()
        if tool == "claude":
            trusted = {str(project): {"hasTrustDialogAccepted": True}}
            state = {"hasCompletedOnboarding": True, "projects": trusted}
            (home / ".claude.json").write_text(json.dumps(state))
    return project, homes


def _plain(home: Path, **more: str) -> dict[str, str]:
    """A small environment of our own (nothing of this shell's but PATH) and a HOME."""
    return {"PATH": os.environ["PATH"], "LANG": "C.UTF-8", "HOME": str(home), **more}


def claude_env(home: Path, url: str) -> dict[str, str]:
    """Claude Code against the fake Anthropic API: no telemetry, no update check."""
    return _plain(
        home,
        ANTHROPIC_BASE_URL=url,
        ANTHROPIC_API_KEY="bench",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
    )


def copilot_env(home: Path, url: str) -> dict[str, str]:
    """The Copilot CLI offline, its model the fake OpenAI-compatible API."""
    return _plain(
        home,
        COPILOT_OFFLINE="true",
        COPILOT_PROVIDER_BASE_URL=f"{url}/v1",
        COPILOT_PROVIDER_API_KEY="bench",
        COPILOT_MODEL="gpt-4o",
        COPILOT_AUTO_UPDATE="false",
    )


def wavehost_env(home: Path, url: str) -> dict[str, str]:
    return _plain(
        home, ANTHROPIC_BASE_URL=url, ANTHROPIC_API_KEY="bench", WAVE_PROVIDER="anthropic"
    )
