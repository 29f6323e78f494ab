"""Claude Code's `mcp_tool` hooks through real chat turns: the session's real MCP server answers
them, `${…}` filled in from the hook's input, the answer read as a command hook's stdout."""

import json
from pathlib import Path

from tests.mcp.servers import calls, stdio_server, write_mcp_json
from tests.session.chat import ChatRunner, notices, tool_results, turn, user_texts, write_call

DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        # a path the input does not have (${x.y}) is empty
        "permissionDecisionReason": "no writes to ${tool_input.file_path} on "
        "${hook_event_name}${x.y}",
    }
}


def echo(answer: object, server: str = "memory") -> dict[str, object]:
    return {
        "type": "mcp_tool",
        "server": server,
        "tool": "echo",
        "input": {"text": json.dumps(answer)},
    }


async def test_an_mcp_tool_pre_tool_use_hook_denies_a_write_with_its_input_filled_in(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    target = project / "notes.txt"
    done = await chat(
        [turn("", write_call(target)), turn("ok")],
        "write",
        hooks={"PreToolUse": [{"matcher": "Write", "hooks": [echo(DENY)]}]},
    )
    assert tool_results(done.llm.requests[-1]) == [f"no writes to {target} on PreToolUse"]
    assert not target.exists()
    sent = json.loads(calls(called)[0]["arguments"]["text"])
    assert sent["hookSpecificOutput"]["permissionDecisionReason"].endswith("on PreToolUse")


async def test_an_mcp_tool_post_tool_use_hook_adds_context_for_the_model(
    chat: ChatRunner, project: Path
) -> None:
    write_mcp_json(project, {"memory": stdio_server()})
    context = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "ran: ${tool_input.command}",
        }
    }
    done = await chat(
        [turn("", ("Bash", {"command": "echo hi"})), turn("ok")],
        "go",
        hooks={"PostToolUse": [{"matcher": "Bash", "hooks": [echo(context)]}]},
    )
    assert any("ran: echo hi" in text for text in user_texts(done.llm.requests[-1]))


async def test_an_unknown_server_and_session_start_are_non_blocking_errors(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    called = tmp_path / "calls.jsonl"
    write_mcp_json(project, {"memory": stdio_server("--calls", str(called))})
    done = await chat(
        [turn("", ("Bash", {"command": "echo still runs"})), turn("ok")],
        "go",
        hooks={
            "PreToolUse": [{"matcher": "Bash", "hooks": [echo(DENY, server="nosuch")]}],
            "SessionStart": [{"hooks": [echo(DENY)]}],
        },
    )
    assert tool_results(done.llm.requests[-1]) == ["still runs"]
    assert calls(called) == []  # SessionStart has no MCP client yet (Claude Code's rule)
    assert [n.text for n in notices(done.messages)] == [
        "mcp_tool hooks are not available for the 'SessionStart' hook event "
        "(no MCP client context)",
        "MCP server 'nosuch' not connected",
    ]
