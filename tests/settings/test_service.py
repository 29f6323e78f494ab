"""The settings service without LSP: many deletes at once, symlinks, the list cache, trust."""

import json
import os
import threading
from pathlib import Path

import pytest

from tests.hooks_doc import hook
from tests.workspace import Workspace
from wavehost.hooks.catalogue import EVENT_NAMES
from wavehost.settings import snapshot
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust


def _service(workspace: Workspace) -> SettingsService:
    return SettingsService(workspace.project, home=workspace.home, trust=Trust(True))


def test_many_threads_deleting_from_one_file_lose_nothing(workspace: Workspace) -> None:
    # One hook per event, so that no delete moves another's entry: all must succeed.
    document = {
        "keep": True,
        "hooks": {name: [{"hooks": [hook(f"cmd {name}")]}] for name in EVENT_NAMES},
    }
    settings = workspace.write(workspace.user_settings, document)
    service = _service(workspace)
    ids = [h.handler.id for h in service.list_hooks().hooks]
    barrier = threading.Barrier(len(ids))
    errors: list[BaseException] = []

    def delete(hook_id: str) -> None:
        barrier.wait()
        try:
            service.delete(hook_id)
        except BaseException as err:  # reported below
            errors.append(err)

    threads = [threading.Thread(target=delete, args=(i,)) for i in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert json.loads(settings.read_text()) == {"keep": True, "hooks": {}}
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]


def test_a_symlinked_settings_file_is_edited_through_the_link(workspace: Workspace) -> None:
    real = workspace.write(workspace.root / "dotfiles" / "wave.json", {
        "hooks": {"Stop": [{"hooks": [hook("a"), hook("b")]}]}
    })  # fmt: skip
    workspace.user_settings.parent.mkdir(parents=True)
    workspace.user_settings.symlink_to(real)
    service = _service(workspace)
    hooks = service.list_hooks().hooks
    service.delete(next(h.handler.id for h in hooks if h.handler.command == "a"))

    assert workspace.user_settings.is_symlink()
    assert [h["command"] for h in json.loads(real.read_text())["hooks"]["Stop"][0]["hooks"]] == [
        "b"
    ]


def test_listing_again_after_an_edit_of_the_same_size_sees_it(workspace: Workspace) -> None:
    settings = workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("aa")]}]}}
    )
    service = _service(workspace)
    for _ in range(3):  # the list is cached from the second load on
        assert [h.handler.command for h in service.list_hooks().hooks] == ["aa"]
    settings.write_text(settings.read_text().replace('"aa"', '"bb"'))
    assert [h.handler.command for h in service.list_hooks().hooks] == ["bb"]


def _settle(service: SettingsService, seconds: float = 60) -> None:
    """Date every file and folder the list reads `seconds` back, as if left alone since."""
    inputs = service.inputs()
    for path in {*inputs.files, *(f.parent for f in inputs.files), *inputs.directories}:
        if path.exists():
            at = path.stat().st_mtime - seconds
            os.utime(path, (at, at))


def test_settled_files_are_listed_again_without_being_read(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files nobody touched for a while: their metadata unchanged means their content is (the
    list is cached, nothing is read or hashed); one edited since is read again, even at the
    same size."""
    settings = workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("aa")]}]}}
    )
    service = _service(workspace)
    service.list_hooks()
    service.list_hooks()  # cached from the second load on
    _settle(service)
    first = service.list_hooks()  # the content checked once more, the metadata kept
    read: list[Path] = []
    digest = snapshot._digest

    def counted(path: Path) -> bytes | None:
        read.append(path)
        return digest(path)

    monkeypatch.setattr(snapshot, "_digest", counted)
    assert service.list_hooks() is first
    assert read == []
    settings.write_text(settings.read_text().replace('"aa"', '"bb"'))
    assert [h.handler.command for h in service.list_hooks().hooks] == ["bb"]


def test_a_file_edited_just_before_the_list_is_read_on_every_list(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit within the file system's clock tick of the last may keep its mtime: a file
    changed within seconds of a list is read again on the next."""
    workspace.write(workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("aa")]}]}})
    service = _service(workspace)
    for _ in range(3):
        service.list_hooks()
    read: list[Path] = []
    digest = snapshot._digest

    def counted(path: Path) -> bytes | None:
        read.append(path)
        return digest(path)

    monkeypatch.setattr(snapshot, "_digest", counted)
    service.list_hooks()
    assert workspace.user_settings in read


def test_untrusted_project_hooks_are_listed_but_never_run(workspace: Workspace) -> None:
    workspace.write(workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("user")]}]}})
    workspace.write(workspace.project_settings, {"hooks": {"Stop": [{"hooks": [hook("proj")]}]}})
    service = SettingsService(workspace.project, home=workspace.home, trust=Trust(False))

    listed = {h.handler.command: h.handler.untrusted for h in service.list_hooks().hooks}
    assert listed == {"user": False, "proj": True}
    assert [h.command for h in service.load().runnable()] == ["user"]
