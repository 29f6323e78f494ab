"""Snow CLI's matchers (seed 004 "Matcher 语法"): comma lists, `*` globs, no regex."""

from pathlib import Path

import pytest

from tests.dialects.conftest import Dispatch, action, rule, write
from wavehost import paths


@pytest.mark.parametrize(
    ("matcher", "hits"),
    [
        ("terminal-execute", True), ("TERMINAL-*", True), ("terminal-*", True),
        ("foo, terminal-execute", True), ("toolName:terminal-*", True), ("", True),
        ("filesystem-*", False), ("terminal?execute", False), ("terminal-.*", False),
        ("terminal", False), ("foo,", False), ("args:*ls*", False),
    ],
)  # fmt: skip
async def test_the_observed_matcher_table_on_a_terminal_call(
    dispatch: Dispatch, project: Path, tmp_path: Path, matcher: str, hits: bool
) -> None:
    log = tmp_path / "hit.log"
    write(paths.snow_project_hooks(project) / "beforeToolCall.json",
          [rule(action(f"echo hit >> {log}"), matcher=matcher)])  # fmt: skip
    await dispatch("PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    assert log.exists() is hits


async def test_filesystem_globs_cover_wavehosts_file_tools(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "hit.log"
    write(paths.snow_project_hooks(project) / "beforeToolCall.json", [
        rule(action(f"echo any >> {log}"), matcher="filesystem-*"),
        rule(action(f"echo edit >> {log}"), matcher="filesystem-edit,filesystem-create"),
    ])  # fmt: skip
    for tool in ("Read", "Write", "Edit", "Bash"):
        await dispatch("PreToolUse", tool_name=tool, tool_input={"file_path": "/p/a"})
    assert log.read_text().split() == ["any", "any", "edit", "any", "edit"]


async def test_on_a_type_without_a_tool_a_plain_part_searches_the_context_json(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "hit.log"
    write(paths.snow_project_hooks(project) / "onUserMessage.json", [
        rule(action(f"echo deploy >> {log}"), matcher="deploy"),
        rule(action(f"echo key >> {log}"), matcher="message:*release*"),
        rule(action(f"echo other >> {log}"), matcher="Deploy"),  # case-sensitive search
    ])  # fmt: skip
    await dispatch("UserPromptSubmit", prompt="please deploy the release")
    assert log.read_text().split() == ["deploy", "key"]
