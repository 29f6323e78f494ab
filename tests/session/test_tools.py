"""The tools act on a real workspace, with Claude Code's inputs and error texts."""

from pathlib import Path

import pytest

from tests.processes import until
from wavehost.session.tools import BackgroundTasks, Workspace, default_tools


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path, tmp_path)


async def call(workspace: Workspace, name: str, **args: object):  # type: ignore[no-untyped-def]
    async with BackgroundTasks() as tasks:
        return await default_tools(tasks)[name](dict(args), workspace)


async def test_write_then_read_with_offset_and_limit(workspace: Workspace) -> None:
    target = workspace.root / "d" / "f.txt"
    written = await call(workspace, "Write", file_path=str(target), content="a\nb\nc\n")
    assert written.ok
    assert written.response == {
        "success": True,
        "filePath": str(target),
        "type": "create",
        "content": "a\nb\nc\n",
        "originalFile": None,
        "structuredPatch": [],
        "userModified": False,
    }
    read = await call(workspace, "Read", file_path="d/f.txt", offset=2, limit=2)
    assert read.text == "     2\tb\n     3\tc"
    assert read.response["filePath"] == str(target)
    assert read.response["file"]["totalLines"] == 3


async def test_edit_requires_a_unique_match_unless_replace_all(workspace: Workspace) -> None:
    target = workspace.root / "f.txt"
    target.write_text("x x y")
    twice = await call(workspace, "Edit", file_path=str(target), old_string="x", new_string="z")
    assert not twice.ok
    assert twice.text.startswith("Found 2 matches of the string to replace")
    assert twice.response["success"] is False
    assert twice.response["filePath"] == str(target)
    missing = await call(workspace, "Edit", file_path=str(target), old_string="q", new_string="z")
    assert missing.text == "String to replace not found in file.\nString: q"
    done = await call(
        workspace, "Edit", file_path=str(target), old_string="x", new_string="z", replace_all=True
    )
    assert done.ok
    assert target.read_text() == "z z y"


async def test_read_of_a_missing_file_fails_and_bad_input_is_reported(workspace: Workspace) -> None:
    missing = await call(workspace, "Read", file_path="nope.txt")
    assert not missing.ok
    assert missing.text == f"File does not exist: {workspace.root / 'nope.txt'}"
    bad = await call(workspace, "Read")
    assert not bad.ok
    assert bad.text.startswith("InputValidationError: Read failed")


async def test_bash_follows_cd_reports_exit_codes_and_times_out(workspace: Workspace) -> None:
    (workspace.root / "sub").mkdir()
    moved = await call(workspace, "Bash", command="cd sub && echo in")
    assert moved.ok
    assert moved.text == "in"
    assert workspace.cwd == workspace.root / "sub"
    failed = await call(workspace, "Bash", command="echo out; echo err >&2; exit 4")
    assert not failed.ok
    assert failed.text == "Exit code 4\nout\nerr"
    assert failed.response["stdout"] == "out\n"
    assert failed.response["stderr"] == "err\n"
    slow = await call(workspace, "Bash", command="sleep 30", timeout=200)
    assert not slow.ok
    assert slow.text.startswith("Command timed out after 0.2 s")


async def test_bash_in_background_writes_its_output_to_a_file(workspace: Workspace) -> None:
    async with BackgroundTasks() as tasks:
        started = await default_tools(tasks)["Bash"](
            {"command": "echo bg", "run_in_background": True}, workspace
        )
        assert started.ok
        assert started.response["backgroundTaskId"].startswith("bash_")
        await until(lambda: not tasks.running())
        log = workspace.root.joinpath(started.response["outputFile"])
        assert log.read_text() == "bg\n"
    assert not log.parent.exists()  # the task folder goes with its owner


async def test_glob_and_grep_find_files_and_lines(workspace: Workspace) -> None:
    (workspace.root / "pkg").mkdir()
    (workspace.root / "pkg" / "a.py").write_text("import os\nTODO = 1\n")
    (workspace.root / "b.txt").write_text("todo later\n")
    (workspace.root / ".git").mkdir()
    (workspace.root / ".git" / "c.py").write_text("TODO\n")
    found = await call(workspace, "Glob", pattern="**/*.py")
    assert found.text == str(workspace.root / "pkg" / "a.py")
    files = await call(workspace, "Grep", pattern="todo", **{"-i": True})
    assert set(files.response["filenames"]) == {
        str(workspace.root / "pkg" / "a.py"),
        str(workspace.root / "b.txt"),
    }
    lines = await call(workspace, "Grep", pattern="TODO", output_mode="content", glob="*.py")
    assert lines.text == f"{workspace.root / 'pkg' / 'a.py'}:2:TODO = 1"
    none = await call(workspace, "Grep", pattern="absent")
    assert none.text == "No files found"
