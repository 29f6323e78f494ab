"""What hooks cost a chat session: a 20-tool-call turn with 5 PreToolUse + 5 PostToolUse trivial
hooks against the same turn with none, in each hook format, beside the real peers.

1. In process (the `anthropic` provider and the tests' fake SSE server), for Claude Code's format
   (`.wave/settings.json`, `sh -c`, the 5 hooks of an event together) and the Copilot CLI's
   (`.github/hooks/*.json`, `bash -c`, one after another): the added milliseconds per tool call,
   as the difference of the medians and as the median of each run's pair of turns (steadier when
   the machine drifts); the floor no implementation can go under — the same 10 processes started
   and reaped bare, as the format runs them (`os.posix_spawn`, no pipes; a session of its own
   each, as Claude Code starts hooks, or a process group, as Copilot does); and the CPU
   the hooks add per tool call (wavehost's own and its hook processes'). The Claude-format case
   also runs as a turn of 20 MCP tool calls (the SDK server of tests/mcp/server.py over stdio,
   its start not counted), so what hooks add to an MCP call stands beside a built-in one.
2. Against the peers, every tool a fresh process on the same turns (`chat -p` / `claude -p` /
   `copilot -p`, each on its fake API): the wall time per tool call in the tool-call loop (first
   tool result to last, as the fake API sees them: without the CLI's start and exit) with the
   hooks and without, what the hooks add there and over the whole process (a host whose tool call
   is itself slow — waiting the hooks then fill — adds less than the floor: compare the time with
   hooks as well), and the CPU per tool call (the process and its children: the hooks),
   each beside the peer's and as a ratio to it; and the same with
   the floor's CPU taken off (what the host itself spends on 10 hooks). Peers missing are said.
   Also the peak RSS of `chat -p` with the hooks on.

    .venv/bin/python bench/chat.py [--runs 7] [--peer-runs 5] [--no-peers] [--json]
"""

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from anyio import to_thread

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fake server lives in tests/

from tests.mcp.servers import stdio_server
from tests.session.fake_llm import serve

from clis import WAVEHOST, Run, claude_env, copilot_env, peer, prepare, run, wavehost_env
from wavehost import paths
from wavehost.session.chat_session import SessionConfig
from wavehost.session.lifecycle import open_session
from wavehost.session.messages import AssistantMessage
from wavehost.session.providers import ProviderChoice, make_provider
from wavehost.session.providers.scripted import ScriptedToolCall, ScriptedTurn

TOOL_CALLS = 20
HOOKS_PER_EVENT = 5
TRIVIAL = "exit 0"


@dataclass(frozen=True)
class Format:
    """A hook format: where its file goes, what it holds, how its hooks start."""

    name: str
    shell: str  # what runs a hook's command
    together: bool  # an event's hooks start together (else one after another)
    session: bool  # each hook in a session of its own (Claude Code), else a process group (Copilot)
    write: Callable[[Path, bool], None]  # (project, hooks on?)


def commands() -> list[str]:
    # Distinct commands, so the engine's de-duplication does not fold them into one.
    return [f"{TRIVIAL} # {i}" for i in range(HOOKS_PER_EVENT)]


def write_claude_format(project: Path, enabled: bool, file: Path | None = None) -> None:
    group = {"hooks": [{"type": "command", "command": command} for command in commands()]}
    hooks = {"PreToolUse": [group], "PostToolUse": [group]} if enabled else {}
    settings = file or paths.project_settings(project)
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": hooks}))


def write_copilot_format(project: Path, enabled: bool) -> None:
    entries = [{"type": "command", "bash": command} for command in commands()]
    hooks = {"preToolUse": entries, "postToolUse": entries} if enabled else {}
    file = paths.copilot_project_hooks(project) / "bench.json"
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"version": 1, "hooks": hooks}))


CLAUDE = Format("claude", "/bin/sh", True, True, write_claude_format)
COPILOT = Format("copilot", "/bin/bash", False, False, write_copilot_format)
FORMATS = (CLAUDE, COPILOT)


def no_hooks(project: Path) -> None:
    for form in FORMATS:
        form.write(project, False)


# -- 1. in process ------------------------------------------------------------------------


def script(project: Path, mcp: bool = False) -> list[ScriptedTurn]:
    """One tool call per model turn, as an agent working through a task does."""
    read = ScriptedToolCall(name="Read", input={"file_path": str(project / "notes.txt")})
    if mcp:
        read = ScriptedToolCall(name="mcp__memory__recall", input={"key": "notes"})
    return [ScriptedTurn(text=f"step {i}", tool_calls=[read]) for i in range(TOOL_CALLS)] + [
        ScriptedTurn(text="done")
    ]


def cpu_seconds() -> tuple[float, float]:
    """CPU time used so far by this process and by its reaped children (the hooks)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def write_mcp(project: Path, mcp: bool) -> None:
    servers = project / ".mcp.json"
    if mcp:
        servers.write_text(json.dumps({"mcpServers": {"memory": stdio_server()}}))
    else:
        servers.unlink(missing_ok=True)


async def one_turn(project: Path, mcp: bool = False) -> float:
    """Seconds for the whole 20-tool-call turn, in process, with the hooks as written (an MCP
    server's start not counted)."""
    write_mcp(project, mcp)
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


def spawn_floor(form: Format, rounds: int = 200) -> tuple[float, float]:
    """Median ms per tool call of starting its hooks' processes bare, as `form` runs them (5 at
    once or one after another, twice; each in a session or a process group of its own), and their
    CPU ms per tool call."""
    env = dict(os.environ)
    apart: dict[str, Any] = {"setsid": True} if form.session else {"setpgroup": 0}
    times = []
    before = cpu_seconds()[1]
    for _ in range(rounds):
        started = time.perf_counter()
        for _event in range(2):
            if form.together:
                pids = [
                    os.posix_spawn(form.shell, [form.shell, "-c", c], env, **apart)
                    for c in commands()
                ]
                for pid in pids:
                    os.waitpid(pid, 0)
            else:
                for c in commands():
                    pid = os.posix_spawn(form.shell, [form.shell, "-c", c], env, **apart)
                    os.waitpid(pid, 0)
        times.append(time.perf_counter() - started)
    cpu = (cpu_seconds()[1] - before) / rounds * 1000
    return statistics.median(times) * 1000, cpu


async def in_process(form: Format, project: Path, runs: int, mcp: bool = False) -> dict[str, Any]:
    no_hooks(project)
    form.write(project, True)
    await one_turn(project, mcp)  # warm-up: imports, caches
    timings: dict[bool, list[float]] = {False: [], True: []}
    cpu = {False: [0.0, 0.0], True: [0.0, 0.0]}  # own, children
    for _ in range(runs):
        for enabled in (False, True):  # interleaved, so drift hits both alike
            form.write(project, enabled)
            before = cpu_seconds()
            timings[enabled].append(await one_turn(project, mcp))
            after = cpu_seconds()
            cpu[enabled][0] += after[0] - before[0]
            cpu[enabled][1] += after[1] - before[1]
    form.write(project, False)
    floor, floor_cpu = spawn_floor(form)
    base = statistics.median(timings[False]) / TOOL_CALLS * 1000
    hooked = statistics.median(timings[True]) / TOOL_CALLS * 1000
    # Each run's hooked turn against the turn without hooks just before it: what drifts between
    # runs on a shared machine (a slow disk minute, a neighbour's burst) cancels in the pair.
    pairs = [with_ - without for without, with_ in zip(timings[False], timings[True], strict=True)]
    paired = statistics.median(pairs) / TOOL_CALLS * 1000
    calls = runs * TOOL_CALLS
    return {
        "ms_per_tool_call_without_hooks": round(base, 2),
        "ms_per_tool_call_with_hooks": round(hooked, 2),
        "added_ms_per_tool_call": round(hooked - base, 2),
        "added_ms_per_tool_call_paired": round(paired, 2),
        "floor_ms_per_tool_call_bare_spawns": round(floor, 2),
        "added_over_floor_ms": round(hooked - base - floor, 2),
        "ratio_added_to_floor": round((hooked - base) / floor, 2),
        "added_cpu_ms_per_tool_call_wavehost": round(
            (cpu[True][0] - cpu[False][0]) / calls * 1000, 2
        ),
        "added_cpu_ms_per_tool_call_hook_processes": round(
            (cpu[True][1] - cpu[False][1]) / calls * 1000, 2
        ),
        "floor_cpu_ms_per_tool_call_bare_spawns": round(floor_cpu, 2),
    }


# -- 2. against the peers -----------------------------------------------------------------


def tool_results(body: dict[str, Any]) -> int:
    """Tool results in a request, in either wire format."""
    count = 0
    for message in body.get("messages", []):
        if message.get("role") == "tool":
            count += 1
        elif isinstance(message.get("content"), list):
            count += sum(1 for b in message["content"] if b.get("type") == "tool_result")
    return count


class Reader:
    """A model that reads `path` until it has seen TOOL_CALLS results, then says done (robust to
    a CLI's side requests: each request is answered from what it carries). It notes when the
    request with the first tool result came and when the one with the last: the tool-call loop,
    without the CLI's start and exit, whose noise (a second or more for a peer) would drown
    what hooks add."""

    def __init__(self, tool: str, argument: str, path: Path) -> None:
        self.tool, self.input = tool, {argument: str(path)}
        self.seen: dict[int, float] = {}

    def __call__(self, _index: int, body: dict[str, Any]) -> ScriptedTurn:
        results = tool_results(body)
        self.seen.setdefault(results, time.perf_counter())
        if results >= TOOL_CALLS:
            return ScriptedTurn(text="done")
        call = ScriptedToolCall(name=self.tool, input=self.input)  # a new id each time
        return ScriptedTurn(text="", tool_calls=[call])

    def loop(self) -> float:
        """Seconds from the first tool result to the last (TOOL_CALLS - 1 calls); then forget."""
        seen, self.seen = self.seen, {}
        return seen[TOOL_CALLS] - seen[1]


@dataclass(frozen=True)
class Contender:
    """One CLI on one hook format."""

    name: str
    form: Format
    command: list[str]
    env: Callable[[str], dict[str, str]]  # from the fake API's URL
    model: Reader
    hooks_file: Path | None = None  # where its Claude-format hooks go (default: wavehost's)


@dataclass(frozen=True)
class Measured:
    run: Run  # the whole process
    loop: float  # seconds of its tool-call loop (`Reader.loop`)

    @property
    def wall(self) -> float:
        return self.run.wall

    @property
    def cpu(self) -> float:
        return self.run.cpu


async def measure(contender: Contender, project: Path, rounds: int) -> dict[bool, list[Measured]]:
    results: dict[bool, list[Measured]] = {False: [], True: []}

    def write(enabled: bool) -> None:
        no_hooks(project)
        if contender.hooks_file is not None:
            write_claude_format(project, enabled, contender.hooks_file)
        else:
            contender.form.write(project, enabled)

    async with serve(respond=contender.model) as llm:
        env = contender.env(llm.url)
        write(True)
        await to_thread.run_sync(run, contender.command, env, project, "done")  # warm-up
        contender.model.loop()
        for _ in range(rounds):
            for enabled in (False, True):
                write(enabled)
                ran = await to_thread.run_sync(run, contender.command, env, project, "done")
                results[enabled].append(Measured(ran, contender.model.loop()))
    write(False)
    return results


def added(results: dict[bool, list[Measured]], key: str) -> float:
    """Median over rounds of (with hooks − without) per tool call, in ms."""
    calls = TOOL_CALLS - 1 if key == "loop" else TOOL_CALLS
    pairs = [
        getattr(with_, key) - getattr(without, key)
        for without, with_ in zip(results[False], results[True], strict=True)
    ]
    return statistics.median(pairs) / calls * 1000


async def against_peers(root: Path, rounds: int) -> dict[str, Any]:
    claude, copilot = peer("claude", "CLAUDE_BIN"), peer("copilot", "COPILOT_BIN")
    project, home = prepare(root, "wavehost", "claude", "copilot")
    notes = project / "notes.txt"
    claude_settings = project / ".claude" / "settings.json"  # the same file for both
    prompt = "Read notes.txt until told to stop."
    ours = [*WAVEHOST, "chat", "-p", prompt, "--permission-mode", "bypassPermissions"]
    contenders = [
        Contender("wavehost", CLAUDE, ours, lambda url: wavehost_env(home["wavehost"], url),
                  Reader("Read", "file_path", notes), hooks_file=claude_settings),
        Contender("wavehost", COPILOT, ours, lambda url: wavehost_env(home["wavehost"], url),
                  Reader("Read", "file_path", notes)),
    ]  # fmt: skip
    if claude:
        contenders.append(
            Contender(
                "claude", CLAUDE, [claude, "-p", prompt, "--allowedTools", "Read"],
                lambda url: claude_env(home["claude"], url), Reader("Read", "file_path", notes),
                hooks_file=claude_settings,
            )
        )  # fmt: skip
    if copilot:
        contenders.append(
            Contender(
                "copilot", COPILOT, [copilot, "-p", prompt, "--allow-all-tools", "--trust-folder"],
                lambda url: copilot_env(home["copilot"], url), Reader("view", "path", notes),
            )
        )  # fmt: skip
    floor_figures = {form.name: spawn_floor(form, 100) for form in FORMATS}
    floors = {name: cpu for name, (_, cpu) in floor_figures.items()}
    report: dict[str, Any] = {}
    rss: list[float] = []
    for form in FORMATS:
        figures: dict[str, dict[str, float]] = {}
        for contender in (c for c in contenders if c.form is form):
            results = await measure(contender, project, rounds)
            if contender.name == "wavehost":
                rss += [r.run.rss_mib for r in results[True]]
            cpu = added(results, "cpu")
            in_loop = {
                enabled: statistics.median(m.loop for m in runs) / (TOOL_CALLS - 1) * 1000
                for enabled, runs in results.items()
            }
            figures[contender.name] = {
                "ms_per_tool_call_in_loop_without_hooks": round(in_loop[False], 2),
                "ms_per_tool_call_in_loop_with_hooks": round(in_loop[True], 2),
                "added_ms_per_tool_call_in_loop": round(added(results, "loop"), 2),
                "added_ms_per_tool_call": round(added(results, "wall"), 2),
                "added_cpu_ms_per_tool_call": round(cpu, 2),
                "added_cpu_over_floor_ms": round(cpu - floors[form.name], 2),
                "turn_seconds_without_hooks": round(
                    statistics.median(r.wall for r in results[False]), 2
                ),
            }
        peer_name = "claude" if form is CLAUDE else "copilot"
        section: dict[str, Any] = {
            **figures,
            "floor_ms_per_tool_call": round(floor_figures[form.name][0], 2),
            "floor_cpu_ms_per_tool_call": round(floors[form.name], 2),
        }
        if peer_name in figures:
            ours_, theirs = figures["wavehost"], figures[peer_name]
            for key in ("ms_per_tool_call_in_loop_with_hooks", "added_ms_per_tool_call_in_loop",
                        "added_ms_per_tool_call",
                        "added_cpu_ms_per_tool_call", "added_cpu_over_floor_ms"):  # fmt: skip
                section[f"ratio_{key}"] = (
                    round(ours_[key] / theirs[key], 2) if theirs[key] else None
                )
        else:
            section[peer_name] = f"not found: set {peer_name.upper()}_BIN to compare"
        report[f"{form.name}_format_vs_{peer_name}"] = section
    report["wavehost_chat_p_peak_rss_mib"] = round(statistics.median(rss), 1)
    return report


async def main(runs: int, peer_runs: int, peers: bool, as_json: bool) -> None:
    report: dict[str, Any] = {
        "tool_calls": TOOL_CALLS,
        "hooks_per_tool_call": 2 * HOOKS_PER_EVENT,
        "runs": runs,
        "cpus": os.cpu_count(),
        "load_at_start": round(os.getloadavg()[0], 2),
    }
    with tempfile.TemporaryDirectory(prefix="wavehost-bench-") as tmp:
        project, homes = prepare(Path(tmp, "in-process"), "wavehost")
        os.environ.update(HOME=str(homes["wavehost"]), ANTHROPIC_API_KEY="bench")
        for form in FORMATS:
            report[f"in_process_{form.name}_format"] = await in_process(form, project, runs)
        report["in_process_claude_format_mcp_calls"] = await in_process(CLAUDE, project, runs, True)
        write_mcp(project, False)
        if peers:
            report["peer_runs"] = peer_runs
            report.update(await against_peers(Path(tmp, "peers"), peer_runs))
    report["load_at_end"] = round(os.getloadavg()[0], 2)
    if as_json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        if isinstance(value, dict):
            print(f"{key}:")
            for inner, figure in value.items():
                print(f"  {inner:>44}: {figure}")
        else:
            print(f"{key:>46}: {value}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--peer-runs", type=int, default=5)
    parser.add_argument("--no-peers", action="store_true", help="only the in-process figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    anyio.run(main, args.runs, args.peer_runs, not args.no_peers, args.json)
