"""Benchmark of wavehost under concurrent edits, and of the watcher at rest.

    .venv/bin/python bench/reliability.py [--runs N] [--idle-seconds S]

Deletes/s: every hook of a 40-hook settings file deleted by 4 real `wavehost serve` processes
(each relisting after a refusal, as the page does), with and without an editor saving the file
meanwhile without the lock; baseline: 1 server, no editor, in the same run. Each run also reports
lost updates, corrupted files and stray files (all must be 0). Idle CPU: a server that has listed
and is watching, with a 5 MB settings file, against a small one (and a 50 MB one, which is over
the read cap: only its stats are watched). Prints medians.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo: tests' tools

from tests.hooks_doc import hook
from tests.reliability import edit_race
from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace, make_workspace

from wavehost.protocol import table

MB = 1024 * 1024
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def deletes(runs: int) -> None:
    print("deletes of 40 hooks (median of", runs, "runs)")
    setups: list[tuple[str, int, str | None]] = [
        ("1 server (baseline)", 1, None),
        ("4 servers", 4, None),
        ("4 servers + editor", 4, "mixed"),
    ]
    baseline = None
    for label, servers, editor in setups:
        outcomes = []
        for _ in range(runs):
            for workspace in make_workspace():
                outcomes.append(edit_race.run(workspace, servers, editor))
        rate = statistics.median(len(o.deleted) / o.seconds for o in outcomes)
        baseline = baseline or rate
        totals = {
            key: sum(o.figures()[key] for o in outcomes)
            for key in ("conflicts", "lost", "corrupted", "stray_files", "editor_saves")
        }
        extras = ", ".join(f"{k} {v}" for k, v in totals.items())
        print(f"  {label:22} {rate:6.1f} deletes/s  ({rate / baseline:4.2f}x)  {extras}")


def settings_of_size(size: int) -> dict[str, Any]:
    document: dict[str, Any] = {"hooks": {"Stop": [{"hooks": [hook("echo done")]}]}}
    document["padding"] = "p" * max(0, size - 200)
    return document


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def idle_cpu(size: int, seconds: float, workspace: Workspace) -> float:
    workspace.write(workspace.user_settings, settings_of_size(size))
    server = RawServer(workspace)
    try:
        server.initialize()
        server.response(server.request(table.HOOKS_LIST.name, {}), timeout=120)
        time.sleep(3)  # the watch is set up in the background
        pid = server.process.pid
        before, began = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        return 100 * (cpu_seconds(pid) - before) / (time.monotonic() - began)
    finally:
        server.close()


def idle(runs: int, seconds: float) -> None:
    print(f"idle CPU of a watching server over {seconds:g} s (median of {runs} runs)")
    sizes = [("small settings file (1 KB)", 1024), ("5 MB", 5 * MB - 1024), ("50 MB", 50 * MB)]
    base = None
    for label, size in sizes:
        samples = []
        for _ in range(runs):
            for workspace in make_workspace():
                samples.append(idle_cpu(size, seconds, workspace))
        median = statistics.median(samples)
        base = base if base is not None else max(median, 0.01)
        print(f"  {label:28} {median:5.2f} % CPU  ({median / base:5.2f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--idle-seconds", type=float, default=10)
    args = parser.parse_args()
    deletes(args.runs)
    idle(args.runs, args.idle_seconds)


if __name__ == "__main__":
    main()
