"""Which folders the watcher watches for a given set of config files."""

from tests.workspace import Workspace
from wavehost.settings.snapshot import Inputs
from wavehost.settings.watch import watch_directories


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
