"""What the model sees around tools, as in Claude Code 2.1.197 (issue 27, item 6): an empty Bash
result, a file a PostToolUse hook changed after the tool wrote it, and a created file's
`structuredPatch`. Real chat turns, real hook processes, the fake model server.
"""

from pathlib import Path

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, lines, record, tool_results, turn, user_texts

FORMATTER = "python3 -c \"import json,sys; p=json.load(sys.stdin)['tool_input']['file_path']; open(p,'a').write('# formatted\\n')\""  # noqa: E501


def modified(tool: str, path: Path) -> str:
    return (
        f"<system-reminder>\nPostToolUse:{tool} hook additional context: PostToolUse hook "
        f"modified {path} after your edit (likely a formatter). Your next Edit will not fail "
        "with a stale-file error, but if its old_string targets a region the hook reformatted, "
        "Read the file first.\n</system-reminder>"
    )


async def test_an_empty_bash_result_reads_bash_completed_with_no_output(
    chat: ChatRunner,
) -> None:
    calls = [("Bash", {"command": "true", "description": "nothing"})]
    result = await chat([turn("", *calls), turn("ok")], "go")

    assert tool_results(result.llm.requests[1]) == ["(Bash completed with no output)"]


async def test_the_model_is_told_when_a_posttooluse_hook_changed_the_written_file(
    chat: ChatRunner, project: Path
) -> None:
    new, old = project / "new.py", project / "old.py"
    old.write_text("a = 1\n")
    calls = [
        ("Write", {"file_path": str(new), "content": "b = 2\n"}),
        ("Edit", {"file_path": str(old), "old_string": "a = 1", "new_string": "a = 3"}),
    ]
    hooks = hooks_for("PostToolUse", FORMATTER, matcher="Write|Edit")
    result = await chat([turn("", *calls), turn("ok")], "go", hooks=hooks)

    assert new.read_text() == "b = 2\n# formatted\n"
    seen = user_texts(result.llm.requests[1])
    assert modified("Write", new) in seen
    assert modified("Edit", old) in seen


async def test_nothing_is_said_when_the_hooks_left_the_file_as_written(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = home / "post.jsonl"
    calls = [("Write", {"file_path": str(project / "a.txt"), "content": "x\n"})]
    result = await chat(
        [turn("", *calls), turn("ok")], "go", hooks=hooks_for("PostToolUse", record(log))
    )

    assert len(lines(log)) == 1
    assert not any("hook modified" in t for t in user_texts(result.llm.requests[1]))


async def test_a_write_that_creates_a_file_has_an_empty_structured_patch(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    log = home / "post.jsonl"
    (project / "old.txt").write_text("one\n")
    calls = [
        ("Write", {"file_path": str(project / "new.txt"), "content": "fresh\n"}),
        ("Write", {"file_path": str(project / "old.txt"), "content": "two\n"}),
    ]
    hooks = merge(hooks_for("PostToolUse", record(log)))
    await chat([turn("", *calls), turn("ok")], "go", hooks=hooks)

    created, updated = (entry["tool_response"] for entry in lines(log))
    assert (created["type"], created["structuredPatch"]) == ("create", [])
    assert updated["type"] == "update"
    assert updated["structuredPatch"] == [
        {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-one", "+two"]}
    ]
