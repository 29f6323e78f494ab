"""The package as people get it: `scripts/build-wheel`, then `pip install` into a fresh venv.

The slowest Python test (a venv and every dependency from the package index: about half a
minute); it is what proves that an installed wavehost, not the checkout, serves the page.
"""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.checkout import fresh_clone

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "examples" / "demo-project"
BUNDLE = ("index.html", "assets/webview.js", "assets/webview.css")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        ["bash", str(REPO / "scripts" / "build-wheel"), str(out)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    path = Path(built.stdout.strip().splitlines()[-1])
    assert path.is_file(), built.stdout
    assert path.parent == out  # where it was asked to go (scripts/bundle-server relies on it)
    return path


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (pip as a user runs it); returns its bin/."""
    where = tmp_path_factory.mktemp("fresh") / "venv"
    venv.create(where, with_pip=True)
    pip = subprocess.run(
        [where / "bin" / "python", "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert pip.returncode == 0, pip.stderr
    return where / "bin"


def test_the_wheel_carries_the_built_webview(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in BUNDLE:
        assert f"wavehost/web/webview/{name}" in names
    built = REPO / "webview" / "dist" / "assets" / "webview.js"
    packaged = zipfile.ZipFile(wheel).read("wavehost/web/webview/assets/webview.js")
    assert packaged == built.read_bytes()


def test_the_sdist_carries_the_bundle_so_building_it_needs_no_node(
    wheel: Path, tmp_path: Path
) -> None:
    (sdist,) = wheel.parent.glob("wavehost-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in BUNDLE:
        assert f"server/wavehost/web/webview/{name}" in names
    assert not any(name.startswith("webview/") for name in names)  # no sources to rebuild
    no_node = tmp_path / "bin"  # PATH has no node, no npm (nor anything else)
    no_node.mkdir()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path), sdist],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PATH": str(no_node)},
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (rebuilt,) = tmp_path.glob("wavehost-*.whl")
    assert "wavehost/web/webview/index.html" in zipfile.ZipFile(rebuilt).namelist()


def test_without_node_a_checkout_build_says_what_is_missing(tmp_path: Path) -> None:
    # A checkout with no webview bundle yet: the backend must build it, and cannot.
    checkout = fresh_clone(tmp_path / "checkout")
    tools = tmp_path / "bin"  # what scripts/setup-web needs before it looks for Node
    tools.mkdir()
    for tool in ("bash", "dirname"):
        (tools / tool).symlink_to(shutil.which(tool) or tool)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), checkout],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PATH": str(tools)},
    )  # fmt: skip
    assert built.returncode != 0
    output = built.stdout + built.stderr
    assert "the webview is built with Node.js 20+ and npm: install them" in output
    assert not list(tmp_path.glob("*.whl"))


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[str]:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    web = subprocess.Popen(
        [installed / "wavehost", "web", "--project", str(DEMO)],
        cwd=tmp_path, env={**env, "HOME": str(home), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert web.stdout is not None
        line = web.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/\S*", line)
        assert found, (line, web.stderr.read() if web.poll() is not None else "")
        yield found.group(0)
    finally:
        web.terminate()
        web.wait(timeout=30)


def test_an_installed_wheel_serves_the_page_from_a_fresh_venv(installed: Path, served: str) -> None:
    where = subprocess.run(
        [installed / "python", "-c", "import wavehost.web.app as a; print(a.default_dist())"],
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    packaged = Path(where.stdout.strip())
    assert packaged.is_relative_to(installed.parent), packaged  # inside the venv, not the checkout
    # As a browser does: the printed URL (its token) sets a cookie the later requests carry.
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with browser.open(served, timeout=30) as page:
        html = page.read().decode()
    assert 'data-shell="browser"' in html
    assert "assets/webview.js" in html
    with browser.open(served.split("?")[0] + "assets/webview.js", timeout=30) as asset:
        assert "javascript" in asset.headers["Content-Type"]
        assert asset.read() == (packaged / "assets" / "webview.js").read_bytes()
