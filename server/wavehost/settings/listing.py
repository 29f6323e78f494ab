"""The hooks list the settings page and `wavehost hooks list` show: file-based hooks by source."""

from pathlib import Path

from wavehost.hooks.config import HookConfig, HookHandler
from wavehost.lsp.protocol import (
    ConfigFileEntry,
    DiagnosticEntry,
    HookEntry,
    HooksListResult,
    ProjectInfo,
)


def hook_entry(handler: HookHandler, read_only: bool) -> HookEntry:
    assert handler.path is not None
    assert handler.source != "programmatic"
    return HookEntry(
        id=handler.id,
        source=handler.source,
        path=str(handler.path),
        read_only=read_only,
        event=handler.event_name,
        catalogue_event=handler.event.name,
        matcher=handler.matcher.source,
        type=handler.kind,
        command=handler.command,
        timeout=handler.timeout,
        async_=handler.is_async or None,
        async_rewake=handler.async_rewake or None,
        status_message=handler.status_message,
        description=handler.description,
        plugin=handler.plugin,
        dialect=handler.dialect,
        untrusted=handler.untrusted or None,
        disabled=handler.disabled or None,
    )


def project_info(project_dir: Path) -> ProjectInfo:
    return ProjectInfo(dir=str(project_dir), name=project_dir.name or str(project_dir))


def listed_handlers(config: HookConfig) -> list[tuple[HookHandler, bool]]:
    """The file-based handlers the page shows, each with whether its file is read-only."""
    read_only = {file.path: file.read_only for file in config.files}
    return [
        (h, read_only.get(h.path, True))
        for h in config.handlers
        if h.path is not None and h.source != "programmatic"
    ]


def list_hooks(config: HookConfig, project_dir: Path, *, trusted: bool = True) -> HooksListResult:
    return HooksListResult(
        project=project_info(project_dir),
        config_files=[
            ConfigFileEntry(
                source=file.source,
                path=str(file.path),
                exists=file.exists,
                read_only=file.read_only,
                error=file.error,
                plugin=file.plugin,
                dialect=file.dialect,
            )
            for file in config.files
            if file.source != "programmatic"
        ],
        hooks=[hook_entry(h, read_only) for h, read_only in listed_handlers(config)],
        diagnostics=[
            DiagnosticEntry(path=d.path, pointer=d.pointer, message=d.message)
            for d in config.diagnostics
        ],
        trusted=trusted,
    )
