"""The shells the Bash tool runs: `bash -c` (else `sh`), in their own process group, bounded
output, killed with their tree on timeout or interrupt (`plumbing.children`).

Each command gets its own process group so a timeout or a user interrupt kills what it started
too, and so the result does not wait on a background grandchild that still holds the pipes.
"""

import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

import anyio

from wavehost.plumbing.children import DEVNULL, PIPE, STDOUT, Child, Finished, Running

SHELL = shutil.which("bash") or "/bin/sh"


def spawn_shell(script: str, cwd: Path, env: Mapping[str, str], *, stdout: int = PIPE) -> Child:
    """Start `script`; with `stdout` a file descriptor, both outputs go there (background tasks)."""
    return Child.spawn(
        [SHELL, "-c", script],
        cwd=cwd,
        env=env,
        stdin=DEVNULL,
        stdout=stdout,
        stderr=PIPE if stdout == PIPE else STDOUT,
    )


async def run_shell(
    script: str,
    cwd: Path,
    env: Mapping[str, str],
    limit: float,
    on_interrupt: Callable[[str, str], None] | None = None,
) -> Finished:
    """Run to completion or for `limit` seconds; cancelling the caller kills the process group,
    and `on_interrupt` then gets what it had printed by then (stdout, stderr; bounded)."""
    running = Running(spawn_shell(script, cwd, env), None, limit)
    try:
        return await running.finished()
    except anyio.get_cancelled_exc_class():
        if on_interrupt is not None:
            on_interrupt(running.out.text(), running.err.text())
        raise
