"""A project holding all three dialects at once: every dialect's hooks run, each its own way,
and the outcome combines them in the documented order (Wave, Copilot, Snow)."""

import json
from pathlib import Path

from tests.dialects.conftest import Dispatch, action, bash, copilot_file, lines, record, rule, write
from tests.hooks_doc import hooks_doc
from tests.workspace import write_json
from wavehost import paths

BASH_CALL = {"tool_name": "Bash", "tool_input": {"command": "ls"}}


def three(project: Path, wave: str, copilot: str, snow: str) -> None:
    write_json(paths.project_settings(project), hooks_doc("PreToolUse", wave, matcher="Bash"))
    copilot_file(paths.copilot_project_hooks(project), "a.json",
                 {"preToolUse": [bash(copilot, matcher="bash")]})  # fmt: skip
    write(paths.snow_project_hooks(project) / "beforeToolCall.json",
          [rule(action(snow), matcher="terminal-execute")])  # fmt: skip


async def test_every_dialect_runs_and_reads_its_own_payload(
    dispatch: Dispatch, project: Path, tmp_path: Path
) -> None:
    seen = {name: tmp_path / f"{name}.jsonl" for name in ("wave", "copilot", "snow")}
    three(project, record(seen["wave"]), record(seen["copilot"]), record(seen["snow"]))
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert [r.dialect for r in outcome.runs] == ["wave", "copilot", "snow"]
    (wave,) = lines(seen["wave"])
    (copilot,) = lines(seen["copilot"])
    (snow,) = lines(seen["snow"])
    assert (wave["hook_event_name"], wave["tool_name"]) == ("PreToolUse", "Bash")
    assert (copilot["toolName"], copilot["toolArgs"]) == ("bash", {"command": "ls"})
    assert (snow["toolName"], snow["args"]) == ("terminal-execute", {"command": "ls"})


async def test_outcomes_combine_in_order_and_the_strictest_wins(
    dispatch: Dispatch, project: Path
) -> None:
    deny = json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"})
    three(
        project,
        "echo 'wave says no' >&2; exit 2",
        f"echo '{deny}'",
        "echo 'snow says no' >&2; exit 1",
    )
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.blocked
    assert outcome.tool_error == "PreToolUse:Bash hook error: wave says no"  # Wave's comes first
    assert outcome.permission_decision == "deny"


async def test_a_rewrite_from_a_later_dialect_overrides_an_earlier_one(
    dispatch: Dispatch, project: Path
) -> None:
    args = json.dumps({"modifiedArgs": {"command": "ls -a"}})
    three(project, "true", f"echo '{args}'", "true")
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert outcome.updated_input == {"command": "ls -a"}
    assert not outcome.blocked


async def test_dialects_run_side_by_side(dispatch: Dispatch, project: Path, tmp_path: Path) -> None:
    """Each dialect's chain starts at once: every hook waits for the other two to have started
    (and fails, blocking the tool, if they never do)."""
    marks = tmp_path / "marks"
    marks.mkdir()
    hook = (
        f"touch {marks}/$$; for i in $(seq 300); do "
        f'[ "$(ls {marks} | wc -l)" -ge 3 ] && exit 0; sleep 0.1; done; exit 1'
    )
    three(project, hook, hook, hook)
    outcome = await dispatch("PreToolUse", **BASH_CALL)
    assert [r.exit_code for r in outcome.runs] == [0, 0, 0]
    assert not outcome.blocked
