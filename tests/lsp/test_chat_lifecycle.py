"""The session lifecycle over the protocol: sessions outlive the pages that show them.

Re-attaching by id gives a full snapshot (messages, queue, running hooks, pending questions);
permission questions and the model's questions are session state, answerable by any client of
the session; opens of one id
share one session, even when the first request gave up waiting.
"""

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

from lsprotocol import types

from tests.hooks_doc import hook
from tests.lsp.client import TIMEOUT, HostClient, project_hooks, reply, running_server, script
from tests.processes import until
from tests.workspace import Workspace
from wavehost.protocol import table


def _write(path: Path) -> tuple[str, dict[str, Any]]:
    return ("Write", {"file_path": str(path), "content": "x"})


async def _asked(client: HostClient) -> dict[str, Any]:
    await asyncio.wait_for(client.permission_asked.wait(), TIMEOUT)
    return client.permission_requests[-1]


async def test_a_pending_question_is_in_the_snapshot_and_answerable_from_there(
    workspace: Workspace,
) -> None:
    target = workspace.project / "a.txt"
    script(workspace, reply("", _write(target)), reply("written"))
    session_id = str(uuid.uuid4())
    async with running_server(workspace) as client:
        await client.open_chat(sessionId=session_id, create=True)
        await client.send_chat(session_id, "write")  # the client holds the question unanswered
        question = await _asked(client)
        reattached = await client.open_chat(sessionId=session_id, create=True)  # a new page
        answer = {"sessionId": session_id, "toolUseId": question["toolUseId"], "allow": True}
        answered = await client.call(table.CHAT_ANSWER_PERMISSION.name, answer)
        view = await client.chat_until(session_id, lambda v: v.turns == 1)
        again = await client.call(table.CHAT_ANSWER_PERMISSION.name, answer)
        await until(lambda: bool(client.permission_withdrawn))

    assert reattached["sessionId"] == session_id
    assert reattached["pendingPermissions"] == [question]
    assert [m["content"] for m in reattached["messages"] if m["role"] == "user"] == ["write"]
    assert answered == {"answered": True}
    assert again == {"answered": False}  # answered once: the first answer won
    assert client.permission_withdrawn == [question]  # the request was taken back
    assert view.questions == []
    assert target.read_text() == "x"
    assert view.messages[-1]["blocks"][0]["text"] == "written"


async def test_cancel_withdraws_the_question_from_the_session(workspace: Workspace) -> None:
    target = workspace.project / "a.txt"
    script(workspace, reply("", _write(target)), reply("unused"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        await client.send_chat(session_id, "write")
        question = await _asked(client)
        listed = await client.chat_until(session_id, lambda v: v.questions == [question])
        listed_then = list(listed.questions)
        await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
        view = await client.chat_until(session_id, lambda v: v.turns == 1 and not v.questions)
        snapshot = await client.open_chat(sessionId=session_id)
        late = await client.call(
            table.CHAT_ANSWER_PERMISSION.name,
            {"sessionId": session_id, "toolUseId": question["toolUseId"], "allow": True},
        )
        await until(lambda: bool(client.permission_withdrawn))

    assert listed_then == [question]
    assert view.questions == []
    assert snapshot["pendingPermissions"] == []
    assert late == {"answered": False}
    assert client.permission_withdrawn == [question]
    assert not target.exists()


QUESTION = {
    "question": "Which database?",
    "header": "DB",
    "options": [{"label": "SQLite", "description": ""}, {"label": "Postgres", "description": ""}],
    "multiSelect": False,
}


async def test_a_pending_ask_user_question_is_in_the_snapshot_and_answerable_from_there(
    workspace: Workspace,
) -> None:
    script(workspace, reply("", ("AskUserQuestion", {"questions": [QUESTION]})), reply("done"))
    session_id = str(uuid.uuid4())
    async with running_server(workspace) as client:
        client.question_answers.append(None)  # the first page never answers (it went away)
        await client.open_chat(sessionId=session_id, create=True)
        await client.send_chat(session_id, "set it up")
        listed = await client.chat_until(session_id, lambda v: bool(v.asked))
        [pending] = listed.asked
        reattached = await client.open_chat(sessionId=session_id, create=True)  # a new page
        answer = {
            "sessionId": session_id,
            "questionId": pending["questionId"],
            "answers": {"Which database?": "Postgres"},
        }
        answered = await client.call(table.CHAT_ANSWER_QUESTION.name, answer)
        view = await client.chat_until(session_id, lambda v: v.turns == 1)
        again = await client.call(table.CHAT_ANSWER_QUESTION.name, answer)
        await until(lambda: bool(client.question_withdrawn))

    assert client.question_requests == [pending]  # asked once, through the request
    assert reattached["pendingQuestions"] == [pending]
    assert pending["questions"] == [QUESTION]
    assert answered == {"answered": True}
    assert again == {"answered": False}  # the first answer won
    assert client.question_withdrawn == [pending]  # the unanswered request was taken back
    assert view.asked == []
    [tool] = view.blocks("tool")
    assert (tool["status"], tool["result"]) == (
        "success",
        'User has answered your questions: "Which database?"="Postgres". '
        "You can now continue with the user's answers in mind.",
    )


async def test_cancel_withdraws_the_models_question_from_the_session(
    workspace: Workspace,
) -> None:
    script(workspace, reply("", ("AskUserQuestion", {"questions": [QUESTION]})), reply("unused"))
    async with running_server(workspace) as client:
        client.question_answers.append(None)
        session_id = (await client.open_chat())["sessionId"]
        await client.send_chat(session_id, "set it up")
        [pending] = (await client.chat_until(session_id, lambda v: bool(v.asked))).asked
        await client.call(table.CHAT_CANCEL.name, {"sessionId": session_id})
        view = await client.chat_until(session_id, lambda v: v.turns == 1 and not v.asked)
        snapshot = await client.open_chat(sessionId=session_id)
        late = await client.call(
            table.CHAT_ANSWER_QUESTION.name,
            {"sessionId": session_id, "questionId": pending["questionId"], "answers": {}},
        )

    assert snapshot["pendingQuestions"] == []
    assert late == {"answered": False}
    assert view.blocks("tool")[0]["status"] == "cancelled"


async def test_concurrent_opens_of_one_id_yield_one_session(workspace: Workspace) -> None:
    starts = workspace.root / "starts"
    project_hooks(workspace, "SessionStart", f"sleep 0.5; cat >> {starts}")
    script(workspace, reply("unused"))
    session_id = str(uuid.uuid4())
    async with running_server(workspace) as client:
        opened = await asyncio.gather(
            *(client.open_chat(sessionId=session_id, create=True) for _ in range(3))
        )

    assert {o["sessionId"] for o in opened} == {session_id}
    lines = starts.read_text().splitlines()
    assert [json.loads(line)["session_id"] for line in lines] == [session_id]


async def test_an_open_the_client_gave_up_on_leaves_no_orphan_session(
    workspace: Workspace,
) -> None:
    gate, starts, ends = (workspace.root / name for name in ("gate", "starts", "ends"))
    wait = f"while [ ! -f {gate} ]; do sleep 0.05; done"
    workspace.write(
        workspace.project_settings,
        {
            "hooks": {
                "SessionStart": [{"hooks": [hook(f"{wait}; cat >> {starts}")]}],
                "SessionEnd": [{"hooks": [hook(f"cat >> {ends}")]}],
            }
        },
    )
    script(workspace, reply("unused"))
    session_id = str(uuid.uuid4())
    params = {"sessionId": session_id, "create": True}
    async with running_server(workspace) as client:
        # The page's request times out and is cancelled (as an IDE's client does) while
        # SessionStart still runs; then the page asks again.
        msg_id = f"open-{uuid.uuid4()}"
        gave_up = client.protocol.send_request(table.CHAT_OPEN.name, params, msg_id=msg_id)
        await asyncio.sleep(0.5)
        client.protocol.notify(table.CANCEL_REQUEST.name, types.CancelParams(id=msg_id))
        await asyncio.sleep(0.2)
        gate.touch()
        again = await client.open_chat(**params)
        gave_up.cancel()

    assert again["sessionId"] == session_id
    started = [json.loads(line)["session_id"] for line in starts.read_text().splitlines()]
    ended = [json.loads(line)["session_id"] for line in ends.read_text().splitlines()]
    assert started == [session_id]  # one session, the one the page asks for by id
    assert ended == [session_id]  # and it ended with the server: no orphan


async def test_a_new_session_under_a_chosen_id_is_resumed_by_it_later(
    workspace: Workspace,
) -> None:
    script(workspace, reply("first answer"))
    session_id = str(uuid.uuid4())
    async with running_server(workspace) as client:
        first = await client.open_chat(sessionId=session_id, create=True)
        before = (await client.turn(session_id, "question")).messages
    async with running_server(workspace) as client:  # the IDE restarted; the page kept its id
        resumed = await client.open_chat(sessionId=session_id, create=True)

    assert first["messages"] == []
    assert resumed["messages"] == before
    assert Path(resumed["transcriptPath"]).name == f"session_{session_id}.json"


async def test_the_snapshot_lists_the_queue_with_its_texts_and_the_running_hooks(
    workspace: Workspace,
) -> None:
    gate = workspace.root / "gate"
    wait = f"while [ ! -f {gate} ]; do sleep 0.05; done"
    workspace.write(
        workspace.project_settings,
        {"hooks": {"UserPromptSubmit": [{"hooks": [hook(wait, statusMessage="Checking prompt")]}]}},
    )
    script(workspace, reply("one"), reply("two"))
    async with running_server(workspace) as client:
        session_id = (await client.open_chat())["sessionId"]
        await client.send_chat(session_id, "first")
        await client.chat_until(session_id, lambda v: v.running_hooks == ["Checking prompt"])
        await client.send_chat(session_id, "second")
        await client.chat_until(session_id, lambda v: v.queued_texts == ["second"])
        snapshot = await client.open_chat(sessionId=session_id)
        gate.touch()
        await client.chat_until(session_id, lambda v: v.turns >= 1 and v.status == "idle")

    assert snapshot["status"] == "running"
    assert (snapshot["queued"], snapshot["queuedTexts"]) == (1, ["second"])
    assert snapshot["runningHooks"] == ["Checking prompt"]
