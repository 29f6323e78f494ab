"""The watcher: which folders it watches, what it reads while idle, how it survives errors."""

import logging
from typing import ClassVar

import anyio
import pytest

from tests.workspace import Workspace
from wavehost.settings.snapshot import Inputs, Snapshot
from wavehost.settings.watch import ConfigWatcher, watch_directories


def test_missing_folders_are_watched_through_their_nearest_existing_ancestor(
    workspace: Workspace,
) -> None:
    workspace.write(workspace.user_settings, "{}")
    inputs = Inputs(
        frozenset({workspace.user_settings, workspace.project_settings, workspace.local_settings}),
        frozenset({workspace.home / ".wave" / "plugins"}),
    )
    assert watch_directories(inputs) == {workspace.home / ".wave", workspace.project}


def test_a_snapshot_changes_with_content_mode_and_folder_entries(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, '{"a": 1}')
    plugins = workspace.home / ".wave" / "plugins"
    inputs = Inputs(frozenset({settings}), frozenset({plugins}))
    seen = [inputs.snapshot()]
    settings.write_text('{"a": 2}')  # same size
    seen.append(inputs.snapshot())
    settings.chmod(0o600)
    seen.append(inputs.snapshot())
    (plugins / "kit").mkdir(parents=True)
    seen.append(inputs.snapshot())
    assert len(set(seen)) == len(seen)
    assert inputs.snapshot() == seen[-1]


class CountingInputs(Inputs):
    """Inputs that count how often their content is hashed."""

    hashed: ClassVar[list[int]] = []

    def snapshot(self) -> Snapshot:
        CountingInputs.hashed.append(1)
        return super().snapshot()


async def _watch_until(watcher: ConfigWatcher, done: anyio.Event, limit: float = 20) -> None:
    with anyio.fail_after(limit):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watcher.run)
            await done.wait()
            watcher.stop()


async def test_while_nothing_changes_the_watcher_hashes_nothing(workspace: Workspace) -> None:
    settings = workspace.write(workspace.user_settings, '{"a": 1}')
    CountingInputs.hashed.clear()
    changed = anyio.Event()

    async def on_change() -> None:
        changed.set()

    watcher = ConfigWatcher(lambda: CountingInputs(frozenset({settings})), on_change, recheck_ms=50)

    async def idle_then_edit() -> None:
        await anyio.sleep(1.0)  # about 20 idle rechecks
        idle_hashes = len(CountingInputs.hashed)
        assert idle_hashes == 1  # the first snapshot only
        settings.write_text('{"a": 2}')

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(idle_then_edit)
        await _watch_until(watcher, changed)
    assert len(CountingInputs.hashed) >= 2  # the change was hashed


async def test_a_failing_watch_is_restarted_and_reported_once(
    workspace: Workspace, caplog: pytest.LogCaptureFixture
) -> None:
    settings = workspace.write(workspace.user_settings, '{"a": 1}')
    calls = 0

    def inputs() -> Inputs:
        nonlocal calls
        calls += 1
        if calls <= 3:  # as the loader's RecursionError once killed the watcher for good
            raise RecursionError("maximum recursion depth exceeded")
        return Inputs(frozenset({settings}))

    changed = anyio.Event()

    async def on_change() -> None:
        changed.set()

    watcher = ConfigWatcher(inputs, on_change, recheck_ms=50, min_backoff_s=0.05)

    async def edit_once_watching() -> None:
        while calls <= 3:
            await anyio.sleep(0.05)
        await anyio.sleep(0.3)
        settings.write_text('{"a": 2}')

    with caplog.at_level(logging.DEBUG, logger="wavehost.settings.watch"):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(edit_once_watching)
            await _watch_until(watcher, changed)
    assert watcher.failures == 3
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [
        "watching the hook config failed (retrying): maximum recursion depth exceeded"
    ]
