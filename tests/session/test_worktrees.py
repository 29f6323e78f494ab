"""EnterWorktree / ExitWorktree with real git, WorktreeCreate / WorktreeRemove hooks taking over
(seed 000 exit-code table rows), and where hooks run meanwhile (the cwd story, scenario 2)."""

import logging
import subprocess
from pathlib import Path

import pytest

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, lines, notices, record, tools, turn

WHERE = 'printf "%s\\n%s\\n" "$(pwd)" "$WAVE_PROJECT_DIR" >> {out}'


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def repo(project: Path) -> Path:
    git(project, "init", "-q", "-b", "main")
    git(project, "config", "user.email", "t@example.com")
    git(project, "config", "user.name", "T")
    (project / "README").write_text("hi\n")
    git(project, "add", "README")
    git(project, "commit", "-qm", "init")
    return project


async def test_a_git_worktree_is_entered_and_removed_and_hooks_keep_the_project_dir(
    chat: ChatRunner, repo: Path
) -> None:
    where, moved = repo.parent / "where", repo.parent / "moved.jsonl"
    hooks = merge(
        hooks_for("PostToolUse", WHERE.format(out=where), matcher="Bash"),
        hooks_for("CwdChanged", record(moved)),
    )
    script = [
        turn("", ("EnterWorktree", {"name": "feature"})),
        turn("", ("Bash", {"command": "git branch --show-current"})),
        turn("", ("ExitWorktree", {"action": "remove"})),
        turn("done"),
    ]
    result = await chat(script, "work in a worktree", hooks=hooks)

    path = repo / ".wave" / "worktrees" / "feature"
    entered, branch, left = tools(result.messages)
    assert entered.result is not None
    assert entered.result.startswith(f"Created worktree at {path} on branch worktree-feature")
    assert branch.result == "worktree-feature"
    assert where.read_text().splitlines() == [str(path), str(repo)]  # cwd moves, the root stays
    assert [(m["old_cwd"], m["new_cwd"]) for m in lines(moved)] == [
        (str(repo), str(path)),
        (str(path), str(repo)),
    ]
    assert left.result is not None
    assert left.result.startswith(f"Removed worktree {path} and its branch worktree-feature.")
    assert not path.exists()
    assert "worktree-feature" not in git(repo, "branch", "--list")
    assert result.session.workspace.cwd == repo


async def test_removing_a_worktree_with_changes_needs_discard_changes(
    chat: ChatRunner, repo: Path
) -> None:
    path = repo / ".wave" / "worktrees" / "wip"
    script = [
        turn("", ("EnterWorktree", {"name": "wip"})),
        turn("", ("Write", {"file_path": str(path / "new.txt"), "content": "x"})),
        turn("", ("ExitWorktree", {"action": "remove"})),
        turn("", ("ExitWorktree", {"action": "remove", "discard_changes": True})),
        turn("ok"),
    ]
    result = await chat(script, "go")

    _, _, refused, removed = tools(result.messages)
    assert refused.error is not None
    assert refused.error.startswith(f"Worktree {path} has uncommitted changes:\n?? new.txt")
    assert removed.result is not None
    assert removed.result.startswith("Removed worktree")
    assert not path.exists()


MAKE = (
    "python3 -c \"import json,os,sys; p=os.path.join('{base}', json.load(sys.stdin)['name']); "
    'os.makedirs(p); print(p)"'
)


async def test_worktree_create_hooks_take_over_and_worktree_remove_hooks_clean_up(
    chat: ChatRunner, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    base, removed = project.parent / "elsewhere", project.parent / "removed.jsonl"
    where = project.parent / "where"
    hooks = merge(
        hooks_for("WorktreeCreate", MAKE.format(base=base)),
        hooks_for("WorktreeRemove", record(removed), "echo 'rm failed' >&2; exit 1"),
        hooks_for("PostToolUse", WHERE.format(out=where), matcher="Bash"),
    )
    script = [
        turn("", ("EnterWorktree", {"name": "hooked"})),
        turn("", ("Bash", {"command": "true"})),
        turn("", ("ExitWorktree", {"action": "remove"})),
        turn("ok"),
    ]
    with caplog.at_level(logging.INFO):
        result = await chat(script, "go", hooks=hooks)  # the project is no git repo at all

    path = base / "hooked"
    entered, _, left = tools(result.messages)
    assert entered.result == (
        f"Created worktree at {path}. The session is now working in the worktree; "
        "use ExitWorktree to leave it."
    )
    assert where.read_text().splitlines() == [str(path), str(project)]
    [remove] = lines(removed)
    assert (remove["hook_event_name"], remove["worktree_path"]) == ("WorktreeRemove", str(path))
    assert left.result is not None
    assert "WorktreeRemove hooks were asked to remove it" in left.result
    assert path.exists()  # wavehost never removes what a hook made
    assert "WorktreeRemove hook failed: echo 'rm failed' >&2; exit 1: rm failed" in caplog.text
    assert notices(result.messages) == []  # only logged, never shown


async def test_when_every_worktree_create_hook_fails_creation_is_blocked_with_the_reason(
    chat: ChatRunner, project: Path
) -> None:
    hooks = hooks_for("WorktreeCreate", "echo 'disk full' >&2; exit 1", "true")
    script = [turn("", ("EnterWorktree", {"name": "x"})), turn("ok")]
    result = await chat(script, "go", hooks=hooks)

    [entered] = tools(result.messages)
    assert entered.error == (
        "WorktreeCreate hook failed: echo 'disk full' >&2; exit 1: disk full; "
        "true: printed no worktree path"
    )
    assert result.session.workspace.cwd == project


async def test_no_worktree_is_made_where_a_linked_wave_folder_leads_out_of_the_repository(
    chat: ChatRunner, repo: Path
) -> None:
    elsewhere = repo.parent / "elsewhere"
    elsewhere.mkdir()
    (repo / ".wave").rmdir()
    (repo / ".wave").symlink_to(elsewhere)  # the repository ships `.wave` as a link out of it
    script = [turn("", ("EnterWorktree", {"name": "far"})), turn("ok")]
    result = await chat(script, "go")

    (entered,) = tools(result.messages)
    leads = elsewhere / "worktrees"
    assert entered.error == (
        f"{repo / '.wave' / 'worktrees'} leads out of the repository (to {leads}): "
        "no worktree is made there"
    )
    assert list(elsewhere.iterdir()) == []
    assert "worktree-far" not in git(repo, "branch", "--list")
