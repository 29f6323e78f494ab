"""Benchmark of `wavehost serve`: start-up against a bare pygls server, list and delete round trips.

    .venv/bin/python bench/lsp.py [--runs N]

Prints medians. Both servers are started the same way (this Python, a fresh process, stdio) and
timed from process start to the `initialize` answer, alternating so that drift hits both alike.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import BaseLanguageClient

from wavehost.lsp.converter import raw_converter
from wavehost.protocol import table

BARE_SERVER = "from pygls.lsp.server import LanguageServer; LanguageServer('bare', '0').start_io()"
WAVEHOST = [sys.executable, "-m", "wavehost", "serve"]
BARE = [sys.executable, "-c", BARE_SERVER]
SOURCES = {"user": 200, "project": 150, "local": 100, "plugin": 50}  # 500 hooks
EVENTS = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"]


def _settings(count: int, tag: str, command: str) -> dict[str, Any]:
    hooks: dict[str, list[Any]] = {}
    for i in range(count):
        entry = {"type": "command", "command": command.format(tag=tag, i=i)}
        group = {"matcher": "Bash|Write", "hooks": [entry]}
        hooks.setdefault(EVENTS[i % len(EVENTS)], []).append(group)
    return {"hooks": hooks}


def make_workspace(
    root: Path, sources: dict[str, int] = SOURCES, command: str = "{tag} {i}"
) -> tuple[Path, Path]:
    """Claude-format hooks in the user's, the project's, the local and a plugin's file, as many
    as `sources` says, over five events; `command` made of each one's file (`tag`) and number."""
    home, project = root / "home", root / "project"
    place = {
        "user": home / ".wave/settings.json",
        "project": project / ".wave/settings.json",
        "local": project / ".wave/settings.local.json",
        "plugin": home / ".wave/plugins/kit/hooks/hooks.json",
    }
    files = {place[tag]: _settings(count, tag, command) for tag, count in sources.items()}
    files[place["user"]]["enabledPlugins"] = {"kit": True}
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=2) + "\n")
    return home, project


async def start(command: list[str], home: Path, project: Path) -> tuple[BaseLanguageClient, float]:
    client = BaseLanguageClient("bench", "0", converter_factory=raw_converter)
    began = time.perf_counter()
    await client.start_io(*command, env={**os.environ, "HOME": str(home)})
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            initialization_options={"projectDir": str(project)},
        )
    )
    elapsed = time.perf_counter() - began
    client.initialized(types.InitializedParams())
    return client, elapsed


async def stop(client: BaseLanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await call()
    return time.perf_counter() - began, result


async def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home, project = make_workspace(Path(tmp))
        starts: dict[str, list[float]] = {"bare": [], "wavehost": []}
        first_list: list[float] = []
        for _ in range(runs):
            for name, command in (("bare", BARE), ("wavehost", WAVEHOST)):
                began = time.perf_counter()
                client, elapsed = await start(command, home, project)
                starts[name].append(elapsed)
                if name == "wavehost":
                    await client.protocol.send_request_async(table.HOOKS_LIST.name, {})
                    first_list.append(time.perf_counter() - began)
                await stop(client)

        client, _ = await start(WAVEHOST, home, project)
        listing = await client.protocol.send_request_async(table.HOOKS_LIST.name, {})
        assert len(listing["hooks"]) == sum(SOURCES.values()), len(listing["hooks"])
        list_times = [
            (await timed(lambda: client.protocol.send_request_async(table.HOOKS_LIST.name, {})))[0]
            for _ in range(max(runs, 30))
        ]
        # The user file's last groups first, so the entries still to delete never move.
        user_ids = [h["id"] for h in listing["hooks"] if h["source"] == "user"][::-1]
        delete_times = []
        for hook_id in user_ids[: max(runs, 30)]:
            elapsed, result = await timed(
                lambda hook_id=hook_id: client.protocol.send_request_async(
                    table.HOOKS_DELETE.name, {"id": hook_id}
                )
            )
            assert result["deleted"]["id"] == hook_id
            delete_times.append(elapsed)
        await stop(client)

    bare, ours = statistics.median(starts["bare"]), statistics.median(starts["wavehost"])
    print(f"runs: {runs}")
    print(f"start -> initialize answered, bare pygls server: {bare * 1000:7.1f} ms (median)")
    print(f"start -> initialize answered, wavehost serve:    {ours * 1000:7.1f} ms (median)")
    print(f"ratio wavehost / bare: {ours / bare:.2f} (target <= 1.2)")
    print(
        f"start -> first wave/hooks/list answered (500 hooks): "
        f"{statistics.median(first_list) * 1000:.1f} ms (median)"
    )
    print(
        f"wave/hooks/list round trip, 500 hooks, warm: "
        f"{statistics.median(list_times) * 1000:.2f} ms (median of {len(list_times)}; "
        "target < 20)"
    )
    print(
        f"wave/hooks/delete round trip, 500 hooks: "
        f"{statistics.median(delete_times) * 1000:.2f} ms (median of {len(delete_times)})"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    asyncio.run(main(parser.parse_args().runs))
