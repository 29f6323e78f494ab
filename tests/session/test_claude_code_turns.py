"""Hooks written for Claude Code behave as there (issue 14, part 2): what a hook's answer does to
the turn — `continue: false`, a headless `ask`, a huge UserPromptSubmit output, the env file —
through real chat turns with real hook processes and the fake model server; and `chat -p` waiting
for its background hooks, through the real CLI.

The rule is seed 000's where it has one, else what Claude Code 2.1.197 was seen to do.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hooks_doc import hook, hooks_for, merge
from tests.session.chat import (
    ChatRunner,
    agent,
    by_agent,
    is_subagent,
    lines,
    metas,
    notices,
    record,
    settings,
    tools,
    turn,
    wavehost,
)
from tests.session.fake_llm import serve
from wavehost import paths


def json_hook(output: dict[str, Any]) -> str:
    return f"echo '{json.dumps(output)}'"


def stop_hooks(reason: str) -> str:
    return json_hook({"continue": False, "stopReason": reason})


# Item 1: `continue: false` stops the agent after the current step; stopReason for the user only


async def test_continue_false_after_a_tool_runs_no_further_tool_and_no_model_call(
    chat: ChatRunner, project: Path
) -> None:
    first, second = project / "first.txt", project / "second.txt"
    calls = [
        ("Bash", {"command": f"touch {first}"}),
        ("Bash", {"command": f"touch {second}"}),
    ]
    hooks = hooks_for("PostToolUse", stop_hooks("The build is broken; fix it by hand"))
    result = await chat([turn("", *calls), turn("went on")], "go", hooks=hooks)

    assert first.exists()
    assert not second.exists()  # the next tool did not run
    assert len(result.llm.requests) == 1  # the model was not called again
    ran, skipped = tools(result.messages)
    assert ran.status == "success"
    assert skipped.status == "cancelled"
    shown = [n.text for n in notices(result.messages)]
    assert "PostToolUse:Bash hook stopped continuation: The build is broken; fix it by hand" in (
        shown
    )
    assert all("build is broken" not in m for m in metas(result.messages))  # not for the model


async def test_continue_false_on_stop_wins_over_a_block(chat: ChatRunner) -> None:
    output = {"continue": False, "stopReason": "Done for today", "decision": "block"}
    hooks = hooks_for("Stop", json_hook({**output, "reason": "keep going"}))
    result = await chat([turn("first"), turn("second")], "go", hooks=hooks)

    assert len(result.llm.requests) == 1
    assert "Stop hook stopped continuation: Done for today" in [
        n.text for n in notices(result.messages)
    ]
    assert "keep going" not in "\n".join(metas(result.messages))


async def test_continue_false_on_user_prompt_submit_calls_no_model(chat: ChatRunner) -> None:
    hooks = hooks_for("UserPromptSubmit", stop_hooks("Out of office"))
    result = await chat([turn("hello")], "hi", hooks=hooks)

    assert result.llm.requests == []
    assert "UserPromptSubmit hook stopped continuation: Out of office" in [
        n.text for n in notices(result.messages)
    ]


async def test_continue_false_inside_a_subagent_stops_the_main_agent_too(
    chat: ChatRunner, project: Path
) -> None:
    """Claude Code: `continue: false` stops everything — the subagent's reply, then the main
    agent's once the Agent call has its result (no later tool, no model call, no Stop hook)."""
    after, stop_log = project / "after.txt", project.parent / "stop.jsonl"
    hooks = merge(
        hooks_for("PostToolUse", stop_hooks("Quota used up"), matcher="Glob"),
        hooks_for("Stop", record(stop_log)),
        hooks_for("SubagentStop", record(stop_log)),
    )
    respond = by_agent(
        [
            turn(
                "",
                agent("list the files", "List files", "Explore"),
                ("Bash", {"command": f"touch {after}"}),
            ),
            turn("main went on"),
        ],
        [turn("", ("Glob", {"pattern": "*"})), turn("subagent went on")],
    )
    result = await chat([], "go", hooks=hooks, respond=respond)

    assert [is_subagent(r) for r in result.llm.requests] == [False, True]  # no model call after
    launched, skipped = tools(result.messages)
    assert launched.name == "Agent"
    assert launched.status == "success"
    assert skipped.status == "cancelled"
    assert not after.exists()  # the main agent's next tool did not run
    assert not stop_log.exists()  # neither Stop nor SubagentStop: the flow was stopped
    shown = [n.text for n in notices(result.messages)]
    assert "PostToolUse:Glob hook stopped continuation: Quota used up" in shown  # to the user
    assert all("Quota used up" not in m for m in metas(result.messages))


# Item 4: a PreToolUse JSON `ask` in headless mode: denied, the model sees the hook's reason


async def test_headless_ask_is_denied_with_the_hooks_reason(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    ask = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "Writes outside src/ need a human",
        }
    }
    call = ("Write", {"file_path": str(target), "content": "x"})
    hooks = hooks_for("PreToolUse", json_hook(ask), matcher="Write")
    result = await chat([turn("", call), turn("ok")], "go", hooks=hooks, mode="acceptEdits")

    assert not target.exists()
    [block] = tools(result.messages)
    assert block.status == "error"
    assert block.error == "Writes outside src/ need a human"
    sent = result.llm.requests[1]["messages"][-1]["content"]
    assert any(c.get("content") == "Writes outside src/ need a human" for c in sent)


# Item 9: a huge UserPromptSubmit output: a preview and the path of a file holding all of it


async def test_user_prompt_submit_output_over_10000_characters_goes_to_a_file(
    chat: ChatRunner, home: Path
) -> None:
    script = "import sys; sys.stdout.write('HEAD' + 'x' * 20000 + 'TAIL')"
    hooks = hooks_for("UserPromptSubmit", f'python3 -c "{script}"')
    result = await chat([turn("ok")], "hi", hooks=hooks)

    [request] = result.llm.request_texts()
    assert "HEAD" in request
    assert "TAIL" not in request
    [meta] = metas(result.messages)
    assert len(meta) < 2500
    folder = paths.session_dir(result.session.id, home)
    saved = next(folder.glob("hook-output-*.txt"))
    assert f"Full output saved to: {saved}" in meta
    assert saved.read_text() == "HEAD" + "x" * 20000 + "TAIL"


async def test_user_prompt_submit_output_of_10000_characters_is_injected_whole(
    chat: ChatRunner,
) -> None:
    hooks = hooks_for("UserPromptSubmit", "python3 -c \"print('y' * 10000, end='')\"")
    result = await chat([turn("ok")], "hi", hooks=hooks)

    assert metas(result.messages) == ["y" * 10000]


# Item 12: the environment, and $CLAUDE_ENV_FILE for SessionStart hooks


async def test_session_start_env_file_exports_reach_later_bash_commands(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "env.jsonl"
    dump = "import json, os; print(json.dumps({k: v for k, v in os.environ.items()}))"
    export = 'echo \'export GREETING="hello from the hook"\' >> "$CLAUDE_ENV_FILE"'
    hooks = merge(
        hooks_for("SessionStart", export),
        hooks_for("PreToolUse", f'python3 -c "{dump}" >> {log}'),
    )
    call = ("Bash", {"command": 'echo "$GREETING"'})
    result = await chat([turn("", call), turn("ok")], "go", hooks=hooks)

    [block] = tools(result.messages)
    assert block.result == "hello from the hook"
    [env] = lines(log)
    assert env["CLAUDECODE"] == "1"
    assert env["CLAUDE_CODE_SESSION_ID"] == env["WAVE_SESSION_ID"] == result.session.id
    assert env["CLAUDE_CODE_ENTRYPOINT"] == env["WAVE_ENTRYPOINT"] == "ide"
    assert env["CLAUDE_EFFORT"] == env["WAVE_EFFORT"] == "high"  # no setting: the models' default
    assert "CLAUDE_ENV_FILE" not in env  # SessionStart (and CwdChanged) hooks only


async def test_effort_is_the_effort_level_setting_and_the_environment_overrides_it(
    chat: ChatRunner, project: Path
) -> None:
    """Where Claude Code finds it: $CLAUDE_CODE_EFFORT_LEVEL, else `effortLevel` in the
    settings files, else `high`."""
    payloads, seen = project.parent / "pre.jsonl", project.parent / "effort.txt"
    user = paths.user_settings(chat.home)
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(json.dumps({"effortLevel": "low"}))
    hooks = merge(
        hooks_for("PreToolUse", record(payloads)),
        hooks_for("PreToolUse", f'echo "$CLAUDE_EFFORT $WAVE_EFFORT" >> {seen}'),
    )
    call = ("Bash", {"command": "true"})
    chat.monkeypatch.delenv("CLAUDE_CODE_EFFORT_LEVEL", raising=False)
    chat.monkeypatch.delenv("WAVE_EFFORT_LEVEL", raising=False)
    await chat([turn("", call), turn("ok")], "go", hooks=hooks)
    chat.monkeypatch.setenv("CLAUDE_CODE_EFFORT_LEVEL", "max")
    await chat([turn("", call), turn("ok")], "again", hooks=hooks)

    assert [line["effort"] for line in lines(payloads)] == [{"level": "low"}, {"level": "max"}]
    assert seen.read_text().splitlines() == ["low low", "max max"]


# Item 6: `chat -p` waits for its background hooks before it exits


@pytest.mark.server  # the command line
async def test_chat_p_waits_for_an_async_rewake_stop_hook_and_takes_its_wake_up(
    home: Path, project: Path
) -> None:
    started, flag = project.parent / "started", project.parent / "woke"
    # Exits 2 once (then the wake-up turn's own Stop finds the flag and exits 0).
    command = (
        f"touch {started}; sleep 1; if [ -e {flag} ]; then exit 0; fi; touch {flag}; "
        "echo 'found a hard-coded key in config.py' >&2; exit 2"
    )
    quiet = project.parent / "async-done"
    settings(
        project,
        merge(
            hooks_for("Stop", hook(command, asyncRewake=True, timeout=30)),
            hooks_for("Stop", hook(f"sleep 1; touch {quiet}", **{"async": True})),
        ),
    )
    async with serve([turn("All done."), turn("Removed the key.")]) as llm:
        code, out, err = await wavehost(
            "-p", "tidy up", "--cwd", str(project), "--output-format", "json",
            home=home, url=llm.url,
        )  # fmt: skip

    assert code == 0, err
    assert started.exists()  # both ran to their end before the exit
    assert quiet.exists()
    document = json.loads(out)
    assert document["result"] == "Removed the key."
    assert len(llm.requests) == 2
    woken = llm.request_texts()[1]
    assert "<system-reminder>" in woken
    assert "found a hard-coded key in config.py" in woken


@pytest.mark.server
async def test_chat_p_without_background_hooks_exits_after_its_turn(
    home: Path, project: Path
) -> None:
    log = project.parent / "stop.jsonl"
    settings(project, hooks_for("Stop", record(log)))
    async with serve([turn("Done.")]) as llm:
        code, out, err = await wavehost(
            "-p", "hi", "--cwd", str(project), home=home, url=llm.url
        )  # fmt: skip

    assert (code, out.strip()) == (0, "Done."), err
    [stop] = lines(log)
    assert stop["hook_event_name"] == "Stop"


# Exec form (`command` + `args`) and `if`: the guard a hook collection ships as
# `"command": "python3", "args": ["${CLAUDE_PLUGIN_ROOT}/scripts/guard.py"], "if": "Bash(git *)"`


async def test_an_exec_form_guard_with_an_if_rule_starts_only_for_git_and_blocks_a_force_push(
    chat: ChatRunner, project: Path
) -> None:
    scripts = project / "hook scripts"  # a space: a shell-form hook would need quoting here
    scripts.mkdir()
    started = project / "guard-started"
    (scripts / "guard.py").write_text(
        "import json, sys\n"
        "command = json.load(sys.stdin)['tool_input']['command']\n"
        f"open({str(started)!r}, 'a').write(command + '\\n')\n"
        "if 'push --force' in command:\n"
        "    sys.exit(print('force pushes are not allowed', file=sys.stderr) or 2)\n"
    )
    pushed, listed = project / "pushed", project / "listed"
    guard = {
        "type": "command",
        "command": "python3",
        "args": ["${CLAUDE_PROJECT_DIR}/hook scripts/guard.py"],
        "if": "Bash(git *)",
        "timeout": 10,
    }
    push = f"git push --force 2>/dev/null; touch '{pushed}'"
    calls = [("Bash", {"command": push}), ("Bash", {"command": f"touch '{listed}'"})]
    hooks = hooks_for("PreToolUse", guard, matcher="Bash")
    result = await chat([turn("", *calls), turn("ok")], "push it", hooks=hooks)

    assert not pushed.exists()
    assert listed.exists()
    assert started.read_text().splitlines() == [push]  # never started for the `touch`
    blocked, ran = tools(result.messages)
    assert blocked.status == "blocked"
    assert blocked.error == "PreToolUse:Bash hook error: force pushes are not allowed"
    assert blocked.blocked_by is not None
    assert blocked.blocked_by.command == "python3 '${CLAUDE_PROJECT_DIR}/hook scripts/guard.py'"
    assert ran.status == "success"
