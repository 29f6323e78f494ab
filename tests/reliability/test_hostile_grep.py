"""A Grep pattern cannot freeze the server.

Before: Grep ran the model's pattern with Python's `re` in a worker thread, which holds the GIL
while it backtracks: `(a+)+$` over a line of 40 `a` and a `!` (2^40 ways to split it) froze the
event loop — every session and the settings page — for good. Now the pattern is ripgrep's
syntax run by RE2 (linear time, the GIL released), and Grep opens only regular files.
"""

import os
import time

import anyio

from tests.lsp.client import reply, running_server, script
from tests.reliability.figures import record
from tests.workspace import Workspace

HOSTILE = "(a+)+$"


async def test_a_catastrophic_grep_pattern_is_answered_at_once_and_the_server_keeps_serving(
    workspace: Workspace,
) -> None:
    src = workspace.project / "src"
    src.mkdir(parents=True)
    (src / "long.txt").write_text(("a" * 40 + "!\n") * 200)
    (src / "code.py").write_text("x = 1\n# TODO: ünïcode wörds\n")
    os.mkfifo(src / "pipe")  # opening it to read would block for ever
    script(
        workspace,
        reply(
            "",
            ("Grep", {"pattern": HOSTILE, "path": str(src)}),
            ("Grep", {"pattern": r"TODO: \w+ \w+$", "path": str(src), "output_mode": "content"}),
        ),
        reply("done"),
    )
    async with running_server(workspace) as client:
        assert client._server is not None
        began = time.monotonic()
        try:
            with anyio.fail_after(90):
                opened = await client.open_chat(permissionMode="bypassPermissions")
                view = await client.turn(opened["sessionId"], "search")
                listed = await client.list_hooks()  # the server still answers
        except TimeoutError:
            client._server.kill()  # frozen: it would not answer the shutdown either
            raise
        took = time.monotonic() - began
    record("hostile grep", turn_s=round(took, 2))
    results = [b["result"] for b in view.blocks("tool")]
    assert results == ["No files found", f"{src / 'code.py'}:2:# TODO: ünïcode wörds"]
    assert [b["text"] for b in view.blocks("text")] == ["done"]
    assert "hooks" in listed
