"""Shared fixtures (the only home/project set): a throwaway HOME and project, a world-readable
workspace, and a way to fire real hooks at an event; and each test's tier. Helpers live in modules
(tests/hooks_doc.py, tests/workspace.py, tests/processes.py), never here."""

import os
import subprocess
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

# Every test's tier (the markers in pyproject.toml) is what it starts, decided by its folder or
# file under tests/ (the longest match wins), else unit; a test marked with a tier keeps it. A
# unit test that starts a wavehost process fails (`_unit_tests_start_no_wavehost`): the rule
# cannot drift from what the tests do.
TIERS = ("unit", "server", "browser", "ide")
TIER_OF_PATH = {
    "lsp": "server",  # `wavehost serve` over LSP
    "reliability": "server",
    "reliability/test_browser_auth.py": "browser",
    "test_cli.py": "server",  # the command line
    "mcp": "server",  # real MCP servers (the SDK's), started as a session does
    "session/test_headless.py": "server",
    "web": "browser",  # `wavehost web`
    "routing": "browser",  # the routing scenarios against `wavehost web`
    "test_demo_script.py": "browser",
    "test_bundle.py": "ide",  # the IDE shells' server bundle
    "test_distribution.py": "ide",  # the wheel and sdist, installed
    "test_first_run.py": "ide",  # fresh clones
    "test_jetbrains_layout.py": "ide",
}
TESTS = Path(__file__).parent


def tier_of(path: Path) -> str:
    relative = path.relative_to(TESTS).as_posix()
    matches = [p for p in TIER_OF_PATH if relative == p or relative.startswith(p + "/")]
    return TIER_OF_PATH[max(matches, key=len)] if matches else "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if not any(item.get_closest_marker(tier) for tier in TIERS):
            item.add_marker(tier_of(Path(item.path)))


def _starts_wavehost(args: Any) -> bool:
    argv = [str(a) for a in ([args] if isinstance(args, str | os.PathLike) else args)]
    words = argv[0].split() if len(argv) == 1 else argv
    return any(
        (w == "-m" and nxt == "wavehost") or os.path.basename(w) in ("wavehost", "launch.py")
        for w, nxt in zip(words, [*words[1:], ""], strict=True)
    )


@pytest.fixture(autouse=True)
def _unit_tests_start_no_wavehost(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if request.node.get_closest_marker("unit") is None:
        return
    popen = subprocess.Popen.__init__

    def guarded(self: subprocess.Popen[Any], args: Any, *more: Any, **options: Any) -> None:
        if _starts_wavehost(args):
            where = Path(request.node.path).relative_to(TESTS)
            raise AssertionError(
                f"a unit test started {args!r}: give {where} a tier in tests/conftest.py "
                "(TIER_OF_PATH), or mark the test @pytest.mark.server"
            )
        popen(self, args, *more, **options)

    monkeypatch.setattr(subprocess.Popen, "__init__", guarded)


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
