"""Live changes: tell the client when any config file the hooks list depends on changes on disk.

Directories are watched (not files) because editors and wavehost itself replace files by rename,
which a watch on the old inode would miss; non-recursively, because a project may be huge. Where
a directory does not exist yet (no `.wave/` folder), its nearest existing ancestor is watched, so
creating it is seen; the watch set is then recomputed. A notification is sent only when
the snapshot of the inputs changed, which also merges a burst of writes into one.
"""

import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
from anyio import to_thread
from watchfiles import Change, awatch

from wavehost.settings.snapshot import Inputs

log = logging.getLogger(__name__)


def watch_directories(inputs: Inputs) -> frozenset[Path]:
    """The folders of the files and the watched folders themselves; where one does not exist,
    its nearest existing ancestor."""
    directories = set()
    for directory in {f.parent for f in inputs.files} | inputs.directories:
        while not directory.is_dir() and directory.parent != directory:
            directory = directory.parent
        directories.add(directory)
    return frozenset(directories)


class ConfigWatcher:
    """Calls `on_change` (debounced) whenever a file of `config_files()` changes on disk.

    `config_files` is called again after each change: which files matter depends on the files
    themselves (`enabledPlugins`). `recheck_ms` is a cheap stat check while nothing happens, to
    catch a change that raced a restart of the watch.
    """

    def __init__(
        self,
        inputs: Callable[[], Inputs],
        on_change: Callable[[], Awaitable[None]],
        *,
        step_ms: int = 100,
        debounce_ms: int = 800,
        recheck_ms: int = 1000,
    ) -> None:
        self._inputs = inputs
        self._on_change = on_change
        self._step_ms = step_ms
        self._debounce_ms = debounce_ms
        self._recheck_ms = recheck_ms
        self._stop = anyio.Event()

    def stop(self) -> None:
        self._stop.set()

    async def run(self) -> None:
        inputs = await to_thread.run_sync(self._inputs)
        last = await to_thread.run_sync(inputs.snapshot)
        while not self._stop.is_set():
            directories = watch_directories(inputs)
            targets = inputs.files | inputs.directories
            relevant = {str(t) for t in targets} | _between(directories, targets)

            def is_relevant(
                _change: Change, path: str, relevant: set[str] = relevant, inputs: Inputs = inputs
            ) -> bool:
                return path in relevant or Path(path).parent in inputs.directories

            changes_seen = awatch(
                *directories,
                watch_filter=is_relevant,
                recursive=False,
                step=self._step_ms,
                debounce=self._debounce_ms,
                rust_timeout=self._recheck_ms,
                yield_on_timeout=True,
                stop_event=self._stop,
            )
            # Logged just before the watch is set up (no await in between): tests wait for it.
            log.info(
                "watching %s for hook config changes", ", ".join(sorted(map(str, directories)))
            )
            async with contextlib.aclosing(changes_seen):
                async for changes in changes_seen:
                    if changes:
                        inputs = await to_thread.run_sync(self._inputs)
                    now = await to_thread.run_sync(inputs.snapshot)
                    if now != last:
                        last = now
                        log.info("hook config changed on disk")
                        await self._on_change()
                    if changes and watch_directories(inputs) != directories:
                        break  # a folder appeared or vanished: watch the new set


def _between(directories: frozenset[Path], targets: frozenset[Path]) -> set[str]:
    """Folders on the way from a watched directory to a target: their creation matters."""
    between: set[str] = set()
    for target in targets:
        directory = target.parent
        while directory not in directories and directory.parent != directory:
            between.add(str(directory))
            directory = directory.parent
    return between
