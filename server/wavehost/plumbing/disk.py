"""File writes off the event loop: each file's jobs run in order, one at a time, on a few shared
threads, so a slow disk (an fsync, a rename: milliseconds each, tens of them when the disk is
busy) never holds up the loop every session and page shares.

`lane(path)` is the process's one lane for a file (kept while someone holds it or it has work).
`submit(job)` queues a job and returns at once; `settled()` (async) or `wait()` (blocking, for
threads) returns once every job submitted before the call has run — what a caller does before
anyone else reads the file (a hook reading `transcript_path`, the settings page reading the run
log, the session telling its page the turn is over). A job that fails is logged, and the lane
goes on with the next.
"""

import asyncio
import contextlib
import logging
import threading
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

log = logging.getLogger(__name__)

WORKERS = 4  # files written at the same time (their fsyncs overlap on the disk)

Job = Callable[[], None]


class Lane:
    """One file's jobs, in the order submitted."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: deque[Job] = deque()
        self._changed = threading.Condition()
        self._submitted = 0  # jobs so far
        self._finished = 0  # of them, those that have run
        self._draining = False
        # Coroutines waiting in `settled`: (the job count they wait for, their loop, future).
        self._waiters: list[tuple[int, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def submit(self, job: Job) -> None:
        with self._changed:
            self._jobs.append(job)
            self._submitted += 1
            if self._draining:
                return  # the running drain takes it
            self._draining = True
        _pool().submit(self._drain)

    def wait(self) -> None:
        """Block until every job submitted so far has run."""
        with self._changed:
            target = self._submitted
            self._changed.wait_for(lambda: self._finished >= target)

    async def settled(self) -> None:
        """Wait, without holding up the event loop, until every job submitted so far has run."""
        with self._changed:
            if self._finished >= self._submitted:
                return
            loop = asyncio.get_running_loop()
            future: asyncio.Future[None] = loop.create_future()
            self._waiters.append((self._submitted, loop, future))
        await future

    def _drain(self) -> None:
        while True:
            with self._changed:
                if not self._jobs:
                    self._draining = False
                    return
                job = self._jobs.popleft()
            try:
                job()
            except Exception:
                log.exception("writing %s failed", self.name)
            with self._changed:
                self._finished += 1
                self._changed.notify_all()
                woken = [w for w in self._waiters if w[0] <= self._finished]
                self._waiters = [w for w in self._waiters if w[0] > self._finished]
            for _, loop, future in woken:
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits
                    loop.call_soon_threadsafe(_wake, future)


def _wake(future: "asyncio.Future[None]") -> None:
    if not future.done():  # its waiter may have been cancelled meanwhile
        future.set_result(None)


_lanes: "weakref.WeakValueDictionary[Path, Lane]" = weakref.WeakValueDictionary()
_lanes_lock = threading.Lock()
_executor: ThreadPoolExecutor | None = None


def lane(path: Path) -> Lane:
    """The lane of the file at `path`: one per file and process, for as long as a writer holds
    it (or it has jobs to run)."""
    with _lanes_lock:
        found = _lanes.get(path)
        if found is None:
            found = _lanes[path] = Lane(str(path))
        return found


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _lanes_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(WORKERS, thread_name_prefix="wavehost-disk")
        return _executor
