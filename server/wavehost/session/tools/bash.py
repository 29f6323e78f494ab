"""Bash: runs a command in the session's workdir, and the workdir follows `cd`.

Each call is a fresh shell; an EXIT trap records `$PWD` into a side file so a `cd` in one call
holds for the next one (and for the hooks, whose cwd is the session workdir). `$PWD` rather than
`pwd`, so a workdir deleted by the command is still reported (hooks then fall back to the root).
"""

import dataclasses
import os
import tempfile
from pathlib import Path

import anyio
from pydantic import Field

from wavehost.hooks.tools.bash import BASH
from wavehost.session.background import BackgroundTasks
from wavehost.session.shells import run_shell
from wavehost.session.tools.base import (
    INTERRUPTED_OUTPUT,
    Tool,
    ToolInput,
    ToolResult,
    Workspace,
)

DEFAULT_TIMEOUT_MS = 120_000
MAX_TIMEOUT_MS = 600_000
MODEL_OUTPUT_LIMIT = 30_000  # characters of output the model sees
CWD_FILE_VAR = "WAVE_BASH_CWD_FILE"
ENV_FILE_VAR = "WAVE_BASH_ENV_FILE"
# Source the session's env file (hooks' `export` lines) first, as Claude Code does.
SOURCE_ENV_FILE = f'if [ -f "${ENV_FILE_VAR}" ]; then . "${ENV_FILE_VAR}"; fi\n'


class BashInput(ToolInput):
    command: str = Field(description="The command to execute")
    description: str | None = Field(None, description="What the command does, in a few words")
    timeout: int | None = Field(
        None, ge=1, le=MAX_TIMEOUT_MS, description="Timeout in milliseconds (max 600000)"
    )
    run_in_background: bool = Field(False, description="Run the command in the background")


NO_OUTPUT = "(Bash completed with no output)"
IMAGE_PREFIX = "data:image/"  # output that is an image (a data URI), as Claude Code detects it
# Commands that print nothing when they succeed (Claude Code's `noOutputExpected`).
SILENT_COMMANDS = frozenset(
    {"cd", "mkdir", "touch", "mv", "cp", "rm", "rmdir", "chmod", "chown", "ln", "export", "true"}
)


def _silent(command: str) -> bool:
    words = command.split()
    return bool(words) and words[0] in SILENT_COMMANDS


def _output(stdout: str, stderr: str) -> str:
    return "\n".join(part.rstrip("\n") for part in (stdout, stderr) if part)


def _interrupted(stdout: str, stderr: str) -> None:
    """Stop killed the command: what it printed by then goes to its block."""
    sink = INTERRUPTED_OUTPUT.get()
    output = _output(stdout, stderr)
    if sink is not None and output:
        sink(_clip(output))


def _clip(text: str) -> str:
    if len(text) <= MODEL_OUTPUT_LIMIT:
        return text
    half = MODEL_OUTPUT_LIMIT // 2
    return f"{text[:half]}\n… [{len(text) - MODEL_OUTPUT_LIMIT} characters cut] …\n{text[-half:]}"


class Bash(Tool[BashInput]):
    name = BASH.name
    kind = "execute"
    description = (
        "Executes a bash command in the session's working directory and returns its output. "
        "The working directory persists between commands (a `cd` holds for later calls)."
    )
    input_model = BashInput

    def __init__(self, tasks: BackgroundTasks) -> None:
        self.tasks = tasks

    async def run(self, args: BashInput, workspace: Workspace) -> ToolResult:
        if args.run_in_background:
            task = await self.tasks.start_shell(
                args.command, workspace.spawn_dir(), workspace.process_env(), args.description
            )
            return ToolResult.success(
                f"Command running in background with ID: {task.id}. Output is being written "
                f"to: {task.output_file}. Read it with TaskOutput; stop it with TaskStop.",
                backgroundTaskId=task.id,
                outputFile=str(task.output_file),
            )
        fd, cwd_file = tempfile.mkstemp(prefix="wavehost-cwd-")
        os.close(fd)
        try:
            env = {**workspace.process_env(), CWD_FILE_VAR: cwd_file}
            prelude = ""
            if workspace.env_file is not None:
                env[ENV_FILE_VAR] = str(workspace.env_file)
                prelude = SOURCE_ENV_FILE
            trap = f'trap \'printf %s "$PWD" > "${CWD_FILE_VAR}"\' EXIT\n'
            script = f"{prelude}{trap}{args.command}"
            timeout_ms = args.timeout or DEFAULT_TIMEOUT_MS
            done = await run_shell(
                script, workspace.spawn_dir(), env, timeout_ms / 1000, _interrupted
            )
            new_cwd = await anyio.Path(cwd_file).read_text(encoding="utf-8", errors="replace")
        finally:
            await anyio.Path(cwd_file).unlink(missing_ok=True)
        if new_cwd:
            workspace.cwd = Path(new_cwd)
        output = _output(done.stdout, done.stderr)
        response = {
            "stdout": done.stdout,
            "stderr": done.stderr,
            "interrupted": done.timed_out,
            "isImage": done.stdout.startswith(IMAGE_PREFIX),
            "noOutputExpected": _silent(args.command),
        }
        if done.timed_out:
            return ToolResult.failure(
                _clip(f"Command timed out after {timeout_ms / 1000:g} s\n{output}".rstrip()),
                **response,
            )
        if done.returncode != 0:
            status = f"Exit code {done.returncode}"
            failed = ToolResult.failure(_clip(f"{status}\n{output}".rstrip()), **response)
            return dataclasses.replace(failed, exit_code=done.returncode)
        # Claude Code's words for a command that printed nothing: the model sees it ran
        ran = ToolResult.success(_clip(output) or NO_OUTPUT, **response)
        return dataclasses.replace(ran, exit_code=0)
