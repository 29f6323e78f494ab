"""The VS Code extension in code-server: "Wave: Open Hooks Settings" → first hooks list rendered
(median of 5 fresh windows, activation and server start included), the vsix size, the memory the
extension adds to the extension host and the server's own. Targets: <= 1.5 s, <= 25 MB.

    bash scripts/package-vscode && .venv/bin/python bench/vscode.py
"""

import json
import subprocess
import sys
from pathlib import Path

EXTENSION = Path(__file__).resolve().parents[1] / "extension-vscode"


def main() -> int:
    run = subprocess.run(
        ["npx", "vitest", "run", "-c", "vitest.bench.config.ts"],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
    )
    marker = "WAVEHOST_BENCH "  # vitest may put colour codes before it
    lines = [line.split(marker, 1)[1] for line in run.stdout.splitlines() if marker in line]
    if run.returncode != 0 or not lines:
        print(run.stdout[-3000:], run.stderr[-3000:], file=sys.stderr)
        return 1
    result = json.loads(lines[-1])
    first = result["firstListMs"]
    runs = ", ".join(map(str, first["all"]))
    print(
        f"first hooks list after the command: median {first['median']} ms of {result['runs']} "
        f"({runs}); target 1500 ms, ratio {first['median'] / 1500:.2f}"
    )
    print(f"vsix: {result['vsixMB']:.1f} MB; target 25 MB, ratio {result['vsixMB'] / 25:.2f}")
    print(f"extension host memory added: {result['extensionHostAddedMB']:.1f} MB (median)")
    print(f"wavehost server RSS: {result['serverRssMB']:.1f} MB (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
