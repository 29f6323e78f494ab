"""Reading the MCP servers configuration as Claude Code does: `.mcp.json` and the user settings'
`mcpServers`, `${VAR}` / `${VAR:-default}`, one bad entry at a time, trust applied."""

import json
from pathlib import Path

from wavehost import paths
from wavehost.hooks.safe_read import MAX_CONFIG_BYTES
from wavehost.settings.mcp_servers import entry_lines, read_mcp_config


def write(path: Path, document: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def test_variables_are_filled_in_with_their_defaults_and_a_missing_one_says_its_name(
    project: Path, home: Path
) -> None:
    write(
        paths.project_mcp_servers(project),
        {
            "mcpServers": {
                "db": {
                    "command": "${TOOLS:-/opt/tools}/db-mcp",
                    "args": ["--token", "${DB_TOKEN}"],
                    "env": {"MODE": "${MODE:-ro}"},
                },
                "tickets": {"type": "http", "url": "${TICKETS}/mcp", "headers": {"X": "${NOPE}"}},
            }
        },
    )
    config = read_mcp_config(project, home=home, env={"DB_TOKEN": "t0k"})
    db, tickets = config.servers
    assert (db.command, db.args, dict(db.env)) == (
        "/opt/tools/db-mcp",
        ("--token", "t0k"),
        {"MODE": "ro"},
    )
    assert db.startable
    assert tickets.error == "missing environment variables: TICKETS, NOPE"
    assert tickets.transport == "http"
    assert not tickets.startable


def test_bad_entries_are_reported_one_by_one_and_the_others_still_load(
    project: Path, home: Path
) -> None:
    write(
        paths.project_mcp_servers(project),
        {
            "mcpServers": {
                "ok": {"command": "srv"},
                "no command": {"command": "srv"},
                "empty": {"command": ""},
                "old": {"type": "sse", "url": "http://127.0.0.1:1/sse"},
                "odd": {"type": "carrier-pigeon"},
                "args": {"command": "srv", "args": "--flag"},
                "scheme": {"type": "http", "url": "ftp://example/mcp"},
            }
        },
    )
    errors = {s.name: s.error for s in read_mcp_config(project, home=home, env={}).servers}
    assert errors == {
        "ok": None,
        "no command": "the name may only hold letters, digits, '_' and '-' (at most 64 of them)",
        "empty": 'a stdio server needs a "command" (a non-empty string)',
        "old": '"type": "sse" is not supported (use a streamable HTTP server)',
        "odd": "unknown \"type\" 'carrier-pigeon' (stdio or http)",
        "args": '"args" must be a list of strings, not a string',
        "scheme": "the url must start with http:// or https://: ftp://example/mcp",
    }


def test_a_project_server_wins_over_the_users_of_the_same_name_and_untrusted_ones_never_start(
    project: Path, home: Path
) -> None:
    write(
        paths.user_settings(home),
        {"mcpServers": {"memory": {"command": "user-mem"}, "own": {"command": "o"}}},
    )
    mcp_json = write(
        paths.project_mcp_servers(project), {"mcpServers": {"memory": {"command": "proj-mem"}}}
    )
    trusted = read_mcp_config(project, home=home, env={})
    assert {s.name: (s.source, s.command) for s in trusted.servers} == {
        "memory": ("project", "proj-mem"),
        "own": ("user", "o"),
    }
    assert entry_lines(trusted)["memory"] == 3
    untrusted = read_mcp_config(project, home=home, trusted=False, env={})
    assert [s.name for s in untrusted.startable()] == ["own"]  # the user's own still start
    assert [f.untrusted for f in untrusted.files if f.path == mcp_json] == [True]


def test_an_mcp_json_that_is_too_big_or_not_an_object_is_an_error_of_its_file(
    project: Path, home: Path
) -> None:
    path = paths.project_mcp_servers(project)
    path.write_text(json.dumps({"mcpServers": {"x": {"command": "y" * MAX_CONFIG_BYTES}}}))
    [file] = read_mcp_config(project, home=home, env={}).files
    assert file.error is not None
    assert read_mcp_config(project, home=home, env={}).servers == ()
    write(path, ["not", "an", "object"])
    [file] = read_mcp_config(project, home=home, env={}).files
    assert file.error == "must contain a JSON object, not a list"
