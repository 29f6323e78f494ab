"""`wavehost hooks list|run` as hook authors use them: the real console script, real hooks."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.hooks_doc import hooks_doc
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
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
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
            "entry": {"event": "Nope", "matcher": None, "command": None},
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
    assert done.returncode == 1
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
