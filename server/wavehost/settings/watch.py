"""Live changes: tell the client when any config file the hooks list depends on changes on disk.

Directories are watched (not files) because editors and wavehost itself replace files by rename,
which a watch on the old inode would miss; non-recursively, because a project may be huge. Where
a directory does not exist yet (no `.wave/` folder) or cannot be read, its nearest ancestor that
can is watched, so creating it (or making it readable) is seen; the watch set is then recomputed.
A notification is sent only when the snapshot of the inputs changed, which also merges a burst of
writes into one. A write of the server's own (a delete, whose answer carries the new list) is not
news: while one is under way (`own_write`) a change waits, and what the writer saw afterwards
counts as known.
"""

import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import anyio
from anyio import to_thread
from watchfiles import Change, awatch

from wavehost.hooks.safe_read import is_directory
from wavehost.settings.snapshot import Inputs, Snapshot

log = logging.getLogger(__name__)


def watch_directories(inputs: Inputs) -> frozenset[Path]:
    """The folders of the files and the watched folders themselves; where one does not exist or
    cannot be read, its nearest ancestor that can (which sees it appear or change mode). A
    project file that leads out of the project is watched through the folder of the link that
    leads out (which sees it change), never through the link."""
    directories = set()
    parents = set()
    for file in inputs.files:
        link = inputs.link_out(file)
        parents.add(file.parent if link is None else link.parent)
    for directory in parents | inputs.directories:
        while not _watchable(directory) and directory.parent != directory:
            directory = directory.parent
        directories.add(directory)
    return frozenset(directories)


def _watchable(directory: Path) -> bool:
    return is_directory(directory) and os.access(directory, os.R_OK | os.X_OK)


class ConfigWatcher:
    """Calls `on_change` (debounced) whenever a file of `config_files()` changes on disk.

    `inputs` is called again after each change: which files matter depends on the files
    themselves (`enabledPlugins`). Every `recheck_ms` while nothing happens, the files' stats are
    compared (nothing is read), to catch a change that raced a restart of the watch; content is
    hashed only after a change event or a changed stat. The watch is supervised: if it fails (a
    folder became unreadable, the system ran out of watches, …), the failure is logged once and
    the watch restarts after a back-off that doubles up to `max_backoff_s`.
    """

    def __init__(
        self,
        inputs: Callable[[], Inputs],
        on_change: Callable[[], Awaitable[None]],
        *,
        step_ms: int = 100,
        debounce_ms: int = 800,
        recheck_ms: int = 1000,
        min_backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
    ) -> None:
        self._inputs = inputs
        self._on_change = on_change
        self._step_ms = step_ms
        self._debounce_ms = debounce_ms
        self._recheck_ms = recheck_ms
        self._backoff = (min_backoff_s, max_backoff_s)
        self._stop = anyio.Event()
        self._last: Snapshot | None = None
        self._writes = 0  # writes of our own under way
        self._written = anyio.Event()  # set when the last of them is over
        self._healthy = False
        self.failures = 0  # restarts after an error, for tests and logs

    def stop(self) -> None:
        self._stop.set()

    @contextlib.asynccontextmanager
    async def own_write(self) -> AsyncIterator[Callable[[Snapshot], None]]:
        """Around a write of the server's own: the change it makes is not news. Yields `seen`,
        to call with the snapshot the writer took after writing (before it listed)."""
        if self._writes == 0:
            self._written = anyio.Event()
        self._writes += 1
        try:
            yield self._seen
        finally:
            self._writes -= 1
            if self._writes == 0:
                self._written.set()

    def _seen(self, snapshot: Snapshot) -> None:
        self._last = snapshot

    async def run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            self._healthy = False
            try:
                await self._watch()
            except Exception as err:  # whatever it was, the watch must come back
                self.failures += 1
                if self.failures == 1:
                    log.error("watching the hook config failed (retrying): %s", err, exc_info=err)
                else:
                    log.debug("watching the hook config failed again: %s", err)
                if self._healthy:  # it had worked for a while: start the back-off afresh
                    delay = self._backoff[0]
                with anyio.move_on_after(delay):
                    await self._stop.wait()
                delay = min(delay * 2, self._backoff[1])
            else:
                return

    async def _watch(self) -> None:
        inputs = await to_thread.run_sync(self._inputs)
        now = await to_thread.run_sync(inputs.snapshot)
        if self._last is not None and now != self._last:  # changed while the watch was down
            await self._changed()
        self._last = now
        stats = await to_thread.run_sync(inputs.stats)
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
                    if not self._healthy:
                        self._healthy = True
                        if self.failures:
                            log.info("watching the hook config again")
                    if changes:
                        inputs = await to_thread.run_sync(self._inputs)
                        stats = await to_thread.run_sync(inputs.stats)
                    else:  # a timeout: hash nothing unless a stat moved
                        moved = await to_thread.run_sync(inputs.stats)
                        if moved == stats:
                            continue
                        stats = moved
                    while self._writes:  # ours: what its writer saw is known then
                        await self._written.wait()
                    now = await to_thread.run_sync(inputs.snapshot)
                    if now != self._last:
                        self._last = now
                        await self._changed()
                    if changes and watch_directories(inputs) != directories:
                        break  # a folder appeared or vanished: watch the new set

    async def _changed(self) -> None:
        log.info("hook config changed on disk")
        await self._on_change()


def _between(directories: frozenset[Path], targets: frozenset[Path]) -> set[str]:
    """Folders on the way from a watched directory to a target: their creation matters."""
    between: set[str] = set()
    for target in targets:
        directory = target.parent
        while directory not in directories and directory.parent != directory:
            between.add(str(directory))
            directory = directory.parent
    return between
