"""A fresh clone of this checkout, for tests of what a newcomer's first commands do; what the
build scripts make, built once."""

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _unbuilt(folder: str, names: list[str]) -> set[str]:
    """What a fresh clone lacks: everything built or installed (a copytree filter)."""
    skip = {n for n in names if n.startswith(".") or n.endswith(".egg-info")}
    skip |= {"node_modules", "build", "target", "__pycache__"} & set(names)
    if Path(folder) == REPO / "webview":
        skip.add("dist")
    if Path(folder) == REPO / "server" / "wavehost" / "web":
        skip.add("webview")
    return skip


def fresh_clone(dest: Path) -> Path:
    """Copies the checkout's sources (not .venv, node_modules, builds, dot files) to `dest`."""
    shutil.copytree(REPO, dest, ignore=_unbuilt)
    return dest


def built(variable: str, dest: Path, command: list[str]) -> Path:
    """What a build script makes: the one `$variable` names (scripts/test passes what a suite
    before it built), else `command DEST` builds it into `dest`."""
    given = os.environ.get(variable)
    if given:
        return Path(given)
    subprocess.run([*command, str(dest)], check=True, timeout=900)
    return dest
