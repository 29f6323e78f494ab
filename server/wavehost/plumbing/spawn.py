"""Starting one child process: posix_spawn(3) through ctypes where the C library is glibc ≥ 2.34,
`subprocess.Popen` elsewhere. Either way the child gets exactly what Popen would give it here:

- its own session (so its own process group: a timeout kills the whole tree), or, asked for,
  only its own process group in our session: Copilot CLI starts its hooks that way, and on Linux
  each new session is also a new scheduling autogroup, which on a busy machine puts the child
  (and everything it forks) behind a scheduler period — about 4 ms a hook here, 5 hooks in a row;
- the three descriptors asked for as 0, 1, 2 and no other descriptor of ours;
- the directory asked for, the environment asked for;
- SIGPIPE and SIGXFSZ back to their default (Python ignores them, a hook's pipeline must not);
  other ignored signals stay ignored, as Unix passes them on.

Why not Popen everywhere: every tool call starts each matching hook, and on a 2-core machine the
hooks' own start-up already takes most of the CPU, so what we spend per spawn shows in the wall
time. Popen costs about 0.28 ms of our CPU per child (its environment conversion, its error pipe,
its Python-level bookkeeping), posix_spawn about 0.1 ms; `os.posix_spawn` would do but cannot
set the child's directory, which glibc's `posix_spawn_file_actions_addchdir_np` can.
"""

import ctypes
import errno
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Protocol

from wavehost.plumbing import orphans

# glibc's values (<spawn.h>); the fast path is only taken on glibc.
_POSIX_SPAWN_SETPGROUP = 0x02
_POSIX_SPAWN_SETSIGDEF = 0x04
_POSIX_SPAWN_SETSID = 0x80
_OPAQUE = 1024  # bytes: more than glibc's posix_spawnattr_t (336), file actions (80), sigset (128)
_RESET_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ)


class Process(Protocol):
    """What the rest of `plumbing` needs of a started child (a Popen is one)."""

    pid: int
    returncode: int | None

    def wait(self) -> int: ...


class Spawned:
    """A child started by posix_spawn: reaped by `wait`, with Popen's `returncode` convention
    (the exit status, or minus the signal that ended it)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def wait(self) -> int:
        while self.returncode is None:
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped by someone else: its status is lost (as Popen)
                self.returncode = 0
            else:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


_Encoded = tuple[Mapping[str, str], ctypes.Array[ctypes.c_char_p]]


class _PosixSpawn:
    """glibc's posix_spawn with the chdir and closefrom file actions; `None` from `load()` where
    any of it is missing."""

    def __init__(self, libc: ctypes.CDLL) -> None:
        pointer = ctypes.c_void_p
        self._spawn = libc.posix_spawn
        pid_out = ctypes.POINTER(ctypes.c_int)
        self._spawn.argtypes = [pid_out, ctypes.c_char_p, pointer, pointer, pointer, pointer]
        self._spawn.restype = ctypes.c_int
        self._init = libc.posix_spawn_file_actions_init
        self._destroy = libc.posix_spawn_file_actions_destroy
        self._dup2 = libc.posix_spawn_file_actions_adddup2
        self._dup2.argtypes = [pointer, ctypes.c_int, ctypes.c_int]
        self._chdir = libc.posix_spawn_file_actions_addchdir_np
        self._chdir.argtypes = [pointer, ctypes.c_char_p]
        self._closefrom = libc.posix_spawn_file_actions_addclosefrom_np
        self._closefrom.argtypes = [pointer, ctypes.c_int]
        for call in (self._init, self._destroy, self._dup2, self._chdir, self._closefrom):
            call.restype = ctypes.c_int
        # One attribute set per way of starting (a session of its own, or a process group in
        # ours), only ever read by posix_spawn (so shared safely).
        reset = ctypes.create_string_buffer(_OPAQUE)
        checks = [libc.sigemptyset(reset)]
        checks += [libc.sigaddset(reset, int(sig)) for sig in _RESET_SIGNALS]
        # glibc's own signals (32, 33: below SIGRTMIN) would be left ignored in the child, and
        # sigaddset refuses them: their bits are set directly (a sigset is a little-endian bit
        # array here), so they are at their default as under Popen.
        bits = (ctypes.c_ubyte * _OPAQUE).from_buffer(reset)
        for sig in range(32, int(signal.SIGRTMIN)):
            bits[(sig - 1) // 8] |= 1 << ((sig - 1) % 8)
        self._attrs: dict[bool, ctypes.Array[ctypes.c_char]] = {}
        for new_session, start in ((True, _POSIX_SPAWN_SETSID), (False, _POSIX_SPAWN_SETPGROUP)):
            attr = self._attrs[new_session] = ctypes.create_string_buffer(_OPAQUE)
            checks.append(libc.posix_spawnattr_init(attr))
            checks.append(libc.posix_spawnattr_setsigdefault(attr, reset))
            flags = ctypes.c_short(start | _POSIX_SPAWN_SETSIGDEF)  # (process group 0: its own)
            checks.append(libc.posix_spawnattr_setflags(attr, flags))
        if any(checks):
            raise OSError("posix_spawn attributes could not be set")
        self._envs: dict[int, _Encoded] = {}  # id(read-only env) → (it, its envp)
        self._actions: dict[tuple[tuple[int, int, int], str], _FileActions] = {}

    @classmethod
    def load(cls) -> "_PosixSpawn | None":
        try:
            version = os.confstr("CS_GNU_LIBC_VERSION") or ""
        except (ValueError, OSError):
            return None
        try:
            major, minor = (int(part) for part in version.split()[1].split(".")[:2])
        except (IndexError, ValueError):
            return None
        if (major, minor) < (2, 34) or sys.byteorder != "little":  # 2.34: closefrom_np
            return None
        try:
            return cls(ctypes.CDLL(None, use_errno=True))
        except (AttributeError, OSError):
            return None

    def spawn(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        fds: tuple[int, int, int],
        new_session: bool,
    ) -> Spawned:
        program, argv_c = _argv_c(tuple(argv))
        actions = self._actions_for(fds, os.fspath(cwd))
        pid = ctypes.c_int()
        attr = self._attrs[new_session]
        error = self._spawn(
            ctypes.byref(pid), program, actions.buffer, attr, argv_c, self._envp(env)
        )
        if error:
            # Popen's way of naming what failed: the directory if it is not there, else the program.
            missing_dir = error in (errno.ENOENT, errno.ENOTDIR) and not os.path.isdir(cwd)
            raise OSError(error, os.strerror(error), os.fspath(cwd) if missing_dir else argv[0])
        return Spawned(pid.value)

    def _actions_for(self, fds: tuple[int, int, int], cwd: str) -> "_FileActions":
        """The file actions for these descriptors and directory. Hooks' pipes get the same
        descriptor numbers on every tool call, so each set is built once (a handful of C calls)
        and kept; posix_spawn only reads it."""
        key = (fds, cwd)
        actions = self._actions.get(key)
        if actions is None:
            actions = _FileActions(self, fds, cwd)
            if len(self._actions) >= 64:
                self._actions.clear()  # (destroyed once no spawn holds them)
            self._actions[key] = actions
        return actions

    def _envp(self, env: Mapping[str, str]) -> ctypes.Array[ctypes.c_char_p]:
        """`env` as a C array; a read-only one (a hook context's, shared by its hooks) is converted
        once, not on every spawn."""
        kept = self._envs.get(id(env))
        if kept is not None and kept[0] is env:
            return kept[1]
        entries = []
        for name, value in env.items():
            key = _c_string(name)
            if b"=" in key:
                raise ValueError("illegal environment variable name")
            entries.append(key + b"=" + _c_string(value))
        envp = (ctypes.c_char_p * (len(entries) + 1))(*entries, None)
        if isinstance(env, MappingProxyType):
            if len(self._envs) >= 32:
                self._envs.clear()
            self._envs[id(env)] = (env, envp)
        return envp


class _FileActions:
    """One posix_spawn_file_actions_t: the three descriptors as 0, 1, 2, the directory, no other
    descriptor; freed with the object."""

    def __init__(self, libc: _PosixSpawn, fds: tuple[int, int, int], cwd: str) -> None:
        self.buffer = ctypes.create_string_buffer(_OPAQUE)
        self._destroy: Callable[[ctypes.Array[ctypes.c_char]], int] | None = None
        if libc._init(self.buffer):
            raise OSError("posix_spawn file actions could not be set")
        self._destroy = libc._destroy
        failed = [libc._dup2(self.buffer, fd, target) for target, fd in enumerate(fds)]
        failed.append(libc._chdir(self.buffer, _c_string(cwd)))
        failed.append(libc._closefrom(self.buffer, 3))
        if any(failed):
            raise OSError("posix_spawn file actions could not be set")

    def __del__(self) -> None:
        if self._destroy is not None:
            self._destroy(self.buffer)


_KEPT_ARGV_CHARS = 4096  # a longer argv (a Bash tool's script) is encoded each time, not kept


def _argv_c(argv: tuple[str, ...]) -> tuple[bytes, ctypes.Array[ctypes.c_char_p]]:
    """The program and argv as C strings. A hook's argv comes back on every tool call, so a short
    one is encoded once and kept (posix_spawn only reads the array: one serves every spawn)."""
    if sum(map(len, argv)) <= _KEPT_ARGV_CHARS:
        return _kept_argv_c(argv)
    return _encode_argv(argv)


def _encode_argv(argv: tuple[str, ...]) -> tuple[bytes, ctypes.Array[ctypes.c_char_p]]:
    args = [_c_string(arg) for arg in argv]
    return args[0], (ctypes.c_char_p * (len(args) + 1))(*args, None)


_kept_argv_c = functools.lru_cache(maxsize=256)(_encode_argv)


def _c_string(text: str) -> bytes:
    encoded = os.fsencode(text)
    if b"\0" in encoded:
        raise ValueError("embedded null byte")
    return encoded


_FAST = _PosixSpawn.load()


def spawn(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    fds: tuple[int, int, int],
    new_session: bool = True,
) -> Process:
    """Start `argv` in a new session (else a new process group in ours) with `fds` as its
    stdin, stdout and stderr (OSError if it cannot start; ValueError for an argument or
    environment C cannot carry)."""
    # Popen's care for a program looked up on the child's PATH, and for a low descriptor (it may
    # also be another one's target); hooks' `/bin/sh` and the Bash tool's shell are absolute.
    process: Process
    if _FAST is not None and "/" in argv[0] and min(fds) >= 3:
        process = _FAST.spawn(argv, cwd, env, fds, new_session)
    else:
        process = subprocess.Popen(
            list(argv),
            stdin=fds[0],
            stdout=fds[1],
            stderr=fds[2],
            cwd=cwd,
            env=env,
            start_new_session=new_session,
            process_group=None if new_session else 0,
        )
    orphans.spawned(process.pid)  # its Child reaps it, not the orphans' reaper
    return process
