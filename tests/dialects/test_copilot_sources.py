"""Copilot CLI's hook files: where they are, their order, how a bad file or entry is handled."""

from pathlib import Path

import pytest

from tests.dialects.conftest import Dispatch, bash, copilot_file, record, write
from tests.hooks_doc import hooks_doc
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.sources import load_hook_config


def repo_hooks(project: Path) -> Path:
    return paths.copilot_project_hooks(project)


def user_hooks(home: Path) -> Path:
    return paths.copilot_user_hooks(home)


def commands(project: Path, event: Event = Event.Stop) -> list[str]:
    config = load_hook_config(project)
    return [h.command for h in config.runnable() if h.dialect == "copilot" and h.event is event]


async def test_user_files_run_before_project_files_one_after_another(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "order.log"
    copilot_file(user_hooks(home), "u.json", {"agentStop": [bash(f"echo user >> {log}")]})
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash(f"echo repo >> {log}")]})
    outcome = await dispatch("Stop")
    assert log.read_text().split() == ["user", "repo"]
    assert [r.source for r in outcome.runs] == ["user", "project"]
    assert {r.dialect for r in outcome.runs} == {"copilot"}


def test_files_of_a_folder_load_in_descending_byte_order_then_subfolders(project: Path) -> None:
    root = repo_hooks(project)
    for name in ["a", "Z", "10", "_u", "m", "2", "B", "z"]:
        copilot_file(root, f"{name}.json", {"agentStop": [bash(f"echo {name}")]})
    copilot_file(root / "sub", "x.json", {"agentStop": [bash("echo sub/x")]})
    copilot_file(root / "sub" / "deeper", "y.json", {"agentStop": [bash("echo sub/deeper/y")]})
    (root / "ignored.jsonc").write_text('{"hooks": {"agentStop": [{"bash": "echo no"}]}}')
    expected = ["z", "m", "a", "_u", "Z", "B", "2", "10", "sub/x", "sub/deeper/y"]
    assert commands(project) == [f"echo {name}" for name in expected]


def test_camel_case_entries_of_an_event_run_before_its_pascal_case_ones(project: Path) -> None:
    copilot_file(
        repo_hooks(project),
        "a.json",
        {"Stop": [bash("echo pascal")], "agentStop": [bash("echo camel")]},
    )
    assert commands(project) == ["echo camel", "echo pascal"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"version": 1, "hooks": {"agentStop": [', "invalid JSON"),
        ('[{"bash": "echo x"}]', "Expected hook config to be an object"),
        ('{"version": 2, "hooks": {}}', "Invalid hook config version"),
        ('{"hooks": {"agentStop": {"bash": "echo x"}}}', "hook event value must be an array"),
    ],
)
def test_what_copilot_rejects_a_whole_file_for_is_reported_and_other_files_load(
    project: Path, text: str, fragment: str
) -> None:
    bad = write(repo_hooks(project) / "bad.json", text)
    copilot_file(repo_hooks(project), "good.json", {"agentStop": [bash("echo good")]})
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo good"]
    (problem,) = config.diagnostics
    assert problem.path == str(bad)
    assert fragment in problem.message
    (file,) = [f for f in config.files if f.path == bad]
    assert file.dialect == "copilot"
    assert file.error == problem.message


def test_version_may_be_left_out_and_unknown_keys_are_ignored(project: Path) -> None:
    write(
        repo_hooks(project) / "a.json",
        {"hooks": {"agentStop": [{"bash": "echo ok", "comment": "why"}]}, "extra": 1},
    )
    assert commands(project) == ["echo ok"]
    assert load_hook_config(project).diagnostics == ()


@pytest.mark.parametrize(
    ("entry", "pointer", "fragment"),
    [
        ({"type": "command"}, "/hooks/preToolUse/0", 'needs "bash", "command"'),
        ({"type": "agent", "bash": "x"}, "/hooks/preToolUse/0/type", '"type" must be'),
        ({"type": "http", "url": "https://x"}, "/hooks/preToolUse/0/type", "not supported"),
        ({"exec": "/bin/echo", "bash": "x"}, "/hooks/preToolUse/0/exec", "cannot be combined"),
        ({"bash": "x", "timeoutSec": 0}, "/hooks/preToolUse/0/timeoutSec", "positive number"),
        ({"bash": "x", "timeoutSec": "5"}, "/hooks/preToolUse/0/timeoutSec", "positive number"),
        ({"bash": "x", "env": {"A": 1}}, "/hooks/preToolUse/0/env/A", "must be a string"),
        ({"bash": "x", "matcher": ""}, "/hooks/preToolUse/0/matcher", "cannot be empty"),
        ({"bash": "x", "matcher": "b["}, "/hooks/preToolUse/0/matcher", "invalid matcher regex"),
        ({"bash": "x", "matcher": "*"}, "/hooks/preToolUse/0/matcher", "invalid matcher regex"),
    ],
)
def test_a_bad_entry_is_skipped_with_a_diagnostic_and_its_siblings_load(
    project: Path, entry: dict[str, object], pointer: str, fragment: str
) -> None:
    path = copilot_file(
        repo_hooks(project), "a.json", {"preToolUse": [entry, bash("echo sibling")]}
    )
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo sibling"]
    (problem,) = config.diagnostics
    assert (problem.path, problem.pointer) == (str(path), pointer)
    assert fragment in problem.message


def test_an_unknown_event_is_reported_and_the_rest_of_the_file_loads(project: Path) -> None:
    copilot_file(
        repo_hooks(project),
        "a.json",
        {"beforeEverything": [bash("echo no")], "agentStop": [bash("echo yes")]},
    )
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo yes"]
    assert [d.pointer for d in config.diagnostics] == ["/hooks/beforeEverything"]


def test_the_nested_claude_form_loads_with_the_group_matcher(project: Path) -> None:
    copilot_file(
        repo_hooks(project),
        "a.json",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo n"}]}]},
    )
    (handler,) = load_hook_config(project).runnable()
    assert (handler.key, handler.matcher.source, handler.pointer) == (
        "PreToolUse",
        "Bash",
        "/hooks/PreToolUse/0/hooks/0",
    )
    assert handler.group_pointer == "/hooks/PreToolUse/0"


def test_disable_all_hooks_in_a_hooks_file_skips_that_file_only(project: Path) -> None:
    copilot_file(
        repo_hooks(project), "off.json", {"agentStop": [bash("echo off")]}, disableAllHooks=True
    )
    copilot_file(repo_hooks(project), "on.json", {"agentStop": [bash("echo on")]})
    assert commands(project) == ["echo on"]


def test_commands_and_their_shells(project: Path) -> None:
    copilot_file(
        repo_hooks(project),
        "a.json",
        {
            "agentStop": [
                {"bash": "echo bash", "command": "echo command"},
                {"command": "echo only-command"},
                {"powershell": "Write-Output ps"},
                {"exec": "/bin/echo", "args": ["a b", "c"]},
            ]
        },
    )
    handlers = [h for h in load_hook_config(project).runnable()]
    assert [(h.command, h.shell, h.argv) for h in handlers] == [
        ("echo bash", "bash", None),
        ("echo only-command", "bash", None),
        ("Write-Output ps", "pwsh", None),
        ("/bin/echo 'a b' c", None, ("/bin/echo", "a b", "c")),
    ]


async def test_untrusted_workspace_lists_project_files_but_runs_only_user_ones(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "trust.log"
    copilot_file(user_hooks(home), "u.json", {"agentStop": [bash(f"echo user >> {log}")]})
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash(f"echo repo >> {log}")]})
    config = load_hook_config(project, trusted=False)
    assert [(h.source, h.untrusted) for h in config.handlers] == [
        ("user", False),
        ("project", True),
    ]
    await dispatch("Stop", trusted=False)
    assert log.read_text().split() == ["user"]


async def test_a_user_setting_turns_a_dialect_off(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    seen = tmp_path / "seen.jsonl"
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash(record(seen))]})
    write_json(paths.user_settings(home), {"hookDialects": {"copilot": False}})
    config = load_hook_config(project)
    assert config.handlers == ()
    assert not any(f.dialect == "copilot" for f in config.files)
    await dispatch("Stop")
    assert not seen.exists()


@pytest.mark.parametrize(
    ("setting", "pointer", "fragment"),
    [
        ({"hookDialects": ["copilot"]}, "/hookDialects", "must be an object"),
        ({"hookDialects": {"copliot": False}}, "/hookDialects/copliot", "unknown hook dialect"),
        ({"hookDialects": {"snow": "no"}}, "/hookDialects/snow", "true or false"),
    ],
)
def test_a_bad_dialect_setting_is_reported_and_changes_nothing(
    home: Path, project: Path, setting: dict[str, object], pointer: str, fragment: str
) -> None:
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash("echo on")]})
    write_json(paths.user_settings(home), setting)
    config = load_hook_config(project)
    assert commands(project) == ["echo on"]
    (problem,) = config.diagnostics
    assert problem.pointer == pointer
    assert fragment in problem.message


def test_a_project_cannot_switch_a_dialect(home: Path, project: Path) -> None:
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash("echo on")]})
    write_json(paths.project_settings(project), {"hookDialects": {"copilot": False}})
    assert commands(project) == ["echo on"]


async def test_disable_all_hooks_in_wave_settings_turns_every_dialect_off(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "off.log"
    copilot_file(repo_hooks(project), "p.json", {"agentStop": [bash(f"echo c >> {log}")]})
    write(paths.snow_project_hooks(project) / "onStop.json", [
        {"description": "d", "hooks": [{"type": "command", "command": f"echo s >> {log}",
                                        "enabled": True}]}
    ])  # fmt: skip
    write_json(paths.project_settings(project), {**hooks_doc("Stop", f"echo w >> {log}"),
                                                 "disableAllHooks": True})  # fmt: skip
    outcome = await dispatch("Stop")
    assert outcome.runs == []
    assert not log.exists()
