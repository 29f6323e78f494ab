"""`wavehost hooks list|run` as hook authors use them: the real console script, real hooks."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hook_rows import filled
from tests.hooks_doc import hooks_doc
from tests.processes import alive
from tests.workspace import write_json
from wavehost import paths

REPO = Path(__file__).resolve().parent.parent


def wavehost(*args: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "wavehost", *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def test_hooks_list_json_shows_hooks_by_source_with_diagnostics(home, project) -> None:
    write_json(paths.user_settings(home), hooks_doc("Stop", "echo user"))
    document = hooks_doc(
        "PreToolUse", {"type": "command", "command": "./guard.sh", "timeout": 5}, matcher="Bash"
    )
    document["hooks"]["Nope"] = []
    write_json(paths.project_settings(project), document)
    result = wavehost("hooks", "list", "--project", str(project), "--json", home=home)
    assert result.returncode == 1, result.stderr  # a file has a problem: listed all the same
    listing = filled(json.loads(result.stdout))  # rows compact, as wave/hooks/list answers
    assert listing["project"] == {"dir": str(project), "name": "project", "home": str(home)}
    assert [(h["source"], h["event"], h["command"]) for h in listing["hooks"]] == [
        ("user", "Stop", "echo user"),
        ("project", "PreToolUse", "./guard.sh"),
    ]
    guard = listing["hooks"][1]
    assert guard["matcher"] == "Bash"
    assert guard["timeout"] == 5
    assert guard["path"] == str(paths.project_settings(project))
    assert guard["readOnly"] is False
    assert listing["diagnostics"] == [
        {
            "path": str(paths.project_settings(project)),
            "pointer": "/hooks/Nope",
            "message": 'unknown hook event "Nope"',
            "code": "unknownEvent",
            "args": {"event": "Nope", "suggestion": ""},
            "entry": {"event": "Nope", "matcher": None, "command": None, "catalogueEvent": None},
        }
    ]
    assert {f["path"]: f["exists"] for f in listing["configFiles"]}[
        str(paths.local_settings(project))
    ] is False


def test_hooks_list_text_is_readable(home, project) -> None:
    write_json(
        paths.project_settings(project),
        hooks_doc("PostToolUse", "ruff check", matcher="Edit|Write"),
    )
    result = wavehost("hooks", "list", "--project", str(project), home=home)
    assert "Project hooks (1)" in result.stdout
    assert "PostToolUse [Edit|Write]: ruff check" in result.stdout
    assert "User hooks (0)" in result.stdout


def test_hooks_run_fires_matching_hooks_and_prints_the_outcome(home, project) -> None:
    guard = (
        'python3 -c \'import json,sys; sys.exit("blocked " + json.load(sys.stdin)["tool_name"])\''
    )
    write_json(
        paths.project_settings(project), hooks_doc("PreToolUse", guard + "; exit 2", matcher="Bash")
    )
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}})
    result = wavehost(
        "hooks", "run", "PreToolUse", "--project", str(project), home=home, stdin=payload
    )
    assert result.returncode == 3, result.stderr  # the documented status of a blocking outcome
    outcome = json.loads(result.stdout)
    assert outcome["blocked"] is True
    assert outcome["toolError"] == "PreToolUse:Bash hook error: blocked Bash"
    assert outcome["runs"][0]["exitCode"] == 2


def test_hooks_run_fills_in_common_fields(home, project, tmp_path) -> None:
    seen = tmp_path / "seen.json"
    write_json(paths.project_settings(project), hooks_doc("Stop", f"cat > {seen}"))
    result = wavehost("hooks", "run", "Stop", "--project", str(project), home=home, stdin="")
    assert result.returncode == 0, result.stderr
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "Stop"
    assert payload["cwd"] == str(project)
    assert payload["permission_mode"] == "default"
    assert payload["transcript_path"] == str(home / ".wave" / "sessions" / "session_cli.json")
    assert payload["background_tasks"] == []
    assert payload["session_crons"] == []
    assert payload["stop_hook_active"] is False
    assert "last_assistant_message" not in payload


def test_hooks_run_rejects_a_bad_payload_clearly(home, project) -> None:
    result = wavehost(
        "hooks",
        "run",
        "PreToolUse",
        "--project",
        str(project),
        home=home,
        stdin='{"tool_input": {}}',
    )
    assert result.returncode == 2
    assert "invalid PreToolUse payload" in result.stderr
    assert "tool_name" in result.stderr
    result = wavehost("hooks", "run", "Stop", "--project", str(project), home=home, stdin="[1]")
    assert result.returncode == 2
    assert "must be a JSON object" in result.stderr


def test_hooks_run_rejects_an_unknown_event(home, project) -> None:
    result = wavehost("hooks", "run", "BeforeTool", home=home)
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_demo_project_hooks_load_cleanly(home) -> None:
    result = wavehost(
        "hooks", "list", "--project", str(REPO / "examples" / "demo-project"), "--json", home=home
    )
    listing = json.loads(result.stdout)
    assert listing["diagnostics"] == []
    assert {h["event"] for h in listing["hooks"]} == {
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    }


def test_hooks_list_shows_each_dialect_and_its_file(home, project) -> None:
    copilot = write_json(
        paths.copilot_project_hooks(project) / "team.json",
        {"version": 1, "hooks": {"preToolUse": [{"bash": "./guard.sh", "matcher": "bash"}]}},
    )
    snow = write_json(
        paths.snow_user_hooks(home) / "onStop.json",
        [{"description": "d", "hooks": [{"type": "command", "command": "./done.sh"}]}],
    )
    result = wavehost("hooks", "list", "--project", str(project), home=home)
    assert result.returncode == 0, result.stderr
    assert f"  file: {copilot} (Copilot CLI)" in result.stdout
    assert "preToolUse [bash]: ./guard.sh  (Copilot CLI)" in result.stdout
    assert f"  file: {snow} (Snow CLI)" in result.stdout
    assert "onStop: ./done.sh  (Snow CLI, disabled)" in result.stdout  # no "enabled": true


def test_hooks_run_with_a_dialect_renders_that_dialects_payload(home, project, tmp_path) -> None:
    seen = tmp_path / "seen.json"
    write_json(
        paths.copilot_project_hooks(project) / "a.json",
        {"hooks": {"preToolUse": [{"bash": f"cat > {seen}"}],
                   "PreToolUse": [{"bash": f"cat > {seen}.pascal"}]}},
    )  # fmt: skip
    payload = json.dumps({"tool_name": "Write", "tool_input": {"file_path": "/a", "content": "x"}})
    result = wavehost(
        "hooks", "run", "--dialect", "copilot", "preToolUse", "--project", str(project),
        home=home, stdin=payload,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    stdin = json.loads(seen.read_text())
    assert list(stdin) == ["sessionId", "timestamp", "cwd", "toolName", "toolArgs"]
    assert stdin["toolArgs"] == {"path": "/a", "file_text": "x"}
    assert not Path(f"{seen}.pascal").exists()  # only the hooks under that very name
    assert json.loads(result.stdout)["runs"][0]["dialect"] == "copilot"


def test_hooks_run_payload_only_prints_what_each_hook_reads_and_runs_nothing(
    home, project, tmp_path
) -> None:
    ran = tmp_path / "ran"
    write_json(paths.project_settings(project), hooks_doc("Stop", f"touch {ran}"))
    write_json(
        paths.snow_project_hooks(project) / "onStop.json",
        [{"description": "d", "hooks": [{"type": "command", "command": f"touch {ran}",
                                         "enabled": True}]}],
    )  # fmt: skip
    result = wavehost(
        "hooks", "run", "Stop", "--payload-only", "--project", str(project), home=home
    )
    assert result.returncode == 0, result.stderr
    wave, snow = (json.loads(line) for line in result.stdout.splitlines())
    assert (wave["dialect"], wave["stdin"]["hook_event_name"]) == ("wave", "Stop")
    assert (snow["dialect"], snow["event"], list(snow["stdin"])) == (
        "snow", "onStop", ["messages", "platform", "cwd"]
    )  # fmt: skip
    assert not ran.exists()


def test_hooks_run_rejects_an_event_of_another_dialect(home, project) -> None:
    result = wavehost("hooks", "run", "--dialect", "snow", "preToolUse", home=home)
    assert result.returncode == 2
    assert "snow has no event 'preToolUse'" in result.stderr


def test_hooks_run_exits_0_when_nothing_blocks_and_documents_its_statuses(home, project) -> None:
    write_json(paths.project_settings(project), hooks_doc("PreToolUse", "exit 0", matcher="Bash"))
    payload = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}})
    result = wavehost(
        "hooks", "run", "PreToolUse", "--project", str(project), home=home, stdin=payload
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["blocked"] is False
    usage = wavehost("hooks", "run", "--help", home=home).stdout
    assert "0 when the hooks ran and nothing blocks; 3 when the outcome blocks" in " ".join(
        usage.split()
    )


def test_hooks_run_names_the_missing_fields_in_plain_words(home, project) -> None:
    for stdin in ("{}", ""):
        result = wavehost(
            "hooks", "run", "PreToolUse", "--project", str(project), home=home, stdin=stdin
        )
        assert result.returncode == 2
        assert result.stderr == (
            "wavehost: invalid PreToolUse payload on stdin: missing tool_name and tool_input\n"
        )
    result = wavehost("hooks", "run", "Stop", "--project", str(project), home=home, stdin="{oops")
    assert result.returncode == 2
    assert result.stderr.startswith("wavehost: invalid Stop payload on stdin: it is not JSON (")
    assert len(result.stderr.splitlines()) == 1


def test_a_project_folder_that_does_not_exist_is_refused(home, tmp_path) -> None:
    nowhere = tmp_path / "nowhere"
    line = f"wavehost: no such project folder: {nowhere} (give --project an existing folder)\n"
    for args in (["hooks", "list"], ["hooks", "run", "Stop"], ["web"]):
        result = wavehost(*args, "--project", str(nowhere), home=home, stdin="{}")
        assert (result.returncode, result.stdout, result.stderr) == (2, "", line), args


def test_a_listing_cut_short_by_its_reader_is_no_traceback(home, project) -> None:
    # `wavehost hooks list --json | head -1`: more output than a pipe holds, then the reader goes.
    many = [{"type": "command", "command": f"echo {n} {'x' * 200}"} for n in range(600)]
    write_json(paths.project_settings(project), {"hooks": {"Stop": [{"hooks": many}]}})
    env = {**os.environ, "HOME": str(home)}
    listing = subprocess.Popen(
        [sys.executable, "-m", "wavehost", "hooks", "list", "--json", "--project", str(project)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert listing.stdout is not None
    assert listing.stderr is not None
    assert listing.stdout.readline() == b"{\n"
    listing.stdout.close()
    assert listing.wait(timeout=60) == 141
    assert listing.stderr.read() == b""


def test_a_missing_subcommand_is_named_by_what_to_type(home) -> None:
    result = wavehost("hooks", home=home)
    assert result.returncode == 2
    assert "the following arguments are required: {list,run}" in result.stderr
    assert "hooks_command" not in result.stderr
    assert "required: COMMAND" in wavehost(home=home).stderr


def _scripted(home: Path) -> list[str]:
    script = write_json(home / "turns.json", {"turns": [{"text": "hi"}]})
    return ["--provider", "scripted", "--script", str(script)]


def test_chat_resuming_an_unknown_session_is_a_one_line_error(home, project) -> None:
    done = wavehost(
        "chat", "--cwd", str(project), "--resume", "no-such-session", "-p", "hi",
        *_scripted(home), home=home,
    )  # fmt: skip
    assert done.returncode == 2  # a wrong call, as the README says of an unknown folder
    assert "Traceback" not in done.stderr
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("wavehost: no saved session 'no-such-session'")


def test_chat_resuming_a_corrupt_transcript_is_a_one_line_error(home, project) -> None:
    saved = home / ".wave" / "sessions" / "session_broken.json"
    saved.parent.mkdir(parents=True)
    saved.write_text('{"sessionId": "broken", "state": {"messages": [{"role": "robot"}]}}')
    for cwd in (["--cwd", str(project)], []):
        done = wavehost("chat", *cwd, "--resume", "broken", "-p", "hi", *_scripted(home), home=home)
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        [line] = done.stderr.strip().splitlines()
        assert line.startswith(f"wavehost: cannot read the saved session 'broken' ({saved}):")


# A trailing comma on line 3, after column 56: Python's decoder notices it one column later.
BROKEN = (
    '{"hooks": {\n  "Stop": [\n    {"hooks": [{"type": "command", "command": "echo hi"},]}\n'
    "  ]\n}}\n"
)


def test_a_syntax_error_is_told_the_same_in_its_files_row_and_in_problems(home, project) -> None:
    settings = paths.project_settings(project)
    settings.write_text(BROKEN)
    fix = "invalid JSON at line 3, column 57: a comma before the closing bracket (remove it)"
    listing = json.loads(
        wavehost("hooks", "list", "--project", str(project), "--json", home=home).stdout
    )
    [row] = [f for f in listing["configFiles"] if f["path"] == str(settings)]
    [problem] = listing["diagnostics"]
    assert row["error"] == problem["message"] == fix
    text = wavehost("hooks", "list", "--project", str(project), home=home).stdout
    assert f"file: {settings}  [error: {fix}]" in text
    assert f"  {settings}: {fix}" in text


def test_hooks_list_exits_1_when_a_file_has_a_problem_and_still_lists_everything(
    home, project
) -> None:
    write_json(paths.user_settings(home), hooks_doc("Stop", "echo user-hook"))
    clean = wavehost("hooks", "list", "--project", str(project), home=home)
    assert (clean.returncode, clean.stderr) == (0, "")
    paths.project_settings(project).write_text(BROKEN)
    for form in ([], ["--json"]):
        listed = wavehost("hooks", "list", "--project", str(project), *form, home=home)
        assert listed.returncode == 1, form
        assert "echo user-hook" in listed.stdout
        assert "invalid JSON at line 3" in listed.stdout


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (BROKEN.encode(), "invalid JSON at line 3, column 57"),
        (b'{"hooks": {"Stop": "\xff"}}', "cannot read: not UTF-8 text"),
    ],
    ids=["does not parse", "cannot be read"],
)
def test_hooks_run_fails_closed_on_a_broken_settings_file_after_running_the_other_hooks(
    home, project, tmp_path, content, problem
) -> None:
    ran = tmp_path / "user-hook-ran"
    write_json(paths.user_settings(home), hooks_doc("Stop", f"touch {ran}"))
    settings = paths.project_settings(project)
    settings.write_bytes(content)
    result = wavehost("hooks", "run", "Stop", "--project", str(project), home=home, stdin="{}")
    assert ran.exists()  # the other file's hook ran, as in a session
    outcome = json.loads(result.stdout)
    assert [r["command"] for r in outcome["runs"]] == [f"touch {ran}"]
    assert outcome["blocked"] is False
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"wavehost: {settings}: {problem}")
    assert line.endswith("its hooks did not run")


def test_hooks_run_of_one_dialect_is_not_failed_by_another_dialects_broken_file(
    home, project
) -> None:
    paths.project_settings(project).write_text(BROKEN)  # a Wave file
    result = wavehost(
        "hooks", "run", "--dialect", "copilot", "agentStop", "--project", str(project),
        home=home, stdin="{}",
    )  # fmt: skip
    assert result.returncode == 0
    assert result.stderr.startswith("wavehost: warning: ")  # said, as every problem is


def _as_a_terminal_starts_it() -> None:
    """Ctrl-C as a shell's foreground command gets it: at its default and not blocked. The test
    process may hold it otherwise (a background job ignores SIGINT; in the full run, after
    hundreds of tests, chat got Ctrl-C and went on, silent), and a child inherits that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_while_a_hook_runs_ends_the_hooks_process_tree_and_says_one_line(
    home, project, tmp_path
) -> None:
    hook_pid, child_pid = tmp_path / "hook.pid", tmp_path / "child.pid"
    hook = f"sleep 300 & echo $! > {child_pid}; echo $$ > {hook_pid}; wait"
    write_json(paths.project_settings(project), hooks_doc("UserPromptSubmit", hook))
    chat = subprocess.Popen(
        [sys.executable, "-m", "wavehost", "chat", "--cwd", str(project), "-p", "hi",
         *_scripted(home)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(home)}, preexec_fn=_as_a_terminal_starts_it,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        while not (hook_pid.exists() and hook_pid.read_text().strip()):
            assert chat.poll() is None, chat.communicate()
            assert time.monotonic() < deadline, "the hook never started"
            time.sleep(0.05)
        pids = [int(hook_pid.read_text()), int(child_pid.read_text())]
        assert all(alive(pid) for pid in pids)
        chat.send_signal(signal.SIGINT)  # Ctrl-C (to wavehost alone: the hook is its business)
        out, err = chat.communicate(timeout=60)
    finally:
        chat.kill()
    assert (chat.returncode, out, err) == (130, "", "wavehost: interrupted\n")
    assert not any(alive(pid) for pid in pids)


def test_ctrl_c_while_the_model_is_answering_is_exit_130_and_one_line(home, project) -> None:
    """The model's server took the request and has not answered yet (Ctrl-C in the usual wait)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(90)
        url = f"http://127.0.0.1:{server.getsockname()[1]}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WAVE_", "OPENAI_"))} | {
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": url,
            "ANTHROPIC_API_KEY": "test",
        }
        chat = subprocess.Popen(
            [sys.executable, "-m", "wavehost", "chat", "--cwd", str(project), "-p", "hi",
             "--provider", "anthropic"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            preexec_fn=_as_a_terminal_starts_it,
        )  # fmt: skip
        try:
            connection, _ = server.accept()
            with connection:
                connection.settimeout(90)
                assert connection.recv(65536).startswith(b"POST ")  # the request is on its way
                chat.send_signal(signal.SIGINT)
                out, err = chat.communicate(timeout=60)
        finally:
            chat.kill()
    assert (chat.returncode, out, err) == (130, "", "wavehost: interrupted\n")


def test_a_reader_that_stops_after_one_line_ends_it_quietly(home, project) -> None:
    """`wavehost … | head -1` for real: the output is longer than a pipe holds, so wavehost is
    still writing when head has gone."""
    # Each output some 300 KB: far more than the pipe (64 KB) and head's one read take.
    many = [{"type": "command", "command": f"echo {i} {'x' * 1000}"} for i in range(300)]
    write_json(paths.project_settings(project), {"hooks": {"Stop": [{"hooks": many}]}})
    reply = "\n".join(f"line {i} {'x' * 70}" for i in range(4000))
    script = write_json(home / "long.json", {"turns": [{"text": reply}]})
    wavehost_cmd = f"{sys.executable} -m wavehost"
    for command in (
        f"hooks list --project {project}",
        f"chat --cwd {project} -p hi --provider scripted --script {script}",
    ):
        done = subprocess.run(
            ["bash", "-c", f"{wavehost_cmd} {command} | head -1; exit ${{PIPESTATUS[0]}}"],
            capture_output=True, text=True, timeout=120, check=False,
            env={**os.environ, "HOME": str(home)},
        )  # fmt: skip
        assert (done.returncode, done.stderr) == (141, ""), command
        assert len(done.stdout.splitlines()) == 1


def _closed_pipe() -> int:
    """The writing end of a pipe whose reader is gone: every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    return write


@pytest.mark.parametrize(
    "args",
    [
        ["hooks", "list", "--json"],
        ["hooks", "run", "Stop"],
        ["protocol-schema"],
        ["chat", "-p", "hi"],
    ],
    ids=lambda args: " ".join(args),
)
def test_output_into_a_pipe_nobody_reads_is_exit_141_without_a_traceback(
    home, project, args
) -> None:
    write_json(paths.project_settings(project), hooks_doc("Stop", "true"))
    where = ["--project", str(project)] if args[0] == "hooks" else []
    where += [*_scripted(home), "--cwd", str(project)] if args[0] == "chat" else []
    write = _closed_pipe()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "wavehost", *args, *where],
            input="{}", stdout=write, stderr=subprocess.PIPE, text=True, timeout=60,
            env={**os.environ, "HOME": str(home)}, check=False,
        )  # fmt: skip
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


def _refusing_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(
    ("provider", "variable", "key"),
    [("anthropic", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
     ("openai", "OPENAI_BASE_URL", "OPENAI_API_KEY")],
)  # fmt: skip
def test_a_refused_connection_names_the_address_and_the_variable_once_on_stderr(
    home, project, provider, variable, key
) -> None:
    url = f"http://127.0.0.1:{_refusing_port()}"
    env = {**os.environ, "HOME": str(home), variable: url, key: "test"}
    for name in {"WAVE_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"} - {key}:
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "chat", "--cwd", str(project), "-p", "hi",
         "--provider", provider],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (1, "")
    [line] = done.stderr.strip().splitlines()
    assert f"cannot connect to {url} ({variable}): Connection refused" in line


def test_a_project_that_is_a_file_is_said_to_be_no_folder(home, tmp_path) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("x")
    done = wavehost("hooks", "list", "--project", str(file), home=home)
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr
        == f"wavehost: {file} is a file, not a folder (give --project the project folder)\n"
    )


@pytest.mark.parametrize(
    "args",
    [["hooks", "ruin"], ["chat"], ["web", "--port"], ["hooks", "run"], ["--log-level", "LOUD"]],
    ids=" ".join,
)
def test_a_wrong_call_is_one_line_naming_the_help_not_the_usage_block(home, args) -> None:
    done = wavehost(*args, home=home)
    assert (done.returncode, done.stdout) == (2, "")
    [line] = done.stderr.splitlines()
    assert line.startswith("wavehost: ")
    assert line.endswith("--help`")
