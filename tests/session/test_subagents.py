"""Subagents through the `Agent` tool: SubagentStart / SubagentStop matched on `agent_type`,
SubagentStop's input (seed 000 "Stop/SubagentStop 末条助手消息", "Stop Hook 后台工作感知" #8),
decision:block continuing a subagent, and background subagents in Stop's `background_tasks`."""

import json
from pathlib import Path

import anyio

from tests.hooks_doc import hooks_for, merge
from tests.processes import TIMEOUT, until
from tests.session.chat import ChatRunner, agent, by_agent, is_subagent, lines, record, tools, turn


async def test_a_foreground_subagent_fires_its_hooks_by_agent_type_and_reports_back(
    chat: ChatRunner, project: Path
) -> None:
    start, stop, other = (project.parent / f"{n}.jsonl" for n in ("start", "stop", "other"))
    hooks = merge(
        hooks_for("SubagentStart", record(start), matcher="Explore"),
        hooks_for("SubagentStop", record(stop), matcher="Explore"),
        hooks_for("SubagentStart", record(other), matcher="Plan"),
        hooks_for("SubagentStop", record(other), matcher="Plan"),
    )
    respond = by_agent(
        [turn("", agent("find the TODOs", "Find TODOs", "Explore")), turn("there are 3")],
        [turn("", ("Glob", {"pattern": "*.py"})), turn("Found 3 TODOs\n\nin a.py")],
    )
    result = await chat([], "how many TODOs?", hooks=hooks, respond=respond)

    [started], [stopped] = lines(start), lines(stop)
    assert not other.exists()
    assert started["agent_type"] == stopped["agent_type"] == "Explore"
    assert started["agent_id"] == stopped["agent_id"]
    assert stopped["hook_event_name"] == "SubagentStop"
    assert stopped["last_assistant_message"] == "Found 3 TODOs\n\nin a.py"
    assert stopped["stop_hook_active"] is False
    assert "background_tasks" not in stopped
    assert "session_crons" not in stopped
    saved = json.loads(Path(stopped["agent_transcript_path"]).read_text())
    assert saved["state"]["messages"][0]["content"] == "find the TODOs"
    [call] = [t for t in tools(result.messages) if t.name == "Agent"]
    assert call.result == "Found 3 TODOs\n\nin a.py"
    sub_request = next(r for r in result.llm.requests if is_subagent(r))
    assert {t["name"] for t in sub_request["tools"]} == {
        "Read",
        "Glob",
        "Grep",
        "Bash",
        "TaskOutput",
    }
    assert "in a.py" in result.llm.request_texts()[-1]


async def test_subagent_stop_decision_block_makes_the_subagent_go_on(
    chat: ChatRunner, project: Path
) -> None:
    block = json.dumps({"decision": "block", "reason": "check the tests too"})
    guard = (
        "python3 -c \"import json,sys; sys.exit(0 if json.load(sys.stdin)['stop_hook_active'] "
        'else 1)"'
    )
    respond = by_agent(
        [turn("", agent("review", "Review", "general-purpose")), turn("reviewed")],
        [turn("looks fine"), turn("tests are fine too")],
    )
    result = await chat(
        [],
        "review it",
        hooks=hooks_for("SubagentStop", f"{guard} || echo '{block}'"),
        respond=respond,
    )

    sub_texts = [
        text
        for text, body in zip(result.llm.request_texts(), result.llm.requests, strict=True)
        if is_subagent(body)
    ]
    assert len(sub_texts) == 2
    assert "check the tests too" in sub_texts[1]
    [call] = [t for t in tools(result.messages) if t.name == "Agent"]
    assert call.result == "tests are fine too"


async def test_a_background_subagent_is_in_stops_list_until_its_report_wakes_the_model(
    chat: ChatRunner, project: Path
) -> None:
    gate, log = project.parent / "gate", project.parent / "stop.jsonl"
    respond = by_agent(
        [
            turn("", agent("slow check", "Slow check", "general-purpose", run_in_background=True)),
            turn("launched it"),
            turn("the check passed"),
        ],
        [
            turn("", ("Bash", {"command": f"while [ ! -f {gate} ]; do sleep 0.02; done"})),
            turn("all checks passed"),
        ],
    )
    async with chat.open(hooks=hooks_for("Stop", record(log)), respond=respond) as running:
        running.session.send("check in the background")
        await until(lambda: len(lines(log)) == 1)
        gate.touch()
        await until(lambda: len(lines(log)) == 2)
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()

    first, second = lines(log)
    assert first["background_tasks"] == [
        {
            "type": "subagent",
            "status": "running",
            "agent_type": "general-purpose",
            "description": "Slow check",
        }
    ]
    assert second["background_tasks"] == []
    last = running.llm.request_texts()[-1]
    assert "<task-notification>" in last
    assert "<result>all checks passed</result>" in last
    assert running.messages[-1].text() == "the check passed"


async def test_an_unknown_agent_type_is_a_tool_error(chat: ChatRunner) -> None:
    script = [turn("", agent("x", "X", "Wizard")), turn("ok")]
    result = await chat(script, "go")

    [call] = tools(result.messages)
    assert call.error == (
        "Agent type 'Wizard' not found. Available agents: general-purpose, Explore, Plan"
    )
