"""Claude Code's own settings files run (issue 27, item 1): `~/.claude/settings.json`,
`.claude/settings.json` and `.claude/settings.local.json` beside `.wave/`, on the same engine
path, trust-gated, switched off with `"hookDialects": {"claude": false}`; the same handler in a
`.wave` and a `.claude` file runs once. Real chat turns, real hook processes, the fake model.
"""

from pathlib import Path
from typing import Any

from tests.hooks_doc import hooks_doc
from tests.session.chat import ChatRunner, lines, record, turn
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.sources import load_hook_config


def bash(command: str = "true") -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": command, "description": "run it"})


async def test_each_claude_code_settings_file_runs_its_hooks(
    chat: ChatRunner, home: Path, project: Path
) -> None:
    logs = {name: home / f"{name}.jsonl" for name in ("user", "project", "local")}
    write_json(paths.claude_user_settings(home), hooks_doc("PreToolUse", record(logs["user"])))
    write_json(
        paths.claude_project_settings(project), hooks_doc("PostToolUse", record(logs["project"]))
    )
    write_json(paths.claude_local_settings(project), hooks_doc("Stop", record(logs["local"])))

    await chat([turn("", bash()), turn("done")], "go")

    assert [e["hook_event_name"] for e in lines(logs["user"])] == ["PreToolUse"]
    assert [e["hook_event_name"] for e in lines(logs["project"])] == ["PostToolUse"]
    assert [e["hook_event_name"] for e in lines(logs["local"])] == ["Stop"]


async def test_the_same_handler_in_a_wave_and_a_claude_file_runs_once(
    chat: ChatRunner, home: Path, project: Path
) -> None:
    log = home / "pre.jsonl"
    same = hooks_doc("PreToolUse", record(log), matcher="Bash")
    write_json(paths.project_settings(project), same)
    write_json(paths.claude_project_settings(project), same)
    write_json(paths.claude_user_settings(home), same)

    await chat([turn("", bash()), turn("done")], "go")

    assert len(lines(log)) == 1


async def test_claude_code_files_can_be_switched_off_by_the_user(
    chat: ChatRunner, home: Path, project: Path
) -> None:
    log = home / "pre.jsonl"
    write_json(paths.claude_project_settings(project), hooks_doc("PreToolUse", record(log)))
    write_json(paths.claude_user_settings(home), hooks_doc("PreToolUse", record(log)))
    write_json(paths.user_settings(home), {"hookDialects": {"claude": False}})

    await chat([turn("", bash()), turn("done")], "go")

    assert lines(log) == []
    files = {f.path for f in load_hook_config(project, home=home).files}
    assert paths.claude_project_settings(project) not in files  # not even read


async def test_an_untrusted_projects_claude_files_are_listed_but_never_run(
    chat: ChatRunner, home: Path, project: Path
) -> None:
    log = home / "pre.jsonl"
    write_json(paths.claude_project_settings(project), hooks_doc("PreToolUse", record(log)))
    write_json(paths.claude_local_settings(project), {"disableAllHooks": True})
    user_log = home / "user.jsonl"
    write_json(paths.claude_user_settings(home), hooks_doc("PreToolUse", record(user_log)))

    await chat([turn("", bash()), turn("done")], "go", config={"trusted": False})

    assert lines(log) == []
    assert len(lines(user_log)) == 1  # the user's own file still runs (and no kill switch)
    config = load_hook_config(project, home=home, trusted=False)
    [listed] = [h for h in config.handlers if h.path == paths.claude_project_settings(project)]
    assert (listed.untrusted, listed.file_format) == (True, "claude")


async def test_disable_all_hooks_in_a_claude_file_is_claude_codes_kill_switch(
    chat: ChatRunner, home: Path, project: Path
) -> None:
    log = home / "pre.jsonl"
    write_json(paths.project_settings(project), hooks_doc("PreToolUse", record(log)))
    write_json(paths.claude_local_settings(project), {"disableAllHooks": True})

    await chat([turn("", bash()), turn("done")], "go")

    assert lines(log) == []


def test_claude_code_files_take_only_the_keys_that_mean_the_same_there(
    home: Path, project: Path
) -> None:
    # Claude Code's "model" is its own model alias, not wavehost's provider model.
    from wavehost.hooks.settings_files import read_settings

    write_json(paths.claude_project_settings(project), {"model": "opus", "hooks": {}})
    settings = read_settings(project, home=home)
    assert settings.value("model") is None
    assert [f.path for f, _ in settings.values("hooks")] == [paths.claude_project_settings(project)]
