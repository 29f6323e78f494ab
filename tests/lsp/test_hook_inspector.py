"""The hook inspector over the real server: run history (from chat sessions and tests), Test this
hook with a sample payload, and "Why didn't my hook fire?" over the project's real events."""

import json
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.hook_server import Reply, hook_server
from tests.hooks_doc import hook
from tests.lsp.client import reply, running_server, script
from tests.workspace import Workspace
from wavehost import paths
from wavehost.protocol import table


def _hooks(workspace: Workspace, groups: dict[str, list[dict[str, Any]]], **extra: Any) -> None:
    workspace.write(workspace.project_settings, {"hooks": groups, **extra})


def _by_command(listed: dict[str, Any]) -> dict[str, str]:
    return {h["command"]: h["id"] for h in listed["hooks"]}


async def test_runs_in_a_chat_session_are_recorded_per_hook_and_survive_a_restart(
    workspace: Workspace,
) -> None:
    guard = "echo 'no rm here' >&2; exit 2"
    _hooks(
        workspace,
        {
            "PreToolUse": [{"matcher": "Bash", "hooks": [hook(guard)]}],
            "PostToolUse": [{"matcher": "Read", "hooks": [hook("echo read-seen")]}],
        },
    )
    bash = ("Bash", {"command": "rm -rf build"})
    script(workspace, reply("Cleaning.", bash), reply("Blocked, fine."))
    async with running_server(workspace) as client:
        ids = _by_command(await client.list_hooks())
        opened = await client.open_chat()
        await client.turn(opened["sessionId"], "clean up")
        history = await client.call(table.HOOKS_HISTORY.name, {"id": ids[guard]})
        last = await client.call(table.HOOKS_HISTORY.name, {})

    [run] = history["runs"]
    assert (run["event"], run["subject"], run["exitCode"]) == ("PreToolUse", "Bash", 2)
    assert (run["blocked"], run["trigger"]) == (True, "session")
    assert run["sessionId"] == opened["sessionId"]
    assert run["stderr"] == "no rm here\n" or run["stderr"].strip() == "no rm here"
    assert run["durationMs"] > 0
    # The Read hook never ran: only the guard has a last run.
    assert [r["hookId"] for r in last["runs"]] == [ids[guard]]

    # Persisted per project, outside the project: a new server reads it back.
    log_file = paths.run_log(workspace.project, workspace.home)
    assert log_file.is_file()
    assert not any(p.name.endswith(".jsonl") for p in workspace.project.rglob("*"))
    async with running_server(workspace) as client:
        again = await client.call(table.HOOKS_HISTORY.name, {"id": ids[guard]})
    assert again["runs"] == history["runs"]


@pytest.mark.parametrize("dialect", ["copilot", "snow"])
async def test_copilot_and_snow_hooks_that_block_are_in_the_run_history_and_named_on_the_tool(
    workspace: Workspace, dialect: str
) -> None:
    if dialect == "copilot":  # preToolUse: exit 2 denies
        command = "cat > /dev/null; echo 'not today' >&2; exit 2"
        copilot_project(workspace.project, "guard.json", {"preToolUse": [bash(command)]})
    else:  # beforeToolCall: exit 1 blocks the tool
        command = "cat > /dev/null; echo 'not today' >&2; exit 1"
        snow_project(workspace.project, "beforeToolCall", rule(action(command)))
    marker = workspace.project / "ran"
    script(workspace, reply("", ("Bash", {"command": f"touch {marker}"})), reply("ok"))
    async with running_server(workspace) as client:
        [entry] = (await client.list_hooks())["hooks"]
        opened = await client.open_chat(permissionMode="bypassPermissions")
        view = await client.turn(opened["sessionId"], "run it")
        history = await client.call(table.HOOKS_HISTORY.name, {"id": entry["id"]})

    assert entry["dialect"] == dialect
    [tool] = view.blocks("tool")
    assert tool["status"] == "blocked"
    # Named as Wave's hooks are: the chat links to this very settings row.
    assert tool["blockedBy"]["id"] == entry["id"]
    assert (tool["blockedBy"]["event"], tool["blockedBy"]["command"]) == (entry["event"], command)
    assert tool["blockedBy"]["source"] == "project"
    [run] = history["runs"]
    assert (run["event"], run["subject"], run["exitCode"]) == (
        "PreToolUse",
        "Bash",
        int(command[-1]),
    )
    assert (run["blocked"], run["trigger"]) == (True, "session")
    assert run["sessionId"] == opened["sessionId"]
    assert run["stderr"].strip() == "not today"
    assert not marker.exists()


async def test_test_this_hook_runs_it_with_an_editable_sample_and_interprets_the_result(
    workspace: Workspace,
) -> None:
    script_file = workspace.write(
        workspace.root / "check.py",
        "import json, sys\n"
        "d = json.load(sys.stdin)\n"
        "print(d['tool_input'], file=sys.stderr)\n"
        "sys.exit(2 if 'rm' in d['tool_input'].get('command', '') else 0)\n",
    )
    check = f"python3 {script_file}"
    _hooks(workspace, {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [hook(check)]}]})
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": hook_id})
        payload = sample["payload"]
        assert sample["event"] == "PreToolUse"
        assert payload["hook_event_name"] == "PreToolUse"
        assert payload["tool_name"] == "Bash"  # a name the matcher accepts
        assert payload["cwd"] == str(workspace.project)
        assert payload["tool_input"]["command"]

        allowed = await client.call(table.HOOKS_TEST.name, {"id": hook_id, "payload": payload})
        edited = {**payload, "tool_input": {"command": "rm -rf /tmp/x"}}
        blocked = await client.call(table.HOOKS_TEST.name, {"id": hook_id, "payload": edited})
        history = await client.call(table.HOOKS_HISTORY.name, {"id": hook_id})

        with pytest.raises(JsonRpcException) as bad:
            await client.call(
                table.HOOKS_TEST.name, {"id": hook_id, "payload": {**payload, "tool_input": 3}}
            )

    assert allowed["exitCode"] == 0
    assert allowed["outcome"]["blocked"] is False
    assert json.loads(allowed["stdin"])["tool_name"] == "Bash"
    assert blocked["exitCode"] == 2
    assert "rm -rf /tmp/x" in blocked["stderr"]
    assert blocked["outcome"]["blocked"] is True
    assert blocked["outcome"]["toolError"].startswith("PreToolUse:Bash hook error:")
    assert blocked["durationMs"] > 0
    assert blocked["timedOut"] is False
    assert [r["trigger"] for r in history["runs"]] == ["test", "test"]
    assert [r["exitCode"] for r in history["runs"]] == [2, 0]  # newest first
    assert bad.value.data["reason"] == "invalidPayload"
    assert "tool_input" in bad.value.message


@pytest.mark.parametrize("dialect", ["copilot", "snow"])
async def test_test_this_hook_runs_copilot_and_snow_hooks_as_their_sessions_do(
    workspace: Workspace, dialect: str
) -> None:
    """Their own stdin shape and process (Copilot: bash, COPILOT_CLI=1), not Claude Code's."""
    seen = workspace.root / "seen.json"
    command = f'cat > {seen}; echo "cli=$COPILOT_CLI" >&2; exit 0'
    if dialect == "copilot":
        copilot_project(workspace.project, "log.json", {"preToolUse": [bash(command)]})
    else:
        snow_project(workspace.project, "beforeToolCall", rule(action(command)))
    async with running_server(workspace) as client:
        [entry] = (await client.list_hooks())["hooks"]
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": entry["id"]})
        payload = {**sample["payload"], "tool_name": "Bash", "tool_input": {"command": "ls"}}
        result = await client.call(table.HOOKS_TEST.name, {"id": entry["id"], "payload": payload})

    received = json.loads(seen.read_text())
    assert json.loads(result["stdin"]) == received  # what the page shows is what it read
    assert "tool_name" not in received
    if dialect == "copilot":
        assert (received["toolName"], received["toolArgs"]) == ("bash", {"command": "ls"})
        assert result["stderr"].strip() == "cli=1"
    else:
        assert (received["toolName"], received["args"]) == ("terminal-execute", {"command": "ls"})
        assert result["stderr"].strip() == "cli="
    assert result["exitCode"] == 0
    assert result["outcome"]["blocked"] is False


async def test_an_untrusted_hook_is_not_run_even_as_a_test(workspace: Workspace) -> None:
    marker = workspace.root / "ran"
    _hooks(workspace, {"Stop": [{"hooks": [hook(f"touch {marker}")]}]})
    async with running_server(workspace, options={"trusted": False}) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": hook_id})
        with pytest.raises(JsonRpcException) as refused:
            await client.call(table.HOOKS_TEST.name, {"id": hook_id, "payload": sample["payload"]})
        explained = await client.call(table.HOOKS_EXPLAIN.name, {"id": hook_id})
    assert refused.value.data["reason"] == "untrusted"
    assert not marker.exists()
    trusted = next(s for s in explained["steps"] if s["code"] == "trusted")
    assert trusted["status"] == "fail"
    assert explained["fires"] is False


async def test_why_didnt_it_fire_tests_the_matcher_against_the_sessions_real_tool_calls(
    workspace: Workspace,
) -> None:
    """A case-sensitive name that never matches, a regex that matched more than meant, and a
    command that another file already runs; all seen in real tool calls of a chat session."""
    workspace.write(
        workspace.user_settings,
        {
            "provider": "scripted",
            "script": str(workspace.root / "script.json"),
            "hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [hook("echo same")]}]},
        },
    )
    _hooks(
        workspace,
        {
            "PostToolUse": [
                {"matcher": "bash", "hooks": [hook("echo lower")]},
                {"matcher": "^Ed", "hooks": [hook("echo regex")]},
                {"matcher": "Read", "hooks": [hook("echo same")]},
            ]
        },
    )
    readme = workspace.project / "README.md"
    readme.write_text("hello\n")
    workspace.write(
        workspace.root / "script.json",
        {
            "turns": [
                reply(
                    "Looking.",
                    ("Bash", {"command": "echo hi"}),
                    ("Read", {"file_path": str(readme)}),
                    ("Edit", {"file_path": str(readme), "old_string": "hello", "new_string": "hi"}),
                ),
                reply("Done."),
            ]
        },
    )
    async with running_server(workspace) as client:
        listed = await client.list_hooks()
        opened = await client.open_chat(permissionMode="bypassPermissions")
        await client.turn(opened["sessionId"], "look around")
        ids = {(h["source"], h["command"]): h["id"] for h in listed["hooks"]}

        async def steps(key: tuple[str, str]) -> dict[str, dict[str, Any]]:
            answer = await client.call(
                table.HOOKS_EXPLAIN.name, {"id": ids[key], "sessionId": opened["sessionId"]}
            )
            return {s["code"]: s for s in answer["steps"]} | {"fires": answer["fires"]}

        lower = await steps(("project", "echo lower"))
        regex = await steps(("project", "echo regex"))
        twin = await steps(("project", "echo same"))
        original = await steps(("user", "echo same"))

    def cases(step: dict[str, Any]) -> dict[str, str]:
        return {c["subject"]: c["verdict"] for c in step["cases"]}

    assert [k for k in lower if k != "fires"] == [
        "discovered", "parsed", "trusted", "enabled", "event", "matcher", "dedupe"
    ]  # fmt: skip
    assert lower["matcher"]["status"] == "fail"
    assert cases(lower["matcher"]) == {"Bash": "caseMismatch", "Read": "noMatch", "Edit": "noMatch"}
    assert next(c for c in lower["matcher"]["cases"] if c["subject"] == "Bash")["hint"] == "bash"
    assert lower["fires"] is False
    # "^Ed" is a regex (searched): it fired on Edit, matching only part of the name.
    assert regex["matcher"]["status"] == "pass"
    assert cases(regex["matcher"])["Edit"] == "partialMatch"
    # The same command in the user's file runs first; the project's twin never does.
    assert cases(twin["matcher"])["Read"] == "deduplicated"
    assert twin["dedupe"]["status"] == "fail"
    assert twin["dedupe"]["args"]["path"] == str(workspace.user_settings)
    assert original["dedupe"]["status"] == "pass"
    assert cases(original["matcher"])["Read"] == "fired"


async def test_why_didnt_it_fire_says_an_if_rule_decides_per_call(workspace: Workspace) -> None:
    guarded = hook("echo guard", **{"if": "Bash(git push *)"})
    _hooks(workspace, {"PreToolUse": [{"matcher": "Bash", "hooks": [guarded, hook("echo all")]}]})
    async with running_server(workspace) as client:
        ids = _by_command(await client.list_hooks())
        with_rule = await client.call(table.HOOKS_EXPLAIN.name, {"id": ids["echo guard"]})
        without = await client.call(table.HOOKS_EXPLAIN.name, {"id": ids["echo all"]})

    steps = {s["code"]: s for s in with_rule["steps"]}
    assert list(steps)[-3:] == ["matcher", "if", "dedupe"]
    assert (steps["if"]["status"], steps["if"]["args"]) == ("info", {"rule": "Bash(git push *)"})
    assert "if" not in {s["code"] for s in without["steps"]}


async def test_why_didnt_it_fire_names_the_file_whose_disable_all_hooks_is_in_force(
    workspace: Workspace,
) -> None:
    _hooks(workspace, {"Stop": [{"hooks": [hook("echo bye")]}]})
    workspace.write(workspace.local_settings, {"disableAllHooks": True})
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        explained = await client.call(table.HOOKS_EXPLAIN.name, {"id": hook_id})
    enabled = next(s for s in explained["steps"] if s["code"] == "enabled")
    assert (enabled["status"], enabled["args"]["path"]) == ("fail", str(workspace.local_settings))
    matcher = next(s for s in explained["steps"] if s["code"] == "matcher")
    assert matcher["args"]["field"] == ""  # Stop has no matcher: it fires on every stop


async def test_test_this_hook_posts_an_http_hooks_sample_and_why_names_a_blocked_url(
    workspace: Workspace,
) -> None:
    deny = {"decision": "block", "reason": "not today"}
    async with hook_server({"/guard": Reply(body=json.dumps(deny).encode())}) as server:
        blocked_url = "http://127.0.0.1:9/elsewhere"
        workspace.write(workspace.user_settings, {"allowedHttpHookUrls": [server.url("/*")]})
        guard = {"type": "http", "url": server.url("/guard")}
        _hooks(
            workspace,
            {"PreToolUse": [{"hooks": [guard, {"type": "http", "url": blocked_url}]}]},
        )
        async with running_server(workspace) as client:
            ids = _by_command(await client.list_hooks())
            sample = await client.call(table.HOOKS_SAMPLE.name, {"id": ids[server.url("/guard")]})
            result = await client.call(
                table.HOOKS_TEST.name,
                {"id": ids[server.url("/guard")], "payload": sample["payload"]},
            )
            history = await client.call(table.HOOKS_HISTORY.name, {"id": ids[server.url("/guard")]})
            explained = await client.call(table.HOOKS_EXPLAIN.name, {"id": ids[blocked_url]})

    [request] = server.requests
    assert json.loads(request.body) == json.loads(result["stdin"])  # the sample, as posted
    assert result["outcome"]["blocked"] is True
    assert result["outcome"]["toolError"] == "not today"
    assert [r["trigger"] for r in history["runs"]] == ["test"]
    allowed = next(s for s in explained["steps"] if s["code"] == "allowed")
    assert (allowed["status"], allowed["args"]) == ("fail", {"url": blocked_url})
    assert explained["fires"] is False


@pytest.mark.parametrize("kind", ["prompt", "agent"])
async def test_test_this_hook_asks_the_projects_model_for_a_prompt_or_agent_hook(
    workspace: Workspace, kind: str
) -> None:
    (workspace.project / "notes.txt").write_text("no shell\n")
    if kind == "prompt":
        script(workspace, reply('{"ok": false, "reason": "nope"}'))
    else:
        read = ("Read", {"file_path": str(workspace.project / "notes.txt")})
        script(
            workspace,
            reply("", read),
            reply("", ("StructuredOutput", {"ok": False, "reason": "nope"})),
        )
    _hooks(workspace, {"PreToolUse": [{"hooks": [{"type": kind, "prompt": "Is it safe?"}]}]})
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": hook_id})
        payload = {**sample["payload"], "tool_name": "Bash", "tool_input": {"command": "ls"}}
        result = await client.call(table.HOOKS_TEST.name, {"id": hook_id, "payload": payload})
        history = await client.call(table.HOOKS_HISTORY.name, {"id": hook_id})

    said = "[Is it safe?]: nope" if kind == "prompt" else "Agent hook condition was not met: nope"
    assert result["outcome"]["blocked"] is True
    assert result["outcome"]["toolError"] == f"PreToolUse:Bash hook error: {said}"
    assert [r["trigger"] for r in history["runs"]] == ["test"]


async def test_test_this_hook_says_why_a_prompt_hook_has_no_model(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "WAVE_PROVIDER"):
        monkeypatch.delenv(name, raising=False)  # (the server inherits the environment)
    _hooks(workspace, {"Stop": [{"hooks": [{"type": "prompt", "prompt": "Done?"}]}]})
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": hook_id})
        result = await client.call(
            table.HOOKS_TEST.name, {"id": hook_id, "payload": sample["payload"]}
        )
    assert result["spawnError"].startswith("Hook evaluator API error: no model provider")
    assert result["outcome"]["blocked"] is False


async def test_a_hooks_history_stays_with_it_when_another_hook_before_it_is_deleted(
    workspace: Workspace,
) -> None:
    """History belongs to the hook, not to its position: deleting the first hook moves the
    second one up in the file, and its runs stay its own."""
    _hooks(workspace, {"Stop": [{"hooks": [hook("echo first"), hook("echo second")]}]})
    async with running_server(workspace) as client:
        ids = _by_command(await client.list_hooks())
        for command in ("echo first", "echo second", "echo second"):
            sample = await client.call(table.HOOKS_SAMPLE.name, {"id": ids[command]})
            payload = sample["payload"]
            await client.call(table.HOOKS_TEST.name, {"id": ids[command], "payload": payload})
        await client.call(table.HOOKS_DELETE.name, {"id": ids["echo first"]})
        [moved] = (await client.list_hooks())["hooks"]
        history = await client.call(table.HOOKS_HISTORY.name, {"id": moved["id"]})
        last = await client.call(table.HOOKS_HISTORY.name, {})

    assert moved["id"] != ids["echo second"]  # its position is in its id: the id changed
    assert [r["stdout"] for r in history["runs"]] == ["second", "second"]
    assert {r["hookId"] for r in history["runs"]} == {moved["id"]}
    assert [(r["hookId"], r["stdout"]) for r in last["runs"]] == [(moved["id"], "second")]


async def test_a_delete_answers_with_the_last_runs_under_the_ids_it_moved(
    workspace: Workspace,
) -> None:
    """The settings page needs no second request after a delete: the answer carries the last
    run of every hook left, under its id in the answer's listing (what wave/hooks/history
    without an id answers now)."""
    commands = ("echo first", "echo second", "echo third")
    _hooks(workspace, {"Stop": [{"hooks": [hook(c) for c in commands]}]})
    async with running_server(workspace) as client:
        ids = _by_command(await client.list_hooks())
        for command in ("echo first", "echo second"):  # the third never ran
            sample = await client.call(table.HOOKS_SAMPLE.name, {"id": ids[command]})
            payload = sample["payload"]
            await client.call(table.HOOKS_TEST.name, {"id": ids[command], "payload": payload})
        answer = await client.call(table.HOOKS_DELETE.name, {"id": ids["echo first"]})
        last = await client.call(table.HOOKS_HISTORY.name, {})

    listed = _by_command(answer["listing"])
    assert set(listed) == {"echo second", "echo third"}
    assert listed["echo second"] != ids["echo second"]  # it moved up: its id changed
    assert [(r["hookId"], r["stdout"]) for r in answer["lastRuns"]] == [
        (listed["echo second"], "second")
    ]
    assert answer["lastRuns"] == last["runs"]


async def test_run_again_runs_the_hook_on_the_input_a_chat_run_received(
    workspace: Workspace,
) -> None:
    seen = workspace.root / "seen.jsonl"
    _hooks(workspace, {"PreToolUse": [{"matcher": "Bash", "hooks": [hook(f"cat >> {seen}")]}]})
    script(workspace, reply("", ("Bash", {"command": "echo from-the-chat"})), reply("done"))
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        opened = await client.open_chat(permissionMode="bypassPermissions")
        await client.turn(opened["sessionId"], "go")
        [run] = (await client.call(table.HOOKS_HISTORY.name, {"id": hook_id}))["runs"]
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": hook_id, "input": run["input"]})
        again = await client.call(table.HOOKS_TEST.name, {"id": hook_id, "input": run["input"]})
        with pytest.raises(JsonRpcException) as gone:
            await client.call(table.HOOKS_TEST.name, {"id": hook_id, "input": "0" * 16})

    first, second = seen.read_bytes().splitlines(keepends=True)
    assert first == second  # the very stdin the chat's run read, newline and all
    assert json.loads(first)["tool_input"] == {"command": "echo from-the-chat"}
    assert json.loads(first)["session_id"] == opened["sessionId"]
    assert json.loads(sample["stdin"]) == json.loads(first)
    assert sample["payload"]["tool_input"] == {"command": "echo from-the-chat"}
    assert again["exitCode"] == 0
    assert gone.value.data["reason"] == "inputNotKept"
    inputs = paths.run_log(workspace.project, workspace.home).with_suffix(".inputs.jsonl")
    assert inputs.stat().st_mode & 0o777 == 0o600  # as private as a transcript


async def test_test_shows_and_sends_the_stdin_of_the_hooks_own_dialect(
    workspace: Workspace,
) -> None:
    """A Copilot hook's Test shows toolName/toolArgs and sends the edited text, one line of
    compact JSON; the outcome is read as its session would."""
    seen = workspace.root / "seen.json"
    command = f"cat > {seen}; exit 0"
    copilot_project(workspace.project, "log.json", {"preToolUse": [bash(command, matcher="bash")]})
    async with running_server(workspace) as client:
        [entry] = (await client.list_hooks())["hooks"]
        sample = await client.call(table.HOOKS_SAMPLE.name, {"id": entry["id"]})
        shown = json.loads(sample["stdin"])
        edited = json.dumps({**shown, "toolArgs": {"command": "rm -rf build"}}, indent=2)
        result = await client.call(
            table.HOOKS_TEST.name,
            {"id": entry["id"], "payload": sample["payload"], "stdin": edited},
        )
        history = await client.call(table.HOOKS_HISTORY.name, {"id": entry["id"]})
        again = await client.call(
            table.HOOKS_SAMPLE.name, {"id": entry["id"], "input": history["runs"][0]["input"]}
        )
        with pytest.raises(JsonRpcException) as not_json:
            await client.call(
                table.HOOKS_TEST.name,
                {"id": entry["id"], "payload": sample["payload"], "stdin": '{"a": }'},
            )

    assert "\n" in sample["stdin"]  # laid out to be edited
    assert (shown["toolName"], "tool_name" in shown) == ("bash", False)
    received = seen.read_text()
    assert "\n" not in received  # sent as Copilot writes it: one line, compact
    assert json.loads(received)["toolArgs"] == {"command": "rm -rf build"}
    assert json.loads(result["stdin"]) == json.loads(received)
    assert json.loads(again["stdin"])["toolArgs"] == {"command": "rm -rf build"}  # as sent
    assert not_json.value.message == "The input is not JSON (line 1, column 7)."


async def test_an_input_that_does_not_fit_the_event_is_told_in_plain_words(
    workspace: Workspace,
) -> None:
    _hooks(workspace, {"PreToolUse": [{"hooks": [hook("true")]}]})
    async with running_server(workspace) as client:
        [hook_id] = _by_command(await client.list_hooks()).values()
        bad = {"session_id": "s", "cwd": "/", "tool_name": 5, "permission_mode": "sometimes"}
        with pytest.raises(JsonRpcException) as refused:
            await client.call(table.HOOKS_TEST.name, {"id": hook_id, "payload": bad})

    message = refused.value.message
    assert message == (
        "This is not a PreToolUse input: missing transcript_path and tool_input; "
        'permission_mode must be "default", "acceptEdits", "plan", "auto", "dontAsk" or '
        '"bypassPermissions"; tool_name must be text.'
    )
    assert "Input should" not in message
    assert "Field required" not in message
    problems = {p["field"]: p for p in refused.value.data["problems"]}
    assert (problems["tool_name"]["kind"], problems["tool_name"]["expected"]) == ("type", "text")
    assert problems["tool_input"]["kind"] == "missing"
    assert "acceptEdits" in problems["permission_mode"]["choices"]
