"""Every hook source of a project, all dialects together, in the documented order.

Wave (programmatic, plugins, user, project, local), then Copilot CLI (user folder, project
folder), then Snow CLI (project, user). The user's `hookDialects` setting turns Copilot or Snow
off; `disableAllHooks` (Wave settings) turns every file-based hook off; in an untrusted
workspace project files of every dialect are listed but never run.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wavehost.hooks.config import HookConfig
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.dialects.wave import sources as wave_sources


def load_hook_config(
    project_dir: Path | None,
    *,
    home: Path | None = None,
    programmatic: Mapping[str, Any] | None = None,
    trusted: bool = True,
) -> HookConfig:
    """Load every hook source. Never raises for bad configuration: problems become diagnostics."""
    wave = wave_sources.load(project_dir, home=home, programmatic=programmatic, trusted=trusted)
    handlers, files, diagnostics = list(wave.handlers), list(wave.files), list(wave.diagnostics)
    directories: set[Path] = set()
    for name, dialect in DIALECTS.items():
        if name == "wave" or name not in wave.dialects:
            continue
        found = dialect.load(project_dir, home, trusted)
        handlers += found.handlers
        files += found.files
        diagnostics += found.diagnostics
        directories |= found.directories
    return HookConfig(
        handlers=tuple(handlers),
        files=tuple(files),
        diagnostics=tuple(diagnostics),
        hooks_disabled=wave.hooks_disabled,
        disabled_by=wave.disabled_by,
        directories=frozenset(directories),
        dialects_off=frozenset(DIALECTS) - wave.dialects,
    )
