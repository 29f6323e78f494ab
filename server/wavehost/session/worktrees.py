"""Entering and leaving a git worktree: the session's workdir moves there and back.

wavehost creates worktrees with real git (`git worktree add` on a new branch, under
`<repo>/.wave/worktrees/<name>`) unless WorktreeCreate hooks are configured: then they take over
creation (the first hook's last stdout line is the path; all failing or printing nothing blocks
creation with the reason), and removing such a worktree is the WorktreeRemove hooks' job (their
failures are only logged; wavehost never runs `git worktree remove` on a path it didn't make).
`$WAVE_PROJECT_DIR` is the session root throughout; only the hooks' cwd follows the workdir.

In an untrusted workspace git runs none of the repository's own code: every git command gets
`core.hooksPath=/dev/null` (no hook: post-checkout, reference-transaction, …), `core.fsmonitor`
off, and each filter driver the repository configures emptied (no smudge / clean / process).
"""

import logging
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import anyio

from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event
from wavehost.session.hooks import SessionHooks
from wavehost.session.tools.base import ToolError, Workspace

log = logging.getLogger(__name__)

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
CREATE, REMOVE = Event.WorktreeCreate.name, Event.WorktreeRemove.name  # as messages name them


@dataclass(frozen=True)
class ActiveWorktree:
    name: str
    path: Path
    return_to: Path  # the workdir before entering
    branch: str | None = None  # git-made: its branch and repository; None when a hook made it
    repo: Path | None = None
    by_hook: bool = False


NO_REPOSITORY_CODE = ("-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false")


async def _git(cwd: Path, *args: str, trusted: bool = True) -> str:
    """Run git; untrusted, with nothing of the repository's own that would run code."""
    guard = () if trusted else (*NO_REPOSITORY_CODE, *await _no_filters(cwd))
    done = await anyio.run_process(["git", *guard, *args], cwd=cwd, check=False)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip() or f"exit code {done.returncode}"
        raise ToolError(f"git {' '.join(args)} failed: {message}")
    return done.stdout.decode(errors="replace").strip()


async def _no_filters(cwd: Path) -> tuple[str, ...]:
    """`-c` options emptying every filter driver the repository's config names (a checkout
    would run its smudge command). Reading config runs nothing."""
    done = await anyio.run_process(
        ["git", "config", "--name-only", "--get-regexp", r"^filter\."], cwd=cwd, check=False
    )
    drivers = {
        key.removeprefix("filter.").rpartition(".")[0]
        for key in done.stdout.decode(errors="replace").split()
    }
    return tuple(
        option
        for driver in sorted(drivers)
        for part in ("smudge=", "clean=", "process=", "required=false")
        for option in ("-c", f"filter.{driver}.{part}")
    )


class Worktrees:
    def __init__(self, hooks: SessionHooks, trusted: bool = True) -> None:
        self.hooks = hooks
        self.trusted = trusted  # false: git runs none of the repository's hooks or filters
        self.active: ActiveWorktree | None = None

    def runs(self, name: str | None, leaving: Literal["keep", "remove"] | None = None) -> str:
        """What entering (or leaving, `leaving`) will run, for the permission question."""
        if leaving is None and self.hooks.take_over(Event.WorktreeCreate):
            return f"Your {CREATE} hooks create the worktree; wavehost runs no git command."
        active = self.active
        if leaving is not None and (active is None or leaving == "keep"):
            return "Nothing: the worktree stays on disk and the session goes back."
        if leaving is not None and active is not None and active.by_hook:
            return f"Your {REMOVE} hooks remove the worktree."
        if leaving is not None and active is not None:
            commands = (
                f"git status --porcelain\ngit worktree remove --force {active.path}\n"
                f"git branch -D {active.branch}"
            )
        else:
            name = name or "wt-<random>"
            commands = f"git worktree add -b worktree-{name} .wave/worktrees/{name} HEAD"
        if self.trusted:
            said = "git also runs the repository's own hooks (post-checkout, …) and filters."
        else:
            said = (
                "This workspace is not trusted: the repository's own git hooks, filters and "
                "fsmonitor do not run."
            )
        return f"{commands}\n{said}"

    async def enter(self, name: str | None, workspace: Workspace) -> ActiveWorktree:
        if self.active is not None:
            raise ToolError(
                f"Already in worktree {self.active.path}; leave it with ExitWorktree first"
            )
        name = name or f"wt-{uuid.uuid4().hex[:6]}"
        if not NAME.match(name):
            raise ToolError(
                f"Invalid worktree name {name!r}: letters, digits, '.', '_' and '-' only (max 64)"
            )
        if self.hooks.take_over(Event.WorktreeCreate):
            active = await self._create_by_hook(name, workspace)
        else:
            active = await self._create_with_git(name, workspace)
        workspace.cwd = active.path
        self.active = active
        return active

    async def _create_by_hook(self, name: str, workspace: Workspace) -> ActiveWorktree:
        outcome = await self.hooks.fire(p.WorktreeCreateInput(**self.hooks.common(), name=name))
        if outcome.blocked or outcome.worktree_path is None:
            raise ToolError(outcome.reason or f"{CREATE} hooks printed no worktree path")
        path = workspace.resolve(outcome.worktree_path)
        if not path.is_dir():
            raise ToolError(f"{CREATE} hook printed a path that is not a directory: {path}")
        return ActiveWorktree(name, path, workspace.cwd, by_hook=True)

    async def _create_with_git(self, name: str, workspace: Workspace) -> ActiveWorktree:
        trusted = self.trusted
        top = Path(
            await _git(workspace.spawn_dir(), "rev-parse", "--show-toplevel", trusted=trusted)
        )
        path = paths.worktrees_dir(top) / name
        leads = paths.outside(top, path)  # `.wave` or its `worktrees` linked elsewhere
        if leads is not None:
            raise ToolError(
                f"{path.parent} leads out of the repository (to {leads.parent}): "
                "no worktree is made there"
            )
        if path.exists():
            raise ToolError(f"Worktree path already exists: {path}")
        branch = f"worktree-{name}"
        await _git(top, "worktree", "add", "-b", branch, str(path), "HEAD", trusted=trusted)
        return ActiveWorktree(name, path, workspace.cwd, branch=branch, repo=top)

    async def leave(
        self, action: Literal["keep", "remove"], discard_changes: bool, workspace: Workspace
    ) -> str:
        active = self.active
        if active is None:
            raise ToolError("Not in a worktree: EnterWorktree was not used in this session")
        if action == "keep":
            said = f"Left worktree {active.path}; it is kept"
            said += f" (branch {active.branch})." if active.branch else "."
        elif active.by_hook:
            said = await self._remove_by_hook(active)
        else:
            said = await self._remove_with_git(active, discard_changes)
        self.active = None
        workspace.cwd = active.return_to
        return f"{said} The session is back in {active.return_to}."

    async def _remove_by_hook(self, active: ActiveWorktree) -> str:
        if not self.hooks.take_over(Event.WorktreeRemove):
            return (
                f"Left worktree {active.path}. A {CREATE} hook made it and no {REMOVE} "
                "hook is configured, so it was left in place."
            )
        payload = p.WorktreeRemoveInput(**self.hooks.common(), worktree_path=str(active.path))
        await self.hooks.fire(payload)  # failures are only logged (catalogue: failures_logged_only)
        return f"Left worktree {active.path}; the {REMOVE} hooks were asked to remove it."

    async def _remove_with_git(self, active: ActiveWorktree, discard_changes: bool) -> str:
        if active.path.is_dir():
            changes = await _git(active.path, "status", "--porcelain", trusted=self.trusted)
            if changes and not discard_changes:
                raise ToolError(
                    f"Worktree {active.path} has uncommitted changes:\n{changes}\n"
                    "Commit them, leave with action 'keep', or pass discard_changes: true."
                )
        assert active.repo is not None
        assert active.branch is not None
        trusted = self.trusted
        await _git(active.repo, "worktree", "remove", "--force", str(active.path), trusted=trusted)
        await _git(active.repo, "branch", "-D", active.branch, trusted=trusted)
        return f"Removed worktree {active.path} and its branch {active.branch}."
