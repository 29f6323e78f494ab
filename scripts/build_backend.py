"""wavehost's build backend: setuptools, with the built webview put inside the package first.

A wheel or sdist built from a checkout carries the webview: when its bundle (webview/dist) is
missing or older than its sources, `scripts/setup-web` builds it (Node.js 20+ and npm), and the
bundle is copied to server/wavehost/web/webview/ (git-ignored package data). An sdist has no
webview sources, only that copy, so building from it needs no Node. Editable installs are plain
setuptools: they serve webview/dist from the checkout.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import build_meta  # type: ignore[import-untyped]
from setuptools.build_meta import (  # type: ignore[import-untyped]
    build_editable,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
WEBVIEW = ROOT / "webview"
BUNDLE = WEBVIEW / "dist"
PACKAGED = ROOT / "server" / "wavehost" / "web" / "webview"
# What the bundle is built from (node_modules follows package-lock.json).
SOURCES = ("src", "index.html", "package.json", "package-lock.json", "vite.config.ts")

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]


def _say(line: str) -> None:
    print(f"wavehost build: {line}", file=sys.stderr, flush=True)


def _stale() -> bool:
    index = BUNDLE / "index.html"
    if not index.is_file():
        return True
    built = index.stat().st_mtime
    for name in SOURCES:
        path = WEBVIEW / name
        files = path.rglob("*") if path.is_dir() else [path]
        if any(f.is_file() and f.stat().st_mtime > built for f in files):
            return True
    return False


def package_webview() -> None:
    """Puts the built webview into the package, building it first when needed."""
    if not (WEBVIEW / "package.json").is_file():  # an sdist: the bundle came with it
        if not (PACKAGED / "index.html").is_file():
            sys.exit(
                "wavehost build: this source tree has neither the webview's sources nor its "
                f"build ({PACKAGED / 'index.html'}); build from a git checkout or a wavehost sdist"
            )
        return
    if _stale():
        _say("the webview bundle is missing or out of date: building it (about 30 s)")
        if subprocess.run(["bash", str(ROOT / "scripts" / "setup-web")], check=False).returncode:
            sys.exit("wavehost build: the webview could not be built (see the line above)")
    shutil.rmtree(PACKAGED, ignore_errors=True)
    shutil.copytree(BUNDLE, PACKAGED)


def _forget_old_builds() -> None:
    # setuptools reuses build/lib: a module deleted or renamed since would ship in the wheel.
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
    for old in (ROOT / "build").glob("bdist.*"):
        shutil.rmtree(old, ignore_errors=True)


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, str | list[str] | None] | None = None,
    metadata_directory: str | None = None,
) -> str:
    package_webview()
    _forget_old_builds()
    return str(build_meta.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_sdist(
    sdist_directory: str, config_settings: dict[str, str | list[str] | None] | None = None
) -> str:
    package_webview()
    return str(build_meta.build_sdist(sdist_directory, config_settings))
