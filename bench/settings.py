"""The settings service at 5,000 hooks, through a real `wavehost serve` on stdio (raw frames, no
client library in the way), each figure beside its baseline taken in the same run:

- a warm `wave/hooks/list` round trip (request written → whole answer read) against a no-op
  round trip on the same server: a request for a method nobody has, answered at once with
  -32601, the second of two in a row (the first may wait for what the list before left the
  server to do) (target: ≤ 20×);
- the list's bytes on the wire per hook (target: ≤ 200);
- the first list after start, counted from the `initialize` answer (target: ≤ 100 ms beyond
  it; `initialized` and the list are sent as soon as `initialize` is answered, as the shells do).

The 5,000 hooks are Claude-format command hooks in the user's, the project's, the local and a
plugin's file (2,000 / 1,500 / 1,000 / 500), over five events, with matchers.

    .venv/bin/python bench/settings.py [--runs 7] [--json]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling benches

from lsp import make_workspace

HOOKS = {"user": 2000, "project": 1500, "local": 1000, "plugin": 500}
COMMAND = "$CLAUDE_PROJECT_DIR/.wave/hooks/{tag}-check-{i}.sh --strict"
SERVE = [sys.executable, "-m", "wavehost", "serve"]


class Server:
    """`wavehost serve` as a subprocess, spoken to in frames."""

    def __init__(self, home: Path, project: Path) -> None:
        env = {**os.environ, "HOME": str(home)}
        self.project = project
        self.process = subprocess.Popen(
            SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env
        )
        self.next_id = 0

    def send(self, method: str, params: Any = None, *, request: bool = True) -> int:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        stdin.flush()
        return self.next_id

    def answer(self, wanted: int) -> bytes:
        """The body of the answer to request `wanted` (other messages are skipped). Not parsed:
        the round trip is the server's and the wire's, not this client's JSON decoder's."""
        stdout = self.process.stdout
        assert stdout is not None
        ours = re.compile(rb'"id": ?%d[,}]' % wanted)
        while True:
            body = read_body(stdout)
            ends = body[:100] + body[-100:]
            if ours.search(ends) and b'"method"' not in ends:
                return body

    def call(self, method: str, params: Any = None) -> bytes:
        return self.answer(self.send(method, params))

    def initialize(self) -> None:
        options = {"projectDir": str(self.project)}
        self.call("initialize", {"capabilities": {}, "initializationOptions": options})

    def stop(self) -> None:
        self.call("shutdown")
        self.send("exit", request=False)
        self.process.wait(timeout=30)


def read_body(stdout: IO[bytes]) -> bytes:
    length = None
    while (line := stdout.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    if length is None:
        raise RuntimeError("the server closed its output")
    return stdout.read(length)


def timed(server: Server, method: str) -> tuple[float, bytes]:
    began = time.perf_counter()
    body = server.call(method)
    return time.perf_counter() - began, body


def main(runs: int, as_json: bool) -> None:
    total = sum(HOOKS.values())
    report: dict[str, Any] = {"hooks": total, "runs": runs, "load_at_start": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory(prefix="wavehost-bench-") as tmp:
        home, project = make_workspace(Path(tmp), HOOKS, COMMAND)
        initialize, first_list = [], []
        for _ in range(runs):
            server = Server(home, project)
            began = time.perf_counter()
            server.initialize()
            answered = time.perf_counter()
            server.send("initialized", request=False)
            body = server.call("wave/hooks/list")
            first_list.append(time.perf_counter() - answered)
            initialize.append(answered - began)
            server.stop()
        listed = json.loads(body)["result"]
        assert len(listed["hooks"]) == total, len(listed["hooks"])

        server = Server(home, project)
        server.initialize()
        server.send("initialized", request=False)
        server.call("wave/hooks/list")
        noop, warm = [], []
        for _ in range(max(runs, 30)):  # interleaved: drift hits both alike
            timed(server, "wave/bench/noop")  # the server done with the list before: settled
            noop.append(timed(server, "wave/bench/noop")[0])
            elapsed, body = timed(server, "wave/hooks/list")
            warm.append(elapsed)
        server.stop()
    assert b"-32601" in server_noop_answer(home, project)
    noop_ms, warm_ms = statistics.median(noop) * 1000, statistics.median(warm) * 1000
    nulls = sum(value is None for hook in listed["hooks"] for value in hook.values())
    report.update(
        {
            "noop_round_trip_ms": round(noop_ms, 3),
            "warm_list_round_trip_ms": round(warm_ms, 2),
            "ratio_warm_list_to_noop": round(warm_ms / noop_ms, 1),
            "target_ratio": 20,
            "list_bytes": len(body),
            "bytes_per_hook": round(len(body) / total, 1),
            "target_bytes_per_hook": 200,
            "null_fields_per_hook": round(nulls / total, 1),
            "initialize_ms": round(statistics.median(initialize) * 1000, 1),
            "first_list_beyond_initialize_ms": round(statistics.median(first_list) * 1000, 1),
            "target_first_list_ms": 100,
            "load_at_end": os.getloadavg()[0],
        }
    )
    if as_json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>34}: {value}")


def server_noop_answer(home: Path, project: Path) -> bytes:
    """What the no-op is: an error answer, at once (checked, so the baseline is what it says)."""
    server = Server(home, project)
    server.initialize()
    body = server.call("wave/bench/noop")
    server.stop()
    return body


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    main(args.runs, args.json)
