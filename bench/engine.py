"""Hook engine benchmark: prints medians and ratios measured in one run.

1. dispatch overhead for an event with 1,000 configured hooks of which none match
   (target < 50 µs/event), cold (index computed) and warm (memoised);
2. 10 trivial hooks run together vs 1 (target: wall ≤ 2×);
3. per-hook overhead vs a bare `sh -c true` spawn (target ≤ 1.5×);
4. mixed dialects: 1,000 hooks across Wave, Copilot CLI and Snow CLI files, none matching
   (target < 50 µs/event), and 10 matching hooks across the three vs 1 (target ≤ 2×). Copilot's
   and Snow's hooks of one event run one after another (their tools' semantics), so the floor
   there is the longest chain of bare spawns, printed beside it;
5. `if` rules: 10 hooks guarded by `if: "Bash(git push *)"` on Bash calls they do not match — the
   rule is checked (the command parsed with tree-sitter) and no process starts — against the same
   10 hooks without `if`, which all start.

Run: .venv/bin/python bench/engine.py [--rounds N] [--mixed]
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.engine import BackgroundHooks, HookEngine, run_all
from wavehost.hooks.payloads import PreToolUseInput
from wavehost.hooks.runner import HookContext, run_hook
from wavehost.hooks.sources import load_hook_config


def thousand_hooks() -> dict[str, Any]:
    """1,000 PreToolUse hooks for other tools: exact names, name lists and regexes."""
    groups: list[dict[str, Any]] = []
    for i in range(1000):
        if i % 20 == 0:
            matcher = f"^Regex{i}.*"
        elif i % 5 == 0:
            matcher = f"Alpha{i}|Beta{i}"
        else:
            matcher = f"Tool{i}"
        groups.append({"matcher": matcher, "hooks": [{"type": "command", "command": f"echo {i}"}]})
    return {"PreToolUse": groups}


def command_hooks(n: int, command: str = "true") -> dict[str, Any]:
    handlers = [{"type": "command", "command": f"{command} # {i}"} for i in range(n)]
    return {"PreToolUse": [{"hooks": handlers}]}


def payload(cwd: Path) -> PreToolUseInput:
    return PreToolUseInput(
        session_id="bench",
        transcript_path="/tmp/session_bench.json",
        cwd=str(cwd),
        tool_name="Bash",
        tool_input={"command": "ls"},
    )


async def dispatch_overhead(project: Path, rounds: int) -> tuple[float, float]:
    config = load_hook_config(None, programmatic=thousand_hooks(), home=project)
    return await overhead(HookEngine(config), project, rounds)


async def overhead(engine: HookEngine, project: Path, rounds: int) -> tuple[float, float]:
    """Median µs per dispatch of a Bash PreToolUse that no hook matches: cold, warm."""
    event = payload(project)
    context = HookContext(project, project)
    index = engine._index[Event.PreToolUse]  # cleared for the cold figure
    per_call = 2000
    cold: list[float] = []
    warm: list[float] = []
    async with BackgroundHooks(lambda _: None) as background:
        for _ in range(rounds):
            started = time.perf_counter_ns()
            for _ in range(per_call):
                index.cache.clear()
                await engine.dispatch(event, context, background)
            cold.append((time.perf_counter_ns() - started) / per_call / 1000)
            started = time.perf_counter_ns()
            for _ in range(per_call):
                await engine.dispatch(event, context, background)
            warm.append((time.perf_counter_ns() - started) / per_call / 1000)
    assert not engine.matching(Event.PreToolUse, "Bash", event)
    return statistics.median(cold), statistics.median(warm)


async def wall(handlers_doc: dict[str, Any], project: Path, rounds: int) -> float:
    handlers = load_hook_config(None, programmatic=handlers_doc, home=project).handlers
    stdin = payload(project).to_stdin()
    context = HookContext(project, project)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        runs = await run_all(handlers, stdin, context)
        times.append(time.perf_counter() - started)
        assert all(run.exit_code == 0 for run in runs)
    return statistics.median(times) * 1000


async def one_hook(project: Path, rounds: int) -> float:
    (handler,) = load_hook_config(None, programmatic=command_hooks(1), home=project).handlers
    stdin = payload(project).to_stdin()
    context = HookContext(project, project)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        await run_hook(handler, stdin, context)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def bare_spawn(rounds: int, together: int = 1) -> float:
    """The floor: `together` bare `sh -c true` processes started at once with `subprocess` and
    waited for, no pipes, no event loop."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        processes = [subprocess.Popen(["/bin/sh", "-c", "true"]) for _ in range(together)]
        for process in processes:
            process.wait()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def mixed_files(project: Path, wave: int, copilot: int, snow: int, command: str | None) -> None:
    """Project hook files of all three dialects, exact names, name lists and a regex or glob
    every 20th (as in the Wave case). With `command`, every hook matches Bash and runs it;
    without, none matches."""
    wave_groups = []
    for i in range(wave):
        matcher = "Bash" if command else (f"^Regex{i}.*" if i % 20 == 0 else f"Tool{i}|Alt{i}")
        wave_groups.append({"matcher": matcher, "hooks": [
            {"type": "command", "command": f"{command or 'echo'} # w{i}"}]})  # fmt: skip
    settings = paths.project_settings(project)
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": wave_groups}}))

    def copilot_matcher(i: int) -> str:
        return "bash" if command else (f"t{i}x.*" if i % 20 == 0 else f"tool{i}|alt{i}")

    def snow_matcher(i: int) -> str:
        return "terminal-*" if command else (f"x-{i}-*" if i % 20 == 0 else f"tool-{i},alt-{i}")

    entries = [
        {"bash": f"{command or 'echo'} # c{i}", "matcher": copilot_matcher(i)}
        for i in range(copilot)
    ]
    copilot_file = paths.copilot_project_hooks(project) / "bench.json"
    copilot_file.parent.mkdir(parents=True, exist_ok=True)
    copilot_file.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": entries}}))
    rules = [
        {"description": f"r{i}", "matcher": snow_matcher(i),
         "hooks": [{"type": "command", "command": f"{command or 'echo'} # s{i}",
                    "enabled": True}]}
        for i in range(snow)
    ]  # fmt: skip
    snow_file = paths.snow_project_hooks(project) / "beforeToolCall.json"
    snow_file.parent.mkdir(parents=True, exist_ok=True)
    snow_file.write_text(json.dumps(rules))


def mixed_engine(project: Path) -> HookEngine:
    home = project / "home"  # empty: only the project's files
    config = load_hook_config(project, home=home)
    assert not config.diagnostics, config.diagnostics
    return HookEngine(config)


async def mixed_overhead(root: Path, rounds: int) -> tuple[float, float, dict[str, int]]:
    project = root / "mixed-none"
    mixed_files(project, 334, 333, 333, None)
    engine = mixed_engine(project)
    dialects: dict[str, int] = {}
    for handler in engine.config.runnable():
        dialects[handler.dialect] = dialects.get(handler.dialect, 0) + 1
    cold, warm = await overhead(engine, project, rounds)
    return cold, warm, dialects


async def mixed_wall(project: Path, rounds: int) -> float:
    engine = mixed_engine(project)
    event = payload(project)
    context = HookContext(project, project)
    times = []
    async with BackgroundHooks(lambda _: None) as background:
        for _ in range(rounds):
            started = time.perf_counter()
            outcome = await engine.dispatch(event, context, background)
            times.append(time.perf_counter() - started)
            assert all(run.exit_code == 0 for run in outcome.runs), outcome.runs
    return statistics.median(times) * 1000


def bare_chain(rounds: int, length: int) -> float:
    """`length` bare `sh -c true` spawns one after another (a sequential dialect's floor)."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(length):
            subprocess.Popen(["/bin/sh", "-c", "true"]).wait()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def mixed(root: Path, rounds: int) -> None:
    cold, warm, dialects = await mixed_overhead(root, max(5, rounds // 10))
    shares = ", ".join(f"{n} {d}" for d, n in dialects.items())
    print(f"mixed dialects: 1,000 hooks ({shares}), none matching (target < 50 µs/event)")
    print(f"  cold (index lookup computed): {cold:8.2f} µs/event (median)")
    print(f"  warm (memoised):              {warm:8.2f} µs/event (median)")
    one, ten = root / "mixed-one", root / "mixed-ten"
    mixed_files(one, 1, 0, 0, "true")
    mixed_files(ten, 4, 3, 3, "true")
    await mixed_wall(ten, 5)  # warm up
    single = await mixed_wall(one, rounds)
    many = await mixed_wall(ten, rounds)
    floor_one = bare_spawn(rounds)
    floor_ten = bare_spawn(rounds, together=10)
    floor_chain = bare_chain(rounds, 3)
    print("10 matching hooks across dialects (4 Wave together, 3 Copilot and 3 Snow each in a row)")
    print(f"  vs 1 (target ≤ 2×): 1 hook: {single:7.2f} ms   10 hooks: {many:7.2f} ms"
          f"   ratio {many / single:5.2f}×")  # fmt: skip
    print(
        f"  floor, bare `sh -c true`: 1: {floor_one:5.2f} ms   10 at once: {floor_ten:5.2f} ms"
        f" ({floor_ten / floor_one:5.2f}×)   3 in a row: {floor_chain:5.2f} ms"
        f" ({floor_chain / floor_one:5.2f}×)"
    )


def guarded_hooks(n: int, rule: str | None) -> dict[str, Any]:
    handlers = [
        {"type": "command", "command": f"true # {i}", **({"if": rule} if rule else {})}
        for i in range(n)
    ]
    return {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}


async def if_rules(project: Path, rounds: int) -> tuple[float, float]:
    """Median ms per dispatch of a build command to 10 hooks: guarded by a rule it does not match
    (each call a new command, so each is parsed), and unguarded."""
    results = []
    for rule in ("Bash(git push *)", None):
        config = load_hook_config(None, programmatic=guarded_hooks(10, rule), home=project)
        engine = HookEngine(config)
        context = HookContext(project, project)
        times = []
        async with BackgroundHooks(lambda _: None) as background:
            for i in range(rounds):
                command = f"cd build && CC=clang make -j4 2>&1 | tail -n 20 # {i}"
                event = payload(project).model_copy(update={"tool_input": {"command": command}})
                started = time.perf_counter()
                await engine.dispatch(event, context, background)
                times.append(time.perf_counter() - started)
        results.append(statistics.median(times) * 1000)
    return results[0], results[1]


async def main(rounds: int, only_mixed: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        if only_mixed:
            await mixed(project, rounds)
            return
        cold, warm = await dispatch_overhead(project, max(5, rounds // 10))
        print("dispatch, 1,000 hooks configured, none matching (target < 50 µs/event)")
        print(f"  cold (index lookup computed): {cold:8.2f} µs/event (median)")
        print(f"  warm (memoised):              {warm:8.2f} µs/event (median)")

        await wall(command_hooks(10), project, 5)  # warm up
        single = await wall(command_hooks(1), project, rounds)
        ten = await wall(command_hooks(10), project, rounds)
        bare = bare_spawn(rounds)
        bare_ten = bare_spawn(rounds, together=10)
        print("10 trivial hooks together vs 1 (target ≤ 2×)")
        print(f"  1 hook: {single:7.2f} ms   10 hooks: {ten:7.2f} ms   ratio {ten / single:5.2f}×")
        print(
            f"  floor, bare `sh -c true` spawns: 1: {bare:5.2f} ms   10: {bare_ten:5.2f} ms"
            f"   ratio {bare_ten / bare:5.2f}×"
        )
        sleepy_one = await wall(command_hooks(1, "sleep 0.2"), project, 5)
        sleepy_ten = await wall(command_hooks(10, "sleep 0.2"), project, 5)
        print(
            f"  10 hooks of `sleep 0.2` vs 1: {sleepy_ten:7.1f} ms vs {sleepy_one:7.1f} ms"
            f"   ratio {sleepy_ten / sleepy_one:5.2f}×"
        )

        hook = await one_hook(project, rounds)
        print("per-hook overhead vs a bare `sh -c true` spawn (target ≤ 1.5×)")
        print(f"  bare spawn: {bare:7.2f} ms   hook: {hook:7.2f} ms   ratio {hook / bare:5.2f}×")

        await mixed(project, rounds)

        guarded, unguarded = await if_rules(project, rounds)
        print("`if` rules: 10 hooks on a Bash call their rule does not match")
        print(
            f"  with `if: Bash(git push *)`: {guarded * 1000:7.1f} µs/dispatch (none start)"
            f"   without: {unguarded:6.2f} ms (all start)   ratio {unguarded / guarded:6.1f}×"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--mixed", action="store_true", help="only case 4 (mixed dialects)")
    arguments = parser.parse_args()
    anyio.run(main, arguments.rounds, arguments.mixed)
