"""wavehost's hook payloads carry at least the keys Claude Code 2.1.197 sent, per event and tool,
and its hooks see at least the same environment names (issue 14, items 10–12).

`data/claude_code_payload_keys.json` holds the key sets observed in real Claude Code runs. One
chat turn here fires every one of those events with real hook processes recording what they got.
"""

import json
from pathlib import Path
from typing import Any

from tests.session.chat import ChatRunner, lines, turn

OBSERVED = json.loads(
    (Path(__file__).parent / "data" / "claude_code_payload_keys.json").read_text()
)
NOT_TO_COPY = {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "CLAUDE_CODE_CHILD_SESSION"}
# Where seed 000 has a literal rule against a key Claude Code sends, the seed wins: SubagentStop
# carries no background_tasks / session_crons ("only the main Stop event provides them").
SEED_FORBIDS = {"SubagentStop": {"background_tasks", "session_crons"}}
EVENTS = sorted({entry["event"] for entry in OBSERVED["payloads"]})


def recorder(path: Path) -> str:
    """A hook appending its stdin, plus the names of its environment, as one JSON line."""
    script = (
        "import json, os, sys; d = json.load(sys.stdin); d['_env'] = sorted(os.environ); "
        f"open({str(path)!r}, 'a').write(json.dumps(d) + chr(10))"
    )
    return f"python3 -c {json.dumps(script)}"


def recording(events: list[str] | tuple[str, ...], log: Path) -> dict[str, Any]:
    return {event: [{"hooks": [{"type": "command", "command": recorder(log)}]}] for event in events}


def seed_only(entry: dict[str, Any]) -> bool:
    """Seed 000 also fires PostToolUse for a failed tool (its tool_response `success: false`);
    Claude Code fires only PostToolUseFailure then, so there is nothing observed to compare."""
    response = entry.get("tool_response")
    return (
        entry["hook_event_name"] == "PostToolUse"
        and isinstance(response, dict)
        and (response.get("success") is False)
    )


def keys_of(value: Any) -> set[str]:
    return set(value) if isinstance(value, dict) else set()


async def test_payloads_and_env_are_a_superset_of_claude_codes(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "all.jsonl"
    notes = project / "notes.md"
    notes.write_text("one\ntwo\n")
    hooks = recording(EVENTS, log)
    calls = [
        ("Bash", {"command": "echo hi", "description": "say hi"}),
        ("Write", {"file_path": str(project / "a.txt"), "content": "a\n"}),
        # tool_input is what the model sent (the observed sets are a union over runs).
        (
            "Edit",
            {"file_path": str(notes), "old_string": "two", "new_string": "2", "replace_all": False},
        ),
        ("Read", {"file_path": str(notes)}),
        ("Read", {"file_path": str(project / "missing.md")}),
        ("Agent", {"prompt": "look", "description": "Look", "subagent_type": "Explore"}),
    ]
    script = [turn("", *calls), turn("looked"), turn("done")]
    await chat(script, "go", hooks=hooks)

    seen = lines(log)
    for expected in OBSERVED["payloads"]:
        event, tool = expected["event"], expected.get("tool")
        got = [
            entry
            for entry in seen
            if entry["hook_event_name"] == event
            and (tool is None or entry.get("tool_name") == tool)
            and not seed_only(entry)
        ]
        where = f"{event}" + (f" ({tool})" if tool else "")
        assert got, f"no {where} hook ran"
        for entry in got:
            forbidden = SEED_FORBIDS.get(event, set())
            assert set(expected["keys"]) - forbidden <= set(entry) - {"_env"}, where
            assert not forbidden & set(entry), where
            if "tool_input_keys" in expected:
                assert set(expected["tool_input_keys"]) <= keys_of(entry["tool_input"]), where
            if "tool_response_keys" in expected:
                assert set(expected["tool_response_keys"]) <= keys_of(entry["tool_response"]), where
            for field, nested in expected.get("tool_response_nested", {}).items():
                assert set(nested) <= keys_of(entry["tool_response"][field]), where
            assert set(expected["env_keys"]) - NOT_TO_COPY <= set(entry["_env"]), where


async def test_one_prompt_id_per_user_prompt_on_every_event_of_its_turn(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "ids.jsonl"
    hooks = recording(("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"), log)
    call = ("Bash", {"command": "true"})
    await chat([turn("", call), turn("one"), turn("two")], "first", "second", hooks=hooks)

    ids = [(entry["hook_event_name"], entry["prompt_id"]) for entry in lines(log)]
    first, second = ids[0][1], ids[-1][1]
    assert first != second
    assert [name for name, _ in ids] == [
        "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "Stop",
    ]  # fmt: skip
    assert {i for _, i in ids[:4]} == {first}
    assert {i for _, i in ids[4:]} == {second}
