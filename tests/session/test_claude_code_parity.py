"""Hooks written for Claude Code behave as there (issue 14): each divergence found with real hook
scripts, through a real chat turn with real hook processes and the fake model server.

The rule is seed 000's where it has one, else what Claude Code 2.1.197 was seen to do.
"""

import json
from pathlib import Path
from typing import Any

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, lines, metas, record, turn
from wavehost.session.messages import AssistantMessage, TextBlock


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        c
        for m in request["messages"]
        if isinstance(m["content"], list)
        for c in m["content"]
        if c["type"] == "tool_result"
    ]


def json_hook(output: dict[str, Any]) -> str:
    return f"echo '{json.dumps(output)}'"


WRITE_DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "Use the formatter instead of writing by hand",
    }
}


# Item 2: the context label names the tool


async def test_tool_event_additional_context_is_labelled_with_the_tool(
    chat: ChatRunner, project: Path
) -> None:
    pre = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "P"}}
    post = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Q"}}
    hooks = merge(
        hooks_for("PreToolUse", json_hook(pre)), hooks_for("PostToolUse", json_hook(post))
    )
    call = ("Write", {"file_path": str(project / "a.txt"), "content": "x"})
    result = await chat([turn("", call), turn("ok")], "go", hooks=hooks)

    assert metas(result.messages) == [
        "<system-reminder>\nPreToolUse:Write hook additional context: P\n</system-reminder>",
        "<system-reminder>\nPostToolUse:Write hook additional context: Q\n</system-reminder>",
    ]
    seen = "\n".join(result.llm.request_texts()[1:])
    assert "PreToolUse:Write hook additional context: P" in seen


# Item 3: a JSON deny's reason is the tool result, as it is


async def test_json_deny_reason_is_the_tool_result_without_the_exit_2_prefix(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    call = ("Write", {"file_path": str(target), "content": "x"})
    hooks = hooks_for("PreToolUse", json_hook(WRITE_DENY), matcher="Write")
    result = await chat([turn("", call), turn("ok")], "go", hooks=hooks)

    assert not target.exists()
    [result_block] = tool_results(result.llm.requests[1])
    assert result_block["content"] == "Use the formatter instead of writing by hand"
    assert result_block["is_error"] is True


# Item 5 (PermissionRequest exit 2: stderr for the user only): test_permission_hooks.py


# Item 7: plain SessionStart stdout is not for the model


async def test_plain_session_start_stdout_is_ignored(chat: ChatRunner) -> None:
    context = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "C"}}
    hooks = hooks_for("SessionStart", "echo 'banner: welcome back'", json_hook(context))
    result = await chat([turn("hi")], "hello", hooks=hooks)

    [request] = result.llm.request_texts()
    assert "banner: welcome back" not in request
    assert "SessionStart hook additional context: C" in request
    assert all("banner" not in m for m in metas(result.messages))


# Item 8: the model's text blocks stay blocks


async def test_last_assistant_message_joins_the_text_blocks_with_a_newline(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = project.parent / "stop.jsonl"
    result = await chat(
        [turn(["part one", "part two"])], "go", hooks=hooks_for("Stop", record(log))
    )

    [stop] = lines(log)
    assert stop["last_assistant_message"] == "part one\npart two"
    [reply] = [m for m in result.messages if isinstance(m, AssistantMessage)]
    assert [b.text for b in reply.blocks if isinstance(b, TextBlock)] == ["part one", "part two"]
    saved = json.loads(Path(stop["transcript_path"]).read_text())
    saved_reply = [m for m in saved["state"]["messages"] if m["role"] == "assistant"][-1]
    assert [b["text"] for b in saved_reply["blocks"] if b["type"] == "text"] == [
        "part one",
        "part two",
    ]


# Item 11: tool_response shapes as Claude Code's


async def test_write_and_edit_responses_carry_claude_codes_fields(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "post.jsonl"
    target = project / "a.txt"
    target.write_text("one\ntwo\nthree\n")
    calls = [
        ("Write", {"file_path": str(project / "new.txt"), "content": "fresh\n"}),
        ("Edit", {"file_path": str(target), "old_string": "two", "new_string": "TWO"}),
    ]
    await chat([turn("", *calls), turn("ok")], "go", hooks=hooks_for("PostToolUse", record(log)))

    write, edit = (entry["tool_response"] for entry in lines(log))
    assert write["success"] is True
    assert write["filePath"] == str(project / "new.txt")
    assert write["type"] == "create"
    assert write["content"] == "fresh\n"
    assert write["originalFile"] is None
    assert write["userModified"] is False
    assert write["structuredPatch"] == []  # a created file has no patch (Claude Code 2.1.197)
    assert edit["success"] is True
    assert edit["filePath"] == str(target)
    assert edit["originalFile"] == "one\ntwo\nthree\n"
    assert (edit["oldString"], edit["newString"], edit["replaceAll"]) == ("two", "TWO", False)
    assert edit["structuredPatch"] == [
        {
            "oldStart": 1,
            "oldLines": 3,
            "newStart": 1,
            "newLines": 3,
            "lines": [" one", "-two", "+TWO", " three"],
        }
    ]
    assert edit["userModified"] is False


async def test_read_and_bash_responses_carry_claude_codes_fields(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "post.jsonl"
    notes = project / "notes.md"
    notes.write_text("a\nb\nc\n")
    calls = [
        ("Read", {"file_path": str(notes), "offset": 2, "limit": 1}),
        ("Bash", {"command": "echo out; echo err >&2"}),
        ("Bash", {"command": f"mkdir {project / 'd'}"}),
    ]
    await chat([turn("", *calls), turn("ok")], "go", hooks=hooks_for("PostToolUse", record(log)))

    read, bash, mkdir = (entry["tool_response"] for entry in lines(log))
    assert read["success"] is True
    assert read["filePath"] == str(notes)
    assert read["type"] == "text"
    assert read["file"] == {
        "filePath": str(notes),
        "content": "b",
        "numLines": 1,
        "startLine": 2,
        "totalLines": 3,
    }
    assert (bash["stdout"], bash["stderr"]) == ("out\n", "err\n")
    assert bash["interrupted"] is False
    assert bash["isImage"] is False
    assert bash["noOutputExpected"] is False
    assert mkdir["noOutputExpected"] is True
