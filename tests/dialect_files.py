"""Copilot CLI and Snow CLI hook files for tests: one way to write each, shared by the engine's
dialect tests (tests/dialects) and the chat tests (tests/session)."""

import json
from pathlib import Path
from typing import Any

from wavehost import paths


def write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = document if isinstance(document, str) else json.dumps(document, indent=2)
    path.write_text(text, encoding="utf-8")
    return path


def copilot_file(root: Path, name: str, hooks: dict[str, Any], **top: Any) -> Path:
    """A Copilot hooks file `<root>/.github/hooks/<name>` (or under a user hooks dir)."""
    return write(root / name, {"version": 1, "hooks": hooks, **top})


def bash(command: str, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "bash": command, **extra}


def action(command: str, **extra: Any) -> dict[str, Any]:
    """A Snow command action, enabled."""
    return {"type": "command", "command": command, "enabled": True, **extra}


def rule(*actions: dict[str, Any], matcher: str | None = None, description: str = "r") -> Any:
    found: dict[str, Any] = {"description": description, "hooks": list(actions)}
    if matcher is not None:
        found["matcher"] = matcher
    return found


def copilot_project(project: Path, name: str, hooks: dict[str, Any]) -> Path:
    """`<project>/.github/hooks/<name>` holding these events."""
    return copilot_file(paths.copilot_project_hooks(project), name, hooks)


def snow_project(project: Path, hook_type: str, *rules: Any) -> Path:
    """`<project>/.snow/hooks/<type>.json` holding these rules (the `{"<type>": [...]}` form)."""
    return write(paths.snow_project_hooks(project) / f"{hook_type}.json", {hook_type: list(rules)})
