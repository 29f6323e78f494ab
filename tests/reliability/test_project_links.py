"""A project's folders cannot reach outside the project through symlinks.

Before: `.github/hooks` (or `.snow/hooks`, `.wave`) linked to a folder elsewhere listed the hook
files found there as the project's; a project `settings.json` linked to the user's settings let
"delete project hook" remove the user's hook; the Snow debug log under the project followed a
link into `~/.bashrc`. And the watcher still hashed a refused file through its link, and watched
a `.wave` linked elsewhere as the folder of its `settings.json`.
"""

import contextlib
import ctypes
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.dialect_files import action, bash, copilot_file, rule, write
from tests.hooks_doc import hook
from tests.lsp.client import running_server
from tests.workspace import Workspace
from wavehost import paths
from wavehost.hooks.sources import load_hook_config
from wavehost.settings.errors import SettingsError
from wavehost.settings.mcp_servers import read_mcp_config
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust
from wavehost.settings.watch import watch_directories


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
    service = SettingsService(workspace.project, home=workspace.home, trust=Trust(True))

    listing = service.list_hooks()

    assert [(h.handler.source, h.handler.command) for h in listing.hooks] == [
        ("user", "echo users own")
    ]  # once, as the user's: the project has no hook to delete
    project = next(f.file for f in listing.files if f.file.path == workspace.project_settings)
    assert project.error is not None
    assert "leads out of the project" in project.error
    assert "echo users own" in workspace.user_settings.read_text()


def test_a_project_settings_file_linked_to_the_users_after_the_list_cannot_delete_from_it(
    workspace: Workspace,
) -> None:
    same = {"hooks": {"Stop": [{"hooks": [hook("echo same")]}]}}  # one hook, in both files
    workspace.write(workspace.user_settings, same)
    workspace.write(workspace.project_settings, same)
    users = workspace.user_settings.read_bytes()
    service = SettingsService(workspace.project, home=workspace.home, trust=Trust(True))
    project_hook = next(h for h in service.list_hooks().hooks if h.handler.source == "project")

    workspace.project_settings.unlink()  # the project's file becomes a link to the user's
    os.symlink(workspace.user_settings, workspace.project_settings)
    with pytest.raises(SettingsError) as refused:
        service.delete(project_hook.handler.id)

    assert refused.value.reason == "conflict"
    assert "leads out of the project" in refused.value.message
    assert workspace.user_settings.read_bytes() == users
    assert workspace.project_settings.is_symlink()


def test_a_project_mcp_file_linked_out_of_the_project_is_not_read(workspace: Workspace) -> None:
    elsewhere = workspace.write(
        workspace.root / "elsewhere" / "servers.json",
        {"mcpServers": {"far": {"command": "/bin/true"}}},
    )
    workspace.project.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere, paths.project_mcp_servers(workspace.project))

    config = read_mcp_config(workspace.project, home=workspace.home)

    assert [s.name for s in config.servers] == []
    project = next(f for f in config.files if f.source == "project")
    assert project.error is not None
    assert "leads out of the project" in project.error


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


def test_the_snow_debug_log_makes_no_folder_where_a_linked_snow_folder_leads(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = workspace.root / "elsewhere"
    elsewhere.mkdir()
    workspace.project.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere, workspace.project / ".snow")  # the project's .snow leads out of it
    ctx = {"onUserMessage": [rule({"type": "context", "content": "injected", "enabled": True})]}
    write(paths.snow_user_hooks(workspace.home) / "onUserMessage.json", ctx)  # the user's hook
    monkeypatch.setenv("SNOW_DEBUG_HOOKS", "1")
    monkeypatch.setenv("HOME", str(workspace.home))
    payload = {"session_id": "s1", "prompt": "hi", "cwd": str(workspace.project)}
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", "hooks", "run", "UserPromptSubmit", "--project",
         str(workspace.project)],
        input=json.dumps(payload), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "injected" in done.stdout, done.stderr
    assert "leads out of the project" in done.stderr
    assert list(elsewhere.iterdir()) == []  # no log folder made there


class Opens:
    """Files opened in a folder meanwhile, as inotify reports them (IN_OPEN)."""

    IN_OPEN, IN_NONBLOCK = 0x20, 0o4000

    def __init__(self, folder: Path) -> None:
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(self.IN_NONBLOCK)
        assert self._fd >= 0
        assert self._libc.inotify_add_watch(self._fd, os.fsencode(folder), self.IN_OPEN) >= 0

    def names(self) -> list[str]:
        names = []
        with contextlib.suppress(BlockingIOError):
            while data := os.read(self._fd, 65536):
                while data:
                    _, _, _, size = struct.unpack_from("iIII", data)
                    raw = data[16 : 16 + size].rstrip(b"\0")
                    names.append(raw.decode() or ".")
                    data = data[16 + size :]
        return names

    def close(self) -> None:
        os.close(self._fd)


async def test_the_watcher_neither_watches_nor_reads_what_project_links_lead_to(
    workspace: Workspace,
) -> None:
    outside = elsewhere(workspace)
    workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("echo users own")]}]}}
    )
    (workspace.project / ".github").mkdir(parents=True)
    os.symlink("/", paths.copilot_project_hooks(workspace.project))
    os.symlink(outside / "wave", workspace.project / ".wave")
    (workspace.project / ".claude").mkdir()
    os.symlink(workspace.user_settings, workspace.project / ".claude" / "settings.json")
    opens = Opens(outside / "wave")
    try:
        async with running_server(workspace) as client:
            await client.watching()
            await anyio.sleep(2.5)  # the watch's first look, and its stat rounds (1 s)
            opened = opens.names()
            (outside / "wave" / "settings.json").write_text('{"hooks": {}}')
            await anyio.sleep(2.5)
            changes = client.changes.qsize()
            said = [m.message for m in client.log_messages if "for hook config" in m.message]
    finally:
        opens.close()
    assert opened == []  # the linked .wave/settings.json was not read, not even to hash it
    assert changes == 0  # nor watched: its change went unseen
    watched = said[-1].split("watching ", 1)[1].removesuffix(" for hook config changes")
    real = [os.path.realpath(d) for d in watched.split(", ")]
    assert all(r.startswith(str(workspace.root)) and not r.startswith(str(outside)) for r in real)


def test_a_project_file_linked_to_the_users_is_not_hashed_through_the_link(
    workspace: Workspace,
) -> None:
    workspace.write(workspace.user_settings, {"hooks": {}})
    workspace.project_settings.parent.mkdir(parents=True)
    os.symlink(workspace.user_settings, workspace.project_settings)
    inputs = SettingsService(workspace.project, home=workspace.home, trust=Trust(True)).inputs()

    before = dict((path, digest) for path, _, _, digest in inputs.snapshot()[0])
    workspace.write(workspace.user_settings, {"hooks": {}, "model": "other"})
    after = dict((path, digest) for path, _, _, digest in inputs.snapshot()[0])

    assert after[str(workspace.user_settings)] != before[str(workspace.user_settings)]
    assert after[str(workspace.project_settings)] == before[str(workspace.project_settings)]
    assert workspace.project_settings.parent in watch_directories(inputs)  # its own folder
