"""Config sources, their order, per-entry validation, switches, plugins and programmatic hooks."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import HookConfig
from wavehost.hooks.engine import HookEngine
from wavehost.hooks.payloads import StopInput
from wavehost.hooks.sources import load_hook_config


def commands(config: HookConfig) -> list[str]:
    return [h.command for h in config.runnable()]


def install_plugin(home: Path, name: str, document: Any, *, enable_in: Path | None = None) -> Path:
    root = paths.plugins_dir(home) / name
    write_json(paths.plugin_hooks_file(root), document)
    if enable_in is not None:
        write_json(enable_in, {"enabledPlugins": {f"{name}@market": True}})
    return root


def test_sources_load_in_order_programmatic_plugin_user_project_local(home, project) -> None:
    install_plugin(home, "fmt", hooks_doc("Stop", "echo plugin"))
    user = hooks_doc("Stop", "echo user")
    user["enabledPlugins"] = {"fmt@market": True}
    write_json(paths.user_settings(home), user)
    write_json(paths.project_settings(project), hooks_doc("Stop", "echo project"))
    write_json(paths.local_settings(project), hooks_doc("Stop", "echo local"))
    config = load_hook_config(project, programmatic=hooks_doc("Stop", "echo programmatic")["hooks"])
    assert commands(config) == [
        "echo programmatic",
        "echo plugin",
        "echo user",
        "echo project",
        "echo local",
    ]
    assert [h.source for h in config.handlers] == [
        "programmatic",
        "plugin",
        "user",
        "project",
        "project",
    ]
    assert config.diagnostics == ()


def test_the_same_command_from_several_sources_runs_once(home, project) -> None:
    event = "UserPromptSubmit"  # not Stop: its hooks depend on the payload (an interrupt)
    write_json(paths.user_settings(home), hooks_doc(event, "echo same", "echo user-only"))
    write_json(paths.project_settings(project), hooks_doc(event, "echo same"))
    engine = HookEngine(load_hook_config(project))
    matching = engine.matching(Event.UserPromptSubmit)
    assert [h.command for h in matching] == ["echo same", "echo user-only"]
    assert [h.source for h in matching] == ["user", "user"]


def test_programmatic_hooks_are_registered_and_absent_without_them(home, project) -> None:
    with_hooks = HookEngine(
        load_hook_config(
            project,
            programmatic={"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]},
        )
    )
    assert with_hooks.has_hooks(Event.Stop)
    assert not HookEngine(load_hook_config(project)).has_hooks(Event.Stop)


async def test_programmatic_and_file_hooks_coexist_programmatic_first(
    home, project, tmp_path
) -> None:
    log = tmp_path / "order.log"
    write_json(paths.project_settings(project), hooks_doc("Stop", f"sleep 0.1; echo file >> {log}"))
    programmatic = hooks_doc("Stop", f"echo programmatic >> {log}")["hooks"]
    config = load_hook_config(project, programmatic=programmatic)
    assert [h.source for h in config.runnable()] == ["programmatic", "project"]
    from wavehost.hooks.engine import BackgroundHooks
    from wavehost.hooks.runner import HookContext

    async with BackgroundHooks(lambda _: None) as background:
        outcome = await HookEngine(config).dispatch(
            StopInput.model_validate(common("Stop", project)),
            HookContext(project, project),
            background,
        )
    assert [run.source for run in outcome.runs] == ["programmatic", "project"]
    assert log.read_text().split() == ["programmatic", "file"]  # both ran


@pytest.mark.parametrize(
    ("hooks", "pointer", "fragment"),
    [
        ({"PreToolUze": []}, "/hooks/PreToolUze", 'unknown hook event "PreToolUze"'),
        ({"pretooluse": []}, "/hooks/pretooluse", 'did you mean "PreToolUse"'),
        ({"Stop": {}}, "/hooks/Stop", "must be a list"),
        ({"Stop": ["x"]}, "/hooks/Stop/0", "matcher group must be an object"),
        (
            {"Stop": [{"matcher": 3, "hooks": []}]},
            "/hooks/Stop/0/matcher",
            "matcher must be a string",
        ),
        (
            {"PreToolUse": [{"matcher": "Bash(", "hooks": [{"type": "command", "command": "x"}]}]},
            "/hooks/PreToolUse/0/matcher",
            "invalid regular expression",
        ),
        ({"Stop": [{"hooks": []}]}, "/hooks/Stop/0/hooks", "non-empty list"),
        (
            {"Stop": [{"hooks": [{"command": "x"}]}]},
            "/hooks/Stop/0/hooks/0/type",
            '"type" must be one of "command"',
        ),
        (
            {"Notification": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]},
            "/hooks/Notification/0/hooks/0/type",
            'a "prompt" hook does not run on Notification',
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": ""}]}]},
            "/hooks/Stop/0/hooks/0/command",
            "non-empty string",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": 5}]}]},
            "/hooks/Stop/0/hooks/0/command",
            "non-empty string",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": "30"}]}]},
            "/hooks/Stop/0/hooks/0/timeout",
            "positive number of seconds",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]},
            "/hooks/Stop/0/hooks/0/timeout",
            "positive number",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "async": "yes"}]}]},
            "/hooks/Stop/0/hooks/0/async",
            "true or false",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "description": 1}]}]},
            "/hooks/Stop/0/hooks/0/description",
            "must be a string",
        ),
        (
            {"Stop": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(git *)"}]}]},
            "/hooks/Stop/0/hooks/0/if",
            "only applies to tool events",
        ),
    ],
)
def test_a_bad_entry_yields_a_diagnostic_and_the_rest_still_loads(
    home, project, hooks, pointer: str, fragment: str
) -> None:
    good = {"type": "command", "command": "echo good"}
    document = {"hooks": {**hooks, "SessionEnd": [{"hooks": [good]}]}}
    settings_file = write_json(paths.project_settings(project), document)
    config = load_hook_config(project)
    assert commands(config) == ["echo good"]
    (problem,) = config.diagnostics
    assert problem.path == str(settings_file)
    assert problem.pointer == pointer
    assert fragment in problem.message


def test_one_bad_handler_does_not_take_its_siblings_down(home, project) -> None:
    document = hooks_doc("Stop", "echo one", {"type": "command"}, "echo three")
    write_json(paths.user_settings(home), document)
    config = load_hook_config(project)
    assert commands(config) == ["echo one", "echo three"]
    assert [d.pointer for d in config.diagnostics] == ["/hooks/Stop/0/hooks/1/command"]


def test_malformed_json_yields_a_diagnostic_for_that_file_only(home, project) -> None:
    broken = paths.project_settings(project)
    broken.write_text('{"hooks": {"Stop": [', encoding="utf-8")
    write_json(paths.user_settings(home), hooks_doc("Stop", "echo user"))
    config = load_hook_config(project)
    assert commands(config) == ["echo user"]
    (problem,) = config.diagnostics
    assert problem.path == str(broken)
    assert problem.message.startswith("invalid JSON at line 1")
    (file,) = [f for f in config.files if f.path == broken]
    assert file.exists
    assert file.error == problem.message


def test_a_top_level_array_is_reported(home, project) -> None:
    paths.project_settings(project).write_text("[]", encoding="utf-8")
    config = load_hook_config(project)
    assert "must contain a JSON object" in config.diagnostics[0].message


def test_missing_files_are_listed_as_not_existing_without_diagnostics(home, project) -> None:
    config = load_hook_config(project)
    assert [(f.source, f.path, f.exists) for f in config.files] == [
        ("user", paths.user_settings(home), False),
        ("user", paths.claude_user_settings(home), False),  # Claude Code's own, after Wave's
        ("project", paths.project_settings(project), False),
        ("project", paths.claude_project_settings(project), False),
        ("project", paths.local_settings(project), False),
        ("project", paths.claude_local_settings(project), False),
        ("user", paths.copilot_user_settings(home), False),
        *(("project", path, False) for path in paths.copilot_project_settings(project)),
    ]
    assert config.diagnostics == ()


@pytest.mark.parametrize("where", ["user", "project"])
def test_disable_all_hooks_turns_file_based_hooks_off(home, project, where: str) -> None:
    target = paths.user_settings(home) if where == "user" else paths.project_settings(project)
    document = hooks_doc("Stop", f"echo {where}")
    document["disableAllHooks"] = True
    write_json(target, document)
    write_json(paths.local_settings(project), hooks_doc("Stop", "echo local"))
    config = load_hook_config(project, programmatic=hooks_doc("Stop", "echo programmatic")["hooks"])
    assert config.hooks_disabled
    assert commands(config) == ["echo programmatic"]
    assert len(config.handlers) == 3  # still listed


def test_a_more_specific_file_can_turn_hooks_back_on(home, project) -> None:
    write_json(
        paths.user_settings(home), {"disableAllHooks": True, **hooks_doc("Stop", "echo user")}
    )
    write_json(paths.local_settings(project), {"disableAllHooks": False})
    assert commands(load_hook_config(project)) == ["echo user"]


def test_plugin_hooks_load_only_when_enabled(home, project) -> None:
    install_plugin(home, "lint", hooks_doc("Stop", "echo lint"))
    assert commands(load_hook_config(project)) == []
    write_json(paths.project_settings(project), {"enabledPlugins": {"lint@market": True}})
    config = load_hook_config(project)
    assert commands(config) == ["echo lint"]
    (hook,) = config.handlers
    assert hook.plugin == "lint"
    assert hook.plugin_root == paths.plugins_dir(home) / "lint"
    (file,) = [f for f in config.files if f.source == "plugin"]
    assert file.read_only
    write_json(paths.local_settings(project), {"enabledPlugins": {"lint@market": False}})
    assert commands(load_hook_config(project)) == []


def test_an_enabled_plugin_that_is_not_installed_is_reported(home, project) -> None:
    write_json(paths.user_settings(home), {"enabledPlugins": {"ghost@market": True}})
    (problem,) = load_hook_config(project).diagnostics
    assert 'enabled plugin "ghost" is not installed' in problem.message


async def test_plugin_hooks_get_their_root_and_data_folder_in_the_environment(
    fire, home, project, monkeypatch
) -> None:
    """CLAUDE_PLUGIN_DATA: the plugin's own folder for state, made on first use; a hook that is
    not a plugin's never sees these names, not even from wavehost's own environment."""
    echo = 'echo "$WAVE_PLUGIN_ROOT|$CLAUDE_PLUGIN_ROOT|$WAVE_PLUGIN_DATA|$CLAUDE_PLUGIN_DATA"'
    root = install_plugin(
        home,
        "ctx",
        hooks_doc("UserPromptSubmit", f'{echo}; touch "$CLAUDE_PLUGIN_DATA/state"'),
        enable_in=paths.user_settings(home),
    )
    monkeypatch.setenv("CLAUDE_PLUGIN_ROOT", "/from/an/outer/claude")
    own = {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": echo}]}]}}
    outcome = await fire(own, common("UserPromptSubmit", project, prompt="hi"))
    data = paths.wave_home(home) / "plugin-data" / "ctx"
    lines = set(outcome.meta_messages[0].splitlines())
    assert lines == {"|||", f"{root}|{root}|{data}|{data}"}
    assert (data / "state").is_file()
    assert data.stat().st_mode & 0o777 == 0o700


def test_untrusted_workspace_lists_project_hooks_but_never_runs_them(home, project) -> None:
    write_json(paths.user_settings(home), hooks_doc("Stop", "echo user"))
    write_json(paths.project_settings(project), hooks_doc("Stop", "echo project"))
    write_json(paths.local_settings(project), hooks_doc("Stop", "echo local"))
    config = load_hook_config(project, trusted=False)
    assert commands(config) == ["echo user"]
    assert [h.untrusted for h in config.handlers] == [False, True, True]


def test_ids_are_stable_across_reloads_and_change_with_content(home, project) -> None:
    target = write_json(paths.project_settings(project), hooks_doc("Stop", "echo a", "echo b"))
    first = [h.id for h in load_hook_config(project).handlers]
    assert first == [h.id for h in load_hook_config(project).handlers]
    assert len(set(first)) == 2
    write_json(target, hooks_doc("Stop", "echo a", "echo B"))
    second = [h.id for h in load_hook_config(project).handlers]
    assert second[0] == first[0]
    assert second[1] != first[1]


def test_handler_fields_are_read(home, project) -> None:
    handler = {
        "type": "command", "command": "x", "timeout": 30, "async": True, "asyncRewake": True,
        "statusMessage": "Checking…", "description": "checks things",
    }  # fmt: skip
    write_json(paths.user_settings(home), hooks_doc("PreToolUse", handler, matcher="Edit|Write"))
    (hook,) = load_hook_config(project).handlers
    assert (hook.timeout, hook.is_async, hook.async_rewake) == (30.0, True, True)
    assert (hook.status_message, hook.description) == ("Checking…", "checks things")
    assert hook.matcher.source == "Edit|Write"
    assert hook.pointer == "/hooks/PreToolUse/0/hooks/0"
    assert hook.path == paths.user_settings(home)


# --- property: validation never raises, and accounts for every entry ---------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
EVENT_KEY = st.sampled_from([e.name for e in Event] + ["Nope", "stop"])
HANDLER = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["command", "http", 1]),
            "command": st.one_of(st.text(max_size=8), JSON),
        },
        optional={"timeout": JSON, "async": JSON, "description": JSON},
    ),
)
GROUP = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"hooks": st.lists(HANDLER, max_size=3)},
        optional={"matcher": st.one_of(JSON, st.sampled_from(["Bash", "(", "E.*", ""]))},
    ),
)
DOCUMENT = st.dictionaries(EVENT_KEY, st.one_of(JSON, st.lists(GROUP, max_size=3)), max_size=4)


@settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(DOCUMENT)
def test_any_document_loads_without_raising_and_every_skip_is_reported(
    project, document: dict[str, Any]
) -> None:
    config = load_hook_config(None, programmatic=document, home=project)
    for hook in config.handlers:
        assert hook.command.strip()
        assert hook.pointer.startswith("/")
    total_handlers = sum(
        len(group["hooks"])
        for groups in document.values() if isinstance(groups, list)
        for group in groups if isinstance(group, dict) and isinstance(group.get("hooks"), list)
    )  # fmt: skip
    assert len(config.handlers) <= total_handlers
    if len(config.handlers) < total_handlers or any(
        k not in {e.name for e in Event} for k in document
    ):
        assert config.diagnostics
    json.dumps([d.message for d in config.diagnostics])
