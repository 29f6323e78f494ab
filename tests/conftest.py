"""Shared fixtures (the only home/project set): a throwaway HOME and project, a world-readable
workspace, and a way to fire real hooks at an event. Helpers live in modules (tests/hooks_doc.py,
tests/workspace.py, tests/processes.py), never here."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.workspace import Workspace, make_workspace
from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config

pytest_plugins = ["tests.web.browser"]  # browser-mode fixtures: web, browser, dist

# Machines are shared and noisy: property tests judge behaviour, never speed.
settings.register_profile("wavehost", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("wavehost")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME for the test, and none of the provider settings of the environment it runs in."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    for name in ("WAVE_PROVIDER", "WAVE_MODEL", "WAVE_SCRIPT"):
        monkeypatch.delenv(name, raising=False)
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    (path / ".wave").mkdir(parents=True)
    return path


@pytest.fixture
def fire(project: Path, home: Path) -> Callable[..., Any]:
    """Run the programmatic hooks `doc` for a payload with real processes; returns the Outcome."""
    from wavehost.hooks.catalogue import EVENTS_BY_NAME

    async def run(doc: dict[str, Any], payload: dict[str, Any], cwd: Path | None = None) -> Outcome:
        event = EVENTS_BY_NAME[payload["hook_event_name"]]
        model: HookInput = event.spec.payload.model_validate(payload)
        engine = HookEngine(load_hook_config(project, programmatic=doc["hooks"]))
        context = HookContext(cwd=cwd or project, project_dir=project)
        rewakes: list[Rewake] = []
        async with BackgroundHooks(rewakes.append) as background:
            return await engine.dispatch(model, context, background)

    return run


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    """HOME and project under a world-readable temp dir (some tests run the server as `nobody`)."""
    yield from make_workspace()
