"""The hook run log stays bounded, skips damage, and keeps the newest runs per hook."""

import json
from pathlib import Path

from tests.hooks.inputs import common
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.payloads import PreToolUseInput
from wavehost.hooks.runlog import RunLog, first_lines, key_of
from wavehost.hooks.runner import HookRun
from wavehost.hooks.sources import load_hook_config


def _handlers(project: Path, count: int) -> list:  # type: ignore[type-arg]
    groups = [{"hooks": [{"type": "command", "command": f"hook {i}"}]} for i in range(count)]
    config = load_hook_config(project, programmatic={"PreToolUse": groups})
    return list(config.handlers)


def _payload(project: Path) -> PreToolUseInput:
    return PreToolUseInput(**common("PreToolUse", project, tool_name="Bash", tool_input={}))


def test_output_keeps_its_first_lines_and_says_how_much_was_cut() -> None:
    text = "".join(f"line {i}\n" for i in range(100))
    kept = first_lines(text)
    assert kept.startswith("line 0\nline 1\n")
    assert "line 19" in kept
    assert "line 20" not in kept
    assert kept.endswith("more characters]")
    assert first_lines("short\n") == "short"


def test_the_file_is_compacted_to_the_newest_runs_per_hook_and_stays_under_its_cap(
    tmp_path: Path, project: Path
) -> None:
    path = tmp_path / "runs" / "log.jsonl"
    clock = iter(range(1, 100_000))
    log = RunLog(path, per_hook=3, per_event=2, max_bytes=8_000, clock=lambda: float(next(clock)))
    payload = _payload(project)
    handlers = _handlers(project, 4)
    for round_ in range(40):
        log.dispatched(payload, [], DIALECTS["wave"].interpret(payload, []))
        for handler in handlers:
            log.ran(payload, HookRun(handler, round_, "out", "err", 1.0, 600))
        log.flush()  # the writes are made on a disk thread
        assert path.stat().st_size <= 8_000 + 1_000  # one line past the cap at most
    for handler in handlers:
        codes = [r.exit_code for r in log.history(key_of(handler))]
        assert codes == [39, 38, 37]  # newest first, three kept
    assert len(log.recent_events(Event.PreToolUse.name)) == 2
    assert set(log.last_runs()) == {key_of(h) for h in handlers}


def test_damaged_lines_and_a_huge_file_are_read_safely(tmp_path: Path, project: Path) -> None:
    path = tmp_path / "log.jsonl"
    [handler] = _handlers(project, 1)
    log = RunLog(path, max_bytes=4_000)
    log.ran(_payload(project), HookRun(handler, 0, "", "", 1.0, 600))
    log.flush()
    with open(path, "ab") as file:
        file.write(b'\xff\xfe not json\n{"kind": "run", "bogus": 1}\n[1, 2]\n')
        file.write(json.dumps({"kind": "event"}).encode() + b"\n")
    assert [r.exit_code for r in RunLog(path).history(key_of(handler))] == [0]
    path.write_bytes(b"x" * 10_000_000)  # not ours any more: read only its tail, find nothing
    assert RunLog(path, max_bytes=4_000).history(key_of(handler)) == []


def test_an_unwritable_log_never_fails_the_run(tmp_path: Path, project: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    [handler] = _handlers(project, 1)
    log = RunLog(blocker / "log.jsonl")  # its folder is a file: every write fails
    record = log.ran(_payload(project), HookRun(handler, 2, "", "no", 1.0, 600))
    assert record.exit_code == 2
    assert record.blocked is True
    assert log.history(key_of(handler)) == []


def test_the_runs_of_one_dispatch_say_which_of_them_blocked(tmp_path: Path, project: Path) -> None:
    """Recorded together after the dispatch: `blocked` only for a run that alone blocks what was
    blocked (exit 2 here), never for the quiet ones beside it."""
    log = RunLog(tmp_path / "log.jsonl")
    payload = _payload(project)
    quiet, refusing, other = _handlers(project, 3)
    runs = [HookRun(h, code, "", "no", 1.0, 600) for h, code in ((quiet, 0), (refusing, 2))]
    runs.append(HookRun(other, 0, "", "", 1.0, 600))
    outcome = DIALECTS["wave"].interpret(payload, runs)
    assert outcome.blocked
    log.dispatched(payload, runs, outcome)
    assert {h.id: log.history(key_of(h))[0].blocked for h in (quiet, refusing, other)} == {
        quiet.id: False,
        refusing.id: True,
        other.id: False,
    }
    calm = [HookRun(h, 0, "", "", 1.0, 600) for h in (quiet, refusing)]
    log.dispatched(payload, calm, DIALECTS["wave"].interpret(payload, calm))
    assert [log.history(key_of(h))[0].blocked for h in (quiet, refusing)] == [False, False]


def test_two_servers_writing_one_log_keep_the_newest_runs_of_each_others_hooks(
    tmp_path: Path, project: Path
) -> None:
    """Each log knows whose its own lines are without parsing them; the other writer's lines,
    and lines it remembers that the other writer's compaction removed, must not confuse it."""
    path = tmp_path / "log.jsonl"
    clock = iter(range(1, 100_000))
    tick = lambda: float(next(clock))  # noqa: E731
    first = RunLog(path, per_hook=3, per_event=2, max_bytes=6_000, clock=tick)
    second = RunLog(path, per_hook=3, per_event=2, max_bytes=6_000, clock=tick)
    payload = _payload(project)
    one, two, theirs = _handlers(project, 3)
    for round_ in range(60):
        codes = ((one, round_), (two, 200 + round_))
        runs = [HookRun(h, code, "", "", 1.0, 600) for h, code in codes]
        first.dispatched(payload, runs, DIALECTS["wave"].interpret(payload, runs))
        second.ran(payload, HookRun(theirs, 100 + round_, "", "", 1.0, 600))
        if round_ % 7 == 0:  # `second` alone writes for a while: `first` remembers stale lines
            for extra in range(5):
                second.ran(payload, HookRun(theirs, 1000 + extra, "", "", 1.0, 600))
        first.flush()  # the writes are made on a disk thread
        assert path.stat().st_size <= 6_000 + 1_000
    for log in (first, second):
        assert [r.exit_code for r in log.history(key_of(one))] == [59, 58, 57]
        assert [r.exit_code for r in log.history(key_of(two))] == [259, 258, 257]
        assert [r.exit_code for r in log.history(key_of(theirs))] == [159, 158, 157]
        assert len(log.recent_events(Event.PreToolUse.name)) == 2
    kept = [r.exit_code for r in RunLog(path).history(key_of(one))]  # since the last compaction
    assert kept == list(range(59, 59 - len(kept), -1))


def test_what_a_log_remembers_of_its_lines_stays_bounded(tmp_path: Path, project: Path) -> None:
    """A server runs for weeks: whatever happens to the file, the owners it keeps in memory
    stay within twice the file's cap (private state, checked because it is the bound)."""
    path = tmp_path / "log.jsonl"
    log = RunLog(path, per_hook=1000, per_event=1000, max_bytes=5_000)
    payload = _payload(project)
    [handler] = _handlers(project, 1)
    for round_ in range(300):
        log.ran(payload, HookRun(handler, round_, "x" * 50, "", 1.0, 600))
        log.flush()  # its compaction, on the disk thread, is done
        if round_ % 10 == 0:
            path.unlink()  # another writer, or the user, removed it under us
        assert log._owners_bytes <= 2 * 5_000
        assert sum(map(len, log._owners)) == log._owners_bytes
