"""The runner against real processes: stdin, env, cwd, timeouts, runaway output, odd bytes."""

import contextlib
import json
import os
import signal
import time
from pathlib import Path

import anyio
import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc
from tests.processes import alive, proc_status
from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialects.copilot import COPILOT
from wavehost.hooks.engine import run_all
from wavehost.hooks.payloads import PreToolUseInput
from wavehost.hooks.runner import HookContext, run_hook
from wavehost.hooks.sources import load_hook_config
from wavehost.plumbing import children, spawn


@pytest.fixture(params=["pidfd", "thread"])
def exit_wait(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of waiting for a hook's exit: a pidfd (Linux) and a thread (elsewhere)."""
    monkeypatch.setattr(children, "USE_PIDFD", request.param == "pidfd")
    return str(request.param)


@pytest.fixture(params=["posix_spawn", "popen"])
def spawner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of starting a hook: posix_spawn (glibc) and Popen (elsewhere). The child must
    not be able to tell them apart."""
    if request.param == "posix_spawn":
        assert spawn._FAST is not None, "this machine's glibc has no posix_spawn fast path"
    else:
        monkeypatch.setattr(spawn, "_FAST", None)
    return str(request.param)


def handler(project: Path, command: str, **fields: object) -> HookHandler:
    doc = hooks_doc("PreToolUse", {"type": "command", "command": command, **fields})
    (found,) = load_hook_config(project, programmatic=doc["hooks"]).handlers
    return found


async def wait_for_file(path: Path, seconds: float = 10) -> None:
    with anyio.fail_after(seconds):
        while not path.exists() or not path.read_text():
            await anyio.sleep(0.02)


async def test_payload_arrives_as_compact_utf8_json_on_stdin(project, tmp_path) -> None:
    out = tmp_path / "stdin.json"
    payload = PreToolUseInput.model_validate(
        common(
            "PreToolUse",
            project,
            tool_name="Write",
            tool_input={"file_path": "/p/文件.txt", "content": "é"},
        )
    )
    run = await run_hook(
        handler(project, f"cat > {out}"), payload.to_stdin(), HookContext(project, project)
    )
    assert run.exit_code == 0
    raw = out.read_bytes()
    assert raw == payload.to_stdin()
    assert "文件".encode() in raw  # UTF-8, not \u escapes
    assert b", " not in raw
    assert b": " not in raw
    assert json.loads(raw)["tool_input"]["file_path"] == "/p/文件.txt"
    assert raw.endswith(b"}\n")  # one line, as Claude Code sends it
    assert raw.count(b"\n") == 1


async def test_a_hook_reading_its_payload_with_read_r_gets_the_whole_line(fire, project) -> None:
    """`if read -r line` is how many shell hooks take their input: it needs the newline."""
    prompt = "python3 -c 'import json, sys; print(json.loads(sys.argv[1])[\"prompt\"])'"
    command = f'if read -r line; then {prompt} "$line"; else echo "no line"; fi'
    doc = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": command}]}]}}
    outcome = await fire(doc, common("UserPromptSubmit", project, prompt="hello"))
    assert outcome.meta_messages == ["hello"]


async def test_hook_runs_in_session_workdir_with_project_dir_anchored(project) -> None:
    sub = project / "packages" / "code"
    sub.mkdir(parents=True)
    command = 'echo "$PWD"; echo "$WAVE_PROJECT_DIR"; echo "$CLAUDE_PROJECT_DIR"'
    run = await run_hook(
        handler(project, command), b"{}", HookContext(cwd=sub, project_dir=project)
    )
    assert run.stdout.split() == [str(sub), str(project), str(project)]


async def test_deleted_workdir_falls_back_to_the_project_dir(project, tmp_path) -> None:
    gone = tmp_path / "worktree"
    gone.mkdir()
    gone.rmdir()
    run = await run_hook(
        handler(project, 'echo "$PWD"'), b"{}", HookContext(cwd=gone, project_dir=project)
    )
    assert run.exit_code == 0
    assert run.spawn_error is None
    assert run.stdout.strip() == str(project)


async def test_without_a_session_root_project_dir_is_the_spawn_dir(project) -> None:
    run = await run_hook(
        handler(project, 'echo "$WAVE_PROJECT_DIR"'), b"{}", HookContext(cwd=project)
    )
    assert run.stdout.strip() == str(project)


async def test_host_environment_is_passed_through(project, monkeypatch) -> None:
    monkeypatch.setenv("WAVEHOST_TEST_VALUE", "from-host")
    run = await run_hook(
        handler(project, 'echo "$WAVEHOST_TEST_VALUE"'), b"{}", HookContext(project, project)
    )
    assert run.stdout.strip() == "from-host"


@pytest.mark.parametrize("dialect", ["wave", "copilot"])
async def test_timeout_kills_the_whole_group_and_returns_at_once(
    exit_wait, project, tmp_path, dialect: str
) -> None:
    """Also a Copilot hook, which has a process group of its own but no session."""
    pids = tmp_path / "pids"
    hook = handler(project, f"sleep 60 & echo $! > {pids}; sleep 60", timeout=1)
    context = HookContext(project, project)
    launch = None
    if dialect == "copilot":
        payload = PreToolUseInput(
            session_id="s", transcript_path="/t", cwd=str(project), tool_name="Bash", tool_input={}
        )
        launch = COPILOT.launch(hook, payload, context)
    started = time.monotonic()
    run = await run_hook(hook, b"{}", context, launch=launch)
    assert time.monotonic() - started < 30  # generous: the hook alone would take 60 s
    assert run.timed_out
    grandchild = int(pids.read_text())
    with anyio.fail_after(10):
        while alive(grandchild):
            await anyio.sleep(0.05)


async def test_timeout_returns_at_once_and_ends_a_grandchild_that_left_the_group(
    exit_wait, project, tmp_path
) -> None:
    pids = tmp_path / "pids"
    command = f"setsid sleep 60 & echo $! > {pids}; sleep 60"  # it holds the pipes too
    try:
        started = time.monotonic()
        run = await run_hook(
            handler(project, command, timeout=1), b"{}", HookContext(project, project)
        )
        assert time.monotonic() - started < 30
        assert run.timed_out
        grandchild = int(pids.read_text())
        with anyio.fail_after(10):  # killpg missed it (its own session): the tree walk did not
            while alive(grandchild):
                await anyio.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pids.read_text()), signal.SIGKILL)


async def test_normal_exit_is_not_held_up_by_a_background_grandchild(
    exit_wait, project, tmp_path
) -> None:
    pids = tmp_path / "pids"
    try:
        started = time.monotonic()
        run = await run_hook(
            handler(project, f"sleep 60 & echo $! > {pids}; echo done"),
            b"{}",
            HookContext(project, project),
        )
        assert time.monotonic() - started < 30
        assert run.exit_code == 0
        assert run.stdout.strip() == "done"
        assert not run.timed_out
    finally:
        os.kill(int(pids.read_text()), signal.SIGKILL)


async def test_runaway_output_is_capped_with_a_marker(project) -> None:
    command = "head -c 5000000 /dev/zero | tr '\\0' a; head -c 3000000 /dev/zero | tr '\\0' b >&2"
    run = await run_hook(handler(project, command), b"{}", HookContext(project, project))
    assert run.exit_code == 0
    assert run.stdout.startswith("a" * 1000)
    assert run.stdout.endswith(f"… [output truncated: {5000000 - 1024 * 1024} more bytes]")
    assert len(run.stdout) < 1024 * 1024 + 100
    assert run.stderr.endswith(f"… [output truncated: {3000000 - 1024 * 1024} more bytes]")


@pytest.mark.parametrize("delay", ["", "sleep 0.2; "], ids=["exits-at-once", "runs-a-while"])
@pytest.mark.parametrize("size", [5, 300_000], ids=["a-few-bytes", "more-than-a-pipe-holds"])
async def test_every_byte_written_before_the_exit_is_captured(
    exit_wait, project, delay: str, size: int
) -> None:
    """Whether the pipes were read only at the exit or watched while the hook ran."""
    out = f"head -c {size} /dev/zero | tr '\\0' o"
    err = f"head -c {size // 2} /dev/zero | tr '\\0' e >&2"
    command = f"{delay}{out}; {err}"
    run = await run_hook(handler(project, command), b"{}", HookContext(project, project))
    assert run.exit_code == 0
    assert run.stdout == "o" * size
    assert run.stderr == "e" * (size // 2)
    assert not run.truncated


async def test_non_utf8_stderr_is_decoded_with_replacement(project) -> None:
    run = await run_hook(
        handler(project, "printf 'bad \\377\\376 bytes' >&2; exit 1"),
        b"{}",
        HookContext(project, project),
    )
    assert run.stderr == "bad \ufffd\ufffd bytes"


async def test_a_hook_that_never_reads_a_large_stdin_is_fine(project) -> None:
    big = json.dumps({"content": "x" * 2_000_000}).encode()
    run = await run_hook(handler(project, "echo ignored-stdin"), big, HookContext(project, project))
    assert run.exit_code == 0
    assert run.stdout.strip() == "ignored-stdin"
    assert run.spawn_error is None


async def test_a_hook_that_exits_before_reading_stdin_is_fine(project) -> None:
    run = await run_hook(handler(project, "exit 0"), b"x" * 500_000, HookContext(project, project))
    assert run.exit_code == 0


async def test_missing_script_is_a_non_blocking_error_with_a_clear_message(fire, project) -> None:
    doc = hooks_doc("PostToolUse", "./.wave/hooks/missing.sh")
    outcome = await fire(
        doc, common("PostToolUse", project, tool_name="Edit", tool_input={}, tool_response={})
    )
    assert not outcome.blocked
    assert outcome.meta_messages == []
    (notice,) = outcome.notices
    assert notice.level == "error"
    assert notice.exit_code == 127
    assert "missing.sh" in notice.text
    assert "not found" in notice.text


async def test_non_executable_script_is_a_non_blocking_error(fire, project) -> None:
    script = project / "hook.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    outcome = await fire(hooks_doc("Stop", str(script)), common("Stop", project))
    (notice,) = outcome.notices
    assert notice.exit_code == 126
    assert "Permission denied" in notice.text
    assert not outcome.blocked


async def test_a_hook_that_cannot_start_is_a_non_blocking_error(spawner, project, tmp_path) -> None:
    nowhere = tmp_path / "nowhere"
    run = await run_hook(
        handler(project, "true"), b"{}", HookContext(cwd=nowhere, project_dir=nowhere)
    )
    assert run.exit_code is None
    assert run.spawn_error == "could not start hook: No such file or directory"


async def test_a_command_with_a_nul_byte_is_a_hook_that_cannot_start(spawner, project) -> None:
    """A settings file may hold "\\u0000" in a command: that hook fails to start, the event
    goes on (it used to raise out of the dispatch, failing every tool call)."""
    run = await run_hook(handler(project, "echo a\0b"), b"{}", HookContext(project, project))
    assert run.exit_code is None
    assert run.spawn_error == "could not start hook: embedded null byte"


async def test_a_hook_killed_by_a_signal_reports_minus_the_signal(spawner, project) -> None:
    run = await run_hook(handler(project, "kill -TERM $$"), b"{}", HookContext(project, project))
    assert run.exit_code == -signal.SIGTERM


async def test_matching_hooks_run_concurrently(project, tmp_path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    # each waits for the other's file: run one after the other, both would time out
    first = handler(project, f"touch {a}; while [ ! -e {b} ]; do sleep 0.01; done", timeout=20)
    second = handler(project, f"touch {b}; while [ ! -e {a} ]; do sleep 0.01; done", timeout=20)
    runs = await run_all([first, second], b"{}", HookContext(project, project))
    assert [run.timed_out for run in runs] == [False, False]
    assert [run.exit_code for run in runs] == [0, 0]


async def test_a_quick_hook_among_many_slow_ones_is_seen_to_exit_at_once(
    exit_wait, project
) -> None:
    """Each exit is watched on its own (pidfd, or a thread per hook): however many hooks run
    together, a quick one is not left waiting for the slow ones (and timed out)."""
    slow = [handler(project, f"sleep 2 # {i}", timeout=30) for i in range(10)]
    quick = handler(project, "echo quick", timeout=1)
    *_, last = await run_all([*slow, quick], b"{}", HookContext(project, project))
    assert last.stdout.strip() == "quick"
    assert not last.timed_out
    assert last.exit_code == 0


async def test_results_keep_config_order(project) -> None:
    slow, fast = handler(project, "sleep 0.3; echo slow"), handler(project, "echo fast")
    runs = await run_all([slow, fast], b"{}", HookContext(project, project))
    assert [run.stdout.strip() for run in runs] == ["slow", "fast"]


async def test_cancelling_the_caller_kills_the_hook_group(exit_wait, project, tmp_path) -> None:
    pids = tmp_path / "pids"
    hook = handler(project, f"sleep 60 & echo $! > {pids}; wait")
    async with anyio.create_task_group() as group:
        group.start_soon(run_hook, hook, b"{}", HookContext(project, project))
        await wait_for_file(pids)
        group.cancel_scope.cancel()
    grandchild = int(pids.read_text())
    with anyio.fail_after(10):
        while alive(grandchild):
            await anyio.sleep(0.05)


async def test_cancelling_hooks_run_together_kills_every_group(project, tmp_path) -> None:
    """`run_all` waits for the lot at once; cancelled meanwhile, it still kills each hook's tree."""
    files = [tmp_path / f"pid{i}" for i in range(3)]
    hooks = [handler(project, f"sleep 60 & echo $! > {f}; wait") for f in files]
    async with anyio.create_task_group() as group:
        group.start_soon(run_all, hooks, b"{}", HookContext(project, project))
        for file in files:
            await wait_for_file(file)
        group.cancel_scope.cancel()
    grandchildren = [int(f.read_text()) for f in files]
    with anyio.fail_after(10):
        while any(alive(pid) for pid in grandchildren):
            await anyio.sleep(0.05)


async def test_each_hook_gets_its_own_directory_and_pipes_however_often_they_recur(
    spawner, project, tmp_path
) -> None:
    """posix_spawn's settings are kept per descriptors and directory, as they recur on every
    tool call: more directories than are kept, each twice, each hook still starts in its own
    directory with its output on its own pipes."""
    dirs = [tmp_path / f"dir{i}" for i in range(70)]
    for directory in dirs:
        directory.mkdir()
    hook = handler(project, "pwd; echo err >&2")
    for _ in range(2):
        for directory in dirs:
            run = await run_hook(hook, b"", HookContext(directory, project))
            assert (run.stdout.strip(), run.stderr.strip()) == (str(directory), "err")


async def test_a_long_command_runs_whole_and_is_not_kept_after_its_spawn(project) -> None:
    """A hook's short argv is kept encoded for the next tool call; a long one (a Bash tool's
    script carrying a file's contents) runs the same but is not kept in memory."""
    assert spawn._FAST is not None, "this machine's glibc has no posix_spawn fast path"
    spawn._kept_argv_c.cache_clear()
    long = await run_hook(
        handler(project, f": '{'x' * 100_000}'; echo long"), b"", HookContext(project, project)
    )
    assert long.stdout.strip() == "long"
    assert spawn._kept_argv_c.cache_info().currsize == 0
    short = await run_hook(handler(project, "echo short"), b"", HookContext(project, project))
    assert short.stdout.strip() == "short"
    assert spawn._kept_argv_c.cache_info().currsize == 1


@pytest.mark.parametrize("code", [0, 1, 2, 3, 126, 127, 255])
async def test_exit_code_is_reported_as_is(exit_wait, spawner, project, code: int) -> None:
    run = await run_hook(handler(project, f"exit {code}"), b"{}", HookContext(project, project))
    assert run.exit_code == code


async def test_a_hook_process_has_its_own_session_and_nothing_else_of_ours(
    spawner, project
) -> None:
    """Its own session, no descriptor of ours beyond 0-2, SIGPIPE not ignored, the cwd and
    environment given, stdin as sent."""
    leaked = os.open(os.devnull, os.O_RDONLY)
    os.set_inheritable(leaked, True)  # even an inheritable descriptor stays ours
    try:
        command = (
            'echo "pid=$$ sid=$(cut -d" " -f6 /proc/$$/stat)"; '
            'ls /proc/self/fd | sort -n | tr "\\n" " "; echo; '
            'grep SigIgn /proc/self/status; pwd; echo "$WAVE_PROJECT_DIR"; cat'
        )
        run = await run_hook(
            handler(project, command), b"stdin-text", HookContext(project, project)
        )
    finally:
        os.close(leaked)
    assert run.exit_code == 0, run.stderr
    ids, fds, ignored, cwd, root, stdin = run.stdout.splitlines()
    pid, sid = (part.split("=")[1] for part in ids.split())
    assert pid == sid  # a session (and process group) of its own
    assert fds.split() == ["0", "1", "2", "3"]  # 3: the directory `ls` itself reads
    # SIGPIPE and SIGXFSZ (which Python ignores for itself) back at their defaults; what our own
    # parent ignored (nohup, a background job's SIGINT/SIGQUIT) is inherited as Unix does
    inherited = int(proc_status("self", "SigIgn"), 16) & ~(
        1 << (signal.SIGPIPE - 1) | 1 << (signal.SIGXFSZ - 1)
    )
    assert int(ignored.split()[1], 16) == inherited
    assert cwd == str(project)
    assert root == str(project)
    assert stdin == "stdin-text"


async def test_a_copilot_hook_has_its_own_process_group_in_our_session(spawner, project) -> None:
    """As Copilot CLI starts its hooks: a process group of its own (a timeout still ends the whole
    tree), in wavehost's session — not a session of its own, which on Linux is also a new
    scheduling autogroup (each hook then waits behind a scheduler period on a busy machine)."""
    hook = handler(project, 'echo "$$ $(cut -d" " -f5,6 /proc/$$/stat)"')
    payload = PreToolUseInput(
        session_id="s", transcript_path="/t", cwd=str(project), tool_name="Bash", tool_input={}
    )
    launch = COPILOT.launch(hook, payload, HookContext(project, project))
    run = await run_hook(hook, b"{}", HookContext(project, project), launch=launch)
    pid, group, session = run.stdout.split()
    assert group == pid  # its own process group: a timeout kills its whole tree
    assert int(session) == os.getsid(0)  # in our session
