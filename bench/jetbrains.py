"""The JetBrains plugin's core in real JCEF: opening the settings tab, its memory, its jar.

    .venv/bin/python bench/jetbrains.py [--runs 5] [--json]

Runs the standalone preview (`scripts/jetbrains-preview --bench N`, the core in a real JCEF window
relaying to a real `wavehost serve`) on a project with hooks in every source. It opens the
settings tab N times (after one cold opening, left out) and times the call that opens the tab to
the hooks list rendered and painted, against a blank JCEF tab opened the same way in the same
run (what a Chromium browser costs by itself). Then, with one settings tab open, the memory of the
JVM and of each JCEF (Chromium) process: RSS, and PSS (shared pages divided among the processes
that share them, so the sum means something). Last, the size of the core jar (what the plugin
ships besides the webview).
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

REPO = Path(__file__).resolve().parents[1]
CORE_JAR = REPO / "extension-jetbrains/core/target/wavehost-jetbrains-core-0.1.0.jar"
HOOKS_PER_SOURCE = 10


def hooks(prefix: str) -> dict[str, Any]:
    """HOOKS_PER_SOURCE command hooks over a few events, as a real settings file has them."""
    events = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for i in range(HOOKS_PER_SOURCE):
        event = events[i % len(events)]
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": f"./{prefix}-{i}.sh"}]}
        if event in ("PreToolUse", "PostToolUse"):
            group["matcher"] = "Bash|Write"
        groups.setdefault(event, []).append(group)
    return {"hooks": groups}


def workspace(root: Path) -> tuple[Path, Path]:
    home, project = root / "home", root / "my-app"
    user = {"enabledPlugins": {"fmt": True}, **hooks("user")}
    files = {
        home / ".wave/settings.json": user,
        home / ".wave/plugins/fmt/hooks/hooks.json": hooks("fmt"),
        project / ".wave/settings.json": hooks("project"),
    }
    for path, document in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document, indent=2))
    return home, project


def run_preview(runs: int, home: Path, project: Path) -> dict[str, Any]:
    command = ["bash", str(REPO / "scripts/jetbrains-preview"), "--project", str(project)]
    command += ["--home", str(home), "--bench", str(runs)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        sys.exit(f"the preview failed (exit {done.returncode}):\n{done.stderr[-4000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def spread(values: list[float]) -> str:
    median = statistics.median(values)
    return f"median {median:7.1f} ms   min {min(values):7.1f}   max {max(values):7.1f}"


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wavehost-bench-jb-") as tmp:
        home, project = workspace(Path(tmp))
        figures = run_preview(args.runs, home, project)
    figures["coreJarBytes"] = os.path.getsize(CORE_JAR)
    if args.json:
        print(json.dumps(figures, indent=2))
        return

    settings, blank = figures["settingsTabMillis"], figures["blankTabMillis"]
    memory = figures["memory"]
    print(f"runs: {len(settings)} (after one cold opening); hooks listed: {3 * HOOKS_PER_SOURCE}")
    print(f"open settings tab -> hooks rendered in JCEF: {spread(settings)}")
    print(f"open blank JCEF tab -> painted (baseline):  {spread(blank)}")
    ratio = statistics.median(settings) / statistics.median(blank)
    print(f"ratio settings / blank (medians): {ratio:.2f}")
    print("memory with one settings tab open (the wavehost serve process not counted):")
    for p in memory["processes"]:
        pss = f"  PSS {p['pssKiB'] / 1024:7.1f} MiB" if "pssKiB" in p else ""
        print(f"  {p['type']:<16} pid {p['pid']:<8} RSS {p['rssKiB'] / 1024:7.1f} MiB{pss}")
    helpers_rss = memory["jcefHelpersRssKiB"] / 1024
    helpers_pss = memory["jcefHelpersPssKiB"] / 1024
    print(f"  JCEF processes together: RSS {helpers_rss:.1f} MiB (sum), PSS {helpers_pss:.1f} MiB")
    print(f"core jar: {figures['coreJarBytes'] / 1024:.1f} KiB ({CORE_JAR.relative_to(REPO)})")


if __name__ == "__main__":
    main()
