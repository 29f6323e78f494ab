"""The workspace the client described at `initialize`: the project, the locale, trust, hooks.

One `WorkspaceOptions` per server, shared by its features. Trust is one `Trust` state, which
may change later (`wave/workspace/setTrusted`): whoever reads it reads it when it acts, never a
copy. A client that says nothing about trust gets an untrusted workspace: no project hook runs.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol.types import InitializeParams
from pydantic import ValidationError
from pygls.uris import to_fs_path

from wavehost.language import environment_locale
from wavehost.protocol.workspace import InitializationOptions
from wavehost.settings.trust import Trust


@dataclass
class WorkspaceOptions:
    project_dir: Path
    locale: str | None
    trust: Trust
    hooks: dict[str, Any] | None
    warnings: tuple[str, ...] = ()


def options_of(params: InitializeParams) -> WorkspaceOptions:
    """Resolve the options; a bad option is ignored with a warning, never fatal."""
    options, warnings = _options(params.initialization_options)
    project = _path(options.project_dir) if options.project_dir else _workspace_dir(params)
    return WorkspaceOptions(
        project_dir=(project or Path.cwd()).resolve(),
        # A client that names no locale: the server's environment's (wavehost.language's rule).
        locale=options.locale or params.locale or environment_locale(),
        trust=Trust(options.trusted),
        hooks=options.hooks,
        warnings=tuple(warnings),
    )


def _options(raw: Any) -> tuple[InitializationOptions, list[str]]:
    if raw is None:
        return InitializationOptions(), []
    if not isinstance(raw, dict):
        return InitializationOptions(), ["initializationOptions must be an object; ignored"]
    try:
        return InitializationOptions.model_validate(raw), []
    except ValidationError as err:
        bad = {str(e["loc"][0]) for e in err.errors() if e["loc"]}
        warnings = [
            f"initializationOptions.{'.'.join(map(str, e['loc']))}: {e['msg']}; ignored"
            for e in err.errors()
        ]
        kept = {key: value for key, value in raw.items() if key not in bad}
        return InitializationOptions.model_validate(kept), warnings


def _workspace_dir(params: InitializeParams) -> Path | None:
    """The first workspace folder, else the root URI (or the deprecated root path)."""
    if params.workspace_folders:
        return _path(params.workspace_folders[0].uri)
    if params.root_uri:
        return _path(params.root_uri)
    return Path(params.root_path) if params.root_path else None


def _path(path_or_uri: str) -> Path | None:
    if path_or_uri.startswith("file:"):
        path = to_fs_path(path_or_uri)
        return Path(path) if path else None
    return Path(path_or_uri).expanduser()
