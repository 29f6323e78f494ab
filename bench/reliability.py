"""Benchmark of wavehost under concurrent edits, and of the watcher at rest.

    .venv/bin/python bench/reliability.py [--runs N] [--idle-seconds S]

Deletes/s: every hook of a 40-hook settings file deleted by 4 real `wavehost serve` processes
(each relisting after a refusal, as the page does), with and without an editor saving the file
meanwhile without the lock; baseline: 1 server, no editor, in the same run. Each run also reports
lost updates, corrupted files and stray files (all must be 0). Idle CPU: a server that has listed
and is watching, with a 5 MB settings file, against a small one (and a 50 MB one, which is over
the read cap: only its stats are watched), and a small one in a project whose `.github/hooks` and
`.snow/hooks` lead to `/` and whose `.wave` leads elsewhere (nothing is read or watched there).
Matcher budget: PreToolUse dispatches (each with a tool
name not seen before, so every matcher is really tested; no hook matches, none starts) against
1,000 matchers of a kind, a third in each dialect — ordinary regexes (the baseline), backtracking
ones RE2 runs (`(?:.*){400}!`, Snow globs of 400 `*`), and backtracking lookaheads only the
bounded `re` worker can run — worst case and median ms per dispatch, and the first load's time.
Grep: the model's patterns over 100,000 lines, an ordinary one as the baseline.
A long reply: a 200 KB reply streamed 16 characters a piece, its bytes on the LSP wire and to the
page, and the time from Enter to its last words on screen in real Chromium (bench/wire.py has the
2 KB and 20 KB ones beside it). Prints medians.
"""

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo: tests' tools

from bench.wire import lsp_bytes, on_screen
from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.hooks_doc import hook
from tests.reliability import edit_race
from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace, make_workspace

from wavehost import paths
from wavehost.hooks import patterns
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.payloads import PreToolUseInput
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config
from wavehost.protocol import table
from wavehost.session.tools import search

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


def link_out(workspace: Workspace) -> None:
    """A project whose hook folders lead to `/` and whose `.wave` leads elsewhere."""
    for folder in (paths.copilot_project_hooks(workspace.project),
                   paths.snow_project_hooks(workspace.project)):  # fmt: skip
        folder.parent.mkdir(parents=True, exist_ok=True)
        os.symlink("/", folder)
    os.symlink(workspace.home, workspace.project / ".wave")


def idle_cpu(size: int, seconds: float, workspace: Workspace, *, links: bool = False) -> float:
    workspace.write(workspace.user_settings, settings_of_size(size))
    if links:
        link_out(workspace)
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
    sizes = [
        ("small settings file (1 KB)", 1024, False),
        ("5 MB", 5 * MB - 1024, False),
        ("50 MB", 50 * MB, False),
        ("1 KB, hook folders → /", 1024, True),
    ]
    base = None
    for label, size, links in sizes:
        samples = []
        for _ in range(runs):
            for workspace in make_workspace():
                samples.append(idle_cpu(size, seconds, workspace, links=links))
        median = statistics.median(samples)
        base = base if base is not None else max(median, 0.01)
        print(f"  {label:28} {median:5.2f} % CPU  ({median / base:5.2f}x)")


MATCHER_KINDS: dict[str, tuple[str, str]] = {  # Wave/Copilot regex, Snow glob; {i}: distinct
    "ordinary regexes (baseline)": ("mcp__server{i}__.*", "mcp__server{i}__*"),
    "backtracking, RE2": ("(?:.*){{400}}!{i}", "*" * 400 + "!{i}"),
    "backtracking lookaheads, re worker": ("(?=(?:.*){{400}}!){i}", "*" * 400 + "!{i}"),
}


def matcher_project(workspace: Workspace, regex: str, glob: str, count: int) -> None:
    """`count` PreToolUse matchers, a third in each dialect's project file (none matches)."""
    third = count // 3
    wave = [
        {"matcher": regex.format(i=i), "hooks": [hook("true")]} for i in range(count - 2 * third)
    ]
    workspace.write(workspace.project_settings, {"hooks": {"PreToolUse": wave}})
    entries = [bash("true", matcher=regex.format(i=i)) for i in range(third)]
    copilot_project(workspace.project, "bench.json", {"preToolUse": entries})
    rules = [rule(action("true"), matcher=glob.format(i=i)) for i in range(third)]
    snow_project(workspace.project, "beforeToolCall", *rules)


async def dispatch_times(engine: HookEngine, project: Path, dispatches: int) -> list[float]:
    context = HookContext(cwd=project, project_dir=project)
    times = []
    async with BackgroundHooks(lambda _: None) as background:
        for n in range(dispatches):
            payload = PreToolUseInput(
                session_id="bench",
                transcript_path="/dev/null",
                cwd=str(project),
                hook_event_name="PreToolUse",
                tool_name=f"Tool{n}",  # never seen: no memo, every matcher tested
                tool_input={},
                tool_use_id=f"t{n}",
            )
            began = time.perf_counter()
            outcome = await engine.dispatch(payload, context, background)
            times.append((time.perf_counter() - began) * 1000)
            assert not outcome.blocked
    return times


def matcher_budget(count: int, dispatches: int) -> None:
    print(
        f"matcher budget: {count:,} PreToolUse matchers, a third each in Wave, Copilot and "
        f"Snow files; {dispatches} dispatches of new tool names"
    )
    base = None
    for label, (regex, glob) in MATCHER_KINDS.items():
        for workspace in make_workspace():
            matcher_project(workspace, regex, glob, count)
            began = time.perf_counter()
            config = load_hook_config(workspace.project, home=workspace.home, trusted=True)
            compile_ms = (time.perf_counter() - began) * 1000
            engine = HookEngine(config)
            matchers = len(config.runnable())
            times = asyncio.run(dispatch_times(engine, workspace.project, dispatches))
        worst, median = max(times), statistics.median(times)
        base = base or median
        print(
            f"  {label:36} worst {worst:8.1f} ms, median {median:7.2f} ms per dispatch "
            f"({median / base:6.1f}x), first {times[0]:8.1f} ms; load {compile_ms:7.0f} ms; "
            f"{matchers} hooks, {patterns.over_budget()} patterns over budget so far"
        )


GREP_PATTERNS = {  # over lines of 40 `a` and a `!`
    "ordinary (baseline)": "a+!",
    "(a+)+$ (2^40 steps for a backtracking engine)": "(a+)+$",
    "(?:.*){400}!": "(?:.*){400}!",
}


def grep_times(runs: int, lines: int) -> None:
    print(f"Grep over {lines:,} lines of 40 'a' and a '!' (median of {runs} runs)")
    for workspace in make_workspace():
        workspace.project.mkdir(parents=True, exist_ok=True)
        (workspace.project / "long.txt").write_text(("a" * 40 + "!\n") * lines)
        base = None
        for label, pattern in GREP_PATTERNS.items():
            samples = []
            for _ in range(runs):
                args = search.GrepInput(pattern=pattern, output_mode="count")
                began = time.perf_counter()
                search._grep(workspace.project, args, lambda: False)
                samples.append(1000 * (time.perf_counter() - began))
            median = statistics.median(samples)
            base = base if base is not None else median
            print(f"  {label:46} {median:8.1f} ms  ({median / base:5.2f}x)")


def long_reply(runs: int) -> None:
    size = 200_000
    print(f"a 200 KB streamed reply (median of {runs} runs)")
    sent, notifications = lsp_bytes(size, runs)
    ms, ws_bytes, frames = on_screen(size, runs)
    print(f"  LSP wire  {sent:10,.0f} B  ({sent / size:4.2f}x, {notifications:.0f} updates)")
    print(f"  page      {ws_bytes:10,.0f} B  ({ws_bytes / size:4.2f}x, {frames:.0f} frames)")
    print(f"  on screen {ms:10,.0f} ms from Enter (Chromium, browser mode)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--matchers", type=int, default=1000)
    parser.add_argument("--dispatches", type=int, default=200)
    parser.add_argument(
        "--only",
        choices=("deletes", "idle", "matchers", "grep", "reply"),
        help="run one part of the bench",
    )
    args = parser.parse_args()
    # Each part prints its own section (the chat page's long-reply figures go beside these).
    if args.only in (None, "deletes"):
        deletes(args.runs)
    if args.only in (None, "idle"):
        idle(args.runs, args.idle_seconds)
    if args.only in (None, "matchers"):
        matcher_budget(args.matchers, args.dispatches)
    if args.only in (None, "grep"):
        grep_times(args.runs, 100_000)
    if args.only in (None, "reply"):
        long_reply(args.runs)


if __name__ == "__main__":
    main()
