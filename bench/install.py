"""What a person installing wavehost waits for: the wheel, a fresh venv, `pip install`, the page.

    .venv/bin/python bench/install.py [--runs N] [--first-run]

Builds the wheel once (`scripts/build-wheel`, timed), then N times: a fresh venv, `pip install`
of the wheel (its dependencies from the package index, as a user gets them), and
`wavehost web --project examples/demo-project` until its page and script have been fetched —
from the installed wheel, and (the baseline, same run) from this checkout's .venv. Prints the
wheel's size, the median of each phase and the installed/checkout ratio of the first page.

`--first-run` also clones this checkout's sources (no .venv, node_modules or builds) and times
`bash scripts/demo` there until the page is served: once from nothing (the newcomer's first
run; pip's and npm's download caches are warm if this machine has used them), then again in
the same clone (everything installed: the baseline). Network-bound: compare runs of one machine
and one hour only.
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the fresh-clone helper lives in tests/

from tests.checkout import fresh_clone  # noqa: E402

URL = re.compile(r"at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WAVEHOST_", "VIRTUAL_ENV"))}
    return env | {"HOME": str(home)}


def _fetch_page(url: str) -> None:
    """The page and its script, as a browser fetches them (the token's cookie kept)."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with browser.open(url, timeout=60) as page:
        page.read()
    with browser.open(url.split("?")[0] + "assets/webview.js", timeout=60) as js:
        js.read()


def served_after(command: list[str | Path], env: dict[str, str], cwd: Path) -> float:
    """Seconds from `command` starting to its printed address's page and script fetched."""
    started = time.perf_counter()
    run = subprocess.Popen(
        command, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        assert run.stdout is not None
        for line in run.stdout:
            if found := URL.search(line):
                _fetch_page(found.group(1))
                return time.perf_counter() - started
        raise AssertionError(f"{command} printed no address")
    finally:
        os.killpg(run.pid, signal.SIGINT)  # as Ctrl-C in a terminal
        run.wait(timeout=60)


def first_page(bin_dir: Path, home: Path) -> float:
    demo = REPO / "examples" / "demo-project"
    return served_after([bin_dir / "wavehost", "web", "--project", str(demo)], _env(home), home)


def first_run(root: Path) -> tuple[float, float]:
    """`bash scripts/demo` in a fresh clone until served: the first time, then the second."""
    clone = fresh_clone(root / "clone")
    (root / "home").mkdir()
    demo: list[str | Path] = ["bash", clone / "scripts" / "demo"]
    first = served_after(demo, _env(root / "home"), clone)
    return first, served_after(demo, _env(root / "home"), clone)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--first-run", action="store_true")
    options = parser.parse_args()
    runs = options.runs

    started = time.perf_counter()
    built = subprocess.run(
        ["bash", str(REPO / "scripts" / "build-wheel")], capture_output=True, text=True, check=True
    )
    build_seconds = time.perf_counter() - started
    wheel = Path(built.stdout.strip().splitlines()[-1])
    phases: dict[str, list[float]] = {"venv": [], "pip install": [], "first page": []}
    checkout: list[float] = []
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
            checkout.append(first_page(REPO / ".venv" / "bin", root / "home"))
        finally:
            shutil.rmtree(root)
    size = wheel.stat().st_size / 1024
    print(f"wheel: {wheel.name}, {size:.0f} KiB, built in {build_seconds:.1f} s")
    for name, seconds in phases.items():
        print(f"{name:>20}: median {statistics.median(seconds):5.1f} s over {runs} runs")
    baseline = statistics.median(checkout)
    ratio = statistics.median(phases["first page"]) / baseline
    print(f"{'first page, checkout':>20}: median {baseline:5.1f} s (installed/that {ratio:.2f})")
    total = sum(statistics.median(s) for s in phases.values())
    print(f"{'fresh venv → page':>20}: {total:.1f} s (sum of the medians)")
    if options.first_run:
        root = Path(tempfile.mkdtemp(prefix="wavehost-first-run-"))
        try:
            first, again = first_run(root)
        finally:
            shutil.rmtree(root)
        print(f"{'scripts/demo, fresh':>20}: served after {first:5.1f} s (one run)")
        print(f"{'scripts/demo, again':>20}: served after {again:5.1f} s ({first / again:.1f}x)")


if __name__ == "__main__":
    sys.exit(main())
