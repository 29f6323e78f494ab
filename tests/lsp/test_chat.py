"""wave/chat/*: sessions driven through the real server, with real hook processes and the
scripted provider replaying a script file."""

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from tests.hooks_doc import hook
from tests.lsp.client import TIMEOUT, HostClient, project_hooks, reply, running_server, script
from tests.lsp.wire_bytes import reply_on_the_wire
from tests.processes import alive, until
from tests.workspace import Workspace
from wavehost.protocol import table


async def test_a_prompt_streams_updates_until_the_session_is_idle_again(
    workspace: Workspace,
) -> None:
    target = workspace.project / "hello.txt"
    write = ("Write", {"file_path": str(target), "content": "hi\n"})
    script(workspace, reply("Writing it.", write), reply("Done: hello.txt is there."))
    async with running_server(workspace) as client:
        opened = await client.open_chat(permissionMode="acceptEdits")
        session_id = opened["sessionId"]
        view = await client.turn(session_id, "write hello")

    assert opened["status"] == "idle"
    assert opened["messages"] == []
    assert opened["permissionMode"] == "acceptEdits"
    assert opened["provider"] == "scripted"
    assert Path(opened["transcriptPath"]).name == f"session_{session_id}.json"
    assert target.read_text() == "hi\n"
    roles = [m["role"] for m in view.messages]
    assert roles == ["user", "assistant", "assistant"]
    assert view.messages[0]["content"] == "write hello"
    [tool] = view.blocks("tool")
    assert (tool["name"], tool["status"], tool["error"]) == ("Write", "success", None)
    assert view.messages[-1]["blocks"] == [{"type": "text", "text": "Done: hello.txt is there."}]
    told = [u["status"] for u in view.notifications if u["status"] is not None]  # null: the same
    assert told[-1] == "idle"
    assert "running" in told
    # what the panel built from the deltas is what the session saved
    saved = json.loads(Path(opened["transcriptPath"]).read_text())
    assert [m["id"] for m in saved["state"]["messages"]] == [m["id"] for m in view.messages]


async def test_a_pre_tool_use_exit_2_hook_fails_the_tool_with_its_stderr(
    workspace: Workspace,
) -> None:
    project_hooks(workspace, "PreToolUse", "echo 'no shell today' >&2; exit 2", matcher="Bash")
    marker = workspace.project / "ran"
    script(workspace, reply("", ("Bash", {"command": f"touch {marker}"})), reply("ok"))
    async with running_server(workspace) as client:
        opened = await client.open_chat(permissionMode="bypassPermissions")
        view = await client.turn(opened["sessionId"], "run it")

    [tool] = view.blocks("tool")
    assert tool["status"] == "blocked"  # a hook refused it: not a tool that ran and failed
    assert tool["error"] == "PreToolUse:Bash hook error: no shell today"
    assert tool["blockedBy"]["event"] == "PreToolUse"
    assert not marker.exists()


async def test_a_system_message_arrives_as_an_info_notice(workspace: Workspace) -> None:
    output = json.dumps({"systemMessage": "tests are green"})
    project_hooks(workspace, "Stop", f"echo '{output}'")
    script(workspace, reply("all done"))
    async with running_server(workspace) as client:
        opened = await client.open_chat()
        view = await client.turn(opened["sessionId"], "finish")

    [notice] = view.blocks("notice")
    assert (notice["level"], notice["text"], notice["event"]) == ("info", "tests are green", "Stop")


async def test_running_hooks_report_their_status_message(workspace: Workspace) -> None:
    gate = workspace.root / "gate"
    wait = f"while [ ! -f {gate} ]; do sleep 0.05; done"
    workspace.write(
        workspace.project_settings,
        {"hooks": {"UserPromptSubmit": [{"hooks": [hook(wait, statusMessage="Checking prompt")]}]}},
    )
    script(workspace, reply("fine"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        await client.send_chat(session_id, "hello")
        await client.chat_until(session_id, lambda v: v.running_hooks == ["Checking prompt"])
        gate.touch()
        view = await client.chat_until(session_id, lambda v: v.turns == 1)

    assert view.running_hooks == []
    assert view.messages[-1]["blocks"][0]["text"] == "fine"


async def test_a_message_sent_while_a_turn_runs_is_queued_and_runs_after_it(
    workspace: Workspace,
) -> None:
    gate = workspace.root / "gate"
    slow = ("Bash", {"command": f"while [ ! -f {gate} ]; do sleep 0.05; done; echo slow"})
    script(workspace, reply("", slow), reply("first done"), reply("second done"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        first = await client.send_chat(session_id, "first")
        await client.chat_until(
            session_id, lambda v: any(b["status"] == "running" for b in v.blocks("tool"))
        )
        second = await client.send_chat(session_id, "second")
        view = await client.chat_until(session_id, lambda v: v.queued == 1)
        assert view.status == "running"
        gate.touch()
        view = await client.chat_until(session_id, lambda v: v.status == "idle" and not v.queued)

    assert first == {"queued": False}
    assert second == {"queued": True}
    users = [m["content"] for m in view.messages if m["role"] == "user"]
    assert users == ["first", "second"]
    texts = [b["text"] for b in view.blocks("text")]
    assert texts == ["first done", "second done"]


async def test_cancel_kills_the_running_bash_tool_and_its_processes(workspace: Workspace) -> None:
    shell_pid, sleep_pid = workspace.root / "shell.pid", workspace.root / "sleep.pid"
    command = f"echo $$ > {shell_pid}; sleep 300 & echo $! > {sleep_pid}; wait"
    script(workspace, reply("", ("Bash", {"command": command})), reply("after the cancel"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        await client.send_chat(session_id, "sleep")
        await until(lambda: sleep_pid.exists() and sleep_pid.read_text().strip())
        pids = int(shell_pid.read_text()), int(sleep_pid.read_text())
        assert all(alive(pid) for pid in pids)
        cancelled = await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
        view = await client.chat_until(session_id, lambda v: v.turns == 1)
        await until(lambda: not any(alive(pid) for pid in pids))
        idle_again = await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
        view = await client.turn(session_id, "go on")

    assert cancelled == {"cancelled": True}
    assert idle_again == {"cancelled": False}
    [tool] = view.blocks("tool")
    assert (tool["status"], tool["error"]) == ("cancelled", "Interrupted by user")
    assert any(n["text"] == "Interrupted by user" for n in view.blocks("notice"))
    assert view.messages[-1]["blocks"][0]["text"] == "after the cancel"


def _write(path: Path, content: str = "x") -> tuple[str, dict[str, Any]]:
    return ("Write", {"file_path": str(path), "content": content})


async def test_permission_allowed_by_the_user_lets_the_tool_run(workspace: Workspace) -> None:
    target = workspace.project / "a.txt"
    script(workspace, reply("", _write(target)), reply("written"))
    async with running_server(workspace) as client:
        client.permission_answers.append({"allow": True})
        session_id = (await client.open_chat())["sessionId"]
        view = await client.turn(session_id, "write")

    [asked] = client.permission_requests
    [tool] = view.blocks("tool")
    assert asked == {
        "sessionId": session_id,
        "toolUseId": tool["id"],
        "toolName": "Write",
        "toolInput": {"file_path": str(target), "content": "x"},
        "mode": "default",
        "reason": None,
        "askedBy": None,  # the mode asks here, no hook
        "mcpServer": None,
        "mcpTool": None,
        "runs": None,  # the input says what runs
    }
    assert tool["status"] == "success"
    assert target.read_text() == "x"


async def test_permission_denied_by_the_user_refuses_the_tool_with_their_words(
    workspace: Workspace,
) -> None:
    target = workspace.project / "a.txt"
    script(workspace, reply("", _write(target)), reply("understood"))
    async with running_server(workspace) as client:
        client.permission_answers.append({"allow": False, "message": "not that file"})
        session_id = (await client.open_chat())["sessionId"]
        view = await client.turn(session_id, "write")

    [tool] = view.blocks("tool")
    assert tool["status"] == "error"
    assert tool["error"].startswith("The user doesn't want to proceed with this tool use.")
    assert tool["error"].endswith("The user said: not that file")
    assert not target.exists()


async def test_always_allow_is_remembered_for_the_session(workspace: Workspace) -> None:
    first, second = workspace.project / "1.txt", workspace.project / "2.txt"
    script(
        workspace,
        reply("", _write(first)),
        reply("", _write(second)),
        reply("both"),
        reply("", ("Bash", {"command": "true"})),
        reply("ran"),
    )
    async with running_server(workspace) as client:
        client.permission_answers += [{"allow": True, "always": True}, {"allow": True}]
        session_id = (await client.open_chat())["sessionId"]
        await client.turn(session_id, "write both")
        asked_for_writes = list(client.permission_requests)
        await client.turn(session_id, "now a command")

    assert [r["toolName"] for r in asked_for_writes] == ["Write"]
    assert [r["toolName"] for r in client.permission_requests] == ["Write", "Bash"]
    assert first.exists()
    assert second.exists()


async def test_cancel_while_asking_withdraws_the_question(workspace: Workspace) -> None:
    target = workspace.project / "a.txt"
    script(workspace, reply("", _write(target)), reply("next"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        await client.send_chat(session_id, "write")  # no answer queued: the client waits
        await asyncio.wait_for(client.permission_asked.wait(), TIMEOUT)
        await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
        view = await client.chat_until(session_id, lambda v: v.turns == 1)
        client.permission_answers.append({"allow": True})  # the session still works
        view = await client.turn(session_id, "again")

    [tool] = view.blocks("tool")
    assert tool["status"] == "cancelled"
    assert not target.exists()
    assert view.messages[-1]["blocks"][0]["text"] == "next"


@pytest.mark.parametrize(
    ("method", "params", "problem"),
    [
        (table.CHAT_OPEN.name, {"permissionMode": "yolo"}, "permissionMode"),
        (table.CHAT_OPEN.name, {"sessionId": "../../etc/passwd"}, "sessionId"),
        (table.CHAT_OPEN.name, {"provider": "gemini"}, "provider"),
        (table.CHAT_SEND.name, {"sessionId": "abc"}, "text: Field required"),
        (table.CHAT_SEND.name, {"sessionId": "abc", "text": ""}, "text"),
        (table.CHAT_SEND.name, ["abc", "hi"], "params must be an object"),
        (table.CHAT_CANCEL.name, {}, "sessionId: Field required"),
    ],
)
async def test_invalid_params_are_error_32602_naming_the_field(
    workspace: Workspace, method: str, params: Any, problem: str
) -> None:
    script(workspace, reply("unused"))
    async with running_server(workspace) as client:
        with pytest.raises(JsonRpcException) as refused:
            await client.call(method, params)
    assert refused.value.code == -32602
    assert refused.value.message.startswith(f"Invalid params for {method}: ")
    assert problem in refused.value.message


async def _refused(client: HostClient, method: str, params: Any) -> dict[str, Any]:
    with pytest.raises(JsonRpcException) as refused:
        await client.call(method, params)
    assert refused.value.code == -32803
    data: dict[str, Any] = refused.value.data
    assert data["message"] == refused.value.message
    return data


async def test_unknown_sessions_and_a_missing_provider_are_request_failures(
    workspace: Workspace,
) -> None:
    async with running_server(workspace) as client:
        no_provider = await _refused(client, table.CHAT_OPEN.name, {})
        not_open = await _refused(client, table.CHAT_SEND.name, {"sessionId": "nope", "text": "hi"})

    assert no_provider["reason"] == "noProvider"
    assert not_open == {
        "reason": "sessionNotOpen",
        "sessionId": "nope",
        "message": not_open["message"],
    }


async def test_resuming_a_saved_session_by_id_returns_its_messages(workspace: Workspace) -> None:
    log = workspace.root / "starts"
    project_hooks(workspace, "SessionStart", f"cat >> {log}")
    script(workspace, reply("first answer"), reply("second answer"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        before = (await client.turn(session_id, "question")).messages

    async with running_server(workspace) as client:
        resumed = await client.open_chat(sessionId=session_id)
        again = await client.call(table.CHAT_OPEN.name, {"sessionId": session_id})

    assert resumed["sessionId"] == session_id
    assert resumed["messages"] == before
    assert [m["role"] for m in before] == ["user", "assistant"]
    assert again["messages"] == before  # an open session is reattached, not started twice
    sources = [json.loads(line)["source"] for line in log.read_text().splitlines()]
    assert sources == ["startup", "resume"]


async def test_unknown_saved_session_is_session_not_found(workspace: Workspace) -> None:
    script(workspace, reply("unused"))
    async with running_server(workspace) as client:
        data = await _refused(client, table.CHAT_OPEN.name, {"sessionId": "never-saved"})
    assert data["reason"] == "sessionNotFound"
    assert data["sessionId"] == "never-saved"


async def test_shutdown_ends_open_sessions_and_session_end_hooks_run(
    workspace: Workspace,
) -> None:
    ended = workspace.root / "ended.json"
    project_hooks(workspace, "SessionEnd", f"cat > {ended}")
    script(workspace, reply("hi"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        assert not ended.exists()

    payload = json.loads(ended.read_text())
    assert (payload["hook_event_name"], payload["session_id"]) == ("SessionEnd", session_id)


async def test_untrusted_project_hooks_do_not_run_but_programmatic_ones_do(
    workspace: Workspace,
) -> None:
    project_hooks(workspace, "PreToolUse", "echo 'project hook' >&2; exit 2", matcher="Bash")
    programmatic = {
        "PostToolUse": [{"matcher": "Bash", "hooks": [hook("echo 'checked' >&2; exit 2")]}]
    }
    script(workspace, reply("", ("Bash", {"command": "echo ran"})), reply("ok"))
    options = {"trusted": False, "hooks": programmatic}
    async with running_server(workspace, options=options) as client:
        session_id = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        view = await client.turn(session_id, "run")

    [tool] = view.blocks("tool")
    assert (tool["status"], tool["result"]) == ("success", "ran")
    meta = [m["content"] for m in view.messages if m["role"] == "user" and m["isMeta"]]
    assert meta == ['PostToolUse:Bash hook blocking error from command: "echo \'checked\' >&2; '
                    "exit 2\": checked"]  # fmt: skip


async def test_close_ends_the_session_its_session_end_hook_runs_and_it_is_gone(
    workspace: Workspace,
) -> None:
    ended = workspace.root / "ended.json"
    project_hooks(workspace, "SessionEnd", f"cat > {ended}")
    script(workspace, reply("hi"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        closed = await client.call(table.CHAT_CLOSE.name, {"sessionId": session_id})
        payload = json.loads(ended.read_text())  # before shutdown: close waited for it
        again = await client.call(table.CHAT_CLOSE.name, {"sessionId": session_id})
        not_open = await _refused(
            client, table.CHAT_SEND.name, {"sessionId": session_id, "text": "hi"}
        )

    assert closed == {"closed": True}
    assert (payload["hook_event_name"], payload["session_id"]) == ("SessionEnd", session_id)
    assert again == {"closed": False}
    assert not_open["reason"] == "sessionNotOpen"


async def test_a_new_chat_closes_the_old_session_as_a_clear(workspace: Workspace) -> None:
    """The chat panel's New chat is Claude Code's /clear: SessionEnd says `clear`, and Copilot's
    sessionEnd `user_exit` (seed 002)."""
    ended, copilot = workspace.root / "ended.json", workspace.root / "copilot.json"
    project_hooks(workspace, "SessionEnd", f"cat > {ended}")
    workspace.write(
        workspace.project / ".github" / "hooks" / "a.json",
        {"version": 1, "hooks": {"sessionEnd": [{"bash": f"cat > {copilot}"}]}},
    )
    script(workspace, reply("hi"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        params = {"sessionId": session_id, "reason": "clear"}
        closed = await client.call(table.CHAT_CLOSE.name, params)
        # the end hooks run in the background: the server must outlive them here
        await until(lambda: _complete(ended) and _complete(copilot))

    assert closed == {"closed": True}
    assert json.loads(ended.read_text())["reason"] == "clear"
    assert json.loads(copilot.read_text())["reason"] == "user_exit"


def _complete(path: Path) -> bool:
    """A JSON file a hook writes has all of it (`cat > file` creates it before it writes)."""
    try:
        json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    return True


def _gated(gate: Path, out: Path) -> str:
    """A slow end hook: it waits for `gate`, then writes its whole stdin to `out`."""
    wait = f"until [ -e {gate} ]; do sleep 0.1; done"
    return f"echo $$ > {out}.pid; {wait}; cat > {out}.tmp; mv {out}.tmp {out}"


async def test_a_new_chat_does_not_wait_for_the_old_sessions_end_hooks(
    workspace: Workspace,
) -> None:
    """Seed 002: after /clear the old session's end hooks run in the background and do not
    block the new prompt. The hooks wait for a gate the test opens only once the new session's
    first prompt is answered; they still get their whole payload, and the rest of the old
    session's background work (a running task) is killed as before."""
    gate, ended, copilot = workspace.root / "gate", workspace.root / "end", workspace.root / "cp"
    task = workspace.root / "task.pid"
    project_hooks(workspace, "SessionEnd", _gated(gate, ended))
    workspace.write(
        workspace.project / ".github" / "hooks" / "a.json",
        {"version": 1, "hooks": {"sessionEnd": [{"bash": _gated(gate, copilot)}]}},
    )
    background = {"command": f"echo $$ > {task}; exec sleep 300", "run_in_background": True}
    script(workspace, reply("", ("Bash", background)), reply("started"))  # each session's
    async with running_server(workspace) as client:
        old = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        await client.turn(old, "run it in the background")
        await until(lambda: task.exists() and task.read_text().strip() != "")
        shell = int(task.read_text())
        task.unlink()
        params = {"sessionId": old, "reason": "clear"}
        closed = await asyncio.wait_for(client.call(table.CHAT_CLOSE.name, params), TIMEOUT)
        new = (await client.open_chat(permissionMode="bypassPermissions"))["sessionId"]
        view = await client.turn(new, "hello")
        answered_before = not ended.exists() and not copilot.exists()
        hooks_running = Path(f"{ended}.pid").exists() and Path(f"{copilot}.pid").exists()
        gate.touch()
        await until(lambda: _complete(ended) and _complete(copilot))
        payload, copilot_payload = json.loads(ended.read_text()), json.loads(copilot.read_text())
        await until(lambda: not alive(shell))

    assert closed == {"closed": True}
    assert view.messages[-1]["blocks"][0]["text"] == "started"
    assert answered_before
    assert hooks_running
    assert (payload["hook_event_name"], payload["session_id"]) == ("SessionEnd", old)
    assert payload["reason"] == "clear"
    assert (copilot_payload["sessionId"], copilot_payload["reason"]) == (old, "user_exit")


async def test_reopening_a_session_still_ending_in_the_background_resumes_it_once_ended(
    workspace: Workspace,
) -> None:
    """A New chat closed it and its end hooks still run when the user goes back to it (the page
    asks for it by id): the page does not get the session about to go, but the same
    conversation resumed once SessionEnd is over, and it answers."""
    gate, ended, starts = workspace.root / "gate", workspace.root / "end", workspace.root / "starts"
    workspace.write(
        workspace.project_settings,
        {
            "hooks": {
                "SessionStart": [{"hooks": [hook(f"cat >> {starts}")]}],
                "SessionEnd": [{"hooks": [hook(_gated(gate, ended))]}],
            }
        },
    )
    script(workspace, reply("answer"))  # each session's provider replays it
    async with running_server(workspace) as client:
        old = (await client.open_chat())["sessionId"]
        before = (await client.turn(old, "one")).messages
        await client.call(table.CHAT_CLOSE.name, {"sessionId": old, "reason": "clear"})
        await until(lambda: Path(f"{ended}.pid").exists())
        reopening = asyncio.ensure_future(client.open_chat(sessionId=old))
        await asyncio.sleep(0.5)
        waited_for_the_end = not reopening.done()
        gate.touch()
        reopened = await asyncio.wait_for(reopening, TIMEOUT)
        after = (await client.turn(old, "two")).messages

    assert waited_for_the_end
    assert ended.exists()
    assert reopened["sessionId"] == old
    assert reopened["messages"] == before
    assert len(after) == len(before) + 2
    assert after[-1]["blocks"][0]["text"] == "answer"
    sources = [json.loads(line)["source"] for line in starts.read_text().splitlines()]
    assert sources == ["startup", "resume"]


async def test_end_hooks_still_running_in_the_background_are_killed_when_the_server_stops(
    workspace: Workspace,
) -> None:
    """Seed 002: leaving the CLI ends the background end hooks that have not finished."""
    gate, ended = workspace.root / "gate", workspace.root / "end"
    project_hooks(workspace, "SessionEnd", _gated(gate, ended))
    script(workspace, reply("hi"))
    async with running_server(workspace) as client:
        old = (await client.open_chat())["sessionId"]
        await client.call(table.CHAT_CLOSE.name, {"sessionId": old, "reason": "clear"})
        pid_file = Path(f"{ended}.pid")
        await until(lambda: pid_file.exists() and pid_file.read_text().strip() != "")
        hook = int(pid_file.read_text())

    assert not alive(hook)
    assert not ended.exists()


async def test_ask_user_question_goes_to_the_client_and_its_answer_is_the_tool_result(
    workspace: Workspace,
) -> None:
    question = {
        "question": "Which database?",
        "header": "DB",
        "options": [{"label": "SQLite", "description": "a file"}, {"label": "Postgres"}],
        "multiSelect": False,
    }
    script(workspace, reply("", ("AskUserQuestion", {"questions": [question]})), reply("ok"))
    async with running_server(workspace) as client:
        client.question_answers.append({"answers": {"Which database?": "SQLite"}})
        session_id = (await client.open_chat())["sessionId"]
        view = await client.turn(session_id, "set it up")

    [asked] = client.question_requests
    assert asked["sessionId"] == session_id
    assert asked["questions"] == [
        {
            "question": "Which database?",
            "header": "DB",
            "options": [
                {"label": "SQLite", "description": "a file"},
                {"label": "Postgres", "description": ""},
            ],
            "multiSelect": False,
        }
    ]
    [tool] = view.blocks("tool")
    assert tool["status"] == "success"
    assert tool["result"] == (
        'User has answered your questions: "Which database?"="SQLite". '
        "You can now continue with the user's answers in mind."
    )


async def test_a_snow_prompt_action_asks_the_client_in_words(workspace: Workspace) -> None:
    rules = [{"description": "d", "hooks": [{"type": "prompt", "prompt": "Anything else?",
                                             "enabled": True}]}]  # fmt: skip
    workspace.write(workspace.project / ".snow" / "hooks" / "onStop.json", {"onStop": rules})
    script(workspace, reply("first"), reply("second"))
    async with running_server(workspace) as client:
        client.question_answers.append({"answers": {"Anything else?": "add tests"}})
        session_id = (await client.open_chat())["sessionId"]
        view = await client.turn(session_id, "work")

    first, second = client.question_requests  # after each reply; the second is dismissed
    assert first["questions"] == [
        {"question": "Anything else?", "header": "", "options": [], "multiSelect": False}
    ]
    assert second["questions"] == first["questions"]
    texts = [m["content"] for m in view.messages if m["role"] == "user"]
    assert texts == ["work", "add tests"]


def test_a_streamed_reply_costs_about_its_size_on_the_wire(workspace: Workspace) -> None:
    # Chinese, the product's language: three bytes a character in UTF-8 (six as \u escapes).
    text = "流式回复只送新来的文字，不再每次重发整条消息。" * 1500  # ~100 KB, 4,100 pieces
    wire = reply_on_the_wire(workspace, text)
    # Each notification carries what is new and its envelope; the whole message resent with each
    # piece was about 300 MB for this reply.
    assert wire.sent_bytes <= 1.2 * wire.reply_bytes + 400 * wire.notifications, wire
