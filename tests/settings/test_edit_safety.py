"""Deletes against writers that do not take the lock, identical twins, and a crash's leftovers."""

import codecs
import json
import os
from pathlib import Path

import pytest

from tests.hooks_doc import hook
from tests.workspace import Workspace
from wavehost.hooks.safe_read import read_bytes
from wavehost.settings import edit, files
from wavehost.settings.errors import SettingsError
from wavehost.settings.files import FileVersion, replace_if_unchanged
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust


def _service(workspace: Workspace) -> SettingsService:
    return SettingsService(workspace.project, home=workspace.home, trust=Trust(True))


def editor_append(path: Path, kind: str, key: str) -> None:
    """What a non-locking editor does: read, add a top-level key, save (rename or in place)."""
    document = json.loads(path.read_text())
    document[key] = True
    text = json.dumps(document, indent=2) + "\n"
    if kind == "rename":
        temp = path.with_name(path.name + ".editor")
        temp.write_text(text)
        os.replace(temp, path)
    else:
        with open(path, "w") as file:  # truncates, then writes: same inode
            file.write(text)


@pytest.fixture(params=["exchange", "plain rename"])
def swap(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways of swapping the file in: atomic exchange, and check-then-rename elsewhere."""
    if request.param == "plain rename":
        monkeypatch.setattr(files, "_renameat2", lambda: None)
    return str(request.param)


@pytest.mark.parametrize("kind", ["rename", "in place"])
def test_a_replace_over_an_editors_write_does_not_happen(
    workspace: Workspace, kind: str, swap: str
) -> None:
    path = workspace.write(workspace.user_settings, {"hooks": {}})
    data, st = read_bytes(path)
    read = FileVersion.of(st, data)
    editor_append(path, kind, "editor")
    assert replace_if_unchanged(path, read, b'{"mine": true}') is False
    assert json.loads(path.read_text()) == {"hooks": {}, "editor": True}
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_an_unchanged_file_is_replaced(workspace: Workspace, swap: str) -> None:
    path = workspace.write(workspace.user_settings, {"hooks": {}})
    path.chmod(0o640)
    data, st = read_bytes(path)
    assert replace_if_unchanged(path, FileVersion.of(st, data), b"{}") is True
    assert path.read_bytes() == b"{}"
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


def test_what_the_exchange_took_out_is_checked_and_put_back(workspace: Workspace) -> None:
    """The editor's save lands after the last look but before the swap: the exchange shows it,
    and it goes back in place."""
    path = workspace.write(workspace.user_settings, {"hooks": {}})
    data, st = read_bytes(path)
    read = FileVersion.of(st, data)
    real = files._exchange

    def editor_first(a: Path, b: Path) -> bool:
        if b == path and not editor_first.done:  # type: ignore[attr-defined]
            editor_first.done = True  # type: ignore[attr-defined]
            editor_append(path, "rename", "late-editor")
        return real(a, b)

    editor_first.done = False  # type: ignore[attr-defined]
    files._exchange = editor_first  # type: ignore[assignment]
    try:
        assert replace_if_unchanged(path, read, b'{"mine": true}') is False
    finally:
        files._exchange = real
    assert json.loads(path.read_text()) == {"hooks": {}, "late-editor": True}
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]


@pytest.mark.parametrize("kind", ["rename", "in place"])
def test_a_delete_racing_an_editor_redoes_the_edit_and_keeps_the_editors_write(
    workspace: Workspace, kind: str, swap: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("a"), hook("b")]}]}}
    )
    service = _service(workspace)
    target = next(h for h in service.list_hooks().hooks if h.handler.command == "a")
    real = edit.replace_if_unchanged
    attempts: list[int] = []

    def editor_saves_meanwhile(path: Path, expected: FileVersion, data: bytes) -> bool:
        attempts.append(1)
        if len(attempts) == 1:  # between this delete's read and its write
            editor_append(path, kind, "editor")
        return real(path, expected, data)

    monkeypatch.setattr(edit, "replace_if_unchanged", editor_saves_meanwhile)
    service.delete(target.handler.id)

    assert len(attempts) == 2
    document = json.loads(settings.read_text())
    assert document["editor"] is True  # not lost
    assert [h["command"] for h in document["hooks"]["Stop"][0]["hooks"]] == ["b"]


def test_a_file_that_keeps_changing_is_a_conflict_and_keeps_the_editors_last_write(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("a")]}]}}
    )
    service = _service(workspace)
    [target] = service.list_hooks().hooks
    real = edit.replace_if_unchanged
    writes: list[int] = []

    def editor_always_first(path: Path, expected: FileVersion, data: bytes) -> bool:
        writes.append(1)
        editor_append(path, "in place", f"edit-{len(writes)}")
        return real(path, expected, data)

    monkeypatch.setattr(edit, "replace_if_unchanged", editor_always_first)
    with pytest.raises(SettingsError) as refused:
        service.delete(target.handler.id)
    assert refused.value.reason == "conflict"
    assert "kept changing" in refused.value.message
    document = json.loads(settings.read_text())
    assert document[f"edit-{edit.ATTEMPTS}"] is True
    assert document["hooks"]["Stop"][0]["hooks"] == [hook("a")]


def _twins(workspace: Workspace) -> Path:
    return workspace.write(
        workspace.user_settings,
        {"hooks": {"Stop": [{"hooks": [hook("same"), hook("same"), hook("other")]}]}},
    )


def test_identical_entries_have_different_ids_and_a_second_delete_finds_nothing(
    workspace: Workspace,
) -> None:
    settings = _twins(workspace)
    service = _service(workspace)
    first, second, _ = service.list_hooks().hooks
    assert len({first.handler.id, second.handler.id}) == 2
    service.delete(first.handler.id)
    with pytest.raises(SettingsError) as again:  # a retry, a double click
        service.delete(first.handler.id)
    assert again.value.reason == "notFound"
    commands = [h["command"] for h in json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"]]
    assert commands == ["same", "other"]
    assert first.handler.id not in [h.handler.id for h in service.list_hooks().hooks]


def test_a_second_server_deleting_the_same_twin_gets_a_conflict(workspace: Workspace) -> None:
    settings = _twins(workspace)
    one, two = _service(workspace), _service(workspace)
    first = one.list_hooks().hooks[0]
    assert (
        two.list_hooks().hooks[0].handler.id == first.handler.id
    )  # ids are the same in every server
    one.delete(first.handler.id)
    with pytest.raises(SettingsError) as refused:
        two.delete(first.handler.id)
    assert refused.value.reason == "conflict"
    commands = [h["command"] for h in json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"]]
    assert commands == ["same", "other"]


def test_deleting_one_of_three_twins_changes_the_others_ids(workspace: Workspace) -> None:
    workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("x"), hook("x"), hook("x")]}]}}
    )
    service = _service(workspace)
    before = [h.handler.id for h in service.list_hooks().hooks]
    service.delete(before[2])
    after = [h.handler.id for h in service.list_hooks().hooks]
    assert len(after) == 2
    assert not set(after) & set(before)


@pytest.mark.parametrize(
    ("bom", "encoding"),
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")],
    ids=["utf-8", "utf-16-le"],
)
def test_a_delete_keeps_the_byte_order_mark_and_the_encoding(
    workspace: Workspace, bom: bytes, encoding: str
) -> None:
    text = json.dumps({"hooks": {"Stop": [{"hooks": [hook("a"), hook("b")]}]}}, indent=4)
    settings = workspace.user_settings
    settings.parent.mkdir(parents=True)
    settings.write_bytes(bom + text.encode(encoding))
    service = _service(workspace)
    service.delete(
        next(h.handler.id for h in service.list_hooks().hooks if h.handler.command == "a")
    )
    data = settings.read_bytes()
    assert data.startswith(bom)
    assert json.loads(data[len(bom) :].decode(encoding))["hooks"]["Stop"][0]["hooks"] == [hook("b")]


STRAYS = [".settings.json.k2_9x7ab.tmp", ".settings.json.0000aaaa.tmp"]
KEPT = [".settings.json.swp", "notes.tmp", ".settings.json.toolongname.tmp", "settings.json.tmp"]


def test_the_next_edit_removes_temp_files_a_crash_left_and_nothing_else(
    workspace: Workspace,
) -> None:
    settings = workspace.write(
        workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("a"), hook("b")]}]}}
    )
    for name in STRAYS + KEPT:
        (settings.parent / name).write_text("{}")
    service = _service(workspace)
    service.delete(service.list_hooks().hooks[0].handler.id)
    assert sorted(p.name for p in settings.parent.iterdir()) == sorted([*KEPT, "settings.json"])
