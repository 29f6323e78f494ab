"""What the wire carries: the bytes sent for a 2 KB, a 20 KB and a 200 KB streamed reply, and
the round trips of a delete on the settings page.

    .venv/bin/python bench/wire.py [--runs 3] [--delete]

Per reply (the scripted provider streams it 16 characters a piece, as a model does; medians of
the runs): the bytes `wavehost serve` writes for the turn's `wave/chat/updated` frames (read raw
off its stdout), and the bytes the page's WebSocket receives in real Chromium (browser mode)
with the time from Enter to the reply's last words on screen. The baseline of each is the reply
itself: its size, and for time the 2 KB reply's. The delete is a confirmed delete in real
Chromium: the requests the page sent and the notifications it got until 3 s after the row went.
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repo: tests' tools

from tests.lsp.wire_bytes import reply_on_the_wire
from tests.workspace import make_workspace

REPO = Path(__file__).resolve().parents[1]
SIZES = (2_000, 20_000, 200_000)
SENTENCE = "The reply streams on, a sentence at a time, and the page keeps up. "


def page(*args: str) -> dict[str, Any]:
    """One run of bench/page.mjs (real Chromium against a real `wavehost web`)."""
    done = subprocess.run(
        ["node", str(REPO / "bench/page.mjs"), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def lsp_bytes(size: int, runs: int) -> tuple[float, float]:
    """Median bytes and notifications of a reply of `size` on the LSP wire."""
    text = (SENTENCE * (size // len(SENTENCE) + 1))[:size]
    figures = []
    for _ in range(runs):
        for workspace in make_workspace():
            figures.append(reply_on_the_wire(workspace, text))
    return (
        statistics.median(f.sent_bytes for f in figures),
        statistics.median(f.notifications for f in figures),
    )


def on_screen(size: int, runs: int) -> tuple[float, float, float]:
    """Median ms to screen, WebSocket bytes and frames of a reply of `size` in the page."""
    results = [page("reply", str(size)) for _ in range(runs)]
    return (
        statistics.median(r["toScreenMs"] for r in results),
        statistics.median(r["wsBytes"] for r in results),
        statistics.median(r["wsFrames"] for r in results),
    )


def replies(runs: int) -> None:
    print(f"a streamed reply on the wire (median of {runs} runs)")
    first_ms = None
    for size in SIZES:
        sent, notes = lsp_bytes(size, runs)
        ms, ws_bytes, frames = on_screen(size, runs)
        first_ms = first_ms or ms
        print(
            f"  {size // 1000:4d} KB reply  LSP {sent:10,.0f} B ({sent / size:4.2f}x, "
            f"{notes:4.0f} notifications)  page {ws_bytes:10,.0f} B ({ws_bytes / size:4.2f}x, "
            f"{frames:4.0f} frames)  on screen {ms:6.0f} ms ({ms / first_ms:5.1f}x the 2 KB's)"
        )


def delete_round_trips() -> None:
    result = page("delete")
    requests, notifications = result["requests"], result["notifications"]
    print("a delete on the settings page (Chromium, until 3 s after the row went; target: 1)")
    print(f"  {len(requests)} request(s) per delete: {', '.join(requests) or '-'}")
    print(f"  {len(notifications)} notification(s): {', '.join(notifications) or '-'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--delete", action="store_true", help="the delete only")
    args = parser.parse_args()
    if not args.delete:
        replies(args.runs)
    delete_round_trips()


if __name__ == "__main__":
    main()
