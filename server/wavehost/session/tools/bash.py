"""Bash: runs a command in the session's workdir, and the workdir follows `cd`.

Each call is a fresh shell; an EXIT trap records `$PWD` into a side file so a `cd` in one call
holds for the next one (and for the hooks, whose cwd is the session workdir). `$PWD` rather than
`pwd`, so a workdir deleted by the command is still reported (hooks then fall back to the root).
"""

import os
import signal
import tempfile
import uuid
from pathlib import Path
from types import TracebackType
from typing import Self

import anyio
from anyio.abc import Process, TaskGroup
from pydantic import Field

from wavehost.session.tools.base import Tool, ToolInput, ToolResult, Workspace
from wavehost.session.tools.process import kill_group, open_shell, run_shell

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
MODEL_OUTPUT_LIMIT = 30_000  # characters of output the model sees
CWD_FILE_VAR = "WAVE_BASH_CWD_FILE"


class BashInput(ToolInput):
    command: str = Field(description="The command to execute")
    description: str | None = Field(None, description="What the command does, in a few words")
    timeout: int | None = Field(
        None, ge=1, le=MAX_TIMEOUT_MS, description="Timeout in milliseconds (max 600000)"
    )
    run_in_background: bool = Field(False, description="Run the command in the background")


def _clip(text: str) -> str:
    if len(text) <= MODEL_OUTPUT_LIMIT:
        return text
    half = MODEL_OUTPUT_LIMIT // 2
    return f"{text[:half]}\n… [{len(text) - MODEL_OUTPUT_LIMIT} characters cut] …\n{text[-half:]}"


class BackgroundShells:
    """Commands started with `run_in_background`; their output goes to a file the model can Read.

    Entered for the session's lifetime; leaving kills whatever is still running.
    """

    def __init__(self) -> None:
        self._group: TaskGroup | None = None
        self._running: dict[str, tuple[str, Process]] = {}
        self._dir = Path(tempfile.mkdtemp(prefix="wavehost-shells-"))

    async def __aenter__(self) -> Self:
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        for _, process in self._running.values():
            kill_group(process, signal.SIGTERM)
        assert self._group is not None
        return await self._group.__aexit__(exc_type, exc, tb)

    def running(self) -> list[tuple[str, str]]:
        """(id, command) of each command still running."""
        return [(shell_id, command) for shell_id, (command, _) in self._running.items()]

    async def start(self, command: str, workspace: Workspace) -> tuple[str, Path]:
        if self._group is None:
            raise RuntimeError("BackgroundShells must be entered (async with) before use")
        shell_id = f"bash_{uuid.uuid4().hex[:8]}"
        output = self._dir / f"{shell_id}.log"
        with output.open("wb") as sink:
            process = await open_shell(
                command, workspace.spawn_dir(), os.environ, stdout=sink.fileno()
            )
        self._running[shell_id] = (command, process)
        self._group.start_soon(self._reap, shell_id, process)
        return shell_id, output

    async def _reap(self, shell_id: str, process: Process) -> None:
        try:
            await process.wait()
        finally:
            self._running.pop(shell_id, None)
            with anyio.CancelScope(shield=True):
                await process.aclose()


class Bash(Tool[BashInput]):
    name = "Bash"
    kind = "execute"
    description = (
        "Executes a bash command in the session's working directory and returns its output. "
        "The working directory persists between commands (a `cd` holds for later calls)."
    )
    input_model = BashInput

    def __init__(self, shells: BackgroundShells) -> None:
        self.shells = shells

    async def run(self, args: BashInput, workspace: Workspace) -> ToolResult:
        if args.run_in_background:
            shell_id, log_file = await self.shells.start(args.command, workspace)
            return ToolResult.success(
                f"Command running in background with ID: {shell_id}. "
                f"Output is written to {log_file}",
                backgroundTaskId=shell_id,
                outputFile=str(log_file),
            )
        fd, cwd_file = tempfile.mkstemp(prefix="wavehost-cwd-")
        os.close(fd)
        try:
            env = {**os.environ, CWD_FILE_VAR: cwd_file}
            script = f'trap \'printf %s "$PWD" > "${CWD_FILE_VAR}"\' EXIT\n{args.command}'
            timeout_ms = args.timeout or DEFAULT_TIMEOUT_MS
            done = await run_shell(script, workspace.spawn_dir(), env, timeout_ms / 1000)
            new_cwd = await anyio.Path(cwd_file).read_text(encoding="utf-8", errors="replace")
        finally:
            await anyio.Path(cwd_file).unlink(missing_ok=True)
        if new_cwd:
            workspace.cwd = Path(new_cwd)
        output = "\n".join(part.rstrip("\n") for part in (done.stdout, done.stderr) if part)
        response = {"stdout": done.stdout, "stderr": done.stderr, "interrupted": done.timed_out}
        if done.timed_out:
            return ToolResult.failure(
                _clip(f"Command timed out after {timeout_ms / 1000:g} s\n{output}".rstrip()),
                **response,
            )
        if done.returncode != 0:
            status = f"Exit code {done.returncode}"
            return ToolResult.failure(_clip(f"{status}\n{output}".rstrip()), **response)
        return ToolResult.success(_clip(output), **response)
