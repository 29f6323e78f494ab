"""ExitWorktree: the session leaves its worktree."""

from wavehost.hooks.tools.spec import ChatTool

EXIT_WORKTREE = ChatTool(
    name="ExitWorktree",
    summary="Moves the session back to the project, keeping or removing its worktree",
    sample={"action": "keep"},
    offered=True,
)
