"""Stop: exit 2 / decision:block continue the turn; inputs; systemMessage; queued prompts first."""

import json
from pathlib import Path
from typing import Any

import anyio

from tests.hooks_doc import hooks_for
from tests.session.chat import ChatRunner, continued, lines, notices, record, turn, users
from wavehost.session.providers.scripted import ScriptedTurn

# Blocks the first Stop of a turn only: stop_hook_active is the loop guard.
BLOCK_ONCE = (
    "python3 -c \"import json,sys; d=json.load(sys.stdin); sys.exit(0) if d['stop_hook_active'] "
    "else (print('keep going', file=sys.stderr), sys.exit(2))\""
)
# Exits 0 on a continued Stop, 1 otherwise: `GUARD || …` acts on the first Stop of a turn only.
GUARD = (
    "python3 -c \"import json,sys; sys.exit(0 if json.load(sys.stdin)['stop_hook_active'] else 1)\""
)


async def test_exit_2_injects_stderr_as_is_meta_and_the_next_stop_has_stop_hook_active(
    chat: ChatRunner, project: Path
) -> None:
    log = project / "stop.jsonl"
    hooks = hooks_for("Stop", record(log), BLOCK_ONCE)
    result = await chat([turn("first answer"), turn("second answer")], "go", hooks=hooks)

    assert [(m.content, m.is_meta) for m in users(result.messages)] == [
        ("go", False),
        ("keep going", True),
    ]
    assert len(result.llm.requests) == 2
    assert "keep going" in result.llm.request_texts()[1]
    inputs = lines(log)
    assert [i["stop_hook_active"] for i in inputs] == [False, True]
    assert [i["last_assistant_message"] for i in inputs] == ["first answer", "second answer"]
    assert all(i["background_tasks"] == [] and i["session_crons"] == [] for i in inputs)
    assert inputs[0]["hook_event_name"] == "Stop"


async def test_a_stop_hook_that_makes_the_agent_go_on_leaves_a_line_with_its_hook_and_reason(
    chat: ChatRunner,
) -> None:
    """The chat shows it between the two replies (on the first); the model never sees it."""
    hooks = hooks_for("Stop", BLOCK_ONCE)
    result = await chat([turn("first answer"), turn("second answer")], "go", hooks=hooks)

    [line] = continued(result.messages)
    assert (line.level, line.kind, line.event) == ("info", "stopContinue", "Stop")
    assert line.text == "keep going"
    assert line.hook is not None
    assert line.hook.command == BLOCK_ONCE
    first, second = (m for m in result.messages if m.role == "assistant")
    assert line in list(first.notices())
    assert not list(second.notices())
    assert notices(result.messages) == []
    assert all("stopContinue" not in text for text in result.llm.request_texts())


async def test_a_new_user_prompt_resets_stop_hook_active(chat: ChatRunner, project: Path) -> None:
    log = project / "stop.jsonl"
    hooks = hooks_for("Stop", record(log), BLOCK_ONCE)
    async with chat.open([turn("a"), turn("b"), turn("c"), turn("d")], hooks=hooks) as running:
        for prompt in ("one", "two"):  # the second once the first turn is over
            running.session.send(prompt)
            with anyio.fail_after(30):
                await running.session.wait_idle()

    assert [i["stop_hook_active"] for i in lines(log)] == [False, True, False, True]


async def test_decision_block_with_reason_continues_the_turn(chat: ChatRunner) -> None:
    output = json.dumps({"decision": "block", "reason": "继续干活"}, ensure_ascii=False)
    hooks = hooks_for("Stop", f"{GUARD} || echo '{output}'")
    result = await chat([turn("one"), turn("two")], "go", hooks=hooks)

    assert [(m.content, m.is_meta) for m in users(result.messages)][1:] == [("继续干活", True)]
    assert len(result.llm.requests) == 2


async def test_decision_block_without_reason_does_not_block(chat: ChatRunner) -> None:
    hooks = hooks_for("Stop", 'echo \'{"decision": "block", "reason": "  "}\'')
    result = await chat([turn("one")], "go", hooks=hooks)

    assert len(result.llm.requests) == 1
    assert [m for m in users(result.messages) if m.is_meta] == []


async def test_plain_stdout_on_exit_0_neither_blocks_nor_injects(chat: ChatRunner) -> None:
    result = await chat([turn("one")], "go", hooks=hooks_for("Stop", "echo all good"))

    assert len(result.llm.requests) == 1
    assert len(users(result.messages)) == 1


async def test_last_assistant_message_is_absent_when_the_reply_has_no_text(
    chat: ChatRunner, project: Path
) -> None:
    log = project / "stop.jsonl"
    await chat([turn("")], "go", hooks=hooks_for("Stop", record(log)))

    [payload] = lines(log)
    assert "last_assistant_message" not in payload
    assert payload["stop_hook_active"] is False


async def test_system_message_is_an_info_notice_on_the_reply_and_never_sent_to_the_model(
    chat: ChatRunner,
) -> None:
    status = "🔄 第 2 轮 | 想停：/cancel"
    output = json.dumps({"systemMessage": status}, ensure_ascii=False)
    hooks = hooks_for("Stop", f"{GUARD} || {{ echo '{output}'; echo 'loop again' >&2; exit 2; }}")
    result = await chat([turn("one"), turn("two")], "go", hooks=hooks)

    [notice] = notices(result.messages)
    assert (notice.level, notice.text) == ("info", status)
    first_reply = result.messages[1]
    assert notice in list(first_reply.notices())
    assert [m.content for m in users(result.messages) if m.is_meta] == ["loop again"]
    assert all(status not in text for text in result.llm.request_texts())


async def test_a_queued_user_prompt_goes_before_a_stop_hook_restart(
    chat: ChatRunner, project: Path
) -> None:
    log = project / "stop.jsonl"
    hooks = hooks_for("Stop", record(log), BLOCK_ONCE)
    sessions: list[Any] = []

    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        if index == 0:
            sessions[0].send("interjection")  # typed while the first turn runs
        return turn(f"reply {index}")

    async with chat.open(hooks=hooks, respond=respond) as running:
        sessions.append(running.session)
        running.session.send("start the loop")
        with anyio.fail_after(30):
            await running.session.wait_idle()

    texts = running.llm.request_texts()
    assert len(texts) == 3
    assert "interjection" in texts[1]
    assert "keep going" in texts[1]
    assert [i["stop_hook_active"] for i in lines(log)] == [False, False, True]
