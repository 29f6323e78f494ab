"""Child processes that do not outlive their use: each in its own process group, output read up
to a cap, the whole tree signalled on timeout or cancellation. Hooks and the Bash tool both run
this way.

On timeout the tree gets SIGTERM, then SIGKILL after a grace; a cancelled caller kills the tree
at once. The tree is the process group and every descendant, also one that left the group with
`setsid` (`plumbing.orphans.Tree`, found when the child is stopped). Results come back as soon
as the child exited, even if a grandchild still holds the pipes (what is left in them is
collected for a short while only).

Started by `plumbing.spawn` (posix_spawn, else subprocess), not asyncio's subprocess transport:
that costs about four times as much per process here, and hooks are spawned on every tool call.
For the same reason a started child is served by callbacks on the event loop (`Running`), not by
tasks: its pipes are read and written as they become ready, its exit is seen through a pidfd
(Linux: all of the loop's children's pidfds in one epoll the loop watches, `_Exits`; elsewhere a
thread of its own blocked in waitpid) and its time limit is a timer. Awaiting the result is one
awaited event, so starting several children and then awaiting each in turn runs them all at once
with no task at all; `Running.all_over` awaits a batch of them with one wake-up.
"""

import asyncio
import contextlib
import functools
import os
import select
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from wavehost.plumbing import orphans
from wavehost.plumbing.spawn import Process, spawn

OUTPUT_CAP = 1024 * 1024  # bytes kept per stream
KILL_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
DRAIN_AFTER_EXIT = 0.5  # seconds to collect output still in the pipes once the child exited
WATCH_PIPES_AFTER = 0.02  # seconds a child runs before its pipes are watched, not just read
USE_PIDFD = hasattr(os, "pidfd_open")  # Linux ≥ 5.3
PIPE = subprocess.PIPE  # the values callers pass for stdin / stdout / stderr, as in subprocess
DEVNULL = subprocess.DEVNULL
STDOUT = subprocess.STDOUT


@dataclass(frozen=True, slots=True)
class Finished:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    truncated: bool = False  # some output was over the cap and dropped
    cancelled: bool = False  # stopped by `Running.cancel` (as its time limit would have)


class Capture:
    """Reads a pipe to its end, keeping at most `cap` bytes so a runaway child can't eat memory.

    Read as the pipe becomes readable once `watch()`ed; `read_available()` takes what it holds now
    (everything, once the writer exited and no one else holds the pipe). `tap`, when set, is
    given every chunk as it is read, the part over the cap too (a page watching the output)."""

    def __init__(self, fd: int | None, on_done: Callable[[], None], cap: int = OUTPUT_CAP) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.dropped = 0
        self.done = fd is None  # nothing (more) to read
        self._fd = fd
        self._on_done = on_done
        self._watched = False
        self.tap: Callable[[bytes], None] | None = None

    def watch(self) -> None:
        if not self.done and not self._watched:
            assert self._fd is not None
            asyncio.get_running_loop().add_reader(self._fd, self._read_chunk)
            self._watched = True

    def read_available(self) -> None:
        while self._read_chunk():
            pass

    def _read_chunk(self) -> bool:
        """Read one chunk; whether there may be more right now."""
        if self.done or self._fd is None:
            return False
        try:
            chunk = os.read(self._fd, 65536)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if not chunk:
            self.stop()
            self._on_done()
            return False
        if self.tap is not None:
            self.tap(chunk)
        room = max(self.cap - self.kept, 0)
        self.chunks.append(chunk[:room])
        self.kept += min(room, len(chunk))
        self.dropped += len(chunk) - min(room, len(chunk))
        return True

    def stop(self) -> None:
        """Read no more (the pipe ended, or the child is done with)."""
        if self._watched:
            assert self._fd is not None
            asyncio.get_running_loop().remove_reader(self._fd)
            self._watched = False
        self.done = True

    def text(self) -> str:
        text = b"".join(self.chunks).decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n… [output truncated: {self.dropped} more bytes]"
        return text


class _Feed:
    """Writes the input into a child's stdin as the pipe takes it, then closes stdin; a child
    that never reads it is fine. Usually all of it goes in at once (`start`: then no feed)."""

    def __init__(self, child: "Child", fd: int, rest: memoryview) -> None:
        self.child = child
        self.fd = fd
        self.view = rest
        self.waiting = True
        asyncio.get_running_loop().add_writer(fd, self._write)

    @classmethod
    def start(cls, child: "Child", data: bytes) -> "_Feed | None":
        """Write what the pipe takes now; a feed for the rest, if any."""
        assert child.stdin is not None
        rest = _write_some(child.stdin, memoryview(data))
        if not rest:
            child.close_stdin()
            return None
        return cls(child, child.stdin, rest)

    def _write(self) -> None:
        self.view = _write_some(self.fd, self.view)
        if not self.view:
            self.stop()

    def stop(self) -> None:
        if self.waiting:
            asyncio.get_running_loop().remove_writer(self.fd)
            self.waiting = False
        self.child.close_stdin()


def _write_some(fd: int, view: memoryview) -> memoryview:
    """What is left of `view` once the pipe took what it could (nothing if the reader is gone)."""
    try:
        return view[os.write(fd, view) :]
    except BlockingIOError:
        return view
    except OSError:  # EPIPE: the child exited or closed its stdin without reading it all
        return memoryview(b"")


class _Exits:
    """The pidfds of one event loop's running children in one epoll, which the loop watches as a
    single reader: watching a child's exit is one `epoll_ctl`, not a selector registration (hooks
    start on every tool call, several at once)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._epoll = select.epoll()
        self._callbacks: dict[int, Callable[[], None]] = {}
        loop.add_reader(self._epoll.fileno(), self._ready)
        orphans.reap_here()  # what our children leave behind is ours to reap (a subreaper)

    def watch(self, pidfd: int, callback: Callable[[], None]) -> None:
        self._epoll.register(pidfd, select.EPOLLIN)
        self._callbacks[pidfd] = callback

    def forget(self, pidfd: int) -> None:
        if self._callbacks.pop(pidfd, None) is not None:
            self._epoll.unregister(pidfd)

    def _ready(self) -> None:
        for pidfd, _ in self._epoll.poll(0):
            callback = self._callbacks.pop(pidfd, None)
            if callback is not None:
                self._epoll.unregister(pidfd)
                callback()


# One per loop; gone with it (the loop holds the watcher only through its selector).
_EXITS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Exits]" = weakref.WeakKeyDictionary()


def _exits() -> _Exits:
    loop = asyncio.get_running_loop()
    exits = _EXITS.get(loop)
    if exits is None:
        exits = _EXITS[loop] = _Exits(loop)
    return exits


class Child:
    """One child process in its own process group, with our ends of its pipes as raw,
    non-blocking file descriptors (`stdin`, `stdout`, `stderr`; None where not piped)."""

    def __init__(
        self,
        process: Process,
        stdin: int | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
    ) -> None:
        self.process = process
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.pidfd: int | None = None
        self._on_exit: list[Callable[[], None]] | None = None  # while its exit is watched
        self._tree: orphans.Tree | None = None  # its descendants, once it is being stopped
        if USE_PIDFD:
            try:  # noqa: SIM105 (as in `_close_quietly`)
                self.pidfd = os.pidfd_open(process.pid)
            except OSError:
                pass

    @classmethod
    def spawn(
        cls,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        stdin: int = PIPE,
        stdout: int = PIPE,
        stderr: int = PIPE,
        new_session: bool = True,
    ) -> "Child":
        """Start it (OSError if it cannot be) in a session of its own, else (not `new_session`)
        in a process group of its own in ours — either way a timeout kills the whole tree — with
        no other descriptor of ours (`plumbing.spawn`). `stdin`, `stdout`, `stderr`:
        PIPE, DEVNULL, a descriptor of the caller's, or (stderr) STDOUT. Pipes are made here:
        this is the one place that reads and writes them."""
        ours: list[int] = []  # our ends of the pipes
        theirs: list[int] = []  # the child's ends, and /dev/null: closed once it started

        def end_for(how: int, reading: bool) -> tuple[int | None, int]:
            """(our end, the child's) for one of its streams."""
            if how == PIPE:
                read, write = os.pipe()
                mine, child = (write, read) if reading else (read, write)
                ours.append(mine)
                theirs.append(child)
                return mine, child
            if how == DEVNULL:
                theirs.append(os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC))
                return None, theirs[-1]
            return None, how

        try:
            our_in, child_in = end_for(stdin, reading=True)
            our_out, child_out = end_for(stdout, reading=False)
            our_err, child_err = (None, child_out) if stderr == STDOUT else end_for(stderr, False)
            fds = (child_in, child_out, child_err)
            process = spawn(argv, cwd=cwd, env=env, fds=fds, new_session=new_session)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        for fd in ours:
            os.set_blocking(fd, False)
        return cls(process, our_in, our_out, our_err)

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    def on_exit(self, callback: Callable[[], None]) -> None:
        """Call `callback` on the event loop once the child has exited (it is reaped by then)."""
        loop = asyncio.get_running_loop()
        if self.process.returncode is not None:
            loop.call_soon(callback)
            return
        if self._on_exit is None:
            self._on_exit = []
            if self.pidfd is not None:
                _exits().watch(self.pidfd, self._exited)
            else:  # a thread of its own blocked in waitpid (a pool could make one hook wait)
                threading.Thread(target=self._wait_in_thread, args=(loop,), daemon=True).start()
        self._on_exit.append(callback)

    def _wait_in_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        self.process.wait()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(self._exited)

    def _exited(self) -> None:
        self.process.wait()  # reaps it: it has exited
        orphans.reaped(self.process.pid)
        callbacks, self._on_exit = self._on_exit or [], []
        for callback in callbacks:
            callback()

    async def wait(self) -> None:
        if self.process.returncode is not None:
            return
        exited = asyncio.Event()
        self.on_exit(exited.set)
        await exited.wait()

    def signal_group(self, sig: signal.Signals) -> None:
        """Signal its process group; SIGKILL also reaches stragglers of a child that has exited."""
        if self.process.returncode is None or sig == signal.SIGKILL:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    def signal_tree(self, sig: signal.Signals) -> None:
        """Signal its group and every descendant, those that left the group (`setsid`) too:
        the ones below it now, and what those found before have started since."""
        if self.process.returncode is None:  # not reaped: its pid is still its own
            self._tree = orphans.tree_below(self.process.pid, self._tree)
        if self._tree is not None:
            self._tree.grow().remember()  # adopted once their parents die: reaped at once
        self.signal_group(sig)
        if self._tree is not None:
            self._tree.signal(sig)

    async def stop_group(self) -> None:
        self.signal_tree(signal.SIGTERM)
        with anyio.move_on_after(KILL_GRACE):
            await self.wait()
        self.signal_tree(signal.SIGKILL)  # also stragglers that ignored SIGTERM
        await self.wait()

    async def killed(self) -> None:
        """SIGKILL the tree if it still runs, and reap it; safe to call from a cancelled scope."""
        if self.process.returncode is None:
            with anyio.CancelScope(shield=True):
                self.signal_tree(signal.SIGKILL)
                await self.wait()

    def close(self) -> None:
        if self.pidfd is not None:
            if self._on_exit:  # still watched: the child has not been seen to exit
                _exits().forget(self.pidfd)
                self._on_exit = None
            os.close(self.pidfd)
            self.pidfd = None
        if self._tree is not None:
            self._tree.close()
            self._tree = None
        for fd in (self.stdin, self.stdout, self.stderr):
            if fd is not None:
                _close_quietly(fd)
        self.stdin = self.stdout = self.stderr = None

    def close_stdin(self) -> None:
        if self.stdin is not None:
            _close_quietly(self.stdin)
            self.stdin = None


def _close_quietly(fd: int) -> None:
    try:  # noqa: SIM105 (a plain try: contextlib's costs show, this runs several times a hook)
        os.close(fd)
    except OSError:
        pass


class Running:
    """A started child served by event-loop callbacks until it is over: `stdin` fed, both outputs
    read, the exit watched, the time limit a timer (SIGTERM to the tree, SIGKILL after
    `KILL_GRACE`), what is
    left in the pipes once it exited collected for `DRAIN_AFTER_EXIT` at most.

    Most hooks exit within milliseconds having written little, so the pipes are only watched
    once a child has run for `WATCH_PIPES_AFTER` (until then what it writes waits in the pipe;
    past a pipe's worth it waits for the watch); at its exit they are read straight away.

    `finished()` awaits the result; cancelling it (or `stop()`) kills the group and reaps it.
    `cancel()` stops it the way its time limit would (`cancelled`, not `timed_out`). `watcher`,
    when set, is told once the child has run long enough to have its pipes watched: a child over
    before that is never looked at.
    """

    def __init__(
        self, child: Child, stdin: bytes | None, limit: float, output_cap: int = OUTPUT_CAP
    ) -> None:
        loop = asyncio.get_running_loop()
        self.child = child
        self.out = Capture(child.stdout, self._check, output_cap)
        self.err = Capture(child.stderr, self._check, output_cap)
        self.timed_out = False
        self.cancelled = False
        self.watcher: Callable[[Running], None] | None = None
        self.ended_at: float | None = None  # time.monotonic() when it was over
        self._ended = self._exited = False
        self._on_end: list[Callable[[], None]] = []  # told at once when it is over
        self._feed = None if child.stdin is None else _Feed.start(child, stdin or b"")
        # One timer at a time: the pipe watch, which then sets the time limit's. A hook that is
        # over before the watch never makes the second (timers cost on every tool call).
        self._deadline = loop.time() + limit
        self._timer: asyncio.TimerHandle | None = loop.call_later(
            min(WATCH_PIPES_AFTER, limit), self._watch_then_limit
        )
        child.on_exit(self._on_exit)

    def _watch_then_limit(self) -> None:
        self._pipes()
        self._timer = asyncio.get_running_loop().call_at(self._deadline, self._time_is_up)
        if self.watcher is not None:
            self.watcher(self)

    def _pipes(self) -> None:
        self.out.watch()
        self.err.watch()

    def _time_is_up(self) -> None:
        self.timed_out = True
        self._terminate()

    def cancel(self) -> bool:
        """Stop it as its time limit would: SIGTERM to the tree, SIGKILL after `KILL_GRACE`;
        its result says `cancelled`. False: it is over, or being stopped already."""
        if self._exited or self._ended or self.timed_out or self.cancelled:
            return False
        self.cancelled = True
        self._cancel_timer()
        self._terminate()
        return True

    def _terminate(self) -> None:
        self.child.signal_tree(signal.SIGTERM)
        kill = self.child.signal_tree
        self._timer = asyncio.get_running_loop().call_later(KILL_GRACE, kill, signal.SIGKILL)

    def on_end(self, listener: Callable[[], None]) -> None:
        """Call `listener` once it is over (at once, if it is)."""
        if self._ended:
            listener()
        else:
            self._on_end.append(listener)

    def _on_exit(self) -> None:
        self._exited = True
        self._cancel_timer()
        if self.timed_out or self.cancelled:
            self.child.signal_tree(signal.SIGKILL)  # also stragglers that ignored SIGTERM
        self.out.read_available()
        self.err.read_available()
        if self._ended:
            return
        if self.out.done and self.err.done:
            self._end()
        else:  # what is still in the pipes, but not what a grandchild may yet write
            self._pipes()
            self._timer = asyncio.get_running_loop().call_later(DRAIN_AFTER_EXIT, self._end)

    def _check(self) -> None:
        if self._exited and self.out.done and self.err.done:
            self._end()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _end(self) -> None:
        if self._ended:
            return
        self._ended = True
        self._cancel_timer()
        for part in (self._feed, self.out, self.err):
            if part is not None:
                part.stop()
        self.ended_at = time.monotonic()
        for listener in self._on_end:
            listener()

    @staticmethod
    async def all_over(runs: Iterable["Running"]) -> None:
        """Return once every one of `runs` is over: the caller wakes once for all of them, not
        once per child as awaiting each `finished()` in turn would. Cancelling it stops none."""
        pending = [run for run in runs if not run._ended]
        if not pending:
            return
        everyone = asyncio.get_running_loop().create_future()
        left = len(pending)

        def one_over() -> None:
            nonlocal left
            left -= 1
            if not left:
                _settle(everyone)

        for run in pending:
            run._on_end.append(one_over)
        await everyone

    async def finished(self) -> Finished:
        if not self._ended:
            over = asyncio.get_running_loop().create_future()
            self._on_end.append(functools.partial(_settle, over))
            try:
                await over
            finally:
                await self.stop()  # a no-op unless the caller was cancelled: the user interrupted
        self.child.close()
        return Finished(
            self.child.returncode,
            self.out.text(),
            self.err.text(),
            self.timed_out,
            truncated=bool(self.out.dropped or self.err.dropped),
            cancelled=self.cancelled,
        )

    async def stop(self) -> None:
        """Kill the group unless it is over, reap it and close it; safe when cancelled. What it
        wrote before it was killed is kept (an interrupted command's output so far): the pipes
        are read once more, without waiting, before they close."""
        if not self._ended:
            await self.child.killed()
            self.out.read_available()
            self.err.read_available()
            self._end()
        self.child.close()


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():  # (cancelled with the caller that awaited it)
        waiter.set_result(None)


async def run_child(
    child: Child, stdin: bytes | None, limit: float, output_cap: int = OUTPUT_CAP
) -> Finished:
    """Feed `stdin`, read both outputs, wait for the exit (or `limit` seconds, then stop the
    group: `timed_out`). Cancelling the caller kills the group. The child is closed afterwards."""
    return await Running(child, stdin, limit, output_cap).finished()
