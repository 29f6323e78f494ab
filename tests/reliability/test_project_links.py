"""A project's folders cannot reach outside the project through symlinks.

Before: `.github/hooks` (or `.snow/hooks`, `.wave`) linked to a folder elsewhere listed the hook
files found there as the project's; a project `settings.json` linked to the user's settings let
"delete project hook" remove the user's hook; the Snow debug log under the project followed a
link into `~/.bashrc`.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dialect_files import action, bash, copilot_file, rule, write
from tests.hooks_doc import hook
from tests.workspace import Workspace
from wavehost import paths
from wavehost.hooks.sources import load_hook_config
from wavehost.settings.service import SettingsService


def elsewhere(workspace: Workspace) -> Path:
    """A folder outside the project holding hook files of every dialect."""
    outside = workspace.root / "elsewhere"
    copilot_file(outside / "github-hooks", "x.json", {"preToolUse": [bash("echo copilot")]})
    write(outside / "snow-hooks" / "beforeToolCall.json", {"beforeToolCall": [rule(action("s"))]})
    write(
        outside / "wave" / "settings.json",
        {"hooks": {"Stop": [{"hooks": [hook("echo linked wave")]}]}},
    )
    return outside


def test_hook_folders_linked_out_of_the_project_are_not_read(workspace: Workspace) -> None:
    outside = elsewhere(workspace)
    workspace.project.mkdir(parents=True, exist_ok=True)
    (workspace.project / ".github").mkdir()
    os.symlink(outside / "github-hooks", paths.copilot_project_hooks(workspace.project))
    (workspace.project / ".snow").mkdir()
    os.symlink(outside / "snow-hooks", paths.snow_project_hooks(workspace.project))
    os.symlink(outside / "wave", workspace.project / ".wave")

    config = load_hook_config(workspace.project, home=workspace.home)

    assert [h.command for h in config.handlers] == []
    said = " ".join(d.message for d in config.diagnostics)
    assert said.count("leads out of the project") >= 3  # Copilot, Snow, Wave
    assert not any(str(outside) in str(d) for d in config.directories)  # nor watched


def test_a_project_settings_file_linked_to_the_users_cannot_delete_the_users_hook(
    workspace: Workspace,
) -> None:
    workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("echo users own")]}]}}
    )
    workspace.project_settings.parent.mkdir(parents=True)
    os.symlink(workspace.user_settings, workspace.project_settings)
    service = SettingsService(workspace.project, home=workspace.home)

    listing = service.list_hooks()

    assert [(h.handler.source, h.handler.command) for h in listing.hooks] == [
        ("user", "echo users own")
    ]  # once, as the user's: the project has no hook to delete
    project = next(f.file for f in listing.files if f.file.path == workspace.project_settings)
    assert project.error is not None
    assert "leads out of the project" in project.error
    assert "echo users own" in workspace.user_settings.read_text()


def test_the_snow_debug_log_never_follows_a_link_out_of_the_project(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    bashrc = workspace.home / ".bashrc"
    bashrc.parent.mkdir(parents=True, exist_ok=True)
    bashrc.write_text("# the user's\n")
    log_dir = paths.snow_inject_log(workspace.project).parent
    log_dir.mkdir(parents=True)
    os.symlink(bashrc, paths.snow_inject_log(workspace.project))
    (workspace.project / ".snow" / "hooks").mkdir(parents=True)
    ctx = {"onUserMessage": [rule({"type": "context", "content": "injected", "enabled": True})]}
    (workspace.project / ".snow" / "hooks" / "onUserMessage.json").write_text(json.dumps(ctx))
    monkeypatch.setenv("SNOW_DEBUG_HOOKS", "1")
    monkeypatch.setenv("HOME", str(workspace.home))
    payload = {"session_id": "s1", "prompt": "hi", "cwd": str(workspace.project)}
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "hooks", "run", "UserPromptSubmit", "--project",
         str(workspace.project)],
        input=json.dumps(payload), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "injected" in done.stdout, done.stderr
    assert bashrc.read_text() == "# the user's\n"
