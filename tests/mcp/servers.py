"""Tests' MCP helpers: `.mcp.json` naming the SDK server of `tests/mcp/server.py`, the same
server over streamable HTTP on 127.0.0.1, and what it was called with."""

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.processes import TIMEOUT, alive

ROOT = Path(__file__).resolve().parents[2]


def stdio_server(*options: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """An `mcpServers` entry that runs the test server over stdio."""
    return {
        "command": sys.executable,
        "args": ["-m", "tests.mcp.server", *options],
        "env": {"PYTHONPATH": str(ROOT), **(env or {})},
    }


def write_mcp_json(project: Path, servers: dict[str, Any]) -> Path:
    path = project / ".mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


def calls(path: Path) -> list[dict[str, Any]]:
    """What the server was called with (its `--calls` file)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def http_server(*options: str) -> Iterator[str]:
    """The test server over streamable HTTP on 127.0.0.1; yields its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.mcp.server", "--http", str(port), *options],
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = TIMEOUT
        while deadline > 0:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError("the HTTP MCP server exited") from None
                time.sleep(0.1)
                deadline -= 0.1
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


def server_pids(marker: Path) -> list[int]:
    """The pids of the servers started with `--marker` at this path."""
    if not marker.exists():
        return []
    return [int(line.split()[1]) for line in marker.read_text().splitlines() if line]


def living(pids: list[int]) -> list[int]:
    return [pid for pid in pids if alive(pid)]
