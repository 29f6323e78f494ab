"""Claude Code's `prompt` and `agent` hooks (issue 27, item 2), as Claude Code 2.1.197 runs them:
a prompt hook is one call on the session's model with no tools and a JSON schema for `{ok,
reason}`; an agent hook a short read-only subagent answering through `StructuredOutput`. Real chat
turns, real hook processes beside them, and the fake model server answering each kind of request.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hooks_doc import hook, hooks_for, merge
from tests.session.chat import (
    ChatRunner,
    lines,
    metas,
    notices,
    record,
    tool_results,
    turn,
    user_texts,
)
from tests.session.fake_llm import Answer, HttpError, Slow
from tests.workspace import write_json
from wavehost import paths
from wavehost.session.providers.scripted import ScriptedToolCall, ScriptedTurn

SCHEMA = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean"},
        "reason": {"type": "string"},
        "impossible": {"type": "boolean"},
    },
    "required": ["ok", "reason"],
    "additionalProperties": False,
}


def system_of(body: dict[str, Any]) -> str:
    system = body.get("system", "")
    if isinstance(system, list):
        return "\n".join(part.get("text", "") for part in system)
    if "messages" in body and body["messages"] and body["messages"][0]["role"] == "system":
        return str(body["messages"][0]["content"])  # OpenAI's wire format
    return str(system)


def kind(body: dict[str, Any]) -> str:
    system = system_of(body)
    if "hook condition in Claude Code" in system or "stop-condition hook" in system:
        return "prompt"
    if "hook in Claude Code. Your task" in system or "verifying a stop condition" in system:
        return "agent"
    return "main"


def answer(ok: bool, reason: str, **more: Any) -> ScriptedTurn:
    return turn(json.dumps({"ok": ok, "reason": reason, **more}))


def calls(*pairs: tuple[str, dict[str, Any]]) -> ScriptedTurn:
    return ScriptedTurn(tool_calls=[ScriptedToolCall(name=n, input=i) for n, i in pairs])


class Model:
    """Answers each kind of request from its own script; keeps them apart."""

    def __init__(self, **scripts: list[Answer]) -> None:
        self.scripts = scripts
        self.seen: dict[str, list[dict[str, Any]]] = {k: [] for k in ("main", "prompt", "agent")}

    def __call__(self, index: int, body: dict[str, Any]) -> Answer:
        who = kind(body)
        self.seen[who].append(body)
        script = self.scripts.get(who, [])
        return script[len(self.seen[who]) - 1] if len(self.seen[who]) <= len(script) else turn("…")


def prompt(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "prompt", "prompt": text, **fields}


def agent(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "agent", "prompt": text, **fields}


def write(project: Path, name: str = "a.txt") -> tuple[str, dict[str, str]]:
    return ("Write", {"file_path": str(project / name), "content": "x\n"})


def last_user_text(body: dict[str, Any]) -> str:
    return user_texts(body)[-1]


# -- prompt hooks ------------------------------------------------------------------------------


async def test_a_prompt_hook_asks_the_sessions_model_without_tools_and_its_no_blocks_the_tool(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = home / "pre.jsonl"
    model = Model(
        main=[turn("", write(project)), turn("done")],
        prompt=[answer(False, "writes to a.txt are not allowed")],
    )
    hooks = hooks_for(
        "PreToolUse", prompt("Is this write safe? $ARGUMENTS"), record(log), matcher="Write"
    )
    await chat([], "write it", hooks=hooks, respond=model)

    [asked] = model.seen["prompt"]
    assert asked["tools"] == []
    assert asked["output_config"] == {"format": {"type": "json_schema", "schema": SCHEMA}}
    assert asked["model"] == "fake-anthropic"  # the session's model
    assert system_of(asked).startswith("You are evaluating a hook condition in Claude Code.")
    [message] = asked["messages"]  # the prompt alone, its $ARGUMENTS the hook's input JSON
    text = message["content"][0]["text"]
    assert text.startswith("Is this write safe? {")
    assert json.loads(text.removeprefix("Is this write safe? ")) == lines(log)[0]
    assert not (project / "a.txt").exists()
    assert tool_results(model.seen["main"][1]) == [
        "PreToolUse:Write hook error: [Is this write safe? $ARGUMENTS]: "
        "writes to a.txt are not allowed"
    ]
    assert len(model.seen["main"]) == 2  # the turn goes on


async def test_a_prompt_hook_without_arguments_gets_them_appended_and_its_ok_lets_the_tool_run(
    chat: ChatRunner, project: Path
) -> None:
    model = Model(main=[turn("", write(project)), turn("done")], prompt=[answer(True, "fine")])
    hooks = hooks_for("PreToolUse", prompt("Is it safe?", model="judge-model"))
    await chat([], "write it", hooks=hooks, respond=model)

    [asked] = model.seen["prompt"]
    text = last_user_text(asked)
    assert text.startswith("Is it safe?\n\nARGUMENTS: {")
    assert json.loads(text.split("ARGUMENTS: ", 1)[1])["tool_name"] == "Write"
    assert asked["model"] == "judge-model"  # the hook's own model, on the session's provider
    assert (project / "a.txt").read_text() == "x\n"


async def test_a_stop_prompt_hook_reads_the_transcript_and_keeps_the_turn_going_until_ok(
    chat: ChatRunner,
) -> None:
    model = Model(
        main=[turn("not yet"), turn("FINISHED")],
        prompt=[answer(False, "it did not say FINISHED"), answer(True, "it did")],
    )
    hooks = hooks_for("Stop", prompt("Did the assistant say FINISHED?"))
    result = await chat([], "hello", hooks=hooks, respond=model)

    first, second = model.seen["prompt"]
    assert system_of(first).startswith("You are evaluating a stop-condition hook in Claude Code.")
    texts = user_texts(first)
    assert texts[0] == "hello"  # the conversation so far, then the question
    assert texts[-1].startswith(
        "Based on the conversation transcript above, has the following stopping condition been "
        "satisfied? Answer based on transcript evidence only.\n\nCondition: Did the assistant say "
        "FINISHED?\n\nARGUMENTS: {"
    )
    assert "not yet" in json.dumps(first["messages"])
    assert metas(result.messages) == ["[Did the assistant say FINISHED?]: it did not say FINISHED"]
    assert "FINISHED" in json.dumps(second["messages"])
    assert len(model.seen["main"]) == 2


@pytest.mark.parametrize(("go_on", "main_calls"), [(False, 1), (True, 2)])
async def test_a_post_tool_prompt_hooks_no_stops_the_turn_unless_it_continues_on_block(
    chat: ChatRunner, project: Path, go_on: bool, main_calls: int
) -> None:
    model = Model(main=[turn("", write(project)), turn("done")], prompt=[answer(False, "bad")])
    hook = prompt("Was the write fine?", **({"continueOnBlock": True} if go_on else {}))
    result = await chat([], "write it", hooks=hooks_for("PostToolUse", hook), respond=model)

    assert len(model.seen["main"]) == main_calls
    if go_on:
        assert metas(result.messages) == [
            'PostToolUse:Write hook blocking error from command: "Was the write fine?": '
            "[Was the write fine?]: bad"
        ]
    else:  # Claude Code's continue: false — the reason for the user, the model not asked again
        assert [n.text for n in notices(result.messages)] == [
            "PostToolUse:Write hook stopped continuation: bad"
        ]


async def test_a_user_prompt_submit_prompt_hooks_no_keeps_the_model_from_being_asked(
    chat: ChatRunner,
) -> None:
    model = Model(main=[turn("hi")], prompt=[answer(False, "not that")])
    result = await chat(
        [], "hello", hooks=hooks_for("UserPromptSubmit", prompt("ok?")), respond=model
    )

    assert model.seen["main"] == []
    assert [n.text for n in notices(result.messages)] == [
        "UserPromptSubmit hook stopped continuation: not that"
    ]


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        (HttpError(400, "the judge is away"), "Hook evaluator API error: "),
        (turn("yes it is fine"), "JSON validation failed: "),
        (turn('{"ok": "yes"}'), "Schema validation failed: ok: must be true or false"),
    ],
)
async def test_a_prompt_hook_that_gets_no_usable_answer_is_a_non_blocking_error(
    chat: ChatRunner, project: Path, reply: Answer, shown: str
) -> None:
    model = Model(main=[turn("", write(project)), turn("done")], prompt=[reply])
    result = await chat([], "write it", hooks=hooks_for("PreToolUse", prompt("ok?")), respond=model)

    [notice] = notices(result.messages)
    assert notice.text.startswith(shown)
    assert (project / "a.txt").exists()  # the tool ran; the model was told nothing
    assert metas(result.messages) == []


async def test_a_prompt_hook_past_its_timeout_is_stopped_and_the_tool_runs(
    chat: ChatRunner, project: Path
) -> None:
    model = Model(
        main=[turn("", write(project)), turn("done")],
        prompt=[Slow(answer(False, "too late"), 30)],
    )
    hooks = hooks_for("PreToolUse", prompt("ok?", timeout=1))
    result = await chat([], "write it", hooks=hooks, respond=model)

    assert [n.text for n in notices(result.messages)] == [
        "hook timed out after 1 s and was stopped"
    ]
    assert (project / "a.txt").exists()


@pytest.mark.parametrize("why", ["untrusted", "disableAllHooks"])
async def test_a_model_hook_that_may_not_run_asks_no_model(
    chat: ChatRunner, project: Path, why: str
) -> None:
    model = Model(main=[turn("", write(project)), turn("done")])
    hooks = merge(
        hooks_for("PreToolUse", prompt("ok?"), agent("check it")), hooks_for("Stop", prompt("ok?"))
    )
    options: dict[str, Any] = {"hooks": hooks, "respond": model}
    if why == "untrusted":
        options["config"] = {"trusted": False}
    else:
        write_json(paths.local_settings(project), {"disableAllHooks": True})
    await chat([], "write it", **options)

    assert model.seen["prompt"] == model.seen["agent"] == []
    assert len(model.seen["main"]) == 2


async def test_a_prompt_hook_asks_an_openai_compatible_model_by_json_schema(
    chat: ChatRunner, project: Path
) -> None:
    model = Model(main=[turn("", write(project)), turn("done")], prompt=[answer(False, "no")])
    hooks = hooks_for("PreToolUse", prompt("ok?"))
    await chat([], "write it", hooks=hooks, respond=model, provider="openai")

    [asked] = model.seen["prompt"]
    assert "tools" not in asked
    assert asked["response_format"]["type"] == "json_schema"
    assert asked["response_format"]["json_schema"]["schema"] == SCHEMA
    assert not (project / "a.txt").exists()


# -- agent hooks -------------------------------------------------------------------------------


def structured(ok: bool, reason: str = "") -> ScriptedTurn:
    return calls(("StructuredOutput", {"ok": ok, "reason": reason}))


async def test_an_agent_hook_runs_a_read_only_subagent_that_answers_through_structured_output(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    (project / "notes.txt").write_text("no writes\n")
    log = home / "pre.jsonl"
    model = Model(
        main=[turn("", write(project)), turn("done")],
        agent=[
            calls(("Read", {"file_path": str(project / "notes.txt")})),
            structured(False, "notes say no"),
        ],
    )
    hooks = merge(
        hooks_for("PreToolUse", agent("Check the write of $ARGUMENTS"), matcher="Write"),
        hooks_for("PreToolUse", record(log)),
    )
    await chat([], "write it", hooks=hooks, respond=model)

    first, second = model.seen["agent"]
    names = {t["name"] for t in first["tools"]}
    assert names == {"Read", "Glob", "Grep", "TaskOutput", "StructuredOutput"}  # read-only
    assert system_of(first).startswith(
        "You are evaluating a PreToolUse hook in Claude Code. Your task is to evaluate the "
        "condition described in the user message. The conversation transcript is available at: "
    )
    assert user_texts(first)[0].startswith("Check the write of {")
    assert "no writes" in json.dumps(second["messages"])  # it really read the file
    assert tool_results(model.seen["main"][1]) == [
        "PreToolUse:Write hook error: Agent hook condition was not met: notes say no"
    ]
    # The session's tool hooks fire for its calls too, as in Claude Code
    inside = [e for e in lines(log) if e.get("agent_id", "").startswith("hook-agent-")]
    assert [e["tool_name"] for e in inside] == ["Read", "StructuredOutput"]
    assert {(e["agent_type"], e["permission_mode"]) for e in inside} == {("", "dontAsk")}
    assert not (project / "a.txt").exists()
    assert len(model.seen["main"]) == 2


async def test_an_agent_that_never_answers_is_reminded_once_then_the_tool_runs(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = home / "substop.jsonl"
    model = Model(
        main=[turn("", write(project)), turn("done")],
        agent=[turn("I think it is fine"), turn("still fine")],
    )
    hooks = merge(
        hooks_for("PreToolUse", agent("Check the write")), hooks_for("SubagentStop", record(log))
    )
    await chat([], "write it", hooks=hooks, respond=model)

    _, second = model.seen["agent"]
    assert last_user_text(second) == (
        "[structured-output-enforce] You MUST call the StructuredOutput tool to complete this "
        "request. Call this tool now."
    )
    assert [e["stop_hook_active"] for e in lines(log)] == [False, True]
    assert (project / "a.txt").exists()  # no answer: the hook has no effect


async def test_a_stop_agent_hook_keeps_the_turn_going_with_its_reason(chat: ChatRunner) -> None:
    model = Model(
        main=[turn("done?"), turn("now done")],
        agent=[structured(False, "tests were not run"), structured(True)],
    )
    result = await chat(
        [], "go", hooks=hooks_for("Stop", agent("Did the tests run?")), respond=model
    )

    assert system_of(model.seen["agent"][0]).startswith(
        "You are verifying a stop condition in Claude Code."
    )
    assert metas(result.messages) == ["Agent hook condition was not met: tests were not run"]
    assert len(model.seen["main"]) == 2


async def test_no_prompt_or_agent_hook_runs_inside_an_agent_hooks_subagent(
    chat: ChatRunner, project: Path
) -> None:
    model = Model(
        main=[turn("", write(project)), turn("done")],
        agent=[calls(("Glob", {"pattern": "*"})), structured(True)],
        prompt=[answer(True, "fine")],
    )
    hooks = merge(
        hooks_for("PreToolUse", agent("check"), matcher="Write"),
        hooks_for("PreToolUse", prompt("judge every call"), matcher="Glob|StructuredOutput"),
    )
    await chat([], "write it", hooks=hooks, respond=model)

    assert model.seen["prompt"] == []  # the hook agent's calls are not judged again (no loops)
    assert (project / "a.txt").exists()


def test_prompt_hooks_do_not_run_where_claude_code_has_no_conversation(
    home: Path, project: Path
) -> None:
    from wavehost.hooks.sources import load_hook_config

    write_json(
        paths.project_settings(project),
        {"hooks": {"SessionStart": [{"hooks": [prompt("hi?")]}], "Stop": [{"hooks": [hook("x")]}]}},
    )
    config = load_hook_config(project, home=home)
    assert [h.command for h in config.runnable()] == ["x"]
    [problem] = config.diagnostics
    assert (problem.code, problem.args["type"]) == ("typeNotForThisEvent", "prompt")
