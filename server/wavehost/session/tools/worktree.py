"""EnterWorktree and ExitWorktree: move the session into an isolated git worktree and back."""

from typing import Any, Literal

from pydantic import Field

from wavehost.hooks.tools.enter_worktree import ENTER_WORKTREE
from wavehost.hooks.tools.exit_worktree import EXIT_WORKTREE
from wavehost.session.tools.base import Tool, ToolInput, ToolResult, Workspace
from wavehost.session.worktrees import NAME, Worktrees


class EnterWorktreeInput(ToolInput):
    name: str | None = Field(None, description="A name for the worktree (default: generated)")


class EnterWorktree(Tool[EnterWorktreeInput]):
    name = ENTER_WORKTREE.name
    kind = "edit"  # creates a checkout and a branch: as much a change as writing a file
    description = (
        "Creates an isolated git worktree on a new branch and moves the session's working "
        "directory into it. Use ExitWorktree to leave it. Only when the user asks for a worktree."
    )
    input_model = EnterWorktreeInput

    def __init__(self, worktrees: Worktrees) -> None:
        self.worktrees = worktrees

    def runs(self, raw: dict[str, Any]) -> str | None:
        name = raw.get("name")
        return self.worktrees.runs(name if isinstance(name, str) and NAME.match(name) else None)

    async def run(self, args: EnterWorktreeInput, workspace: Workspace) -> ToolResult:
        active = await self.worktrees.enter(args.name, workspace)
        branch = f" on branch {active.branch}" if active.branch else ""
        return ToolResult.success(
            f"Created worktree at {active.path}{branch}. The session is now working in the "
            "worktree; use ExitWorktree to leave it.",
            worktreePath=str(active.path),
            worktreeBranch=active.branch,
        )


class ExitWorktreeInput(ToolInput):
    action: Literal["keep", "remove"] = Field(
        description="keep: leave the worktree on disk; remove: delete it (and its branch)"
    )
    discard_changes: bool = Field(
        False, description="With remove: delete even if it has uncommitted changes"
    )


class ExitWorktree(Tool[ExitWorktreeInput]):
    name = EXIT_WORKTREE.name
    kind = "edit"
    description = (
        "Leaves the worktree EnterWorktree created, returning to the previous working directory; "
        "action keep leaves it on disk, remove deletes it."
    )
    input_model = ExitWorktreeInput

    def __init__(self, worktrees: Worktrees) -> None:
        self.worktrees = worktrees

    def runs(self, raw: dict[str, Any]) -> str | None:
        return self.worktrees.runs(None, "keep" if raw.get("action") == "keep" else "remove")

    async def run(self, args: ExitWorktreeInput, workspace: Workspace) -> ToolResult:
        said = await self.worktrees.leave(args.action, args.discard_changes, workspace)
        return ToolResult.success(said, action=args.action, cwd=str(workspace.cwd))
