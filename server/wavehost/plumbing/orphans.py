"""What children leave behind: processes they started in a session of their own (`setsid cmd &`,
a daemon) are adopted, and ended with whatever owned them.

Killing a child's process group does not reach a grandchild that called `setsid`, and once the
child exits the grandchild is re-parented, normally to init: a hook or a Bash command could
leave a process running past its timeout, its session and wavehost itself. So on Linux `serve`
and `chat` make themselves a child subreaper (`adopt_orphans`: `prctl(PR_SET_CHILD_SUBREAPER)`):
such orphans are re-parented to us instead, and

- a child that is stopped (its time limit, an interrupt, a stopped background task) is ended
  with its whole tree as it is at that moment (`Tree`: every descendant by parentage, whatever
  session or group it put itself in), the way Claude Code ends a hook that timed out;
- a process a session started carries that session's tag in its environment (`Owner.env`:
  `WAVEHOST_OWNER`, inherited by what it starts), and when the session ends every process of
  ours that still carries the tag — with its own tree — gets SIGTERM, then SIGKILL after a
  grace (`Owner.end`). A hook or a command that exits normally may leave a helper behind for
  the rest of the session (Claude Code leaves them running even after it exits);
- when the process itself ends, every process left below it is killed (`end_all`), tagged or
  not (one that cleared its environment has no tag).

A subreaper must also reap what it adopts, or orphans that exit stay zombies. A SIGCHLD makes the
event loop look at our children soon after (`_Reaper`): an adopted process we know of is reaped
at once; a zombie nobody else has reaped a few seconds after it was first seen is reaped too —
never sooner, because our own children's owners (`plumbing.children`, asyncio, `subprocess`)
reap them as they exit and must get their status. Direct children started by `plumbing.spawn`
are registered (`spawned`) and never touched. Elsewhere than on Linux all of this does nothing.
"""

import asyncio
import contextlib
import ctypes
import os
import secrets
import select
import signal
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Mapping

import anyio

OWNER_VAR = "WAVEHOST_OWNER"
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL for a session's leftovers
UNCLAIMED_AFTER = 5.0  # seconds a zombie may wait for its own parent's wait() before we reap it
SCAN_DELAY = 0.05  # seconds from a SIGCHLD to the look at our children (a burst is one look)
_PR_SET_CHILD_SUBREAPER = 36
_MAX_TREE = 4096  # processes one walk collects at most (a fork bomb is not walked for ever)

_adopting = False
_spawned: set[int] = set()  # direct children whose owner reaps them (plumbing.spawn)
_known: dict[int, int] = {}  # pid → start time: adopted processes we ended, reaped at once
_lock = threading.Lock()


def adopt_orphans() -> bool:
    """Become a child subreaper (Linux); whether we are one now."""
    global _adopting
    if not _adopting and sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            _adopting = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    return _adopting


def adopting() -> bool:
    return _adopting


def spawned(pid: int) -> None:
    """A direct child whose starter reaps it: never ours to reap."""
    if _adopting:
        _spawned.add(pid)


def reaped(pid: int) -> None:
    _spawned.discard(pid)


# -- /proc ------------------------------------------------------------------------------------


def _stat(pid: int) -> tuple[bytes, int, int] | None:
    """(state, parent pid, start time) of a process, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()  # the name may hold spaces and parentheses
    try:
        return fields[0], int(fields[1]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _children(pid: int | str) -> list[int]:
    """The children of every thread of a process."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                found.extend(int(word) for word in f.read().split())
        except (OSError, ValueError):
            continue
    return found


def _tag_of(pid: int) -> str | None:
    """The owner tag a process was started with, if any (None: none, or not ours to read)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            environ = f.read()
    except OSError:
        return None
    marker = OWNER_VAR.encode() + b"="
    for entry in environ.split(b"\0"):
        if entry.startswith(marker):
            return entry[len(marker) :].decode("ascii", errors="replace")
    return None


# -- trees --------------------------------------------------------------------------------------


class Tree:
    """Processes found below some roots, held by pidfd (a pid reused meanwhile is never hit)."""

    def __init__(self) -> None:
        self._members: dict[int, tuple[int, int]] = {}  # pid → (pidfd, start time)

    @property
    def pids(self) -> tuple[int, ...]:
        return tuple(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def add_below(self, roots: Iterable[int | str]) -> "Tree":
        """Add every live descendant of `roots` (each root must still be a live process)."""
        pending = [child for root in roots for child in _children(root)]  # ("self": all ours)
        while pending and len(self._members) < _MAX_TREE:
            pid = pending.pop()
            if pid in self._members or not self._hold(pid):
                continue
            pending.extend(_children(pid))
        return self

    def add(self, pid: int) -> bool:
        """Add one process (and nothing below it); whether it is held."""
        return pid in self._members or self._hold(pid)

    def _hold(self, pid: int) -> bool:
        seen = _stat(pid)
        if seen is None or seen[0] in (b"Z", b"X"):
            return False
        try:
            pidfd = os.pidfd_open(pid)
        except OSError:
            return False
        again = _stat(pid)  # still the process we read, not one that took its pid since
        if again is None or again[2] != seen[2]:
            os.close(pidfd)
            return False
        self._members[pid] = (pidfd, seen[2])
        return True

    def live(self) -> list[int]:
        """Members that have not exited."""
        return [pid for pid, (fd, _) in self._members.items() if not _exited(fd)]

    def grow(self) -> "Tree":
        """Add what the live members started since (they may fork until they are killed)."""
        return self.add_below(self.live())

    async def exited(self) -> None:
        """Return once every member has exited (its pidfd is readable then)."""
        for pidfd, _ in list(self._members.values()):
            if not _exited(pidfd):
                await anyio.wait_readable(pidfd)

    def signal(self, sig: int) -> None:
        for pidfd, _ in self._members.values():
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(pidfd, sig)

    def remember(self) -> None:
        """Once they are our children (their parents gone), reap them at once."""
        if _adopting:
            with _lock:
                _known.update((pid, start) for pid, (_, start) in self._members.items())

    def close(self) -> None:
        for pidfd, _ in self._members.values():
            os.close(pidfd)
        self._members.clear()


def _exited(pidfd: int) -> bool:
    readable, _, _ = select.select([pidfd], [], [], 0)
    return bool(readable)


def tree_below(pid: int, tree: Tree | None = None) -> Tree:
    """`tree` (or a new one) with the live descendants of `pid` added; `pid` must be a child
    of ours not yet reaped (so that its pid is still its own)."""
    tree = tree if tree is not None else Tree()
    if sys.platform == "linux":
        tree.add_below([pid])
    return tree


# -- owners -----------------------------------------------------------------------------------


class Owner:
    """Whose processes these are: a session. Its tag goes into the environment of every process
    it starts (`env`); `end()` ends the ones still running, with their trees."""

    def __init__(self) -> None:
        self.tag = secrets.token_hex(8)
        reap_here()

    def env(self, env: Mapping[str, str]) -> dict[str, str]:
        return {**env, OWNER_VAR: self.tag}

    def leftovers(self) -> Tree:
        """Our children that carry the tag, and everything below them."""
        tree = Tree()
        if not _adopting:
            return tree
        mine = [
            pid
            for pid in _children("self")
            if pid not in _spawned and _tag_of(pid) == self.tag and tree.add(pid)
        ]
        return tree.add_below(mine)

    async def end(self) -> int:
        """SIGTERM to what is left of ours, SIGKILL after `KILL_GRACE`, and reap it; how many
        processes there were."""
        ended = 0
        for _ in range(8):  # what they started before they died may have become ours since
            tree = self.leftovers()
            if not tree:
                break
            ended += len(tree)
            try:
                await _end(tree)
            finally:
                tree.close()
        return ended


async def _end(tree: Tree) -> None:
    tree.remember()
    tree.signal(signal.SIGTERM)
    with anyio.move_on_after(KILL_GRACE):
        await tree.exited()
    tree.grow().remember()
    tree.signal(signal.SIGKILL)
    with anyio.move_on_after(KILL_GRACE):
        await tree.exited()
    # Each becomes our zombie once its parent is gone too; nothing tells us when (a SIGCHLD
    # goes to the reaper), so look every few milliseconds.
    with anyio.move_on_after(KILL_GRACE):
        while _reap_known(tree.pids):  # noqa: ASYNC110
            await anyio.sleep(0.01)


def end_all() -> None:
    """Kill everything below this process (it is ending): what its sessions left, and what no
    session could claim. Synchronous: called on the way out."""
    if not _adopting:
        return
    for _ in range(8):
        tree = Tree().add_below(["self"])
        if not tree:
            return
        tree.signal(signal.SIGKILL)
        deadline = time.monotonic() + KILL_GRACE
        while tree.live() and time.monotonic() < deadline:
            time.sleep(0.01)
        tree.close()


# -- reaping ----------------------------------------------------------------------------------


def _reap_known(pids: Iterable[int]) -> list[int]:
    """Reap those of `pids` that are zombies of ours; the ones still not reaped."""
    left = []
    for pid in pids:
        seen = _stat(pid)
        if seen is None or seen[1] != os.getpid():
            if seen is not None and seen[2] == _known.get(pid):
                left.append(pid)  # not ours yet: its parent has not exited
            continue
        if seen[0] != b"Z":
            left.append(pid)
            continue
        _wait(pid)
    return left


def _wait(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    with _lock:
        _known.pop(pid, None)


class _Reaper:
    """One per event loop (in the main thread): a SIGCHLD makes it look at our zombies."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._scheduled = False
        self._unclaimed: dict[tuple[int, int], float] = {}  # (pid, start) → first seen
        loop.add_signal_handler(signal.SIGCHLD, self._soon)
        # A burst of SIGCHLDs (hundreds of hooks ending at once) fills the loop's wakeup socket
        # while the loop is busy; Python would print a traceback for every signal that finds it
        # full. Nothing is lost: a full socket wakes the loop, and a burst is one look anyway.
        signal.set_wakeup_fd(signal.set_wakeup_fd(-1), warn_on_full_buffer=False)

    def _soon(self, delay: float = SCAN_DELAY) -> None:
        if not self._scheduled:
            self._scheduled = True
            self._loop.call_later(delay, self._look)

    def _look(self) -> None:
        self._scheduled = False
        now = time.monotonic()
        waiting: dict[tuple[int, int], float] = {}
        for pid in _children("self"):
            if pid in _spawned:
                continue
            seen = _stat(pid)
            if seen is None or seen[0] != b"Z":
                continue
            if _known.get(pid) == seen[2]:
                _wait(pid)
                continue
            key = (pid, seen[2])
            first = self._unclaimed.get(key, now)
            if now - first >= UNCLAIMED_AFTER:
                _wait(pid)  # no one else will: whoever started it is gone or never waits
            else:
                waiting[key] = first
        self._unclaimed = waiting
        with _lock:  # forget the ended processes that someone else reaped, or that are gone
            for pid, start in list(_known.items()):
                seen = _stat(pid)
                if seen is None or seen[2] != start:
                    del _known[pid]
        if waiting:
            self._soon(UNCLAIMED_AFTER - (now - min(waiting.values())) + SCAN_DELAY)


_REAPERS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Reaper]" = (
    weakref.WeakKeyDictionary()
)


def reap_here() -> None:
    """Reap adopted orphans on this thread's loop (only the main thread's can get signals)."""
    if not _adopting or threading.current_thread() is not threading.main_thread():
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    if loop not in _REAPERS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            _REAPERS[loop] = _Reaper(loop)
