"""A hook's `if` (one Claude Code permission rule): which tool calls start the hook at all.

The rule semantics first, as Claude Code matches them; then real hook processes through the
engine: a hook whose rule does not hold never starts.
"""

from pathlib import Path

import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hook, hooks_doc
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.dialects.wave.if_rules import parse_rule, simple_commands
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config


def bash(command: str) -> p.PreToolUseInput:
    payload = common("PreToolUse", Path("/p"), tool_name="Bash", tool_input={"command": command})
    return p.PreToolUseInput(**payload)


def tool(name: str, **tool_input: object) -> p.PostToolUseInput:
    payload = common(
        "PostToolUse", Path("/p"), tool_name=name, tool_input=tool_input, tool_response={}
    )
    return p.PostToolUseInput(**payload)


@pytest.mark.parametrize(
    ("rule", "command", "holds"),
    [
        ("Bash(git *)", "git push", True),
        ("Bash(git *)", "git", True),  # a lone trailing ` *` also allows nothing
        ("Bash(git *)", "gitk", False),  # the space is a word boundary
        ("Bash(git*)", "gitk", True),
        ("Bash(* run *)", "npm run", False),  # two wildcards: the last is not optional
        ("Bash(* run *)", "npm run build", True),
        ("Bash(git push)", "git push", True),  # no wildcard: the whole command, exactly
        ("Bash(git push)", "git push --force", False),
        ("Bash(npm run test:*)", "npm run test", True),  # the legacy prefix form
        ("Bash(npm run test:*)", "npm run test -- -x", True),
        ("Bash(npm run test:*)", "npm run tests", False),
        ("Bash(echo \\*)", "echo *", True),  # an escaped star is a star
        ("Bash(echo \\*)", "echo hi", False),
        ("Bash(git commit *)", 'git commit -m "two words"', True),
        ("Bash(git push *)", "cd repo && git push origin", True),  # any simple command
        ("Bash(git push *)", "ls | git push 2>&1", True),
        ("Bash(git push *)", "FOO=1 BAR=2 git push", True),  # leading assignments dropped
        ("Bash(git push *)", "echo $(git push)", True),  # inside $( ) and backticks too
        ("Bash(git push *)", "echo `git push`", True),
        ("Bash(git push *)", "( cd x; { git push; } )", True),
        ("Bash(git push *)", "echo 'git push'", False),  # a quoted word is not a command
        ("Bash(git push *)", "echo $HOME git push", False),
        ("Bash(git push *)", "for r in a b; do echo $r; done", True),  # unreadable: starts
        ("Bash(git push *)", "cat <<EOF\nx\nEOF", True),
        ("Bash(git push *)", "echo (", True),  # a syntax error: starts
        ("Bash(rm *)", "rm -rf build\n", True),
        ("Bash(git push *)", "echo " + "$(echo " * 5000 + "x" + ")" * 5000, True),  # too deep
        ("Bash(git push *)", "echo \ud800 && git push", True),  # a lone surrogate
        ("Bash(git push *)", "echo \ud800", False),
        ("Bash", "anything at all", True),
        ("Bash(*)", "anything at all", True),
        ("Bash()", "anything at all", True),
        ("Read", "ls", False),  # another tool
    ],
)
def test_a_bash_rule_holds_as_in_claude_code(rule: str, command: str, holds: bool) -> None:
    assert parse_rule(rule).holds(bash(command)) is holds


# What Claude Code 2.1.197 started, per command, for the rules Specific `Bash(git push *)`,
# Bare `Bash(git *)`, Exact `Bash(git)` and Legacy `Bash(git:*)` (real hooks under `claude -p`).
SEEN_STARTING = {
    "echo $(git log -1)": "SBEL",
    "echo `date`": "SE",
    "echo $(date)": "SE",
    "echo $FOO": "SE",
    "echo $1": "SE",
    "echo $@": "SE",
    "x=$(git push) ": "SBL",
    "git push $REMOTE": "SBEL",
    'git push "$R"': "SBEL",
    "git push `date`": "SBEL",
    "git status": "BL",
    "echo ${HOME}": "SBEL",
    "echo ${#HOME}": "SBEL",
    "git push ${R}": "SBEL",
    "$CMD push": "SBEL",
    "echo hi > $(date)": "SBEL",
    "echo $HOME": "",
    'echo "$HOME"': "",
    "echo '$HOME'": "",
    "echo $((1+2))": "",
    "FOO=$(date) ls": "",
    "ls": "",
}
RULES = {"S": "Bash(git push *)", "B": "Bash(git *)", "E": "Bash(git)", "L": "Bash(git:*)"}


@pytest.mark.parametrize(("command", "starting"), SEEN_STARTING.items())
def test_a_command_known_only_when_it_runs_fails_open_unless_the_rule_is_a_bare_name(
    command: str, starting: str
) -> None:
    started = {key for key, rule in RULES.items() if parse_rule(rule).holds(bash(command))}
    assert started == set(starting)


@pytest.mark.parametrize(
    ("rule", "payload", "holds"),
    [
        ("Edit(*.ts)", tool("Edit", file_path="/p/src/a.ts"), True),  # the whole path
        ("Edit(*.ts)", tool("Edit", file_path="/p/src/a.tsx"), False),
        ("Edit(/p/src/*)", tool("Edit", file_path="/p/src/deep/a.ts"), True),  # * spans /
        ("Write(*.env)", tool("Write", file_path="/p/.env"), True),
        ("Read(*secret*)", tool("Read", file_path="/p/secrets.txt"), True),
        ("Read(*secret*)", tool("Edit", file_path="/p/secrets.txt"), False),
        ("Grep(TODO*)", tool("Grep", pattern="TODO:"), True),
        ("Glob(**/*.py)", tool("Glob", pattern="**/*.py"), True),
        ("Task", tool("Agent", prompt="x"), True),  # the legacy name of the same tool
        ("Agent(explore)", tool("Agent", prompt="x"), False),  # no pattern for this tool
        ("mcp__db__query", tool("mcp__db__query", sql="x"), True),
        ("Bash(git *)", p.StopInput(**common("Stop", Path("/p"))), False),
    ],
)
def test_other_rules_hold_as_in_claude_code(rule: str, payload: p.HookInput, holds: bool) -> None:
    assert parse_rule(rule).holds(payload) is holds


def test_parentheses_in_a_rule_are_escaped_and_a_malformed_rule_is_a_tool_name() -> None:
    rule = parse_rule('Bash(python -c "print\\(1\\)")')
    assert (rule.tool, rule.content) == ("Bash", 'python -c "print(1)"')
    # The command's words have their quotes resolved before matching, as in Claude Code
    assert parse_rule("Bash(python -c print\\(1\\))").holds(bash('python -c "print(1)"'))
    assert parse_rule("Bash(git *) x").content is None  # text after ")": all a tool name
    assert parse_rule("(git *)").tool == "(git *)"


def test_each_simple_command_is_its_words_with_quotes_resolved() -> None:
    assert simple_commands('A=1 git commit -m "a \\"b\\"" && echo \'$x\' > out') == (
        'git commit -m a "b"',
        "echo $x",
    )
    assert simple_commands("") == ()


# -- real hook processes ----------------------------------------------------------------------


COMMAND_OF_STDIN = (
    'python3 -c \'import json, sys; print(json.load(sys.stdin)["tool_input"]["command"])\''
)


async def dispatch(project: Path, payload: p.HookInput) -> Outcome:
    config = load_hook_config(project)
    async with BackgroundHooks(lambda _: None) as background:
        context = HookContext(cwd=project, project_dir=project)
        return await HookEngine(config).dispatch(payload, context, background)


async def test_a_hook_starts_only_for_calls_its_rule_matches(home: Path, project: Path) -> None:
    started = project / "started"
    guard = hook(
        f"{COMMAND_OF_STDIN} >> {started}; echo 'no pushes' >&2; exit 2",
        **{"if": "Bash(git push *)"},
    )
    write_json(paths.project_settings(project), hooks_doc("PreToolUse", guard, matcher="Bash"))

    quiet = await dispatch(project, bash("ls -la"))
    assert not quiet.blocked
    assert not started.exists()  # the hook never started

    for command in ("git push origin main", "make && git push"):
        outcome = await dispatch(project, bash(command))
        assert outcome.blocked
        assert outcome.tool_error == "PreToolUse:Bash hook error: no pushes"
    assert started.read_text().splitlines() == ["git push origin main", "make && git push"]


async def test_the_same_command_with_two_rules_is_two_hooks(home: Path, project: Path) -> None:
    log = project / "log"
    command = f"echo ran >> {log}"
    doc = hooks_doc(
        "PreToolUse",
        hook(command, **{"if": "Bash(git *)"}),
        hook(command, **{"if": "Bash(make *)"}),
        hook(command, **{"if": "Bash(git *)"}),  # a true duplicate: runs once
    )
    write_json(paths.project_settings(project), doc)
    await dispatch(project, bash("git status && make"))
    assert log.read_text().splitlines() == ["ran", "ran"]


def test_if_on_an_event_without_a_tool_is_reported_and_never_runs(
    home: Path, project: Path
) -> None:
    write_json(
        paths.project_settings(project),
        hooks_doc("Stop", hook("echo stop", **{"if": "Bash(git *)"}), "echo plain"),
    )
    config = load_hook_config(project)
    assert [h.command for h in config.runnable()] == ["echo plain"]
    [problem] = config.diagnostics
    assert (problem.code, problem.args, problem.pointer) == (
        "ifNotForThisEvent",
        {"event": "Stop"},
        "/hooks/Stop/0/hooks/0/if",
    )
