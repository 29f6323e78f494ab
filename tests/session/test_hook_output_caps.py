"""Bounded text to the model: every hook text is cut at Claude Code's 10,000 characters, saying so.

Real hook processes print a megabyte; what reaches the model (tool error, isMeta messages,
additional context, block reasons) is at most the cap plus one line telling how much was cut.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc, hooks_for
from tests.session.chat import ChatRunner, tools, turn
from wavehost.hooks.outcome import OUTPUT_CHARS, capped

BIG = 1024 * 1024  # what the runner keeps of a stream
JSON_BIG = 200_000  # a string inside JSON output (the whole output must stay under BIG)


def note(size: int) -> str:
    return (
        f"\n[hook output truncated: {size:,} characters, only the first {OUTPUT_CHARS:,} are shown]"
    )


WRITE = {"tool_name": "Write", "tool_input": {"file_path": "/p/a.txt", "content": "x"}}


def flood(stream: str = "") -> str:
    """A shell command printing BIG `x`s (no newline) on stdout, or stderr with `>&2`."""
    return f"head -c {BIG} /dev/zero | tr '\\0' x {stream}"


def json_hook(document_with_flood: dict[str, Any], tmp: Path) -> str:
    """A hook printing `document`, where the string "FLOOD" stands for BIG `x`s."""
    text = json.dumps(document_with_flood).replace("FLOOD", "x" * JSON_BIG)
    path = tmp / "out.json"
    path.write_text(text)
    return f"cat {path}"


def expected(size: int = BIG) -> str:
    return "x" * OUTPUT_CHARS + note(size)


def test_small_texts_are_untouched_and_the_cut_says_what_it_cut() -> None:
    assert capped("short") == "short"
    assert capped("y" * OUTPUT_CHARS) == "y" * OUTPUT_CHARS
    assert capped("x" * BIG) == expected()


async def test_a_blocking_hooks_megabyte_of_stderr_reaches_the_tool_error_capped(
    fire: Any, project: Path
) -> None:
    outcome = await fire(
        hooks_doc("PreToolUse", f"{flood('>&2')}; exit 2"), common("PreToolUse", project, **WRITE)
    )
    assert outcome.tool_error == "PreToolUse:Write hook error: " + expected()


async def test_plain_stdout_given_to_the_model_is_capped(fire: Any, project: Path) -> None:
    outcome = await fire(
        hooks_doc("UserPromptSubmit", flood()), common("UserPromptSubmit", project, prompt="hi")
    )
    assert outcome.meta_messages == [expected()]


@pytest.mark.parametrize(
    ("event", "document", "field"),
    [
        (
            "UserPromptSubmit",
            {"hookSpecificOutput": {
                "hookEventName": "UserPromptSubmit", "additionalContext": "FLOOD"
            }},
            "context",
        ),
        ("Stop", {"decision": "block", "reason": "FLOOD"}, "reason"),
        (
            "PreToolUse",
            {"hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": "FLOOD",
            }},
            "deny",
        ),
    ],
    ids=["additionalContext", "block reason", "deny reason"],
)  # fmt: skip
async def test_every_json_string_a_hook_gives_the_model_is_capped(
    fire: Any, project: Path, tmp_path: Path, event: str, document: dict[str, Any], field: str
) -> None:
    fields: dict[str, Any] = {
        "UserPromptSubmit": {"prompt": "hi"},
        "Stop": {},
        "PreToolUse": WRITE,
    }[event]
    outcome = await fire(
        hooks_doc(event, json_hook(document, tmp_path)), common(event, project, **fields)
    )
    cut = expected(JSON_BIG)
    if field == "context":
        [message] = outcome.meta_messages
        assert cut in message
        assert len(message) < OUTPUT_CHARS + 500
    elif field == "reason":
        assert outcome.meta_messages == [cut]
    else:
        assert outcome.tool_error == cut  # a JSON deny's reason is the tool result as it is


async def test_json_nested_too_deep_is_an_invalid_output_not_a_crash(
    fire: Any, project: Path, tmp_path: Path
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    outcome = await fire(
        hooks_doc("UserPromptSubmit", f"cat {deep}"),
        common("UserPromptSubmit", project, prompt="x"),
    )
    assert [n.text for n in outcome.notices] == [
        "invalid hook JSON output (the JSON is nested more than 64 levels deep)"
    ]
    assert outcome.meta_messages == []


async def test_the_model_sees_the_capped_text_in_the_tool_result(
    chat: ChatRunner, project: Path
) -> None:
    hooks = hooks_for("PreToolUse", f"{flood('>&2')}; exit 2", matcher="Write")
    call = ("Write", {"file_path": str(project / "a.txt"), "content": "x"})
    result = await chat([turn("", call), turn("ok")], "write", hooks=hooks)

    [block] = tools(result.messages)
    assert block.error == "PreToolUse:Write hook error: " + expected()
    second = result.llm.requests[1]["messages"]
    [tool_result] = [c for m in second for c in m["content"] if c["type"] == "tool_result"]
    assert tool_result["content"] == "PreToolUse:Write hook error: " + expected()
