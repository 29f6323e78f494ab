"""Bounded, safe reads of every config file: the bad-file zoo against every reader.

Each bad file sits where the project's settings belong, next to a good user file: the readers
answer (bounded in time), report the bad file as a diagnostic, and still load everything else.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
from typing import Any

import pytest

from tests.hooks_doc import hook
from tests.lsp.client import as_user, running_server
from tests.reliability.bad_files import GOOD, WAIT, ZOO, BadFile, bounded
from tests.workspace import Workspace
from wavehost.hooks.sources import load_hook_config
from wavehost.protocol import table
from wavehost.protocol.settings import HooksListResult
from wavehost.session.providers import chat_settings
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust

USER_HOOK = "user-hook"
NOBODY = 65534


def setup(workspace: Workspace, bad: BadFile) -> None:
    script = workspace.write(workspace.root / "turns.json", {"turns": [{"text": "hi"}]})
    workspace.write(
        workspace.user_settings,
        {
            "provider": "scripted",
            "script": str(script),
            "hooks": {"Stop": [{"hooks": [hook(USER_HOOK)]}]},
        },
    )
    workspace.project_settings.parent.mkdir(parents=True, exist_ok=True)
    bad.make(workspace.project_settings)


def check_listing(listed: dict[str, Any], workspace: Workspace, bad: BadFile) -> None:
    path = str(workspace.project_settings)
    problems = [d["message"] for d in listed["diagnostics"] if d["path"] == path]
    commands = sorted(h["command"] for h in listed["hooks"])
    assert commands == sorted([USER_HOOK, *bad.commands])
    if bad.problem is None:
        assert problems == []
    else:
        assert any(bad.problem in message for message in problems), problems


@pytest.mark.parametrize("bad", ZOO, ids=lambda b: b.name)
def test_the_hook_config_reports_a_bad_file_and_loads_the_rest(
    workspace: Workspace, bad: BadFile
) -> None:
    setup(workspace, bad)
    service = SettingsService(workspace.project, home=workspace.home, trust=Trust(True))
    listed = HooksListResult.of(bounded(service.list_hooks)).to_wire()
    check_listing(listed, workspace, bad)
    config = bounded(lambda: load_hook_config(workspace.project, home=workspace.home))
    assert USER_HOOK in [h.command for h in config.runnable()]
    assert bounded(lambda: chat_settings(workspace.project, workspace.home))["provider"]
    assert bounded(service.inputs).snapshot() is not None  # what the watcher hashes


@pytest.mark.parametrize("bad", ZOO, ids=lambda b: b.name)
def test_the_cli_lists_a_bad_file_as_a_problem(workspace: Workspace, bad: BadFile) -> None:
    setup(workspace, bad)
    command = [sys.executable, "-m", "wavehost", "hooks", "list", "--json"]
    done = subprocess.run(
        [*command, "--project", str(workspace.project)],
        env={**os.environ, "HOME": str(workspace.home)},
        capture_output=True,
        text=True,
        timeout=WAIT * 3,
    )
    # A file with a problem is listed, and said by the status (1); a good one is 0.
    assert done.returncode == (0 if bad.problem is None else 1), done.stderr
    check_listing(json.loads(done.stdout), workspace, bad)


async def test_the_server_answers_through_the_whole_zoo_and_its_watcher_survives(
    workspace: Workspace,
) -> None:
    setup(workspace, ZOO[-1])
    async with running_server(workspace) as client:
        await client.watching()
        for bad in ZOO:
            target = workspace.project_settings
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink(missing_ok=True)
            bad.make(target)
            listed = await asyncio.wait_for(client.list_hooks(), WAIT)
            check_listing(listed, workspace, bad)
            prefill = await asyncio.wait_for(
                client.call(table.HOOKS_PREFILL.name, {"action": "new", "source": "project"}), WAIT
            )
            assert prefill["prompt"]
            opened = await asyncio.wait_for(client.open_chat(), WAIT)
            assert opened["provider"] == "scripted"
        while not client.changes.empty():
            client.changes.get_nowait()
        workspace.project_settings.unlink()
        workspace.write(workspace.project_settings, GOOD)  # the watcher still sees this
        assert await asyncio.wait_for(client.changes.get(), WAIT) == {}
        listed = await client.list_hooks()
        user = next(h for h in listed["hooks"] if h["command"] == USER_HOOK)
        await client.call(table.HOOKS_DELETE.name, {"id": user["id"]})
    assert json.loads(workspace.user_settings.read_text())["hooks"] == {}


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv"
)
async def test_an_unreadable_wave_folder_is_a_problem_not_a_failure(workspace: Workspace) -> None:
    """As another user, so that the folder's mode counts (root reads everything)."""
    setup(workspace, ZOO[-1])
    workspace.write(workspace.project_settings, GOOD)
    workspace.give_to(NOBODY, NOBODY)
    folder = workspace.project_settings.parent
    async with running_server(workspace, prefix=as_user(NOBODY, NOBODY)) as client:
        await client.watching()
        folder.chmod(0o000)
        assert await asyncio.wait_for(client.changes.get(), WAIT) == {}
        listed = await asyncio.wait_for(client.list_hooks(), WAIT)
        prefill = await asyncio.wait_for(
            client.call(table.HOOKS_PREFILL.name, {"action": "new", "source": "project"}), WAIT
        )
        opened = await asyncio.wait_for(client.open_chat(), WAIT)
        folder.chmod(0o755)  # readable again: the watcher (not dead) sees its hooks come back
        assert await asyncio.wait_for(client.changes.get(), WAIT) == {}
        relisted = await client.list_hooks()

    problems = [d["message"] for d in listed["diagnostics"]]
    assert "cannot read: Permission denied" in problems
    assert [h["command"] for h in listed["hooks"]] == [USER_HOOK]
    assert "configPath" not in prefill or prefill["configPath"] is None
    assert opened["provider"] == "scripted"
    assert sorted(h["command"] for h in relisted["hooks"]) == [USER_HOOK, "zoo-hook"]
