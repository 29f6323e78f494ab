"""Dialect tests: real Copilot / Snow hook files in a throwaway HOME and project, fired through
the engine with real processes."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.dialect_files import action, bash, copilot_file, rule, write
from tests.hooks.inputs import common
from wavehost.hooks.catalogue import EVENTS_BY_NAME
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config

Dispatch = Callable[..., Any]
__all__ = ["Dispatch", "action", "bash", "copilot_file", "envs", "lines", "record", "rule", "write"]


@pytest.fixture(autouse=True)
def _no_outside_dialect_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COPILOT_HOME", "SNOW_DEBUG_HOOKS", "SNOW_SESSION_ID", "TRELLIS_CONTEXT_ID",
                 "SNOW_PLATFORM"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)


def record(path: Path) -> str:
    """A command appending its stdin as one line to `path`, and its environment beside it."""
    return (
        f"python3 -c \"import sys, os, json; open('{path}', 'a').write(sys.stdin.read().strip() "
        f"+ '\\n'); open('{path}.env', 'a').write(json.dumps(dict(os.environ)) + '\\n')\""
    )


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def envs(path: Path) -> list[dict[str, str]]:
    return lines(Path(f"{path}.env"))


@pytest.fixture
def dispatch(project: Path, home: Path) -> Dispatch:
    """Fire one event at the project's real hook files; the Outcome comes back."""

    async def run(
        event: str, cwd: Path | None = None, trusted: bool = True, **fields: Any
    ) -> Outcome:
        model = EVENTS_BY_NAME[event].spec.payload.model_validate(
            common(event, cwd or project, **fields)
        )
        engine = HookEngine(load_hook_config(project, trusted=trusted))
        context = HookContext(cwd=cwd or project, project_dir=project)
        async with BackgroundHooks(lambda _: None) as background:
            return await engine.dispatch(model, context, background)

    return run
