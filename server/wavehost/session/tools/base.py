"""What every tool shares: the workspace it acts on, its result, input validation.

Tools carry Claude Code's names and input fields so hooks written for Claude Code match them
unchanged. `ToolResult.response` is the `tool_response` PostToolUse hooks receive: a `success`
flag, and `filePath` for the file tools (an MCP tool's success is Claude Code's shape for it: the
result's content blocks or its structured result as JSON text).
"""

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from wavehost import environment
from wavehost.hooks.outcome import Notice

ToolKind = Literal["read", "edit", "execute"]  # what the permission mode looks at

# Where a call that is interrupted (Stop) puts what it had done by then — a command's output so
# far — as it unwinds: the agent loop sets it around each call, for that call's block (shown in
# its card, and the model reads it with the interruption). Task-local: parallel calls each have
# their own.
INTERRUPTED_OUTPUT: ContextVar[Callable[[str], None] | None] = ContextVar(
    "interrupted_output", default=None
)


@dataclass
class Workspace:
    """Where tools act. `cwd` follows the shell's `cd`; `root` never moves. `env_file` is the
    session's `CLAUDE_ENV_FILE`: `export` lines SessionStart hooks wrote there hold for every
    Bash command."""

    root: Path
    cwd: Path
    env_file: Path | None = None
    # What a dialect adds to the environment of the processes tools start (Snow's session
    # identity), from the base environment and the process's cwd; None: nothing
    identity: Callable[[Mapping[str, str], Path], dict[str, str]] | None = None
    # The base environment of the processes tools and hooks start (a session's: tagged as its
    # own, `plumbing.orphans`); None: what wavehost inherited
    env: Mapping[str, str] | None = None

    def resolve(self, path: str) -> Path:
        candidate = Path(path).expanduser()
        return candidate if candidate.is_absolute() else self.cwd / candidate

    def spawn_dir(self) -> Path:
        """The cwd for a new process: the root when the workdir was deleted under us."""
        return self.cwd if self.cwd.is_dir() else self.root

    def process_env(self) -> dict[str, str]:
        """The environment of a process a tool starts now (in `spawn_dir`)."""
        base = dict(self.env) if self.env is not None else environment.inherited()
        return self.identity(base, self.spawn_dir()) if self.identity is not None else base


@dataclass(frozen=True)
class ToolResult:
    ok: bool
    text: str  # what the model sees: the output, or the failure text
    response: Any = field(default_factory=dict)  # `tool_response` for hooks
    # The work it ran (a subagent) was stopped by a hook that stops everything (`continue:
    # false`): the caller's reply ends too, and these notices are shown there.
    halted_everything: tuple[Notice, ...] | None = None
    exit_code: int | None = None  # a command that ran to its end (Bash): its exit status
    ends_reply: bool = False  # the reply ends with this call (an agent hook's StructuredOutput)

    @classmethod
    def success(cls, text: str, **response: Any) -> "ToolResult":
        return cls(True, text, {"success": True, **response})

    @classmethod
    def failure(cls, error: str, **response: Any) -> "ToolResult":
        return cls(False, error, {"success": False, "error": error, **response})


class ToolError(Exception):
    """An expected failure; its message is the text the model sees."""


class ToolInput(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


InputT = TypeVar("InputT", bound=ToolInput)


class Tool(ABC, Generic[InputT]):
    # Class constants for the built-in tools; an MCP tool sets them per instance.
    name: str
    description: str
    kind: ToolKind
    input_model: type[InputT]

    def input_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema(by_alias=True)

    async def __call__(self, raw: dict[str, Any], workspace: Workspace) -> ToolResult:
        try:
            args = self.input_model.model_validate(raw)
        except ValidationError as err:
            issues = "\n".join(
                f"- {'.'.join(map(str, e['loc'])) or 'input'}: {e['msg']}" for e in err.errors()
            )
            return ToolResult.failure(
                f"InputValidationError: {self.name} failed due to the following issues:\n{issues}"
            )
        try:
            return await self.run(args, workspace)
        except ToolError as err:
            return ToolResult.failure(str(err), **self.failure_fields(args, workspace))
        except OSError as err:
            reason = err.strerror or str(err)
            where = f": {err.filename}" if err.filename else ""
            return ToolResult.failure(f"{reason}{where}", **self.failure_fields(args, workspace))

    def runs(self, raw: dict[str, Any]) -> str | None:
        """What a call runs when its input does not show it, for the permission question."""
        return None

    def failure_fields(self, args: InputT, workspace: Workspace) -> dict[str, Any]:
        """Extra `tool_response` fields on failure (the file tools add `filePath`)."""
        return {}

    @abstractmethod
    async def run(self, args: InputT, workspace: Workspace) -> ToolResult: ...
