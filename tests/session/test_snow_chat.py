"""Snow CLI hook files (`.snow/hooks/<type>.json`) in real chat turns: real hook processes, the
fake model server. Each type's exit codes (0 / 1 / 2+), the injection protocol, the one-shot
session buffer, auto-confirmation, the askuser auto-answer and prompt actions (seed 004)."""

from pathlib import Path

import anyio
import pytest

from tests.dialect_files import action, rule, snow_project
from tests.dialects.conftest import envs, lines, record
from tests.processes import TIMEOUT
from tests.session.chat import ChatRunner, notices, tools, turn, users
from tests.session.test_copilot_chat import tool_results, user_texts, write_call
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
    result = await chat([turn("", write_call(target)), turn("never")], "write it")

    assert not target.exists()
    assert len(result.llm.requests) == 1  # no further model call
    assert not stop.exists()  # onStop does not run
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


QUESTION = {
    "questions": [
        {
            "question": "您希望使用哪种部署方式？",
            "header": "部署",
            "options": [{"label": "Docker"}, {"label": "Kubernetes"}, {"label": "直接部署"}],
            "multiSelect": False,
        }
    ]
}


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
