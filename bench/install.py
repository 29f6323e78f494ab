"""What a person installing wavehost waits for: the wheel, a fresh venv, `pip install`, the page.

    .venv/bin/python bench/install.py [--runs N]

Builds the wheel once (`scripts/build-wheel`, timed), then N times: a fresh venv, `pip install`
of the wheel (its dependencies from the package index, as a user gets them), and
`wavehost web --project examples/demo-project` until its page and script have been fetched.
Prints the wheel's size and the median of each phase. Network-bound: compare runs of one
machine and one hour only.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
URL = re.compile(r"at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)")


def first_page(bin_dir: Path, home: Path) -> float:
    """Seconds from `wavehost web` starting to its page and script fetched."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    started = time.perf_counter()
    web = subprocess.Popen(
        [bin_dir / "wavehost", "web", "--project", str(REPO / "examples" / "demo-project")],
        env=env | {"HOME": str(home)}, stdout=subprocess.PIPE, text=True, cwd=home,
    )  # fmt: skip
    try:
        assert web.stdout is not None
        found = URL.search(web.stdout.readline())
        assert found, "wavehost web printed no address"
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(found.group(1), timeout=60) as page:
            page.read()
        with browser.open(found.group(1).split("?")[0] + "assets/webview.js", timeout=60) as js:
            js.read()
        return time.perf_counter() - started
    finally:
        web.terminate()
        web.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs

    started = time.perf_counter()
    built = subprocess.run(
        ["bash", str(REPO / "scripts" / "build-wheel")], capture_output=True, text=True, check=True
    )
    build_seconds = time.perf_counter() - started
    wheel = Path(built.stdout.strip().splitlines()[-1])
    phases: dict[str, list[float]] = {"venv": [], "pip install": [], "first page": []}
    for _ in range(runs):
        root = Path(tempfile.mkdtemp(prefix="wavehost-install-"))
        try:
            started = time.perf_counter()
            venv.create(root / "venv", with_pip=True)
            phases["venv"].append(time.perf_counter() - started)
            started = time.perf_counter()
            subprocess.run(
                [root / "venv" / "bin" / "python", "-m", "pip", "install", "-q", str(wheel)],
                check=True,
            )
            phases["pip install"].append(time.perf_counter() - started)
            (root / "home").mkdir()
            phases["first page"].append(first_page(root / "venv" / "bin", root / "home"))
        finally:
            shutil.rmtree(root)
    size = wheel.stat().st_size / 1024
    print(f"wheel: {wheel.name}, {size:.0f} KiB, built in {build_seconds:.1f} s")
    for name, seconds in phases.items():
        print(f"{name:>12}: median {statistics.median(seconds):5.1f} s over {runs} runs")
    total = sum(statistics.median(s) for s in phases.values())
    print(f"{'fresh venv → page':>12}: {total:.1f} s (sum of the medians)")


if __name__ == "__main__":
    sys.exit(main())
