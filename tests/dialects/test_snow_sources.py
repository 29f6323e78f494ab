"""Snow CLI's hook files: one per type, project first, rule and action validation (seed 004)."""

from pathlib import Path

import pytest

from tests.dialects.conftest import Dispatch, action, rule, write
from wavehost import paths
from wavehost.hooks.sources import load_hook_config


def snow(root: Path, hook_type: str, body: object) -> Path:
    return write(root / f"{hook_type}.json", body)


def runnable(project: Path) -> list[str]:
    return [h.command for h in load_hook_config(project).runnable()]


async def test_project_and_user_files_both_run_project_first(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    """Seed 004 "执行优先级": both run, the project's first (the peer's shadowing is not kept)."""
    log = tmp_path / "order.log"
    snow(paths.snow_user_hooks(home), "onStop", [rule(action(f"echo user >> {log}"))])
    snow(paths.snow_project_hooks(project), "onStop", [rule(action(f"echo project >> {log}"))])
    outcome = await dispatch("Stop")
    assert log.read_text().split() == ["project", "user"]
    assert [r.source for r in outcome.runs] == ["project", "user"]


def test_a_bare_array_and_the_object_form_both_load(home: Path, project: Path) -> None:
    snow(paths.snow_project_hooks(project), "onStop", [rule(action("echo bare"))])
    snow(paths.snow_user_hooks(home), "onStop", {"onStop": [rule(action("echo object"))]})
    config = load_hook_config(project)
    assert [(h.command, h.pointer) for h in config.runnable()] == [
        ("echo bare", "/0/hooks/0"),
        ("echo object", "/onStop/0/hooks/0"),
    ]
    assert {f.dialect for f in config.files if f.source != "programmatic"} >= {"snow"}


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('{"onStop": [', "invalid JSON"),
        ('"text"', "must be a list of rules or an object"),
        ('{"onStop": {"a": 1}}', '"onStop" must be a list of rules'),
    ],
)
def test_a_broken_file_is_reported_and_others_still_load(
    home: Path, project: Path, body: str, fragment: str
) -> None:
    bad = snow(paths.snow_project_hooks(project), "onStop", body)
    snow(paths.snow_user_hooks(home), "onStop", [rule(action("echo user"))])
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo user"]
    (problem,) = config.diagnostics
    assert (problem.path, fragment in problem.message) == (str(bad), True)


def test_an_object_without_the_types_key_is_reported(project: Path) -> None:
    path = snow(paths.snow_project_hooks(project), "onStop", {"onstop": []})
    (problem,) = load_hook_config(project).diagnostics
    assert (problem.path, problem.pointer) == (str(path), "/onStop")


def test_an_action_runs_only_when_enabled_is_exactly_true(project: Path) -> None:
    snow(
        paths.snow_project_hooks(project),
        "onStop",
        [rule({"type": "command", "command": "echo missing"}, action("echo on"),
              {"type": "command", "command": "echo off", "enabled": False})],
    )  # fmt: skip
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo on"]
    assert [(h.command, h.disabled) for h in config.handlers] == [
        ("echo missing", True),
        ("echo on", False),
        ("echo off", True),
    ]  # fmt: skip  (listed all the same)


@pytest.mark.parametrize(
    ("hook_type", "actions", "pointer", "fragment"),
    [
        ("onStop", [{"type": "command", "command": "x", "enabled": "true"}],
         "/0/hooks/0/enabled", "true or false"),
        ("beforeToolCall", [{"type": "prompt", "prompt": "?", "enabled": True}],
         "/0/hooks/0/type", "only in onSubAgentComplete and onStop"),
        ("onStop", [{"type": "prompt", "prompt": "?", "enabled": True}, action("echo x")],
         "/0/hooks", "can have no other action"),
        ("onStop", [{"type": "context", "content": "c", "enabled": True}],
         "/0/hooks/0/type", '"context" actions work only in'),
        ("onStop", [{"type": "shell", "command": "x", "enabled": True}],
         "/0/hooks/0/type", '"type" must be'),
        ("onStop", [{"type": "command", "enabled": True}], "/0/hooks/0/command", "non-empty"),
        ("onStop", [action("x", timeout=-5)], "/0/hooks/0/timeout", "milliseconds"),
        ("onStop", [action("x", timeout="5000")], "/0/hooks/0/timeout", "milliseconds"),
        ("onStop", [], "/0/hooks", "non-empty list"),
    ],
)  # fmt: skip
def test_bad_rules_and_actions_are_skipped_with_a_diagnostic(
    project: Path, hook_type: str, actions: list[object], pointer: str, fragment: str
) -> None:
    path = snow(
        paths.snow_project_hooks(project),
        hook_type,
        [{"description": "bad", "hooks": actions}, rule(action("echo fine"))],
    )
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo fine"]
    (problem,) = config.diagnostics
    assert (problem.path, problem.pointer) == (str(path), pointer)
    assert fragment in problem.message


def test_timeouts_are_milliseconds_and_prompt_and_context_actions_load(project: Path) -> None:
    snow(
        paths.snow_project_hooks(project),
        "onStop",
        [rule({"type": "prompt", "prompt": "next?", "enabled": True, "timeout": 30000})],
    )
    snow(
        paths.snow_project_hooks(project),
        "onUserMessage",
        [rule({"type": "context", "content": "C", "enabled": True}, action("x", timeout=1500))],
    )
    handlers = load_hook_config(project).runnable()
    assert [(h.key, h.kind, h.command, h.timeout) for h in handlers] == [
        ("onUserMessage", "context", "C", None),
        ("onUserMessage", "command", "x", 1.5),
        ("onStop", "prompt", "next?", 30.0),
    ]


async def test_untrusted_workspace_lists_snow_project_files_but_never_runs_them(
    dispatch: Dispatch, home: Path, project: Path, tmp_path: Path
) -> None:
    log = tmp_path / "trust.log"
    snow(paths.snow_project_hooks(project), "onStop", [rule(action(f"echo project >> {log}"))])
    snow(paths.snow_user_hooks(home), "onStop", [rule(action(f"echo user >> {log}"))])
    config = load_hook_config(project, trusted=False)
    assert [(h.source, h.untrusted) for h in config.handlers] == [
        ("project", True),
        ("user", False),
    ]
    await dispatch("Stop", trusted=False)
    assert log.read_text().split() == ["user"]


def test_a_folder_where_a_file_should_be_is_reported(project: Path) -> None:
    (paths.snow_project_hooks(project) / "onStop.json").mkdir(parents=True)
    (problem,) = load_hook_config(project).diagnostics
    assert "not a regular file" in problem.message
