"""A real MCP server for the tests, written with the official SDK: `python -m tests.mcp.server`.

Its tools keep notes in memory (`remember`, `recall`), fail (`fail`: an `isError` result), return
an image, a huge text, or nothing for a while (`sleep`), exit in the middle of a call (`crash`),
show the environment it got (`env`), and add a tool at run time, telling the client
(`tools/list_changed`). Options make it misbehave from the start:

    --http PORT        serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio
    --marker FILE      append a line to FILE when it starts (did anything start it?)
    --fail-start TEXT  print TEXT on stderr and exit 1 before speaking MCP
    --hang             never answer (initialize hangs)
    --calls FILE       append each call's name and arguments to FILE as a JSON line
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def build(calls: Path | None) -> MCPServer:
    server: MCPServer = MCPServer("memory", log_level="WARNING")
    notes: dict[str, str] = {}

    def log(name: str, arguments: dict[str, Any]) -> None:
        if calls is not None:
            with calls.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"tool": name, "arguments": arguments}) + "\n")

    @server.tool()
    def remember(key: str, value: str) -> str:
        """Keep a note under a key."""
        log("remember", {"key": key, "value": value})
        notes[key] = value
        return f"remembered {key}"

    @server.tool()
    def recall(key: str) -> str:
        """The note kept under a key."""
        log("recall", {"key": key})
        return notes.get(key, f"nothing under {key}")

    @server.tool()
    def fail(message: str) -> str:
        """Always fails, with this message."""
        log("fail", {"message": message})
        raise ToolError(message)

    @server.tool()
    def picture() -> Image:
        """A one-pixel image."""
        log("picture", {})
        return Image(data=PNG, format="png")

    @server.tool()
    def big(size: int) -> str:
        """A text of `size` characters."""
        log("big", {"size": size})
        return "x" * size

    @server.tool()
    async def sleep(seconds: float) -> str:
        """Answers after `seconds`."""
        log("sleep", {"seconds": seconds})
        await anyio.sleep(seconds)
        return "slept"

    @server.tool()
    def crash() -> str:
        """Exits the server in the middle of the call."""
        log("crash", {})
        sys.stderr.write("memory server: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)

    @server.tool()
    def echo(text: str) -> str:
        """Answers with the text it was given."""
        log("echo", {"text": text})
        return text

    @server.tool()
    def env(name: str) -> str:
        """The value of an environment variable (or `<unset>`)."""
        return os.environ.get(name, "<unset>")

    @server.tool()
    async def grow(name: str, ctx: Context) -> str:
        """Adds a tool called `name` and tells the client its tools changed."""
        log("grow", {"name": name})

        def added(text: str = "") -> str:
            return f"{name}: {text}"

        server.add_tool(added, name=name, description=f"A tool added at run time: {name}")
        await ctx.request_context.session.send_tool_list_changed()
        return f"added {name}"

    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--http", type=int)
    parser.add_argument("--marker", type=Path)
    parser.add_argument("--fail-start")
    parser.add_argument("--hang", action="store_true")
    parser.add_argument("--calls", type=Path)
    args = parser.parse_args()
    if args.marker is not None:
        with args.marker.open("a", encoding="utf-8") as out:
            out.write(f"started {os.getpid()}\n")
    sys.stderr.write("memory server: starting\n")
    sys.stderr.flush()
    if args.fail_start:
        sys.stderr.write(args.fail_start + "\n")
        sys.exit(1)
    if args.hang:
        while True:
            time.sleep(3600)
    server = build(args.calls)
    if args.http is not None:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run()


if __name__ == "__main__":
    main()
