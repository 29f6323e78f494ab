"""Snow CLI hook files (`.snow/hooks/<type>.json`) in real chat turns: real hook processes, the
fake model server. Each type's exit codes (0 / 1 / 2+), the injection protocol, the one-shot
session buffer, auto-confirmation, the askuser auto-answer and prompt actions (seed 004)."""

import hashlib
import json
from pathlib import Path

import anyio
import pytest

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.dialects.conftest import envs, lines, record
from tests.hooks_doc import hooks_for
from tests.processes import TIMEOUT, until
from tests.session.chat import (
    QUESTION,
    ChatRunner,
    notices,
    tool_results,
    tools,
    turn,
    user_texts,
    users,
    write_call,
)
from tests.session.fake_llm import HttpError
from wavehost import paths
from wavehost.session.permissions import PermissionAnswer, PermissionPrompt
from wavehost.session.tools.ask import QuestionPrompt


@pytest.fixture(autouse=True)
def _no_outside_snow_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SNOW_DEBUG_HOOKS", "SNOW_SESSION_ID", "TRELLIS_CONTEXT_ID", "SNOW_PLATFORM"):
        monkeypatch.delenv(name, raising=False)


def bash_call(command: str) -> tuple[str, dict[str, str]]:
    return ("Bash", {"command": command})


async def test_before_tool_call_reads_snow_names_and_exit_1_blocks_with_stderr(
    chat: ChatRunner, project: Path
) -> None:
    seen, target = project / "before.jsonl", project / "a.txt"
    snow_project(
        project,
        "beforeToolCall",
        rule(action(record(seen)), matcher="filesystem-*"),
        rule(action("echo 'not in working hours' >&2; exit 1"), matcher="filesystem-create"),
    )
    result = await chat([turn("", write_call(target)), turn("ok")], "write it")

    [payload] = lines(seen)
    assert payload["toolName"] == "filesystem-create"
    assert payload["args"] == {"filePath": str(target), "content": "hello\n"}
    assert (payload["platform"], payload["cwd"]) == ("snow", str(project))
    assert not target.exists()
    assert tool_results(result.llm.requests[1]) == ["not in working hours"]  # the AI goes on
    assert len(result.llm.requests) == 2


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("echo 'from stdout'; exit 1", "from stdout"),
        (
            "exit 1",
            "[beforeToolCall Hook Warning] Command: exit 1 exited with code 1",
        ),
    ],
)
async def test_before_tool_call_exit_1_without_stderr_uses_stdout_then_the_preset(
    chat: ChatRunner, project: Path, command: str, expected: str
) -> None:
    snow_project(project, "beforeToolCall", rule(action(command)))
    result = await chat([turn("", bash_call("echo hi")), turn("ok")], "run")

    assert tool_results(result.llm.requests[1]) == [expected]


async def test_before_tool_call_exit_2_stops_the_flow_and_after_tool_call_still_runs(
    chat: ChatRunner, project: Path
) -> None:
    after, stop = project / "after.jsonl", project / "stop.jsonl"
    target = project / "a.txt"
    snow_project(project, "beforeToolCall", rule(action("echo 'severe' >&2; exit 2")))
    snow_project(project, "afterToolCall", rule(action(record(after))))
    snow_project(project, "onStop", rule(action(record(stop))))
    async with chat.open([turn("", write_call(target)), turn("never")]) as result:
        result.session.send("write it")
        with anyio.fail_after(TIMEOUT):
            await result.session.wait_idle()
        stopped_in_the_turn = stop.exists()

    assert not target.exists()
    assert len(result.llm.requests) == 1  # no further model call
    assert not stopped_in_the_turn  # the stopped flow does not run onStop
    assert len(lines(stop)) == 1  # the session's end does, once (seed 004: "结束会话")
    assert [n.text for n in notices(result.messages) if n.level == "error"] == ["severe"]
    [payload] = lines(after)
    assert payload["toolName"] == "filesystem-create"
    assert payload["error"] is None  # a refused call is no tool error
    assert payload["result"]["role"] == "tool"


async def test_after_tool_call_exit_1_replaces_the_result_and_exit_2_stops(
    chat: ChatRunner, project: Path
) -> None:
    snow_project(
        project,
        "afterToolCall",
        rule(action("echo 'lint failed' >&2; exit 1"), matcher="terminal-*"),
    )
    result = await chat([turn("", bash_call("echo hi")), turn("ok")], "run")
    assert tool_results(result.llm.requests[1]) == ["lint failed"]
    assert tools(result.messages)[0].result == "lint failed"


async def test_after_tool_call_exit_2_ends_the_flow(chat: ChatRunner, project: Path) -> None:
    snow_project(project, "afterToolCall", rule(action("echo 'broken build' >&2; exit 3")))
    result = await chat([turn("", bash_call("echo hi")), turn("never")], "run")

    assert len(result.llm.requests) == 1
    assert tools(result.messages)[0].result == "hi"
    assert "broken build" in [n.text for n in notices(result.messages)]


async def test_on_user_message_context_is_prepended_and_the_bubble_keeps_the_text(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "msg.jsonl"
    snow_project(
        project,
        "onUserMessage",
        rule(
            action(record(seen)),
            action("""cat > /dev/null; echo '{"additionalContext": "UMS-CTX"}'"""),
            action("echo 'a log line, not JSON'"),
            {"type": "context", "content": "STATIC-CTX", "enabled": True},
        ),
    )
    result = await chat([turn("hi")], "run echo")

    [payload] = lines(seen)
    assert payload["message"] == "run echo"
    assert (payload["imageCount"], payload["source"], payload["messageCount"]) == (0, "normal", 0)
    assert payload["sessionId"] == payload["session_id"] == result.session.id
    assert envs(seen)[0]["SNOW_SESSION_ID"] == result.session.id
    assert envs(seen)[0]["TRELLIS_CONTEXT_ID"] == f"snow-{result.session.id}"
    assert user_texts(result.llm.requests[0]) == ["UMS-CTX\n\nSTATIC-CTX\n\nrun echo"]
    assert users(result.messages)[0].content == "run echo"


async def test_on_user_message_exit_1_replaces_what_the_model_gets(
    chat: ChatRunner, project: Path
) -> None:
    snow_project(project, "onUserMessage", rule(action("echo 'REPLACED' >&2; exit 1")))
    result = await chat([turn("hi")], "original")

    assert user_texts(result.llm.requests[0]) == ["REPLACED"]
    assert users(result.messages)[0].content == "original"


async def test_on_user_message_exit_2_blocks_the_message(chat: ChatRunner, project: Path) -> None:
    snow_project(project, "onUserMessage", rule(action("echo 'not allowed' >&2; exit 2")))
    result = await chat([], "secret")

    assert result.llm.requests == []
    assert users(result.messages) == []
    assert result.session.turn_error == "not allowed"


async def test_on_session_start_context_goes_once_before_the_next_message(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "start.jsonl"
    snow_project(
        project,
        "onSessionStart",
        rule(
            action(record(seen)),
            action("""cat > /dev/null; echo '{"additionalContext": "SSS-CTX"}'"""),
        ),
    )
    snow_project(
        project,
        "onUserMessage",
        rule(action("""cat > /dev/null; echo '{"additionalContext": "UMS-CTX"}'""")),
    )
    result = await chat([turn("one"), turn("two")], "first", "second")

    [payload] = lines(seen)
    assert (payload["messageCount"], payload["isResume"], payload["messages"]) == (0, False, [])
    assert user_texts(result.llm.requests[0]) == ["SSS-CTX\n\nUMS-CTX\n\nfirst"]
    assert user_texts(result.llm.requests[1])[-1] == "UMS-CTX\n\nsecond"  # the buffer is spent


@pytest.mark.parametrize(("value", "logged"), [("1", True), ("On", True), ("0", False)])
async def test_snow_debug_hooks_logs_each_injection_of_a_chat(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch, value: str, logged: bool
) -> None:
    """Seed 004 "可观测性": with SNOW_DEBUG_HOOKS on, every injection of the session appends a
    JSON summary to `.snow/log/hooks-inject.txt`; off, nothing is written."""
    monkeypatch.setenv("SNOW_DEBUG_HOOKS", value)
    start = """cat > /dev/null; echo '{"additionalContext": "SSS-CTX"}'"""
    snow_project(project, "onSessionStart", rule(action(start)))
    snow_project(project, "onUserMessage", rule({"type": "context", "content": "BREADCRUMB",
                                                 "enabled": True}))  # fmt: skip
    result = await chat([turn("one")], "first")

    assert user_texts(result.llm.requests[0]) == ["SSS-CTX\n\nBREADCRUMB\n\nfirst"]
    log = paths.snow_inject_log(project)
    if not logged:
        assert not log.exists()
        return
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [(e["hookType"], e["length"]) for e in entries] == [
        ("onSessionStart", len("SSS-CTX")),
        ("onUserMessage", len("BREADCRUMB")),
    ]
    assert entries[1]["hash"] == hashlib.sha256(b"BREADCRUMB").hexdigest()[:12]
    assert {e["sessionId"] for e in entries} == {result.session.id}
    assert all(e["envHasSnowSessionId"] and e["envHasTrellisContextId"] for e in entries)


IDENTITY = "env | grep -E '^(SNOW_|TRELLIS_)' | sort"


@pytest.mark.parametrize("trellis", [None, "my-task"])
async def test_tool_processes_get_snows_session_identity_when_snow_hooks_run(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch, trellis: str | None
) -> None:
    """Seed 004 "注入路径": terminal commands get the session identity too; TRELLIS_CONTEXT_ID
    only where the parent left it empty."""
    if trellis is not None:
        monkeypatch.setenv("TRELLIS_CONTEXT_ID", trellis)
    snow_project(project, "afterToolCall", rule(action("cat > /dev/null")))
    (project / "sub").mkdir()
    calls = [turn("", bash_call(IDENTITY)), turn("", bash_call("cd sub")),
             turn("", bash_call(IDENTITY)), turn()]  # fmt: skip
    result = await chat(calls, "who am I", mode="bypassPermissions")

    session_id = result.session.id
    first, _, second = (b.result for b in tools(result.messages))
    assert first == "\n".join(
        [
            f"SNOW_CWD={project}",
            "SNOW_PLATFORM=snow",
            f"SNOW_SESSION_ID={session_id}",
            f"TRELLIS_CONTEXT_ID={trellis or 'snow-' + session_id}",
        ]
    )
    assert second is not None
    assert f"SNOW_CWD={project / 'sub'}" in second.splitlines()  # the tool's cwd (after `cd`)


async def test_tool_processes_get_no_snow_identity_without_snow_hooks(chat: ChatRunner) -> None:
    result = await chat([turn("", bash_call(IDENTITY)), turn()], "who am I")

    # it printed nothing (Claude Code's words for that are the model's result)
    assert [b.result for b in tools(result.messages)] == ["(Bash completed with no output)"]


async def never_asked(prompt: PermissionPrompt) -> PermissionAnswer:
    raise AssertionError(f"the user was asked about {prompt.tool_name}")


async def test_tool_confirmation_approve_always_answers_for_the_user_and_sticks(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "confirm.jsonl"
    snow_project(
        project,
        "toolConfirmation",
        rule(
            action(record(seen)),
            action("cat > /dev/null; echo APPROVE_ALWAYS"),
            matcher="terminal-execute",
        ),
    )
    calls = [turn("", bash_call("echo one")), turn("", bash_call("echo two")), turn("done")]
    result = await chat(calls, "run", mode="default", ask=never_asked)

    [payload] = lines(seen)  # asked once: approve_always holds for the session
    assert payload["toolName"] == "terminal-execute"
    assert payload["args"] == '{"command":"echo one"}'  # a JSON string here
    assert payload["isSensitive"] is False
    assert [b.result for b in tools(result.messages)] == ["one", "two"]


async def test_tool_confirmation_reject_with_reply_refuses_the_call(
    chat: ChatRunner, project: Path
) -> None:
    reject = """cat > /dev/null; echo '{"result": "reject_with_reply", "reason": "no rm"}'"""
    snow_project(project, "toolConfirmation", rule(action(reject)))
    result = await chat(
        [turn("", bash_call("rm -rf build")), turn("ok")], "clean", mode="default", ask=never_asked
    )

    [block] = tools(result.messages)
    assert block.status == "blocked"  # a hook refused it: it never ran
    assert "no rm" in (block.error or "")


async def test_tool_confirmation_does_not_run_when_nobody_would_be_asked(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "confirm.jsonl"
    snow_project(project, "toolConfirmation", rule(action(record(seen))))
    await chat([turn("", bash_call("echo hi")), turn("ok")], "run", mode="bypassPermissions")

    assert not seen.exists()


@pytest.mark.parametrize(
    ("command", "pattern", "reason"),
    [
        ("rm -rf /tmp/test", "rm ", "Delete files or directories (rm, rm -rf, etc.)"),
        ("git push --force", "git push --force", "Force push to remote repository"),
        ("cd src && GIT push origin main --force", "git push*--force", None),
        ("ls; dd if=/dev/zero of=disk.img", "dd ", None),
    ],
)
async def test_tool_confirmation_says_which_sensitive_pattern_a_command_matched(
    chat: ChatRunner, project: Path, command: str, pattern: str, reason: str | None
) -> None:
    """Seed 004's toolConfirmation context: `isSensitive` with `matchedPattern` and
    `matchedReason` (the seed's words for its two examples)."""
    seen = project / "confirm.jsonl"
    reject = """cat > /dev/null; echo '{"result": "reject"}'"""
    snow_project(project, "toolConfirmation", rule(action(record(seen)), action(reject)))
    await chat([turn("", bash_call(command)), turn("ok")], "go", mode="default", ask=never_asked)

    [payload] = lines(seen)
    assert list(payload) == [
        "toolName", "args", "isSensitive", "matchedPattern", "matchedReason", "platform", "cwd"
    ]  # fmt: skip
    assert (payload["isSensitive"], payload["matchedPattern"]) == (True, pattern)
    if reason is not None:
        assert payload["matchedReason"] == reason
    assert isinstance(payload["matchedReason"], str)
    assert payload["matchedReason"]


@pytest.mark.parametrize("command", ["echo rm -rf", "git push origin main", "grep -r rmdir ."])
async def test_tool_confirmation_is_not_sensitive_for_ordinary_commands(
    chat: ChatRunner, project: Path, command: str
) -> None:
    seen = project / "confirm.jsonl"
    snow_project(project, "toolConfirmation", rule(action(record(seen)), action("echo approve")))
    await chat([turn("", bash_call(command)), turn("ok")], "go", mode="default", ask=never_asked)

    [payload] = lines(seen)
    assert payload["isSensitive"] is False
    assert "matchedPattern" not in payload
    assert "matchedReason" not in payload


async def test_a_sensitive_command_is_confirmed_even_when_the_mode_would_not_ask(
    chat: ChatRunner, project: Path
) -> None:
    """Snow confirms sensitive commands in YOLO mode too: toolConfirmation runs (and may
    reject) under bypassPermissions, for the sensitive command only."""
    seen, victim = project / "confirm.jsonl", project / "victim.txt"
    victim.write_text("keep me")
    reject = """cat > /dev/null; echo '{"result": "reject_with_reply", "reason": "not here"}'"""
    snow_project(project, "toolConfirmation", rule(action(record(seen)), action(reject)))
    calls = [turn("", bash_call("echo hi")), turn("", bash_call(f"rm {victim}")), turn("ok")]
    result = await chat(calls, "go", mode="bypassPermissions")

    assert [payload["args"] for payload in lines(seen)] == [f'{{"command":"rm {victim}"}}']
    assert victim.read_text() == "keep me"
    echo, rm = tools(result.messages)
    assert (echo.status, rm.status) == ("success", "blocked")
    assert "not here" in (rm.error or "")


@pytest.mark.parametrize(
    ("stdout", "answer"),
    [
        ("Docker", "Docker"),
        ('{"selected": "Docker", "customInput": "with compose"}', "Docker: with compose"),
        ('["Docker", "Kubernetes"]', "Docker, Kubernetes"),
    ],
)
async def test_before_tool_call_answers_askuser_ask_question_for_the_user(
    chat: ChatRunner, project: Path, stdout: str, answer: str
) -> None:
    seen = project / "ask.jsonl"
    snow_project(
        project,
        "beforeToolCall",
        rule(
            action(record(seen)),
            action(f"cat > /dev/null; echo '{stdout}'"),
            matcher="askuser-ask_question",
        ),
    )
    result = await chat([turn("", ("AskUserQuestion", QUESTION)), turn("ok")], "deploy it")

    [payload] = lines(seen)
    assert payload["toolName"] == "askuser-ask_question"
    assert payload["args"] == {
        "question": "您希望使用哪种部署方式？",
        "options": ["Docker", "Kubernetes", "直接部署"],
    }
    assert tool_results(result.llm.requests[1]) == [
        f'User has answered your questions: "您希望使用哪种部署方式？"="{answer}". '
        "You can now continue with the user's answers in mind."
    ]


async def test_on_stop_prompt_action_pauses_and_the_answer_is_the_next_message(
    chat: ChatRunner, project: Path
) -> None:
    asked: list[QuestionPrompt] = []
    answers = iter(["yes, save it", ""])

    async def ask(prompt: QuestionPrompt) -> dict[str, str] | None:
        asked.append(prompt)
        text = next(answers)
        return {prompt.questions[0].question: text} if text else None

    snow_project(
        project,
        "onStop",
        rule({"type": "prompt", "prompt": "Save the work? $STOPSESSION$", "enabled": True}),
    )
    result = await chat([turn("first reply"), turn("saved")], "work", config={"ask_question": ask})

    assert len(asked) == 2  # after each reply; the second time nobody answered
    question = asked[0].questions[0]
    assert question.question.startswith("Save the work? [")
    assert '"content":"work"' in question.question  # $STOPSESSION$: the messages' JSON
    assert question.options == []
    assert user_texts(result.llm.requests[1])[-1] == "yes, save it"
    assert len(result.llm.requests) == 2


async def test_on_stop_also_fires_when_the_user_stops_the_flow_and_only_snows(
    chat: ChatRunner, project: Path
) -> None:
    """Seed 004: onStop fires "用户停止 AI 流程时（Ctrl+C…）" (the seed wins over Snow CLI 0.8.30,
    which skips it); Claude Code's Stop and Copilot's agentStop do not hear of an interrupt.
    The prompt action asks the user; the answer is the next message."""
    seen, wave_stop, started = project / "stop.jsonl", project / "wave.jsonl", project / "started"
    snow_project(
        project,
        "onStop",
        rule(action(record(seen))),
        rule({"type": "prompt", "prompt": "即将停止 AI，是否需要保存当前工作？", "enabled": True}),
    )
    copilot_project(project, "a.json", {"agentStop": [bash(record(wave_stop))]})
    asked: list[QuestionPrompt] = []

    async def ask(prompt: QuestionPrompt) -> dict[str, str] | None:
        asked.append(prompt)
        return {prompt.questions[0].question: "保存一下"} if len(asked) == 1 else None

    call = bash_call(f"touch {started}; sleep 60")
    turns = [turn("", call), turn("已保存。")]
    hooks = hooks_for("Stop", record(wave_stop))
    async with chat.open(turns, hooks=hooks, config={"ask_question": ask}) as opened:
        opened.session.send("run it")
        await until(started.exists)
        opened.session.cancel()
        await until(lambda: len(opened.llm.requests) == 2)  # the answer went to the model
        with anyio.fail_after(TIMEOUT):
            await opened.session.wait_idle()

    interrupted, after_reply = lines(seen)  # the interrupt, then the reply to the answer
    assert "messages" in interrupted
    assert "messages" in after_reply
    assert asked[0].questions[0].question == "即将停止 AI，是否需要保存当前工作？"
    assert user_texts(opened.llm.requests[1])[-1] == "保存一下"
    assert [b.status for b in tools(opened.messages)] == ["cancelled"]
    assert len(lines(wave_stop)) == 2  # Wave's Stop and Copilot's agentStop: the reply only


async def test_on_stop_fires_when_the_session_ends_after_a_turn_without_a_stop(
    chat: ChatRunner, project: Path
) -> None:
    """Seed 004: onStop fires "用户停止 AI 流程时（…或结束会话）". A failed model call ends its
    turn with no onStop; the session's end fires it then, and only Snow's: Claude Code's Stop and
    Copilot's agentStop are not session-end events. It comes before SessionEnd."""
    seen, other, order = project / "stop.jsonl", project / "other.jsonl", project / "order"
    snow_project(project, "onStop", rule(action(f"echo onStop >> {order}; {record(seen)}")))
    copilot_project(
        project,
        "a.json",
        {"agentStop": [bash(record(other))], "sessionEnd": [bash(f"echo sessionEnd >> {order}")]},
    )
    hooks = hooks_for("Stop", record(other))
    result = await chat([HttpError(400, "bad request")], "hello", hooks=hooks)

    [payload] = lines(seen)
    assert [m["content"] for m in payload["messages"] if m["role"] == "user"][-1] == "hello"
    assert (payload["platform"], payload["cwd"]) == ("snow", str(project))
    assert not other.exists()
    assert order.read_text().split() == ["onStop", "sessionEnd"]
    assert result.session.turn_error is not None


async def test_on_stop_fires_once_for_a_reply_then_the_sessions_end(
    chat: ChatRunner, project: Path
) -> None:
    """The reply's onStop covers the session's end: nothing happened since, so it does not fire
    a second time; a later model call makes it due again."""
    seen = project / "stop.jsonl"
    snow_project(project, "onStop", rule(action(record(seen))))
    await chat([turn("done")], "work")
    assert len(lines(seen)) == 1

    seen.unlink()
    await chat([turn("done"), HttpError(400, "bad request")], "work", "more")
    assert len(lines(seen)) == 2  # the reply's, then the session end's (the failed turn)


async def test_on_stop_fires_once_when_the_session_ends_during_a_turn(
    chat: ChatRunner, project: Path
) -> None:
    """Closing a session while its turn runs stops the flow once: the interrupt's onStop, not a
    second one for the session's end."""
    seen, started = project / "stop.jsonl", project / "started"
    snow_project(project, "onStop", rule(action(record(seen))))
    async with chat.open([turn("", bash_call(f"touch {started}; sleep 60")), turn("x")]) as opened:
        opened.session.send("run it")
        await until(started.exists)

    [payload] = lines(seen)
    assert "messages" in payload
    assert [b.status for b in tools(opened.messages)] == ["cancelled"]


async def test_on_stop_prompt_action_without_anyone_to_ask_shows_the_prompt(
    chat: ChatRunner, project: Path
) -> None:
    snow_project(
        project, "onStop", rule({"type": "prompt", "prompt": "Next step?", "enabled": True})
    )
    result = await chat([turn("reply")], "work")

    assert "Next step?" in [n.text for n in notices(result.messages)]
    assert len(result.llm.requests) == 1


async def test_before_sub_agent_start_prompt_replaces_the_task(
    chat: ChatRunner, project: Path
) -> None:
    replace = """cat > /dev/null; echo '{"prompt": "THE NEW TASK"}'"""
    snow_project(project, "beforeSubAgentStart", rule(action(replace)))
    call = ("Agent", {"prompt": "old task", "description": "explore", "subagent_type": "Explore"})
    result = await chat([turn("", call), turn("report"), turn("done")], "delegate")

    assert user_texts(result.llm.requests[1]) == ["THE NEW TASK"]


async def test_on_sub_agent_complete_exit_2_makes_the_subagent_go_on(
    chat: ChatRunner, project: Path
) -> None:
    flag = project / "once"
    once = (
        f"cat > /dev/null; if [ ! -e {flag} ]; then touch {flag}; echo 'dig deeper' >&2; exit 2; fi"
    )
    snow_project(project, "onSubAgentComplete", rule(action(once)))
    call = ("Agent", {"prompt": "look", "description": "explore", "subagent_type": "Explore"})
    result = await chat(
        [turn("", call), turn("shallow"), turn("deep report"), turn("done")], "delegate"
    )

    assert user_texts(result.llm.requests[2])[-1] == "dig deeper"
    assert tools(result.messages)[0].result == "deep report"


async def test_before_compress_exit_2_refuses_the_compaction(
    chat: ChatRunner, project: Path
) -> None:
    snow_project(project, "beforeCompress", rule(action("echo 'keep it all' >&2; exit 2")))
    async with chat.open([turn("hi")]) as opened:
        opened.session.send("hello")
        with anyio.fail_after(TIMEOUT):
            await opened.session.wait_idle()
            done = await opened.session.compact()
    assert done is False
    assert len(opened.llm.requests) == 1  # no summary call
    assert "keep it all" in [n.text for n in notices(opened.messages)]
