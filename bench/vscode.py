"""The VS Code extension in code-server: "Wave: Open Hooks Settings" (from Enter in the palette) →
first hooks list rendered, against VS Code's own settings editor in the same windows (median of 5
fresh windows, cold: the command as soon as the window is there; warm: once the
status bar says the host is ready), where that time goes (the steps the extension logs, from
the window's opening to the rendered list), the vsix size, the memory the extension adds to the
extension host and the server's own. Targets: <= 1.5 s, <= 25 MB.

    bash scripts/package-vscode && .venv/bin/python bench/vscode.py
"""

import json
import os
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
    for key, words in (
        ("firstListMs", "cold: command as soon as the window is there"),
        ("warmFirstListMs", "warm: command once the host is ready"),
    ):
        first = result[key]
        runs = ", ".join(map(str, first["all"]))
        print(
            f"first hooks list after the command ({words}): median {first['median']} ms of "
            f"{result['runs']} ({runs}); target 1500 ms, ratio {first['median'] / 1500:.2f}"
        )
    print(f"first window after the install (cold, once): {result['firstAfterInstallMs']} ms")
    built_in = result["builtInSettingsMs"]
    warm = result["warmFirstListMs"]["median"]
    print(
        "baseline, VS Code's own settings editor (same warm windows): "
        f"median {built_in['median']} ms "
        f"({', '.join(map(str, built_in['all']))}); warm first list / baseline "
        f"{warm / max(built_in['median'], 1):.2f}"
    )
    print(f"window opened -> host ready (status bar): median {result['windowToHostReadyMs']} ms")
    for key, words in (("coldTimeline", "cold"), ("warmTimeline", "warm")):
        print(f"where the time goes ({words} windows; ms from Enter, medians; src/timeline.ts):")
        for step, ms in result[key]:
            print(f"  {ms:>8} ms  {step}")
    print(f"vsix: {result['vsixMB']:.1f} MB; target 25 MB, ratio {result['vsixMB'] / 25:.2f}")
    added = result["extensionHostAddedMB"]
    if added is not None:
        print(f"extension host memory added: {added:.1f} MB (median, against one without it)")
    print(f"wavehost server RSS: {result['serverRssMB']:.1f} MB (median)")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
