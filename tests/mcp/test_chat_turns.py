"""MCP servers in real chat turns: the SDK server of tests/mcp/server.py over stdio and HTTP,
real hook processes, the fake model server."""

import json
import shlex
from pathlib import Path

from tests.mcp.servers import calls, http_server, stdio_server, write_mcp_json
from tests.session.chat import ChatRunner, lines, notices, record, tool_results, tools, turn


async def test_a_model_calls_a_stdio_servers_tool_and_hooks_see_it_as_claude_code_names_it(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    log, called = tmp_path / "hooks.jsonl", tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    hooks = {
        event: [
            {"matcher": "mcp__memory__.*", "hooks": [{"type": "command", "command": record(log)}]}
        ]
        for event in ("PreToolUse", "PostToolUse")
    }
    done = await chat(
        [
            turn("", ("mcp__memory__remember", {"key": "k", "value": "v"})),
            turn("", ("mcp__memory__recall", {"key": "k"})),
            turn("done"),
        ],
        "remember",
        hooks=hooks,
    )

    offered = [t["name"] for t in done.llm.requests[0]["tools"]]
    assert "mcp__memory__remember" in offered
    schema = next(t for t in done.llm.requests[0]["tools"] if t["name"] == "mcp__memory__remember")
    assert schema["input_schema"]["required"] == ["key", "value"]
    assert calls(called) == [
        {"tool": "remember", "arguments": {"key": "k", "value": "v"}},
        {"tool": "recall", "arguments": {"key": "k"}},
    ]
    assert tool_results(done.llm.requests[-1]) == [
        '{"result":"remembered k"}',
        '{"result":"v"}',
    ]
    seen = lines(log)
    assert [(s["hook_event_name"], s["tool_name"]) for s in seen] == [
        ("PreToolUse", "mcp__memory__remember"),
        ("PostToolUse", "mcp__memory__remember"),
        ("PreToolUse", "mcp__memory__recall"),
        ("PostToolUse", "mcp__memory__recall"),
    ]
    assert seen[0]["tool_input"] == {"key": "k", "value": "v"}
    assert seen[1]["tool_response"] == '{"result":"remembered k"}'


async def test_an_exit_2_pre_tool_use_hook_blocks_an_mcp_call_with_the_seeds_text(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    block = {"type": "command", "command": "echo 'no notes today' >&2; exit 2"}
    done = await chat(
        [turn("", ("mcp__memory__remember", {"key": "k", "value": "v"})), turn("ok")],
        "remember",
        hooks={"PreToolUse": [{"matcher": "mcp__memory__remember", "hooks": [block]}]},
    )

    assert tool_results(done.llm.requests[-1]) == [
        "PreToolUse:mcp__memory__remember hook error: no notes today"
    ]
    assert calls(called) == []  # the server never got the call


async def test_an_http_server_on_loopback_serves_tools_to_the_chat(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    with http_server("--calls", str(called)) as url:
        write_mcp_json(project, {"notes": {"type": "http", "url": url}})
        done = await chat(
            [turn("", ("mcp__notes__remember", {"key": "a", "value": "b"})), turn("done")], "go"
        )
    assert tool_results(done.llm.requests[-1]) == ['{"result":"remembered a"}']
    assert calls(called) == [{"tool": "remember", "arguments": {"key": "a", "value": "b"}}]
    assert [b.status for b in tools(done.messages)] == ["success"]


async def test_an_untrusted_project_starts_none_of_its_servers(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "started.txt"
    write_mcp_json(project, {"memory": stdio_server("--marker", str(marker))})
    done = await chat(
        [turn("", ("mcp__memory__remember", {"key": "k", "value": "v"})), turn("ok")],
        "remember",
        config={"trusted": False},
    )
    assert not marker.exists()
    assert not any(t["name"].startswith("mcp__") for t in done.llm.requests[0]["tools"])
    assert tool_results(done.llm.requests[-1]) == [
        "Error: No such tool available: mcp__memory__remember"
    ]


async def test_a_server_that_fails_to_start_is_a_notice_and_the_session_goes_on(
    chat: ChatRunner, project: Path
) -> None:
    write_mcp_json(project, {"memory": stdio_server("--fail-start", "no database here")})
    done = await chat([turn("", ("Bash", {"command": "echo still here"})), turn("ok")], "go")
    said = [n.text for n in notices(done.messages)]
    assert any(
        t.startswith("MCP server memory failed: ") and "no database here" in t for t in said
    ), said
    assert tool_results(done.llm.requests[-1]) == ["still here"]


async def test_json_decisions_on_mcp_calls_deny_one_and_permission_request_allows_another(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "recall is off today",
        }
    }
    allow = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        }
    }
    hooks = {
        "PreToolUse": [{"matcher": "mcp__memory__recall", "hooks": [echo_json(deny)]}],
        "PermissionRequest": [{"matcher": "mcp__memory__.*", "hooks": [echo_json(allow)]}],
    }
    done = await chat(
        [
            turn("", ("mcp__memory__recall", {"key": "k"})),
            turn("", ("mcp__memory__remember", {"key": "k", "value": "v"})),
            turn("ok"),
        ],
        "go",
        hooks=hooks,
        mode="default",  # headless: only the PermissionRequest hook can say yes
    )
    assert tool_results(done.llm.requests[-1]) == [
        "recall is off today",
        '{"result":"remembered k"}',
    ]
    assert calls(called) == [{"tool": "remember", "arguments": {"key": "k", "value": "v"}}]


def echo_json(document: object) -> dict[str, str]:
    return {"type": "command", "command": f"echo {shlex.quote(json.dumps(document))}"}
