"""Copilot CLI and Snow CLI hooks on MCP tools, through real chat turns: each dialect names the
tool its own way (Copilot CLI 1.0.102 as observed: `<server>-<tool>`, `<server>/<tool>` in
permissionRequest; Snow: `<service>-<tool>`) and matches on that name."""

from pathlib import Path

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.mcp.servers import stdio_server, write_mcp_json
from tests.session.chat import ChatRunner, lines, record, turn


async def test_copilot_and_snow_hooks_see_an_mcp_tool_by_their_dialects_name(
    chat: ChatRunner, project: Path, tmp_path: Path
) -> None:
    copilot_log, snow_log = tmp_path / "copilot.jsonl", tmp_path / "snow.jsonl"
    write_mcp_json(project, {"memory": stdio_server()})
    logger = bash(record(copilot_log))
    copilot_project(
        project,
        "mcp.json",
        {
            "preToolUse": [{**logger, "matcher": "memory-.*"}],
            "PreToolUse": [{**logger, "matcher": "memory-remember"}],
            "permissionRequest": [logger],
        },
    )
    snow_project(project, "beforeToolCall", rule(action(record(snow_log)), matcher="memory-*"))
    await chat(
        [turn("", ("mcp__memory__remember", {"key": "k", "value": "v"})), turn("ok")],
        "remember",
        mode="acceptEdits",
        ask=None,
    )
    seen = lines(copilot_log)
    camel = next(s for s in seen if "toolArgs" in s)
    pascal = next(s for s in seen if s.get("hook_event_name") == "PreToolUse")
    permission = next(s for s in seen if s.get("hookName") == "permissionRequest")
    assert (camel["toolName"], camel["toolArgs"]) == ("memory-remember", {"key": "k", "value": "v"})
    assert pascal["tool_name"] == "memory-remember"
    assert permission["toolName"] == "memory/remember"
    [snow] = lines(snow_log)
    assert (snow["toolName"], snow["args"]) == ("memory-remember", {"key": "k", "value": "v"})
