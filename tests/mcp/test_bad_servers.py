"""MCP servers that misbehave, through real chat turns: each is a clear notice or tool error, the
session goes on, and no server process outlives the session."""

import sys
from pathlib import Path

import pytest

from tests.mcp.servers import living, server_pids, stdio_server, write_mcp_json
from tests.processes import until
from tests.session.chat import ChatRunner, lines, notices, record, tool_results, tools, turn

MALFORMED = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method, answer = message["method"], None
    if method == "initialize":
        answer = {"protocolVersion": message["params"]["protocolVersion"], "capabilities":
                  {"tools": {}}, "serverInfo": {"name": "odd", "version": "1"}}
    elif method == "tools/list":
        answer = {"tools": [{"name": "odd", "inputSchema": {"type": "object"}}]}
    elif method == "tools/call":
        print("this is not JSON", flush=True)
        answer = {"content": "not a list of blocks"}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": answer}), flush=True)
"""


async def test_a_server_that_exits_mid_session_fails_the_call_tells_the_user_and_leaves_no_process(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "started.txt"
    write_mcp_json(project, {"memory": stdio_server("--marker", str(marker))})
    done = await chat(
        [
            turn("", ("mcp__memory__crash", {})),
            turn("", ("mcp__memory__recall", {"key": "k"})),
            turn("", ("Bash", {"command": "echo still here"})),
            turn("ok"),
        ],
        "crash it",
    )
    results = tool_results(done.llm.requests[-1])
    assert results[0].startswith("MCP server memory: ")  # the call that was under way
    assert results[1] == "Error: No such tool available: mcp__memory__recall"  # its tools left
    assert results[2] == "still here"
    said = [n.text for n in notices(done.messages)]
    assert any("MCP server memory failed" in t and "crashing on purpose" in t for t in said), said
    assert server_pids(marker)
    assert living(server_pids(marker)) == []


async def test_closing_the_session_stops_every_server_process(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "started.txt"
    write_mcp_json(
        project,
        {
            "one": stdio_server("--marker", str(marker)),
            "two": stdio_server("--marker", str(marker)),
        },
    )
    async with chat.open([turn("", ("mcp__one__recall", {"key": "k"})), turn("ok")]) as opened:
        opened.session.send("go")
        await opened.session.wait_idle()
        pids = server_pids(marker)
        assert len(pids) == 2
        assert living(pids) == pids
    await until(lambda: living(pids) == [], limit=30)


async def test_a_server_that_hangs_on_initialize_times_out_and_the_session_goes_on(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_TIMEOUT", "1500")
    write_mcp_json(project, {"memory": stdio_server("--hang")})
    done = await chat([turn("", ("Bash", {"command": "echo on"})), turn("ok")], "go")
    said = [n.text for n in notices(done.messages)]
    assert "MCP server memory failed: it did not answer in time (MCP_TIMEOUT)" in said[0]
    assert tool_results(done.llm.requests[-1]) == ["on"]


async def test_a_call_that_hangs_is_bounded_by_the_tool_timeout(
    chat: ChatRunner, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_TOOL_TIMEOUT", "1500")
    write_mcp_json(project, {"memory": stdio_server()})
    done = await chat(
        [
            turn("", ("mcp__memory__sleep", {"seconds": 120})),
            turn("", ("mcp__memory__recall", {"key": "k"})),
            turn("ok"),
        ],
        "sleep",
    )
    assert tool_results(done.llm.requests[-1]) == [
        "MCP server memory did not answer the call of sleep within 1.5 s (MCP_TOOL_TIMEOUT)",
        '{"result":"nothing under k"}',  # the server still serves the next call
    ]


async def test_a_malformed_result_is_a_tool_error_naming_the_server(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    script = tmp_path / "odd.py"
    script.write_text(MALFORMED)
    write_mcp_json(project, {"odd": {"command": sys.executable, "args": [str(script)]}})
    done = await chat(
        [turn("", ("mcp__odd__odd", {})), turn("", ("Bash", {"command": "echo on"})), turn("ok")],
        "go",
    )
    results = tool_results(done.llm.requests[-1])
    assert results[0].startswith("MCP server odd: ")
    assert "malformed" in results[0]
    assert results[1] == "on"


async def test_images_errors_and_huge_results_as_the_model_and_hooks_get_them(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "hooks.jsonl"
    write_mcp_json(project, {"memory": stdio_server()})
    command = {"type": "command", "command": record(log)}
    logger = [{"matcher": "mcp__memory__.*", "hooks": [command]}]
    done = await chat(
        [
            turn("", ("mcp__memory__picture", {})),
            turn("", ("mcp__memory__fail", {"message": "boom"})),
            turn("", ("mcp__memory__big", {"size": 150_000})),
            turn("ok"),
        ],
        "go",
        hooks={"PostToolUse": logger, "PostToolUseFailure": logger},
    )
    picture, failure, big = tool_results(done.llm.requests[-1])
    assert picture == "[Image: image/png, 66 bytes — not shown to the model]"
    assert failure == "Error executing tool fail: boom"
    assert big.startswith("<persisted-output>\nOutput too large (146.5KB). Full output saved to: ")
    saved = Path(big.split("saved to: ")[1].split("\n")[0])
    assert len(saved.read_text()) == len('{"result":""}') + 150_000
    seen = {(s["hook_event_name"], s["tool_name"]): s for s in lines(log)}
    image = seen[("PostToolUse", "mcp__memory__picture")]["tool_response"]
    assert image[0]["type"] == "image"
    assert image[0]["source"]["media_type"] == "image/png"
    assert seen[("PostToolUseFailure", "mcp__memory__fail")]["error"] == failure
    assert [b.status for b in tools(done.messages)] == ["success", "error", "success"]
