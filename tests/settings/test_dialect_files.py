"""Copilot and Snow files on the settings page: listed with their dialect and file, and deleted
from that file with the same byte-preserving, locked, atomic edit and typed errors."""

import json
import os
from pathlib import Path

import pytest

from tests.hook_rows import filled
from tests.workspace import Workspace
from wavehost import paths
from wavehost.protocol.settings import HooksListResult
from wavehost.settings.errors import SettingsError
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust

COPILOT_TEXT = """{
  "version": 1,
  "hooks": {
    "preToolUse": [
      { "bash": "./guard.sh",   "matcher": "bash" },
      {"bash": "./audit.sh", "timeoutSec": 10}
    ],
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npm run lint"}]}
    ],
    "agentStop": [ {"bash": "./last.sh"} ]
  }
}
"""
SNOW_BARE = """[
    {
        "description": "备份",
        "matcher": "filesystem-*",
        "hooks": [
            {"type": "command", "command": "git stash", "timeout": 10000, "enabled": true},
            {"type": "command", "command": "echo 二", "enabled": true}
        ]
    }
]
"""
SNOW_OBJECT = """{
    "onStop": [
        {"description": "ask", "hooks": [{"type": "prompt", "prompt": "下一步？", "enabled": true}]}
    ]
}
"""


def _service(workspace: Workspace) -> SettingsService:
    return SettingsService(workspace.project, home=workspace.home, trust=Trust(True))


@pytest.fixture
def files(workspace: Workspace) -> dict[str, Path]:
    return {
        "copilot": workspace.write(
            paths.copilot_project_hooks(workspace.project) / "team.json", COPILOT_TEXT
        ),
        "snow_bare": workspace.write(
            paths.snow_project_hooks(workspace.project) / "beforeToolCall.json", SNOW_BARE
        ),
        "snow_object": workspace.write(
            paths.snow_user_hooks(workspace.home) / "onStop.json", SNOW_OBJECT
        ),
        "wave": workspace.write(
            workspace.project_settings,
            {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./wave.sh"}]}]}},
        ),
    }


def test_all_three_dialects_are_listed_together_with_badge_source_and_file(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    wire = HooksListResult.of(_service(workspace).list_hooks()).to_wire()  # what the page gets
    listing = filled(wire)  # its rows filled in from their files, as the page does
    rows = [(h["dialect"], h["source"], h["event"], h["catalogueEvent"], h["command"], h["path"])
            for h in listing["hooks"]]  # fmt: skip
    assert rows == [
        ("wave", "project", "PreToolUse", "PreToolUse", "./wave.sh", str(files["wave"])),
        ("copilot", "project", "preToolUse", "PreToolUse", "./guard.sh", str(files["copilot"])),
        ("copilot", "project", "preToolUse", "PreToolUse", "./audit.sh", str(files["copilot"])),
        ("copilot", "project", "agentStop", "Stop", "./last.sh", str(files["copilot"])),
        ("copilot", "project", "PostToolUse", "PostToolUse", "npm run lint", str(files["copilot"])),
        ("snow", "project", "beforeToolCall", "PreToolUse", "git stash", str(files["snow_bare"])),
        ("snow", "project", "beforeToolCall", "PreToolUse", "echo 二", str(files["snow_bare"])),
        ("snow", "user", "onStop", "Stop", "下一步？", str(files["snow_object"])),
    ]
    by_command = {h["command"]: h for h in listing["hooks"]}
    assert by_command["./audit.sh"]["timeout"] == 10
    assert by_command["git stash"]["timeout"] == 10  # seconds on the wire (10000 ms in the file)
    assert by_command["下一步？"]["type"] == "prompt"
    listed = {(f["dialect"], f["path"]) for f in listing["configFiles"] if f["exists"]}
    assert {("copilot", str(files["copilot"])), ("snow", str(files["snow_bare"])),
            ("snow", str(files["snow_object"]))} <= listed  # fmt: skip
    assert listing["diagnostics"] == []


def test_the_files_of_every_dialect_can_be_opened(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    service = _service(workspace)
    for path in files.values():
        assert service.config_file(str(path)).exists


def _id(service: SettingsService, command: str) -> str:
    return next(h.handler.id for h in service.list_hooks().hooks if h.handler.command == command)


def _delete(workspace: Workspace, command: str) -> None:
    service = _service(workspace)
    service.delete(_id(service, command))


def test_deleting_a_copilot_entry_keeps_every_other_byte(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    _delete(workspace, "./guard.sh")
    assert files["copilot"].read_text() == COPILOT_TEXT.replace(
        '      { "bash": "./guard.sh",   "matcher": "bash" },\n', ""
    )


def test_deleting_the_last_entry_of_an_event_removes_the_event(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    _delete(workspace, "./last.sh")
    assert files["copilot"].read_text() == COPILOT_TEXT.replace(
        ',\n    "agentStop": [ {"bash": "./last.sh"} ]', ""
    )


def test_deleting_the_last_hook_of_a_nested_group_removes_the_group_and_event(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    _delete(workspace, "npm run lint")
    document = json.loads(files["copilot"].read_text())
    assert list(document["hooks"]) == ["preToolUse", "agentStop"]


def test_deleting_snow_actions_keeps_the_file_loadable(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    _delete(workspace, "echo 二")
    assert files["snow_bare"].read_text() == SNOW_BARE.replace(
        ',\n            {"type": "command", "command": "echo 二", "enabled": true}', ""
    )
    _delete(workspace, "git stash")
    assert json.loads(files["snow_bare"].read_text()) == []  # the rule went with its last action
    _delete(workspace, "下一步？")
    assert json.loads(files["snow_object"].read_text()) == {"onStop": []}
    assert _service(workspace).list_hooks().diagnostics == ()


def test_an_entry_changed_on_disk_since_listing_is_a_conflict_and_nothing_is_written(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    service = _service(workspace)
    hook_id = _id(service, "git stash")
    changed = SNOW_BARE.replace("git stash", "git stash -u")
    files["snow_bare"].write_text(changed)
    with pytest.raises(SettingsError) as caught:
        service.delete(hook_id)
    assert caught.value.reason == "conflict"
    assert files["snow_bare"].read_text() == changed


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write read-only files")
def test_a_read_only_dialect_file_cannot_be_changed(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    files["copilot"].chmod(0o444)
    files["copilot"].parent.chmod(0o555)
    try:
        service = _service(workspace)
        hook = next(h for h in service.list_hooks().hooks if h.handler.command == "./guard.sh")
        assert hook.read_only
        with pytest.raises(SettingsError) as caught:
            service.delete(hook.handler.id)
        assert caught.value.reason == "readOnly"
        assert files["copilot"].read_text() == COPILOT_TEXT
    finally:
        files["copilot"].parent.chmod(0o755)


def test_a_new_copilot_file_changes_what_the_list_depends_on(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    service = _service(workspace)
    before = service.inputs().snapshot()
    workspace.write(paths.copilot_project_hooks(workspace.project) / "sub" / "more.json",
                    {"hooks": {"agentStop": [{"bash": "x"}]}})  # fmt: skip
    assert service.inputs().snapshot() != before
    assert "x" in [h.handler.command for h in service.list_hooks().hooks]


COPILOT_SETTINGS_TEXT = """{
  "model": "gpt-5",
  "hooks": {
    "preToolUse": [ {"bash": "./first.sh"}, {"bash": "./second.sh"} ]
  },
  "trusted_folders": []
}
"""


def test_copilot_settings_file_hooks_are_listed_and_deleted_in_place(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    """The `hooks` of `.github/copilot/settings.json` are Copilot hooks of that file: listed
    with it, deleted from it keeping every other byte (its other settings too)."""
    settings, _ = paths.copilot_project_settings(workspace.project)
    workspace.write(settings, COPILOT_SETTINGS_TEXT)
    listed = [
        (h.handler.dialect, h.source, h.handler.command)
        for h in _service(workspace).list_hooks().hooks
        if h.path == settings
    ]
    assert listed == [("copilot", "project", "./first.sh"), ("copilot", "project", "./second.sh")]
    _delete(workspace, "./first.sh")
    assert settings.read_text() == COPILOT_SETTINGS_TEXT.replace(' {"bash": "./first.sh"},', "")


def test_a_new_copilot_settings_file_changes_what_the_list_depends_on(
    workspace: Workspace, files: dict[str, Path]
) -> None:
    service = _service(workspace)
    before = service.inputs().snapshot()
    workspace.write(paths.copilot_user_settings(workspace.home),
                    {"hooks": {"agentStop": [{"bash": "from-user-settings"}]}})  # fmt: skip
    assert service.inputs().snapshot() != before
    assert "from-user-settings" in [h.handler.command for h in service.list_hooks().hooks]
