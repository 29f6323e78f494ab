"""Claude Code's exec form: `command` + `args` runs the program itself, no shell, each argument as
written, `${CLAUDE_PROJECT_DIR}` / `${CLAUDE_PLUGIN_ROOT}` filled in as plain strings.

Real hook processes throughout: a Python script that prints the arguments it got.
"""

import json
import os
import sys
from pathlib import Path
from typing import Any

from tests.hooks.inputs import common
from tests.hooks.test_config import install_plugin
from tests.hooks_doc import hook, hooks_doc, hooks_for
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import UserPromptSubmitInput
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config

PRINT_ARGV = "import json, sys; print(json.dumps([json.load(sys.stdin)['prompt'], *sys.argv[1:]]))"


def argv_printer(folder: Path) -> Path:
    """A script that prints [the prompt it read on stdin, *its arguments] as JSON."""
    script = folder / "print argv.py"  # a space in its own path: no shell may split it
    script.write_text(PRINT_ARGV + "\n")
    return script


async def prompt_in(
    project: Path, programmatic: dict[str, Any] | None = None, *, path: str | None = None
) -> Outcome:
    """UserPromptSubmit, whose plain stdout reaches the model: what each hook printed. `path`:
    the hooks' PATH instead of wavehost's."""
    config = load_hook_config(project, programmatic=programmatic)
    payload = UserPromptSubmitInput(**common("UserPromptSubmit", project, prompt="hi"))
    env = None if path is None else {**os.environ, "PATH": path}
    async with BackgroundHooks(lambda _: None) as background:
        context = HookContext(cwd=project, project_dir=project, base_env=env)
        return await HookEngine(config).dispatch(payload, context, background)


async def test_exec_form_passes_each_argument_as_written_with_no_shell_between(
    project: Path,
) -> None:
    script = argv_printer(project)
    tricky = ["two words", "$HOME", "`id`", "'quoted'", "a; echo injected", ""]
    doc = hooks_for("UserPromptSubmit", hook("python3", args=[str(script), *tricky]))
    outcome = await prompt_in(project, doc)
    assert [json.loads(m) for m in outcome.meta_messages] == [["hi", *tricky]]


async def test_exec_form_fills_in_the_project_dir_as_a_plain_string_even_with_a_space(
    tmp_path: Path,
) -> None:
    project = tmp_path / "my project"
    project.mkdir()
    script = argv_printer(project)
    args = [
        "${CLAUDE_PROJECT_DIR}/notes.txt",
        "${WAVE_PROJECT_DIR}",
        "$CLAUDE_PROJECT_DIR",  # only ${…} is a placeholder; no shell expands the rest
        "${CLAUDE_PLUGIN_ROOT}",  # not a plugin's hook: nothing to fill in
        "${HOME}",
    ]
    doc = hooks_for("UserPromptSubmit", hook(sys.executable, args=[str(script), *args]))
    outcome = await prompt_in(project, doc)
    assert [json.loads(m) for m in outcome.meta_messages] == [
        ["hi", f"{project}/notes.txt", str(project), *args[2:]]
    ]


async def test_a_plugins_exec_hook_gets_its_root_filled_into_the_program_and_arguments(
    home: Path, project: Path
) -> None:
    root = paths.plugins_dir(home) / "guard"
    (root / "scripts").mkdir(parents=True)
    program = root / "scripts" / "check"
    program.write_text(f"#!{sys.executable}\n{PRINT_ARGV}\n")
    program.chmod(0o755)
    entry = hook("${CLAUDE_PLUGIN_ROOT}/scripts/check", args=["${CLAUDE_PLUGIN_DATA}/cache"])
    install_plugin(
        home, "guard", hooks_doc("UserPromptSubmit", entry), enable_in=paths.user_settings(home)
    )
    outcome = await prompt_in(project)
    data = paths.plugin_data_dir(root)
    assert [json.loads(m) for m in outcome.meta_messages] == [["hi", f"{data}/cache"]]


async def test_an_exec_hook_whose_program_is_missing_is_a_non_blocking_error(
    project: Path,
) -> None:
    doc = hooks_for("UserPromptSubmit", hook("wavehost-no-such-program", args=["x"]))
    outcome = await prompt_in(project, doc)
    assert not outcome.blocked
    assert outcome.meta_messages == []
    [notice] = outcome.notices
    assert notice.level == "error"
    assert "could not start hook" in notice.text


async def test_exec_form_and_the_same_words_for_a_shell_are_two_hooks_and_twins_run_once(
    home: Path, project: Path
) -> None:
    script = argv_printer(project)
    exec_form = hook("python3", args=[str(script), "exec"])
    shell_form = f"python3 '{script}' exec"
    write_json(paths.user_settings(home), hooks_doc("UserPromptSubmit", exec_form, shell_form))
    write_json(paths.project_settings(project), hooks_doc("UserPromptSubmit", exec_form))
    outcome = await prompt_in(project)
    printed = [json.loads(line) for m in outcome.meta_messages for line in m.splitlines()]
    assert printed == [["hi", "exec"], ["hi", "exec"]]
    assert len(load_hook_config(project).runnable()) == 3  # listed three times, runs twice


def test_exec_form_is_listed_as_one_command_line_and_bad_args_skip_the_hook(
    home: Path, project: Path
) -> None:
    entries = [
        hook("python3", args=["${CLAUDE_PLUGIN_ROOT}/x.py", "a b"]),
        hook("/bin/true", args=[]),
        hook("echo shell", shell="bash"),
        hook("echo", args=["exec"], shell="powershell"),  # exec form ignores `shell`
        hook("python3", args="x.py"),
        hook("sleep", args=[1]),
        hook("echo zsh", shell="zsh"),
        hook("Write-Output ps", shell="powershell"),
    ]
    write_json(paths.project_settings(project), hooks_doc("PreToolUse", *entries))
    config = load_hook_config(project)
    assert [(h.command, h.argv) for h in config.runnable()] == [
        ("python3 '${CLAUDE_PLUGIN_ROOT}/x.py' 'a b'", ("python3", *entries[0]["args"])),
        ("/bin/true", ("/bin/true",)),
        ("echo shell", None),
        ("echo exec", ("echo", "exec")),
        ("Write-Output ps", None),
    ]
    assert [h.shell for h in config.runnable()] == [None, None, None, None, "powershell"]
    assert [h.event for h in config.runnable()] == [Event.PreToolUse] * 5
    problems = [(d.code, d.args.get("field")) for d in config.diagnostics]
    assert problems == [
        ("notStringList", "args"),
        ("notStringList", "args"),
        ("unsupportedField", "shell"),
    ]


# `"shell": "powershell"`: PowerShell cannot be installed here, so a stand-in `pwsh` on PATH (a
# real process) shows what it is started with.


async def test_a_powershell_hook_runs_under_pwsh_as_claude_code_starts_it(
    project: Path, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    pwsh = bin_dir / "pwsh"
    pwsh.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    pwsh.chmod(0o755)
    entries = [hook("Write-Output $env:CLAUDE_PROJECT_DIR", shell="powershell"), "echo from-sh"]
    doc = hooks_for("UserPromptSubmit", *entries)
    outcome = await prompt_in(project, doc, path=f"{bin_dir}:/usr/bin:/bin")
    lines = [line for m in outcome.meta_messages for line in m.splitlines()]
    assert sorted(lines) == sorted(
        [
            json.dumps(
                [
                    "-NoProfile",
                    "-NonInteractive",
                    "-Command",
                    "Write-Output $env:CLAUDE_PROJECT_DIR",
                ]
            ),
            "from-sh",
        ]
    )


async def test_a_powershell_hook_without_powershell_says_how_to_fix_it(
    project: Path, tmp_path: Path
) -> None:
    doc = hooks_for("UserPromptSubmit", hook("Write-Output hi", shell="powershell"))
    outcome = await prompt_in(project, doc, path=str(tmp_path))
    [notice] = outcome.notices
    assert notice.level == "error"
    assert "no PowerShell executable (pwsh or powershell) was found on PATH" in notice.text
    assert 'remove "shell": "powershell"' in notice.text
