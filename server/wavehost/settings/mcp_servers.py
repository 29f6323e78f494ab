"""The MCP servers a project's sessions start, read as Claude Code reads them.

Two places: the project's `.mcp.json` and `mcpServers` in the user's settings file
(`~/.wave/settings.json`), each `{"mcpServers": {name: server}}`. A server is stdio (`command`,
`args`, `env`; `type` absent or `"stdio"`) or streamable HTTP (`type: "http"`, `url`, `headers`).
`${VAR}` and `${VAR:-default}` in those strings are filled in from the environment; a variable
that is unset and has no default makes that server unusable, with the names in its error. A user
server and a project server of the same name: the project's wins, as in Claude Code's scopes.

Nothing here starts anything. An untrusted workspace's `.mcp.json` is listed, its servers marked
`untrusted`: they never start. Reads are bounded (`hooks.safe_read`); a bad entry is reported on
its own and the others still load.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from wavehost import paths
from wavehost.environment import inherited
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.safe_read import read_json
from wavehost.hooks.settings_files import kind_of, read_settings

McpSource = Literal["user", "project"]
Transport = Literal["stdio", "http"]
SERVERS_KEY = "mcpServers"
# Server names as tool names carry them (`mcp__<server>__<tool>`); Claude Code's rule.
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


@dataclass(frozen=True, slots=True)
class McpServerConfig:
    name: str
    source: McpSource
    path: Path  # the file it is configured in
    pointer: str  # where in that file (JSON pointer)
    transport: Transport = "stdio"
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    untrusted: bool = False  # a project server of an untrusted workspace: never started
    error: str | None = None  # why it cannot start (then nothing else is set)

    @property
    def startable(self) -> bool:
        return self.error is None and not self.untrusted

    @property
    def target(self) -> str:
        """What it runs or where it connects, for people to read."""
        if self.transport == "http":
            return self.url
        return " ".join((self.command, *self.args))


@dataclass(frozen=True, slots=True)
class McpConfigFile:
    source: McpSource
    path: Path
    exists: bool
    error: str | None = None  # the file cannot be used at all
    untrusted: bool = False


@dataclass(frozen=True)
class McpConfig:
    servers: tuple[McpServerConfig, ...] = ()
    files: tuple[McpConfigFile, ...] = ()

    def startable(self) -> tuple[McpServerConfig, ...]:
        return tuple(s for s in self.servers if s.startable)

    def server(self, name: str) -> McpServerConfig | None:
        return next((s for s in self.servers if s.name == name), None)


def expand(text: str, env: Mapping[str, str], missing: list[str]) -> str:
    """`${VAR}` / `${VAR:-default}` filled in from `env` (one pass); unset names go to
    `missing`."""

    def fill(found: re.Match[str]) -> str:
        value = env.get(found[1])
        if value is not None:
            return value
        if found[2] is not None:
            return found[2]
        missing.append(found[1])
        return ""

    return _VARIABLE.sub(fill, text) if "${" in text else text


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings, not {kind_of(value)}")
    return tuple(value)


def _table(value: Any, what: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ValueError(f"{what} must be an object of strings")
    return dict(value)


def server_of(
    name: str,
    raw: Any,
    *,
    source: McpSource,
    path: Path,
    pointer: str,
    env: Mapping[str, str],
    untrusted: bool = False,
) -> McpServerConfig:
    """One entry of `mcpServers`; a bad one comes back with its `error` set."""
    try:
        if not NAME.match(name):
            raise ValueError(
                "the name may only hold letters, digits, '_' and '-' (at most 64 of them)"
            )
        if not isinstance(raw, dict):
            raise ValueError(f"must be an object, not {kind_of(raw)}")
        kind = raw.get("type", "stdio")
        missing: list[str] = []
        if kind == "stdio":
            command = raw.get("command")
            if not isinstance(command, str) or not command.strip():
                raise ValueError('a stdio server needs a "command" (a non-empty string)')
            args = _strings(raw.get("args", []), '"args"')
            variables = _table(raw.get("env", {}), '"env"')
            server = McpServerConfig(
                name,
                source,
                path,
                pointer,
                "stdio",
                command=expand(command, env, missing),
                args=tuple(expand(a, env, missing) for a in args),
                env={k: expand(v, env, missing) for k, v in variables.items()},
                untrusted=untrusted,
            )
        elif kind in ("http", "streamable-http"):
            url = raw.get("url")
            if not isinstance(url, str) or not url.strip():
                raise ValueError('an http server needs a "url" (a non-empty string)')
            headers = _table(raw.get("headers", {}), '"headers"')
            server = McpServerConfig(
                name,
                source,
                path,
                pointer,
                "http",
                url=expand(url, env, missing),
                headers={k: expand(v, env, missing) for k, v in headers.items()},
                untrusted=untrusted,
            )
            if not missing and not server.url.startswith(("http://", "https://")):
                raise ValueError(f"the url must start with http:// or https://: {server.url}")
        elif kind == "sse":
            raise ValueError('"type": "sse" is not supported (use a streamable HTTP server)')
        else:
            raise ValueError(f'unknown "type" {kind!r} (stdio or http)')
        if missing:
            names = ", ".join(dict.fromkeys(missing))
            raise ValueError(f"missing environment variables: {names}")
        return server
    except ValueError as err:
        kind = raw.get("type") if isinstance(raw, dict) else None
        transport: Transport = "http" if kind in ("http", "streamable-http") else "stdio"
        return McpServerConfig(
            name, source, path, pointer, transport, untrusted=untrusted, error=str(err)
        )


def _entries(
    document: Any, source: McpSource, path: Path, env: Mapping[str, str], untrusted: bool
) -> tuple[list[McpServerConfig], str | None]:
    if not isinstance(document, dict):
        return [], f"must contain a JSON object, not {kind_of(document)}"
    servers = document.get(SERVERS_KEY)
    if servers is None:
        return [], None
    if not isinstance(servers, dict):
        return [], f'"{SERVERS_KEY}" must be an object, not {kind_of(servers)}'
    return [
        server_of(
            name,
            raw,
            source=source,
            path=path,
            pointer=pointer_join(SERVERS_KEY, name),
            env=env,
            untrusted=untrusted,
        )
        for name, raw in servers.items()
    ], None


def read_mcp_config(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    trusted: bool = True,
    env: Mapping[str, str] | None = None,
) -> McpConfig:
    """The user's and the project's MCP servers. Never raises for what is in the files."""
    environment = inherited() if env is None else env  # what the servers themselves get
    files: list[McpConfigFile] = []
    found: dict[str, McpServerConfig] = {}
    files_read = read_settings(None, home=home).files
    user = next(f for f in files_read if f.source == "user" and f.format == "wave")
    if user.read.exists:
        servers, error = (
            _entries(user.document, "user", user.path, environment, False)
            if user.document is not None
            else ([], None)
        )
        files.append(McpConfigFile("user", user.path, True, user.error or error))
        found.update((s.name, s) for s in servers)
    if project_dir is not None:
        path = paths.project_mcp_servers(project_dir)
        read = read_json(path, within=project_dir)  # a link out of the project is not read
        error = read.error
        servers = []
        if read.exists and error is None:
            servers, error = _entries(read.document, "project", path, environment, not trusted)
        files.append(McpConfigFile("project", path, read.exists, error, untrusted=not trusted))
        found.update((s.name, s) for s in servers)  # the project's wins over the user's
    return McpConfig(tuple(found.values()), tuple(files))


def entry_lines(config: McpConfig) -> dict[str, int | None]:
    """Each server's 1-based line in its file (where its name is a key of `mcpServers`)."""
    texts: dict[Path, str | None] = {}
    found: dict[str, int | None] = {}
    for server in config.servers:
        if server.path not in texts:
            texts[server.path] = read_json(server.path).text
        text = texts[server.path]
        if text is None:
            found[server.name] = None
            continue
        start = text.find(f'"{SERVERS_KEY}"')
        at = text.find(json.dumps(server.name), max(start, 0))
        found[server.name] = text.count("\n", 0, at) + 1 if at >= 0 else None
    return found
