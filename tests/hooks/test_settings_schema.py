"""The JSON Schema of the hook settings files: shipped as generated, agreeing with the loader."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.catalogue import EVENT_NAMES
from wavehost.hooks.settings_schema import SHIPPED_SCHEMA, HookSettings, settings_schema_text
from wavehost.hooks.sources import load_hook_config

DEMO_SETTINGS = Path(__file__).parents[2] / "examples/demo-project/.wave/settings.json"


def test_the_shipped_schema_is_what_the_models_generate() -> None:
    # Regenerate with: wavehost settings-schema > server/wavehost/hooks/settings.schema.json
    assert SHIPPED_SCHEMA.read_text(encoding="utf-8") == settings_schema_text()


@pytest.mark.server  # the command line
def test_settings_schema_command_prints_the_shipped_schema() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "wavehost", "settings-schema"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert printed.stdout == SHIPPED_SCHEMA.read_text(encoding="utf-8")


def test_the_schema_offers_every_event_of_the_catalogue_and_nothing_else() -> None:
    schema = json.loads(settings_schema_text())
    hooks = schema["$defs"]["Hooks"]
    assert list(hooks["properties"]) == list(EVENT_NAMES)
    assert hooks["additionalProperties"] is False
    handler = schema["$defs"]["CommandHook"]["properties"]
    assert handler["timeout"] == {
        "description": "Seconds before the hook is killed",
        "exclusiveMinimum": 0,
        "title": "timeout",
        "type": "number",
    }
    assert schema["additionalProperties"] is True  # the files hold other settings too


def handler(**fields: Any) -> dict[str, Any]:
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [fields]}]}}


GOOD = {
    "the demo project's settings": json.loads(DEMO_SETTINGS.read_text(encoding="utf-8")),
    "every handler field": handler(
        type="command",
        command="echo hi",
        timeout=5,
        description="d",
        statusMessage="s",
        **{"async": True, "asyncRewake": False},
    ),
    "a fractional timeout": handler(type="command", command="x", timeout=0.5),
    "exec form": handler(type="command", command="python3", args=["${CLAUDE_PLUGIN_ROOT}/x.py"]),
    "exec form without arguments": handler(type="command", command="/bin/true", args=[]),
    "the default shell named": handler(type="command", command="x", shell="bash"),
    "PowerShell": handler(type="command", command="Write-Output hi", shell="powershell"),
    "no matcher": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}},
    "other settings beside the hooks": {"provider": "scripted", "hooks": {}},
    "switches": {"disableAllHooks": True, "enabledPlugins": {"fmt@market": False}},
    "an http hook": handler(
        type="http",
        url="https://hooks.example.com/pre",
        headers={"Authorization": "Bearer $TOKEN"},
        allowedEnvVars=["TOKEN"],
        timeout=5,
    ),
    "a prompt hook": handler(type="prompt", prompt="Safe? $ARGUMENTS", model="m", timeout=9),
    "an agent hook": handler(type="agent", prompt="Did the tests pass?", timeout=60),
    "Claude Code's transcript format": {"transcriptFormat": "claude-code"},
    "the user's http allow-lists": {
        "allowedHttpHookUrls": ["https://hooks.example.com/*"],
        "httpHookAllowedEnvVars": ["TOKEN"],
    },
}

BAD = {
    "a timeout given as text": handler(type="command", command="x", timeout="30"),
    "a zero timeout": handler(type="command", command="x", timeout=0),
    "a boolean timeout": handler(type="command", command="x", timeout=True),
    "an unknown event": {"hooks": {"BeforeEverything": []}},
    "an event in the wrong case": {"hooks": {"pretooluse": []}},
    "no command": handler(type="command"),
    "an empty command": handler(type="command", command=""),
    "an unknown hook type": handler(type="webhook", command="x"),
    "an http hook without a url": handler(type="http", command="x"),
    "a prompt hook without a prompt": handler(type="prompt", command="x"),
    "an unknown transcript format": {"transcriptFormat": "jsonl"},
    "an agent hook's timeout as text": handler(type="agent", prompt="x", timeout="9"),
    "an http hook's header as a number": handler(type="http", url="http://h/x", headers={"a": 1}),
    "args as one string": handler(type="command", command="python3", args="x.py"),
    "args with a number": handler(type="command", command="sleep", args=[1]),
    "an unknown shell": handler(type="command", command="x", shell="zsh"),
    "an empty hooks list": {"hooks": {"Stop": [{"hooks": []}]}},
    "a numeric matcher": {
        "hooks": {"Stop": [{"matcher": 1, "hooks": [{"type": "command", "command": "x"}]}]}
    },
    "async as text": handler(type="command", command="x", **{"async": "yes"}),
    "disableAllHooks as text": {"disableAllHooks": "no"},
    "a plugin switch as text": {"enabledPlugins": {"fmt": "on"}},
    "hooks as a list": {"hooks": []},
    "a matcher group as text": {"hooks": {"Stop": ["echo"]}},
}


def loads_cleanly(document: Any, home: Path, project: Path) -> bool:
    write_json(paths.project_settings(project), document)
    return load_hook_config(project, home=home).diagnostics == ()


def schema_accepts(document: Any) -> bool:
    try:
        TypeAdapter(HookSettings).validate_python(document, strict=True)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("name", GOOD)
def test_what_the_loader_accepts_the_schema_accepts(name: str, home: Path, project: Path) -> None:
    assert loads_cleanly(GOOD[name], home, project)
    assert schema_accepts(GOOD[name])


@pytest.mark.parametrize("name", BAD)
def test_what_the_loader_flags_the_schema_flags(name: str, home: Path, project: Path) -> None:
    assert not loads_cleanly(BAD[name], home, project)
    assert not schema_accepts(BAD[name])


@pytest.mark.parametrize(
    ("switches", "valid"),
    [
        ({"copilot": False, "snow": True}, True),
        ({"claude": False}, True),
        ({"copilot": "no"}, False),
        ({"cursor": False}, False),
        (["copilot"], False),
    ],
)
def test_the_schema_and_the_reader_agree_on_hook_dialect_switches(
    switches: Any, valid: bool, home: Path, project: Path
) -> None:
    document = {"hookDialects": switches}
    write_json(paths.user_settings(home), document)  # only the user's settings switch dialects
    assert (load_hook_config(project, home=home).diagnostics == ()) is valid
    assert schema_accepts(document) is valid
