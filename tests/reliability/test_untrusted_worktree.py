"""An untrusted repository runs none of its own code when the agent makes a worktree of it.

`EnterWorktree` runs `git worktree add`, and git runs what the repository configures: its
`.git/hooks/post-checkout` and `reference-transaction` hooks, the smudge command of a filter its
`.gitattributes` names, its fsmonitor. Before, all of them ran — in `acceptEdits` without a
question, and in default mode after a question that read like a file edit.
"""

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.client import reply, running_server, script
from tests.workspace import Workspace

UNTRUSTED = {"trusted": False}
MARKERS = ("post-checkout", "reference-transaction", "smudge", "fsmonitor")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def hostile_repository(project: Path, markers: Path) -> None:
    """A repository whose every git-run program leaves a marker file in `markers`."""
    markers.mkdir()
    project.mkdir(parents=True, exist_ok=True)
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "t@example.com")
    git(project, "config", "user.name", "T")
    (project / "README").write_text("hi\n")
    (project / ".gitattributes").write_text("* filter=evil\n")
    git(project, "add", "README", ".gitattributes")
    git(project, "commit", "-qm", "init")
    for hook in ("post-checkout", "reference-transaction"):
        path = project / ".git" / "hooks" / hook
        path.write_text(f"#!/bin/sh\ntouch {markers / hook}\n")
        path.chmod(0o755)
    git(project, "config", "filter.evil.smudge", f"sh -c 'touch {markers / 'smudge'}; cat'")
    git(project, "config", "filter.evil.clean", "cat")
    git(project, "config", "filter.evil.required", "true")
    monitor = project / ".git" / "monitor.sh"
    monitor.write_text(f"#!/bin/sh\ntouch {markers / 'fsmonitor'}\n")
    monitor.chmod(0o755)
    git(project, "config", "core.fsmonitor", str(monitor))


def ran(markers: Path) -> list[str]:
    return sorted(path.name for path in markers.iterdir())


def worktree_turns(workspace: Workspace) -> None:
    script(
        workspace,
        reply("", ("EnterWorktree", {"name": "feature"})),
        reply("", ("ExitWorktree", {"action": "remove", "discard_changes": True})),
        reply("done"),
    )


@pytest.fixture
def markers(workspace: Workspace) -> Path:
    found = workspace.root / "markers"
    hostile_repository(workspace.project, found)
    return found


def tool_results(view: Any) -> list[str]:
    return [str(b.get("result")) for b in view.blocks("tool")]


async def test_enter_worktree_in_an_untrusted_project_runs_no_repository_code(
    workspace: Workspace, markers: Path
) -> None:
    worktree_turns(workspace)
    async with running_server(workspace, options=UNTRUSTED) as client:
        opened = await client.open_chat(permissionMode="acceptEdits")
        view = await client.turn(opened["sessionId"], "work in a worktree")
    entered, left = tool_results(view)
    path = workspace.project / ".wave" / "worktrees" / "feature"
    assert entered.startswith(f"Created worktree at {path} on branch worktree-feature")
    assert left.startswith(f"Removed worktree {path}")
    assert ran(markers) == []  # no hook, no filter, no fsmonitor


async def test_the_question_says_what_will_run_and_that_repository_hooks_do_not(
    workspace: Workspace, markers: Path
) -> None:
    worktree_turns(workspace)
    async with running_server(workspace, options=UNTRUSTED) as client:
        client.permission_answers += [{"allow": True}, {"allow": True}]
        opened = await client.open_chat(permissionMode="default")
        await client.turn(opened["sessionId"], "work in a worktree")
    enter, leave = client.permission_requests
    assert enter["toolName"] == "EnterWorktree"
    assert enter["runs"].splitlines() == [
        "git worktree add -b worktree-feature .wave/worktrees/feature HEAD",
        "This workspace is not trusted: the repository's own git hooks, filters and fsmonitor "
        "do not run.",
    ]
    assert "git worktree remove --force" in leave["runs"]
    assert ran(markers) == []


async def test_a_trusted_project_s_worktree_runs_its_git_hooks_as_git_does_and_says_so(
    workspace: Workspace, markers: Path
) -> None:
    worktree_turns(workspace)
    async with running_server(workspace) as client:
        client.permission_answers += [{"allow": True}, {"allow": True}]
        opened = await client.open_chat(permissionMode="default")
        await client.turn(opened["sessionId"], "work in a worktree")
    assert "the repository's own hooks" in client.permission_requests[0]["runs"]
    assert {"post-checkout", "smudge"} <= set(ran(markers))
