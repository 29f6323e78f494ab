"""What hooks cost a chat session: a 20-tool-call turn with 5 PreToolUse + 5 PostToolUse trivial
hooks against the same turn with none, through the Anthropic SDK and the tests' fake SSE server;
the same for a turn of 20 MCP tool calls (the SDK server of tests/mcp/server.py over stdio, its
start not counted), so what hooks add to an MCP call stands beside what they add to a built-in one.

Reports the added milliseconds per tool call (target: ≤ 10 ms on a 2-core machine), both as the
difference of the medians and as the median of each run's pair of turns (steadier when the
machine drifts), beside the floor no implementation can go under — just starting and reaping the
same 10 `sh` processes per tool call (two rounds of 5, `os.posix_spawn`, no pipes, no session),
measured in the same run — the ratio of the medians, the CPU time the hooks add per tool call
(wavehost's own and its hook processes': steadier than wall time on a busy machine; it includes
opening and closing the session) and the peak RSS of the server process (`wavehost chat -p`, run
as a real subprocess with the hooks on).

    .venv/bin/python bench/chat.py [--runs 7] [--json]
"""

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fake server lives in tests/

from tests.mcp.servers import stdio_server
from tests.session.fake_llm import serve

from wavehost.session.chat_session import SessionConfig, open_session
from wavehost.session.messages import AssistantMessage
from wavehost.session.providers import ProviderChoice, make_provider
from wavehost.session.providers.scripted import ScriptedToolCall, ScriptedTurn

TOOL_CALLS = 20
HOOKS_PER_EVENT = 5
TRIVIAL = "exit 0"


def script(project: Path, mcp: bool = False) -> list[ScriptedTurn]:
    """One tool call per model turn, as an agent working through a task does."""
    read = ScriptedToolCall(name="Read", input={"file_path": str(project / "notes.txt")})
    if mcp:
        read = ScriptedToolCall(name="mcp__memory__recall", input={"key": "notes"})
    return [ScriptedTurn(text=f"step {i}", tool_calls=[read]) for i in range(TOOL_CALLS)] + [
        ScriptedTurn(text="done")
    ]


def hooks(enabled: bool) -> dict[str, Any]:
    if not enabled:
        return {}
    # Distinct commands, so the engine's de-duplication does not fold them into one.
    commands = [f"{TRIVIAL} # {i}" for i in range(HOOKS_PER_EVENT)]
    group = {"hooks": [{"type": "command", "command": command} for command in commands]}
    return {"PreToolUse": [group], "PostToolUse": [group]}


def write_settings(project: Path, enabled: bool, mcp: bool = False) -> None:
    settings = project / ".wave" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": hooks(enabled)}))
    servers = project / ".mcp.json"
    if mcp:
        servers.write_text(json.dumps({"mcpServers": {"memory": stdio_server()}}))
    else:
        servers.unlink(missing_ok=True)


def cpu_seconds() -> tuple[float, float]:
    """CPU time used so far by this process and by its reaped children (the hooks)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


async def one_turn(project: Path, enabled: bool, mcp: bool = False) -> float:
    """Seconds for the whole 20-tool-call turn, in process (an MCP server's start not counted)."""
    write_settings(project, enabled, mcp)
    async with serve(script(project, mcp)) as llm:
        os.environ["ANTHROPIC_BASE_URL"] = llm.url
        config = SessionConfig(
            root=project,
            provider=make_provider(ProviderChoice("anthropic", "bench")),
            permission_mode="bypassPermissions",
        )
        async with open_session(config) as session:
            await session.mcp.settled()
            started = time.perf_counter()
            session.send("work through the steps")
            await session.wait_idle()
            elapsed = time.perf_counter() - started
    calls = [b for m in session.messages if isinstance(m, AssistantMessage) for b in m.tools()]
    assert len(calls) == TOOL_CALLS, f"expected {TOOL_CALLS} tool calls, saw {len(calls)}"
    assert all(call.status == "success" for call in calls)
    return elapsed


async def server_peak_rss(project: Path) -> int:
    """Peak RSS (KiB) of `wavehost chat -p` running the turn with the hooks on."""
    write_settings(project, True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    async with serve(script(project)) as llm:
        env = {**os.environ, "ANTHROPIC_BASE_URL": llm.url, "WAVE_PROVIDER": "anthropic"}
        command = [sys.executable, "-m", "wavehost", "chat", "-p", "work", "--cwd", str(project)]
        command += ["--permission-mode", "bypassPermissions", "--output-format", "json"]
        done = await anyio.run_process(command, env=env, check=True)
    assert json.loads(done.stdout)["is_error"] is False
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(after, before)


def prepare(tmp: Path) -> Path:
    """A temporary HOME (the transcripts go there) and project; returns the project."""
    home, project = tmp / "home", tmp / "project"
    home.mkdir()
    project.mkdir()
    (project / "notes.txt").write_text("line\n" * 50)
    os.environ.update(HOME=str(home), ANTHROPIC_API_KEY="bench")
    return project


def spawn_floor(rounds: int = 200) -> float:
    """Median ms per tool call of starting its hooks' processes bare: 5 at once, reaped, twice."""
    env = dict(os.environ)
    commands = [f"{TRIVIAL} # {i}" for i in range(HOOKS_PER_EVENT)]
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _event in range(2):
            pids = [
                os.posix_spawn("/bin/sh", ["/bin/sh", "-c", c], env, setsid=True) for c in commands
            ]
            for pid in pids:
                os.waitpid(pid, 0)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


async def main(runs: int, as_json: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="wavehost-bench-") as tmp:
        project = prepare(Path(tmp))
        await one_turn(project, True)  # warm-up: imports, caches
        await one_turn(project, True, mcp=True)
        timings: dict[bool, list[float]] = {False: [], True: []}
        mcp_timings: dict[bool, list[float]] = {False: [], True: []}
        cpu = {False: [0.0, 0.0], True: [0.0, 0.0]}  # own, children
        for _ in range(runs):
            for enabled in (False, True):  # interleaved, so drift hits both alike
                before = cpu_seconds()
                timings[enabled].append(await one_turn(project, enabled))
                after = cpu_seconds()
                cpu[enabled][0] += after[0] - before[0]
                cpu[enabled][1] += after[1] - before[1]
            for enabled in (False, True):
                mcp_timings[enabled].append(await one_turn(project, enabled, mcp=True))
        write_settings(project, True)
        rss_kib = await server_peak_rss(project)
        floor = spawn_floor()
    base = statistics.median(timings[False]) / TOOL_CALLS * 1000
    hooked = statistics.median(timings[True]) / TOOL_CALLS * 1000
    # Each run's hooked turn against the turn without hooks just before it: what drifts between
    # runs on a shared machine (a slow disk minute, a neighbour's burst) cancels in the pair.
    pairs = [with_ - without for without, with_ in zip(timings[False], timings[True], strict=True)]
    paired = statistics.median(pairs) / TOOL_CALLS * 1000
    mcp_base = statistics.median(mcp_timings[False]) / TOOL_CALLS * 1000
    mcp_hooked = statistics.median(mcp_timings[True]) / TOOL_CALLS * 1000
    mcp_pairs = [w - wo for wo, w in zip(mcp_timings[False], mcp_timings[True], strict=True)]
    mcp_paired = statistics.median(mcp_pairs) / TOOL_CALLS * 1000
    calls = runs * TOOL_CALLS
    own_cpu = (cpu[True][0] - cpu[False][0]) / calls * 1000
    hooks_cpu = (cpu[True][1] - cpu[False][1]) / calls * 1000
    report = {
        "tool_calls": TOOL_CALLS,
        "hooks_per_tool_call": 2 * HOOKS_PER_EVENT,
        "runs": runs,
        "ms_per_tool_call_without_hooks": round(base, 2),
        "ms_per_tool_call_with_hooks": round(hooked, 2),
        "added_ms_per_tool_call": round(hooked - base, 2),
        "added_ms_per_tool_call_paired": round(paired, 2),
        "ratio_with_to_without": round(hooked / base, 2),
        "target_added_ms": 10,
        "mcp_ms_per_tool_call_without_hooks": round(mcp_base, 2),
        "mcp_ms_per_tool_call_with_hooks": round(mcp_hooked, 2),
        "mcp_added_ms_per_tool_call": round(mcp_hooked - mcp_base, 2),
        "mcp_added_ms_per_tool_call_paired": round(mcp_paired, 2),
        "floor_ms_per_tool_call_bare_spawns": round(floor, 2),
        "added_over_floor_ms": round(hooked - base - floor, 2),
        "added_cpu_ms_per_tool_call_wavehost": round(own_cpu, 2),
        "added_cpu_ms_per_tool_call_hook_processes": round(hooks_cpu, 2),
        "server_peak_rss_mib": round(rss_kib / 1024, 1),
        "cpus": os.cpu_count(),
    }
    if as_json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>36}: {value}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    anyio.run(main, args.runs, args.json)
