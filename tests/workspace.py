"""Real files for tests: a temporary HOME and project, written with the exact bytes given."""

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wavehost import paths


@dataclass
class Workspace:
    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / "my-app"

    @property
    def user_settings(self) -> Path:
        return paths.user_settings(self.home)

    @property
    def project_settings(self) -> Path:
        return paths.project_settings(self.project)

    @property
    def local_settings(self) -> Path:
        return paths.local_settings(self.project)

    def plugin_hooks(self, name: str) -> Path:
        return paths.plugin_hooks_file(paths.plugins_dir(self.home) / name)

    def write(self, path: Path, content: str | dict[str, Any]) -> Path:
        return write_json(path, content)

    def give_to(self, uid: int, gid: int) -> None:
        """Hand every file to another user (for a server run under that user)."""
        for directory, subdirs, files in os.walk(self.root):
            for name in [*subdirs, *files]:
                os.chown(Path(directory) / name, uid, gid)
        os.chown(self.root, uid, gid)


def write_json(path: Path, content: Any) -> Path:
    """`content` as a JSON file (a str is written as it is), folders made as needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = content if isinstance(content, str) else json.dumps(content, indent=2) + "\n"
    path.write_bytes(text.encode("utf-8"))
    return path


def make_workspace() -> Iterator[Workspace]:
    # Not pytest's tmp_path: its parent is private to the test user, and some tests run the
    # server as another (unprivileged) user, which must be able to reach these files.
    root = Path(tempfile.mkdtemp(prefix="wavehost-test-"))
    root.chmod(0o755)
    workspace = Workspace(root)
    workspace.home.mkdir()
    workspace.project.mkdir()
    yield workspace
    shutil.rmtree(root, ignore_errors=True)
