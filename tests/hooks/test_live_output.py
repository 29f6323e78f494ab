"""A running hook's stderr, live (`hooks.live`): real hook processes through the engine, their
lines seen while they still run, bounded for a flood, told at most every interval, and Cancel
stopping the process tree the way a timeout does — a non-blocking error in every dialect."""

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.hooks.inputs import common
from tests.processes import alive, until
from wavehost.hooks import live as live_module
from wavehost.hooks.catalogue import EVENTS_BY_NAME
from wavehost.hooks.engine import BackgroundHooks, HookEngine, run_all
from wavehost.hooks.live import LINES, LiveHooks, LiveView
from wavehost.hooks.outcome import CANCELLED, Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config
from wavehost.plumbing.children import OUTPUT_CAP


class Watcher:
    """What a page would be told: each tell's views, and when it came."""

    def __init__(self) -> None:
        self.live = LiveHooks(self.told)
        self.tells: list[tuple[float, tuple[LiveView, ...]]] = []

    def told(self) -> None:
        shown, _ = self.live.views()
        self.tells.append((time.monotonic(), shown))

    def now(self) -> tuple[LiveView, ...]:
        return self.live.views()[0]


def payload_of(project: Path, event: str = "PreToolUse") -> HookInput:
    fields: dict[str, Any] = {"tool_name": "Bash", "tool_input": {"command": "ls"}}
    if event != "PreToolUse":
        fields = {}
    model: HookInput = EVENTS_BY_NAME[event].spec.payload.model_validate(
        common(event, project, **fields)
    )
    return model


def dispatching(
    project: Path, hooks: dict[str, Any], watcher: Watcher, event: str = "PreToolUse"
) -> Callable[[], Any]:
    engine = HookEngine(load_hook_config(project, programmatic=hooks))
    context = HookContext(cwd=project, project_dir=project, live=watcher.live)

    async def dispatch() -> Outcome:
        async with BackgroundHooks(lambda _: None) as background:
            return await engine.dispatch(payload_of(project, event), context, background)

    return dispatch


def pre_tool_use(command: str, **fields: Any) -> dict[str, Any]:
    return {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": command, **fields}]}
        ]
    }


async def test_a_running_hooks_stderr_lines_arrive_before_it_exits(project, tmp_path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    wait = "while [ ! -f {} ]; do sleep 0.05; done"
    command = (
        f"echo 'checking 1/2' >&2; {wait.format(first)}; "
        f"echo 'checking 2/2' >&2; printf 'almost' >&2; {wait.format(second)}; exit 0"
    )
    watcher = Watcher()
    dispatch = dispatching(project, pre_tool_use(command), watcher)
    outcome: list[Outcome] = []

    async def run() -> None:
        outcome.append(await dispatch())

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        await until(
            lambda: any(v.lines == ("checking 1/2",) for _, tell in watcher.tells for v in tell)
        )
        assert not outcome  # the hook still runs: the line came before its exit
        [view] = watcher.now()
        assert view.handler.command == command
        assert view.more_lines == 0
        assert not view.cancelling
        first.touch()
        await until(
            lambda: (
                bool(watcher.tells)
                and _lines(watcher) == ("checking 1/2", "checking 2/2", "almost")
            )
        )
        assert not outcome
        second.touch()

    assert not outcome[0].blocked
    assert not outcome[0].notices
    assert watcher.now() == ()
    assert watcher.tells[-1][1] == ()  # the page is told it ended


def _lines(watcher: Watcher) -> tuple[str, ...]:
    shown = watcher.tells[-1][1]
    return shown[0].lines if shown else ()


async def test_a_flood_of_stderr_shows_only_its_last_lines_and_is_told_a_few_times_a_second(
    project, tmp_path
) -> None:
    gate = tmp_path / "gate"
    total = 300_000  # about 2 MB: past the output cap too
    command = f"seq 1 {total} >&2; while [ ! -f {gate} ]; do sleep 0.05; done"
    watcher = Watcher()
    dispatch = dispatching(project, pre_tool_use(command), watcher)
    runs: list[Any] = []

    async def run() -> None:
        runs.append(await dispatch())

    async with anyio.create_task_group() as tasks:
        started = time.monotonic()
        tasks.start_soon(run)

        def all_counted() -> bool:
            views = watcher.now()
            return bool(views) and views[0].more_lines + len(views[0].lines) == total

        await until(all_counted)
        await until(lambda: bool(watcher.tells) and _lines(watcher)[-1:] == (str(total),))
        [view] = watcher.now()
        assert view.lines == tuple(str(n) for n in range(total - LINES + 1, total + 1))
        assert view.more_lines == total - LINES
        elapsed = time.monotonic() - started
        # Told at most once an interval (plus the first and one at the end), however fast it
        # printed: hundreds of thousands of lines, a handful of tells.
        assert len(watcher.tells) <= elapsed / live_module.INTERVAL + 2
        gate.touch()
    assert watcher.now() == ()


async def test_the_full_output_stays_bounded_by_the_cap_while_it_is_shown_live(
    project, tmp_path
) -> None:
    gate = tmp_path / "gate"
    command = f"seq 1 300000 >&2; while [ ! -f {gate} ]; do sleep 0.05; done; exit 1"
    engine = HookEngine(load_hook_config(project, programmatic=pre_tool_use(command)))
    [handler] = engine.matching(EVENTS_BY_NAME["PreToolUse"], "Bash")
    watcher = Watcher()
    context = HookContext(cwd=project, project_dir=project, live=watcher.live)
    results: list[Any] = []

    async def run() -> None:
        results.extend(await run_all([handler], b"{}", context))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        await until(lambda: bool(watcher.now()) and watcher.now()[0].lines[-1:] == ("300000",))
        gate.touch()
    [result] = results
    assert result.truncated
    assert len(result.stderr.encode()) < OUTPUT_CAP + 200  # as today: the cap and its marker
    assert result.stderr.startswith("1\n2\n3\n")


async def test_cancel_stops_the_hooks_process_tree_and_it_reads_as_a_non_blocking_error(
    project, tmp_path
) -> None:
    pids = tmp_path / "pids"
    command = (
        f"echo $$ > {pids}.sh; sleep 300 & echo $! > {pids}; echo 'waiting on the lock' >&2; wait"
    )
    watcher = Watcher()
    dispatch = dispatching(project, pre_tool_use(command), watcher)
    outcome: list[Outcome] = []

    async def run() -> None:
        outcome.append(await dispatch())

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        await until(
            lambda: bool(watcher.now()) and watcher.now()[0].lines == ("waiting on the lock",)
        )
        processes = int(Path(f"{pids}.sh").read_text()), int(pids.read_text())
        assert all(alive(pid) for pid in processes)
        [view] = watcher.now()
        assert watcher.live.cancel(view.id)
        assert watcher.now()[0].cancelling
        assert not watcher.live.cancel(view.id)  # being stopped already
    await until(lambda: not any(alive(pid) for pid in processes))
    [done] = outcome
    assert not done.blocked  # PreToolUse fails open, as on a timeout
    assert done.permission_decision is None
    [notice] = done.notices
    assert (notice.level, notice.text) == ("error", CANCELLED)
    [summary] = done.runs
    assert summary.cancelled
    assert not summary.timed_out
    assert not watcher.live.cancel(view.id)  # over
    assert watcher.now() == ()


async def test_cancel_kills_a_hook_that_ignores_sigterm_after_the_grace(project, tmp_path) -> None:
    pid = tmp_path / "pid"
    command = f"trap '' TERM; echo $$ > {pid}; echo started >&2; while :; do sleep 0.05; done"
    watcher = Watcher()
    dispatch = dispatching(project, pre_tool_use(command), watcher)
    outcome: list[Outcome] = []

    async def run() -> None:
        outcome.append(await dispatch())

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        await until(lambda: bool(watcher.now()) and watcher.now()[0].lines == ("started",))
        assert watcher.live.cancel(watcher.now()[0].id)
    assert not alive(int(pid.read_text()))
    assert outcome[0].runs[0].cancelled


async def cancelled_outcome(project: Path, engine: HookEngine, watcher: Watcher) -> Outcome:
    """Dispatch a PreToolUse Bash call and cancel the first hook shown live."""
    context = HookContext(cwd=project, project_dir=project, live=watcher.live)
    outcome: list[Outcome] = []

    async def run() -> None:
        async with BackgroundHooks(lambda _: None) as background:
            outcome.append(await engine.dispatch(payload_of(project), context, background))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        await until(lambda: bool(watcher.now()) and watcher.now()[0].lines == ("deciding",))
        assert watcher.live.cancel(watcher.now()[0].id)
    return outcome[0]


DENY_SLOWLY = """echo '{"permissionDecision": "deny"}'; echo deciding >&2; sleep 300"""


async def test_a_cancelled_copilot_hook_fails_open_as_its_timeout_does(project, home) -> None:
    copilot_project(project, "a.json", {"preToolUse": [bash(DENY_SLOWLY)]})
    engine = HookEngine(load_hook_config(project))
    outcome = await cancelled_outcome(project, engine, Watcher())
    assert not outcome.blocked  # what it printed before it was stopped does not count
    assert outcome.logs == [f"Hook command was cancelled by the user: {DENY_SLOWLY[:80]}"]


async def test_a_cancelled_snow_hook_is_its_killed_process_soft_exit_1(
    project, home, tmp_path
) -> None:
    after = tmp_path / "after"
    snow_project(
        project,
        "beforeToolCall",
        rule(action("echo deciding >&2; sleep 300"), action(f"echo ran > {after}")),
    )
    engine = HookEngine(load_hook_config(project))
    outcome = await cancelled_outcome(project, engine, Watcher())
    assert outcome.tool_error == "deciding"  # exit 1 with its stderr, as a killed process
    assert after.read_text().strip() == "ran"  # later actions still run, as after a timeout
