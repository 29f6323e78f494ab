"""`if` fails open as Claude Code documents it (issue 27, item 4): a rule more specific than a
command name starts the hook when the command holds `$( )`, backticks or a `$VAR` known only when
it runs; a bare name keeps matching the commands read. Real chat turns, real hook processes.
"""

from pathlib import Path

from tests.hooks_doc import hook, hooks_for
from tests.session.chat import ChatRunner, lines, record, turn


def bash(command: str) -> tuple[str, dict[str, str]]:
    return ("Bash", {"command": command, "description": "run it"})


async def test_a_push_guard_starts_for_a_command_it_cannot_read_statically(
    chat: ChatRunner, home: Path
) -> None:
    specific, bare = home / "specific.jsonl", home / "bare.jsonl"
    hooks = hooks_for(
        "PreToolUse",
        hook(record(specific), **{"if": "Bash(git push *)"}),
        hook(record(bare), **{"if": "Bash(git *)"}),
        matcher="Bash",
    )
    commands = ["echo $(git log -1)", "echo `date`", "ls", "git status", "echo $HOME"]
    turns = [turn("", bash(c)) for c in commands]
    await chat([*turns, turn("done")], "go", hooks=hooks)

    ran = {path: [e["tool_input"]["command"] for e in lines(path)] for path in (specific, bare)}
    assert ran[specific] == ["echo $(git log -1)", "echo `date`"]  # failed open
    assert ran[bare] == ["echo $(git log -1)", "git status"]  # read: `git log -1` is inside
