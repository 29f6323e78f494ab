"""A hooks list's rows filled in, as the settings page reads them (`webview/src/settings/model.ts`,
`listOf`): the wire's rows are compact (`HookEntry`: what a row's config file says, nulls and
defaults are left out), tests read every field."""

from typing import Any

# What a row leaves out takes its file's value (wire name of the row, of the file).
FROM_FILE = {
    "source": "source",
    "path": "path",
    "readOnly": "readOnly",
    "plugin": "plugin",
    "dialect": "dialect",
    "untrusted": "untrusted",
}
DEFAULTS: dict[str, Any] = {
    "matcher": None,
    "if": None,
    "type": "command",
    "timeout": None,
    "async": None,
    "asyncRewake": None,
    "statusMessage": None,
    "description": None,
    "disabled": None,
}


def row_of(entry: dict[str, Any], files: list[dict[str, Any]]) -> dict[str, Any]:
    index = entry.get("file")
    file = files[index] if index is not None else {}
    row = {k: v for k, v in entry.items() if k != "file"}
    for name, of_file in FROM_FILE.items():
        if name not in row:
            row[name] = file.get(of_file)
    for name, default in DEFAULTS.items():
        row.setdefault(name, default)
    row.setdefault("catalogueEvent", row["event"])
    return row


def filled(listing: dict[str, Any]) -> dict[str, Any]:
    """A wave/hooks/list answer (or a delete's `listing`) with whole rows."""
    files = listing["configFiles"]
    return {**listing, "hooks": [row_of(h, files) for h in listing["hooks"]]}
