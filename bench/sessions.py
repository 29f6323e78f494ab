"""50 chat sessions × 100 turns through one `wavehost serve`, all sessions at once.

Each turn is a real model request (the `anthropic` provider, over HTTP, to the tests' fake server
on 127.0.0.1); each session sends its turns one after another. Prints errors and cross-talk (both
must be 0), the server's CPU per turn (target ≤ 5 ms; counted once every session is open), the
turn latencies (p50, p99: send → the page's view idle with the reply) and the machine's load.
`--against DIR` runs the same load on another checkout's server (e.g. main's, `git archive`d
into DIR) right after, and prints the ratios: the machine's moment is the same for both.

    .venv/bin/python bench/sessions.py [--sessions 50] [--turns 100] [--against DIR] [--json]
"""

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo: tests' tools

from tests.reliability.many_sessions import run
from tests.workspace import make_workspace

TARGET_CPU_MS = 5.0


def measure(sessions: int, turns: int, server_env: dict[str, str] | None = None) -> dict[str, Any]:
    for workspace in make_workspace():
        load = os.getloadavg()[0]
        outcome = asyncio.run(run(workspace, sessions, turns, server_env=server_env))
        figures = outcome.figures()
        figures["load_before"] = round(load, 2)
        figures["load_after"] = round(os.getloadavg()[0], 2)
        if outcome.errors or outcome.cross_talk:
            figures["first_problems"] = (outcome.errors + outcome.cross_talk)[:3]
        return figures
    raise AssertionError("make_workspace yields once")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--against", type=Path, help="another checkout to run the same load on")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"cpus": os.cpu_count()}
    report["this"] = ours = measure(args.sessions, args.turns)
    ours["cpu_ratio_to_target"] = round(ours["server_cpu_ms_per_turn"] / TARGET_CPU_MS, 2)
    if args.against:
        env = {"PYTHONPATH": str(args.against.resolve() / "server")}
        report["against"] = theirs = measure(args.sessions, args.turns, env)
        for key in ("server_cpu_ms_per_turn", "latency_p50_ms", "latency_p99_ms"):
            report[f"ratio_{key}"] = round(ours[key] / max(theirs[key], 1e-9), 2)
    if args.json:
        print(json.dumps(report))
        return
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
