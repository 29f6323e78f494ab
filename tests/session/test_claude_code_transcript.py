"""Hooks that read the transcript as Claude Code writes it (issue 27, item 5): with
`"transcriptFormat": "claude-code"`, `transcript_path` is a JSONL file in Claude Code's line format,
written before each hook runs; without it, the session JSON of seed 000 (`.state.messages`).
Real chat turns, real guard scripts parsing the file, the fake model server.
"""

import json
from pathlib import Path
from typing import Any

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, lines, metas, record, turn
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.sources import load_hook_config

# A "was the test command run?" Stop guard, as people write them for Claude Code: it walks the
# JSONL for a Bash tool_use running the tests and a successful tool_result for it.
GUARD = r"""
import json, sys
payload = json.load(sys.stdin)
ran, passed = {}, set()
with open(payload["transcript_path"]) as transcript:
    for line in transcript:
        entry = json.loads(line)
        content = entry.get("message", {}).get("content")
        if not isinstance(content, list):
            continue
        for block in content:
            if entry["type"] == "assistant" and block.get("type") == "tool_use" \
                    and block["name"] == "Bash" and "pytest" in block["input"]["command"]:
                ran[block["id"]] = block["input"]["command"]
            if entry["type"] == "user" and block.get("type") == "tool_result" \
                    and not block.get("is_error"):
                passed.add(block["tool_use_id"])
if not any(call in passed for call in ran):
    print(json.dumps({"decision": "block", "reason": "Run the tests (pytest) before stopping."}))
"""


def settings_with(project: Path, hooks: dict[str, Any], **more: Any) -> None:
    write_json(paths.project_settings(project), {"hooks": hooks, **more})


def bash(command: str) -> tuple[str, dict[str, str]]:
    return ("Bash", {"command": command, "description": "run it"})


async def test_a_stop_guard_parsing_claude_code_jsonl_finds_the_bash_call_made_earlier(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    guard = home / "guard.py"
    guard.write_text(GUARD)
    settings_with(project, hooks_for("Stop", f"python3 {guard}"), transcriptFormat="claude-code")
    turns = [turn("done"), turn("", bash("echo pytest: 3 passed")), turn("now done")]
    result = await chat(turns, "fix the bug")

    # The first stop is refused (no test run yet); after the Bash call the guard finds it.
    assert metas(result.messages) == ["Run the tests (pytest) before stopping."]
    assert len(result.llm.requests) == 3


async def test_the_jsonl_has_claude_codes_lines_written_before_each_hook(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    copies = home / "copies"
    copies.mkdir()
    snapshot = (
        'python3 -c "import json,sys,shutil; p=json.load(sys.stdin); '
        f"shutil.copy(p['transcript_path'], '{copies}/' + p['hook_event_name'] + '.jsonl')\""
    )
    log = home / "payloads.jsonl"
    once = f"test -f {home}/asked || {{ touch {home}/asked; echo 'check once more' >&2; exit 2; }}"
    hooks = merge(
        hooks_for("PreToolUse", snapshot, record(log)),
        hooks_for("Stop", snapshot, once),
    )
    settings_with(project, hooks, transcriptFormat="claude-code")
    await chat([turn("looking", bash("ls")), turn("done"), turn("really done")], "list it")

    [payload] = lines(log)
    path = Path(payload["transcript_path"])
    assert path.suffix == ".jsonl"
    assert path != paths.transcript_path(payload["session_id"], home)  # not the session JSON

    before_tool = [
        json.loads(line) for line in (copies / "PreToolUse.jsonl").read_text().splitlines()
    ]
    # Written before the hook ran: the call it is about is there, its result not yet.
    assert before_tool[-1]["type"] == "assistant"
    assert before_tool[-1]["message"]["content"] == [
        {
            "type": "tool_use",
            "id": payload["tool_use_id"],
            "name": "Bash",
            "input": payload["tool_input"],
        }
    ]

    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert [e["type"] for e in entries] == [
        "user", "assistant", "assistant", "user", "assistant", "user", "assistant"
    ]  # fmt: skip
    prompt, text, call, result, _, feedback, _ = entries
    assert prompt["message"] == {"role": "user", "content": "list it"}
    assert text["message"]["content"] == [{"type": "text", "text": "looking"}]
    assert text["message"]["id"] == call["message"]["id"]  # one message, one line per block
    [tool_result] = result["message"]["content"]
    assert tool_result["type"] == "tool_result"
    assert tool_result["tool_use_id"] == call["message"]["content"][0]["id"]
    assert tool_result["is_error"] is False
    assert (feedback["isMeta"], feedback["message"]["content"]) == (True, "check once more")
    assert [e["parentUuid"] for e in entries] == [None] + [e["uuid"] for e in entries[:-1]]
    assert len({e["uuid"] for e in entries}) == len(entries)
    for entry in entries:
        assert entry["sessionId"] == payload["session_id"]
        assert entry["cwd"] == str(project)
        assert entry["timestamp"].endswith("Z")
        assert entry["isSidechain"] is False
    earlier = [json.loads(line) for line in (copies / "Stop.jsonl").read_text().splitlines()]
    assert [e["uuid"] for e in earlier] == [e["uuid"] for e in entries[: len(earlier)]]  # stable


async def test_without_the_setting_transcript_path_is_the_session_json(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = home / "stop.jsonl"
    settings_with(project, hooks_for("Stop", record(log)))
    await chat([turn("hello")], "hi")

    [payload] = lines(log)
    path = Path(payload["transcript_path"])
    assert path == paths.transcript_path(payload["session_id"], home)
    assert json.loads(path.read_text())["state"]["messages"][0]["content"] == "hi"  # seed 000


def test_an_unknown_transcript_format_is_reported(home: Path, project: Path) -> None:
    write_json(paths.project_settings(project), {"transcriptFormat": "claude"})
    [problem] = load_hook_config(project, home=home).diagnostics
    assert (problem.pointer, problem.code) == ("/transcriptFormat", "unknownValue")
    assert problem.args == {"field": "transcriptFormat", "values": '"wave", "claude-code"'}
