"""`wavehost chat -p` against `claude -p`: one text turn each, on the same fake Anthropic API.

Both run as fresh processes, interleaved, against the tests' fake SSE server on 127.0.0.1, each
with a throwaway HOME. Prints, for each, the median wall time (process start to exit), CPU time
(its own and its children's) and peak RSS, and the ratios wavehost / Claude Code (target: wall
and CPU ≤ 1, and keep the RSS lead). Claude Code is found as `bench/clis.py` says; without it
only wavehost's figures are printed. Beside them: what importing the official Anthropic SDK alone
costs (the providers do not use it; see `wavehost/session/providers/http.py`), when installed.

    .venv/bin/python bench/headless.py [--runs 9] [--json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from anyio import to_thread

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fake server lives in tests/

from tests.session.fake_llm import serve

from clis import WAVEHOST, Run, claude_env, peer, prepare, run, wavehost_env
from wavehost.session.providers.scripted import ScriptedTurn

PROMPT = "Say hello."
REPLY = "Hello! How can I help you today?"


def sdk_import_cpu() -> float | None:
    """CPU seconds of `import anthropic` in a fresh interpreter, over a bare one (None: not
    installed)."""
    measure = "import resource{}; u = resource.getrusage(resource.RUSAGE_SELF); "
    measure += "print(u.ru_utime + u.ru_stime)"
    with_sdk = [sys.executable, "-c", measure.format(", anthropic")]
    done = subprocess.run(with_sdk, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    bare = [sys.executable, "-c", measure.format("")]
    floor = subprocess.run(bare, capture_output=True, text=True, check=True)
    return float(done.stdout) - float(floor.stdout)


async def main(runs: int, as_json: bool) -> None:
    claude = peer("claude", "CLAUDE_BIN")
    with tempfile.TemporaryDirectory(prefix="wavehost-bench-") as tmp:
        project, home = prepare(Path(tmp), "wavehost", "claude")
        async with serve(respond=lambda _index, _body: ScriptedTurn(text=REPLY)) as llm:
            commands = {
                "wavehost": (
                    [*WAVEHOST, "chat", "-p", PROMPT],
                    wavehost_env(home["wavehost"], llm.url),
                )
            }
            if claude:
                commands["claude"] = (
                    [claude, "-p", PROMPT],
                    claude_env(home["claude"], llm.url),
                )
            results: dict[str, list[Run]] = {name: [] for name in commands}
            for command, env in commands.values():  # warm-up: the page cache
                await to_thread.run_sync(run, command, env, project, REPLY)
            for _ in range(runs):
                for name, (command, env) in commands.items():  # interleaved
                    measured = await to_thread.run_sync(run, command, env, project, REPLY)
                    results[name].append(measured)
    sdk = sdk_import_cpu()
    report: dict[str, Any] = {"runs": runs, "cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    for name, measured in results.items():
        for key in ("wall", "cpu", "rss_mib"):
            report[f"{name}_{key}"] = round(statistics.median(getattr(r, key) for r in measured), 3)
    if "claude" in results:
        for key in ("wall", "cpu", "rss_mib"):
            report[f"ratio_{key}"] = round(report[f"wavehost_{key}"] / report[f"claude_{key}"], 2)
    else:
        report["claude"] = "not found: set CLAUDE_BIN to compare"
    report["anthropic_sdk_import_cpu"] = round(sdk, 3) if sdk is not None else "not installed"
    if as_json:
        print(json.dumps(report))
        return
    print(f"one text turn of `chat -p`, median of {runs} (load {report['load']:.2f})")
    for key, value in report.items():
        print(f"{key:>28}: {value}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    anyio.run(main, args.runs, args.json)
