"""Diagnostics carry codes the page words itself, at the line that needs the fix."""

import json
from pathlib import Path

import pytest

from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.config import EntryRef
from wavehost.hooks.jsonerror import locate
from wavehost.hooks.sources import load_hook_config


def _syntax(text: str) -> tuple[str, int, int]:
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(text)
    found = locate(text, err.value)
    return found.code, found.line, found.column


def test_a_trailing_comma_is_reported_at_the_comma_not_a_line_late() -> None:
    text = '{\n  "hooks": {\n    "Stop": []\n  },\n}\n'
    assert _syntax(text) == ("trailingComma", 4, 4)
    assert _syntax('{"a": [1, 2,\n]}') == ("trailingComma", 1, 12)


def test_a_missing_comma_is_reported_after_the_value_that_needs_it() -> None:
    assert _syntax('{\n  "a": 1\n  "b": 2\n}') == ("missingComma", 2, 9)


def test_other_syntax_errors_keep_the_decoders_position() -> None:
    assert _syntax('{"a": tru}') == ("invalidJson", 1, 7)


def test_an_unparsable_file_says_which_line_with_a_code(home: Path, project: Path) -> None:
    path = paths.project_settings(project)
    path.write_text('{\n  "hooks": {},\n}\n')
    [problem] = load_hook_config(project, home=home).diagnostics
    assert (problem.path, problem.code) == (str(path), "trailingComma")
    assert dict(problem.args) == {"line": "2", "column": "14", "detail": problem.args["detail"]}
    assert "line 2" in problem.message


def test_skipped_entries_name_what_they_are_so_they_can_be_shown_in_place(
    home: Path, project: Path
) -> None:
    groups = [
        {"matcher": "Bash(", "hooks": [{"type": "command", "command": "./guard.sh"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "./fmt.sh", "timeout": -1}]},
    ]
    write_json(paths.project_settings(project), {"hooks": {"PreToolUse": groups, "stop": []}})
    by_code = {d.code: d for d in load_hook_config(project, home=home).diagnostics}
    assert by_code["invalidMatcher"].entry == EntryRef("PreToolUse", "Bash(", "./guard.sh")
    assert by_code["invalidMatcher"].pointer == "/hooks/PreToolUse/0/matcher"
    assert by_code["invalidTimeout"].entry == EntryRef("PreToolUse", "Write", "./fmt.sh")
    assert dict(by_code["unknownEvent"].args) == {"event": "stop", "suggestion": "Stop"}


def test_a_missing_plugin_points_at_where_it_was_enabled(home: Path, project: Path) -> None:
    write_json(paths.user_settings(home), {"enabledPlugins": {"fmt@market": True}})
    [problem] = load_hook_config(project, home=home).diagnostics
    assert (problem.path, problem.pointer) == (
        str(paths.user_settings(home)),
        "/enabledPlugins/fmt@market",
    )
    assert problem.code == "pluginNotInstalled"
    assert dict(problem.args) == {"name": "fmt", "folder": str(paths.plugins_dir(home) / "fmt")}
    assert "install it or remove it" in problem.message


def test_the_file_whose_disable_all_hooks_wins_is_named(home: Path, project: Path) -> None:
    write_json(paths.user_settings(home), {"disableAllHooks": False})
    write_json(paths.local_settings(project), {"disableAllHooks": True})
    config = load_hook_config(project, home=home)
    assert config.hooks_disabled is True
    assert config.disabled_by == paths.local_settings(project)
    write_json(paths.local_settings(project), {"disableAllHooks": False})
    assert load_hook_config(project, home=home).disabled_by is None
