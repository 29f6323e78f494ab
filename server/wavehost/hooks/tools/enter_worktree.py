"""EnterWorktree: the session moves into a new git worktree."""

from wavehost.hooks.tools.spec import ChatTool

ENTER_WORKTREE = ChatTool(
    name="EnterWorktree",
    summary="Creates a git worktree on a new branch and moves the session into it",
    sample={"name": "feature-x"},
    offered=True,
)
