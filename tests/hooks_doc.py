"""The one builder of hooks documents for tests (Claude Code's settings format).

hook("cmd", timeout=5)                    one handler
hooks_for("Stop", "cmd", matcher="x")     {event: [one group]}: what goes under "hooks"
hooks_doc("Stop", "cmd")                  {"hooks": hooks_for(…)}: a whole settings file
merge(hooks_for(…), hooks_for(…))         several events (or groups) in one mapping
"""

from typing import Any


def hook(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, **fields}


def hooks_for(
    event: str, *commands: str | dict[str, Any], matcher: str | None = None
) -> dict[str, Any]:
    """One group of handlers for `event`: commands as strings, or whole handler dicts."""
    group: dict[str, Any] = {"hooks": [c if isinstance(c, dict) else hook(c) for c in commands]}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def hooks_doc(
    event: str, *commands: str | dict[str, Any], matcher: str | None = None
) -> dict[str, Any]:
    return {"hooks": hooks_for(event, *commands, matcher=matcher)}


def merge(*mappings: dict[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for mapping in mappings:
        for event, groups in mapping.items():
            merged.setdefault(event, []).extend(groups)
    return merged
