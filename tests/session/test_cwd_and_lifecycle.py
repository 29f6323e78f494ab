"""Where hooks run after `cd`, SessionStart/SessionEnd, programmatic hooks, transcripts, resume,
cancellation."""

import gc
import json
import logging
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.hooks_doc import hooks_for, merge
from tests.processes import alive, until
from tests.session.chat import ChatRunner, tools, turn, users
from tests.session.fake_llm import serve
from wavehost.hooks.catalogue import Event
from wavehost.plumbing import heap
from wavehost.session import transcript
from wavehost.session.chat_session import SessionConfig
from wavehost.session.providers import ProviderChoice, make_provider
from wavehost.session.registry import SessionRegistry

WHERE = 'printf "%s\\n%s\\n" "$(pwd)" "$WAVE_PROJECT_DIR" > {out}; cat > {out}.json'


async def test_after_cd_hooks_run_in_the_new_workdir_and_wave_project_dir_stays_the_root(
    chat: ChatRunner, project: Path
) -> None:
    (project / "packages" / "code").mkdir(parents=True)
    out = project.parent / "where"
    moved = project.parent / "moved.json"
    hooks = merge(
        hooks_for("PostToolUse", WHERE.format(out=out), matcher="Bash"),
        hooks_for("CwdChanged", f"cat > {moved}"),
    )
    call = ("Bash", {"command": "cd packages/code"})
    result = await chat([turn("", call), turn("done")], "cd", hooks=hooks)

    spawn_dir, project_dir = out.read_text().splitlines()
    assert spawn_dir == str(project / "packages" / "code")
    assert project_dir == str(project)
    assert json.loads(out.with_name("where.json").read_text())["cwd"] == str(
        project / "packages" / "code"
    )
    assert result.session.workspace.cwd == project / "packages" / "code"
    change = json.loads(moved.read_text())
    assert (change["old_cwd"], change["new_cwd"]) == (str(project), spawn_dir)


async def test_the_workdir_persists_between_bash_calls(chat: ChatRunner, project: Path) -> None:
    (project / "sub").mkdir()
    calls = [
        turn("", ("Bash", {"command": "cd sub"})),
        turn("", ("Bash", {"command": "pwd"})),
        turn("ok"),
    ]
    result = await chat(calls, "go")

    assert tools(result.messages)[1].result == str(project / "sub")


async def test_hooks_still_start_when_the_workdir_was_deleted(
    chat: ChatRunner, project: Path
) -> None:
    out = project.parent / "where"
    hooks = hooks_for("PostToolUse", WHERE.format(out=out), matcher="Bash")
    call = ("Bash", {"command": 'mkdir gone && cd gone && rmdir "$PWD"'})
    result = await chat([turn("", call), turn("done")], "go", hooks=hooks)

    assert result.session.workspace.cwd == project / "gone"
    spawn_dir, project_dir = out.read_text().splitlines()
    assert spawn_dir == project_dir == str(project)  # spawned at the root, not ENOENT


async def test_session_start_fires_on_startup_and_resume_and_session_end_on_close(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "lifecycle.jsonl"
    command = f"python3 -c \"import sys; open('{log}', 'a').write(sys.stdin.read())\""
    context = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "ctx"}}
    hooks = merge(
        hooks_for("SessionStart", command, f"echo '{json.dumps(context)}'"),
        hooks_for("SessionEnd", command),
    )
    first = await chat([turn("hi")], "one", hooks=hooks)
    second = await chat([turn("again")], "two", resume=first.session.id)

    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["hook_event_name"], e.get("source") or e.get("reason")) for e in events] == [
        ("SessionStart", "startup"),
        ("SessionEnd", "other"),
        ("SessionStart", "resume"),
        ("SessionEnd", "other"),
    ]
    assert second.session.id == first.session.id
    reminder = "<system-reminder>\nSessionStart hook additional context: ctx\n</system-reminder>"
    assert users(first.messages)[0].content == reminder
    assert users(first.messages)[0].is_meta
    assert [m.content for m in users(second.messages)] == [reminder, "one", reminder, "two"]


async def test_the_transcript_holds_the_conversation_and_resume_continues_it(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    (project / "sub").mkdir()
    first = await chat([turn("", ("Bash", {"command": "cd sub"})), turn("answer one")], "one")
    path = home / ".wave" / "sessions" / f"session_{first.session.id}.json"
    saved = json.loads(path.read_text())
    assert [m["role"] for m in saved["state"]["messages"]] == ["user", "assistant", "assistant"]
    assert saved["state"]["messages"][0] == {
        "role": "user",
        "id": first.messages[0].id,
        "content": "one",
        "modelContent": None,
        "isMeta": False,
        "isCompactSummary": False,
    }
    assert saved["workdir"] == str(project / "sub")

    second = await chat([turn("answer two")], "two", resume=first.session.id)
    assert second.session.workspace.cwd == project / "sub"
    request = second.llm.request_texts()[0]
    assert "answer one" in request
    assert "two" in request
    reloaded = transcript.load(first.session.id)
    assert [m.role for m in reloaded.state.messages] == [
        "user",
        "assistant",
        "assistant",
        "user",
        "assistant",
    ]


async def test_a_turn_makes_its_transcript_crash_proof_once_at_its_end_not_at_every_save(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each save within a turn is atomic (a hook reading transcript_path finds a whole
    conversation) but not fsynced: a hook waits for it. The turn's end fsyncs the data and the
    directory, once, and keeps that version for a crash to fall back on."""
    fsyncs: list[int] = []  # every fsync of the process: file data and directories
    writes: list[bool] = []  # each write's `durable`
    fsync, write = os.fsync, transcript.write

    def counted_fsync(fd: int) -> None:
        fsyncs.append(fd)
        fsync(fd)

    def counted_write(path: Path, data: bytes, *, durable: bool = True) -> None:
        writes.append(durable)
        write(path, data, durable=durable)

    monkeypatch.setattr(os, "fsync", counted_fsync)
    monkeypatch.setattr(transcript, "write", counted_write)
    calls = [turn("", ("Bash", {"command": f"echo {i}"})) for i in range(3)]
    async with chat.open([*calls, turn("done")]) as opened:
        path = opened.session.transcript_path
        at_start = len(fsyncs)
        assert at_start == 2  # the session's first save: its data, its directory
        writes.clear()
        opened.session.send("go")
        with anyio.fail_after(30):
            await opened.session.wait_idle()
        # The tool calls' statuses, results, the replies: saves that pile up while one is being
        # written become one write; none of them durable but at the turn's end.
        assert writes
        assert not any(writes[:-1])
        assert len(fsyncs) - at_start == 2
        assert os.path.samefile(path, transcript.last_turn(path))  # kept, not copied
        saved = transcript.load(opened.session.id)
        assert len(saved.state.messages) == len(opened.messages) == 5


@pytest.mark.parametrize("left", [b"", b'{"version": 1, "sessionId": "cut sho'])
async def test_a_crash_within_a_turn_loses_that_turn_only(
    chat: ChatRunner, left: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    """A crash before a save within a turn reached the disk can leave the file empty or torn:
    the session is read back as its last finished turn left it."""
    first = await chat([turn("the first reply")], "first")
    path = first.session.transcript_path
    torn = path.with_name("torn")  # what the crash left of the next turn's unsynced save,
    torn.write_bytes(left)  # renamed over the file as every save is
    torn.replace(path)
    with caplog.at_level(logging.WARNING):
        saved = transcript.load(first.session.id)
    assert [m.role for m in saved.state.messages] == ["user", "assistant"]
    assert saved.state.messages[1].text() == "the first reply"  # type: ignore[union-attr]
    assert "took the version its last finished turn saved" in caplog.text
    path.unlink()  # and the file gone altogether (the rename never reached the disk)
    assert transcript.exists(first.session.id)
    assert len(transcript.load(first.session.id).state.messages) == 2


async def test_the_first_session_sets_aside_what_start_up_loaded_and_later_ones_nothing_more(
    chat: ChatRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full garbage collection no longer walks the modules and schemas loaded for good; what
    sessions create is collected as usual."""
    monkeypatch.setattr(heap, "_settled", False)  # as in a process that opens its first session
    gc.unfreeze()
    try:
        await chat([turn("one")], "go")
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # the SDKs, pydantic's schemas, wavehost itself
        await chat([turn("two")], "again")
        assert gc.get_freeze_count() <= frozen  # nothing more frozen (freed ones leave it)
    finally:
        gc.unfreeze()


async def test_programmatic_hooks_exist_only_when_given_and_run_before_file_hooks(
    chat: ChatRunner,
) -> None:
    programmatic = hooks_for("UserPromptSubmit", "echo from-code")
    files = hooks_for("UserPromptSubmit", "echo from-file")
    with_code = await chat([turn("ok")], "go", hooks=files, programmatic=programmatic)
    assert [m.content for m in users(with_code.messages) if m.is_meta] == ["from-code\nfrom-file"]

    stop = {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}
    with_stop = await chat([], hooks={}, programmatic=stop)
    assert with_stop.session.hooks.has(Event.Stop)
    without = await chat([], hooks={})
    assert not without.session.hooks.has(Event.Stop)


async def test_cancel_kills_the_running_tool_and_keeps_the_session_usable(
    chat: ChatRunner, project: Path
) -> None:
    pid_file = project / "pid"
    call = ("Bash", {"command": f"echo $$ > {pid_file}; sleep 60"})
    async with chat.open([turn("", call), turn("after")]) as running:
        session = running.session
        session.send("sleep")
        await until(lambda: pid_file.exists() and bool(pid_file.read_text().strip()))
        session.cancel()
        with anyio.fail_after(30):
            await session.wait_idle()
        [block] = tools(session.messages)
        assert (block.status, block.error) == ("cancelled", "Interrupted by user")
        pid = int(pid_file.read_text())
        await until(lambda: not alive(pid))
        session.send("next")
        with anyio.fail_after(30):
            await session.wait_idle()
    assert len(running.llm.requests) == 2
    second: Any = running.llm.requests[1]["messages"]
    results = [c for m in second for c in m["content"] if c["type"] == "tool_result"]
    assert results[0]["content"] == "Interrupted by user"


async def test_a_stopped_command_keeps_what_it_printed_for_its_card_and_the_model(
    chat: ChatRunner, project: Path
) -> None:
    """Issue 30 item 5: Stop kills the command; what it had printed (both streams) stays in its
    block, and the model reads it after the interruption, as Claude Code gives it."""
    printed = project / "printed"
    command = f"echo step one; echo step two >&2; touch {printed}; sleep 60"
    async with chat.open([turn("", ("Bash", {"command": command})), turn("after")]) as running:
        session = running.session
        session.send("build")
        await until(printed.exists)
        session.cancel()
        with anyio.fail_after(30):
            await session.wait_idle()
        [block] = tools(session.messages)
        session.send("next")
        with anyio.fail_after(30):
            await session.wait_idle()
    assert (block.status, block.error) == ("cancelled", "Interrupted by user")
    assert block.result == "step one\nstep two"
    second: Any = running.llm.requests[1]["messages"]
    results = [c for m in second for c in m["content"] if c["type"] == "tool_result"]
    assert results[0]["content"] == "Interrupted by user\nstep one\nstep two"


async def test_async_rewake_hook_exit_2_wakes_the_model_with_a_system_reminder(
    chat: ChatRunner, project: Path
) -> None:
    go, done = project.parent / "go", project.parent / "done"
    # Waits for the test's go-ahead, so the reply provably did not wait for it; fires once.
    command = (
        f"[ -f {done} ] && exit 0; while [ ! -f {go} ]; do sleep 0.05; done; touch {done}; "
        "echo 'found a hardcoded key' >&2; exit 2"
    )
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": command, "asyncRewake": True}]}]}
    async with chat.open([turn("reply"), turn("looking at the key")], hooks=hooks) as running:
        running.session.send("go")
        with anyio.fail_after(30):
            await running.session.wait_idle()
        assert len(running.llm.requests) == 1
        go.touch()
        await until(lambda: len(running.llm.requests) >= 2)
        with anyio.fail_after(30):
            await running.session.wait_idle()
    [meta] = [m for m in users(running.messages) if m.is_meta]
    assert meta.content == "<system-reminder>\nfound a hardcoded key\n</system-reminder>"
    assert running.messages[-1].text() == "looking at the key"


async def test_a_host_keeps_sessions_open_between_requests_and_closes_them(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "end.json"
    chat.write_hooks(hooks_for("SessionEnd", f"cat > {log}"))
    async with serve([turn("one"), turn("two")]) as llm, SessionRegistry() as host:
        chat.monkeypatch.setenv("ANTHROPIC_BASE_URL", llm.url)
        chat.monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        provider = make_provider(ProviderChoice("anthropic", "fake"))
        session = await host.open(SessionConfig(root=project, provider=provider))
        for prompt in ("first", "second"):
            host.get(session.id).send(prompt)
            with anyio.fail_after(30):
                await session.wait_idle()
        assert [m.content for m in users(session.messages)] == ["first", "second"]
        await host.close(session.id)
        assert json.loads(log.read_text())["session_id"] == session.id
        with pytest.raises(KeyError):
            host.get(session.id)
