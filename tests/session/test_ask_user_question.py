"""AskUserQuestion: the model's questions reach the user through the client, whose answers are
the tool result in Claude Code's words; without anyone to ask the call fails with a text that
tells the model to go on by itself."""

from pathlib import Path

import anyio

from tests.hooks_doc import hooks_for
from tests.processes import TIMEOUT, until
from tests.session.chat import QUESTION, ChatRunner, tool_results, tools, turn
from wavehost.session.tools.ask import NOBODY, QuestionPrompt


async def test_the_users_answer_is_the_tool_result(chat: ChatRunner) -> None:
    asked: list[QuestionPrompt] = []

    async def ask(prompt: QuestionPrompt) -> dict[str, str] | None:
        asked.append(prompt)
        return {prompt.questions[0].question: "Kubernetes"}

    result = await chat(
        [turn("", ("AskUserQuestion", QUESTION)), turn("ok")],
        "deploy",
        config={"ask_question": ask},
    )

    [prompt] = asked
    assert prompt.session_id == result.session.id
    [question] = prompt.questions
    assert (question.header, [o.label for o in question.options]) == (
        "部署",
        ["Docker", "Kubernetes", "直接部署"],
    )
    assert tool_results(result.llm.requests[1]) == [
        'User has answered your questions: "您希望使用哪种部署方式？"="Kubernetes". '
        "You can now continue with the user's answers in mind."
    ]


async def test_a_dismissed_question_tells_the_model_it_was_not_answered(chat: ChatRunner) -> None:
    async def dismiss(prompt: QuestionPrompt) -> dict[str, str] | None:
        return None

    result = await chat(
        [turn("", ("AskUserQuestion", QUESTION)), turn("ok")],
        "deploy",
        config={"ask_question": dismiss},
    )
    [block] = tools(result.messages)
    assert block.status == "error"
    assert "did not answer" in (block.error or "")


async def test_a_question_the_client_failed_to_answer_stays_open_for_any_page(
    chat: ChatRunner,
) -> None:
    """Session state, like a permission question: the page that was asked went away (its
    request failed); the question is listed until a re-attached page answers it."""

    async def page_gone(prompt: QuestionPrompt) -> dict[str, str] | None:
        raise ConnectionError("the page was closed")

    turns = [turn("", ("AskUserQuestion", QUESTION)), turn("ok")]
    async with chat.open(turns, config={"ask_question": page_gone}) as opened:
        session = opened.session
        session.send("deploy")
        await until(lambda: bool(session.pending_asks))
        [prompt] = session.pending_asks
        assert not session.answer_question("question-unknown", {"x": "y"})
        assert session.answer_question(prompt.question_id, {prompt.questions[0].question: "Docker"})
        assert not session.answer_question(prompt.question_id, None)  # the first answer won
        with anyio.fail_after(TIMEOUT):
            await session.wait_idle()

    assert session.pending_asks == ()
    assert tool_results(opened.llm.requests[1]) == [
        'User has answered your questions: "您希望使用哪种部署方式？"="Docker". '
        "You can now continue with the user's answers in mind."
    ]


async def test_headless_nobody_can_answer_and_the_model_is_told_to_decide(
    chat: ChatRunner,
) -> None:
    result = await chat([turn("", ("AskUserQuestion", QUESTION)), turn("ok")], "deploy")

    assert tool_results(result.llm.requests[1]) == [NOBODY]


async def test_questions_with_fewer_than_two_options_are_invalid_input(chat: ChatRunner) -> None:
    bad = {"questions": [{"question": "Which?", "header": "x", "options": [{"label": "only"}]}]}
    result = await chat([turn("", ("AskUserQuestion", bad)), turn("ok")], "ask")

    assert (tools(result.messages)[0].error or "").startswith("InputValidationError")


async def test_wave_pre_tool_use_hooks_match_ask_user_question_by_claude_codes_name(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "pre.json"
    hooks = hooks_for("PreToolUse", f"cat > {seen}", matcher="AskUserQuestion")
    await chat([turn("", ("AskUserQuestion", QUESTION)), turn("ok")], "deploy", hooks=hooks)

    assert seen.exists()
