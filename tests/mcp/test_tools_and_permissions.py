"""MCP tools as the session offers and guards them: listed again when the server says its tools
changed, asked about like other tools (the prompt names server and tool), bypass and plan modes
as for built-in tools."""

from pathlib import Path

from tests.mcp.servers import calls, stdio_server, write_mcp_json
from tests.session.chat import ChatRunner, tool_results, turn
from wavehost.protocol.chat import ChatRequestPermissionParams
from wavehost.session.permissions import PermissionAnswer, PermissionPrompt


async def test_tools_a_server_adds_at_run_time_are_offered_on_the_next_model_call(
    chat: ChatRunner, project: Path
) -> None:
    write_mcp_json(project, {"memory": stdio_server()})
    done = await chat(
        [
            turn("", ("mcp__memory__grow", {"name": "extra"})),
            turn("", ("mcp__memory__extra", {"text": "hi"})),
            turn("ok"),
        ],
        "grow",
    )
    before = {t["name"] for t in done.llm.requests[0]["tools"]}
    after = {t["name"] for t in done.llm.requests[1]["tools"]}
    assert "mcp__memory__extra" not in before
    assert after - before == {"mcp__memory__extra"}
    assert tool_results(done.llm.requests[-1])[1] == '{"result":"extra: hi"}'


async def test_default_mode_asks_before_an_mcp_call_naming_server_and_tool(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    asked: list[PermissionPrompt] = []

    async def ask(prompt: PermissionPrompt) -> PermissionAnswer:
        asked.append(prompt)
        return PermissionAnswer(allow=len(asked) == 1)

    call = ("mcp__memory__remember", {"key": "k", "value": "v"})
    done = await chat([turn("", call), turn("", call), turn("ok")], "go", mode="default", ask=ask)

    wire = ChatRequestPermissionParams.of(asked[0]).to_wire()
    assert (wire["toolName"], wire["mcpServer"], wire["mcpTool"]) == (
        "mcp__memory__remember",
        "memory",
        "remember",
    )
    assert len(calls(called)) == 1  # the refused call never reached the server
    assert tool_results(done.llm.requests[-1])[1].startswith(
        "The user doesn't want to proceed with this tool use. The mcp__memory__remember call"
    )


async def test_headless_default_and_plan_mode_refuse_an_mcp_call_and_bypass_runs_it(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    call = ("mcp__memory__remember", {"key": "k", "value": "v"})
    refused = {}
    for mode in ("default", "plan"):
        done = await chat([turn("", call), turn("ok")], "go", mode=mode)
        refused[mode] = tool_results(done.llm.requests[-1])[0]
    assert refused == {
        "default": "Permission to use mcp__memory__remember was denied: "
        "no one can be asked in headless mode.",
        "plan": "Permission to use mcp__memory__remember was denied: the session is in plan "
        "mode, so nothing may be changed until the plan is approved.",
    }
    assert calls(called) == []
    await chat([turn("", call), turn("ok")], "go", mode="bypassPermissions")
    assert len(calls(called)) == 1
