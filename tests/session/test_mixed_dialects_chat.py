"""A project holding Wave, Copilot CLI and Snow CLI hooks at once, in real chat turns: every
dialect's hooks run for the one event, each reading its own payload, and their results combine in
the documented order (Wave, Copilot, Snow)."""

import json
from pathlib import Path

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.dialects.conftest import lines, record
from tests.hooks_doc import hooks_for
from tests.session.chat import (
    ChatRunner,
    metas,
    tool_results,
    tools,
    turn,
    user_texts,
    write_call,
)
from wavehost import paths


async def test_all_three_dialects_run_for_one_tool_call_each_with_its_own_payload(
    chat: ChatRunner, project: Path
) -> None:
    wave, copilot, snow = (project / f"{n}.jsonl" for n in ("wave", "copilot", "snow"))
    target = project / "a.txt"
    copilot_project(project, "a.json", {"preToolUse": [bash(record(copilot))]})
    snow_project(project, "beforeToolCall", rule(action(record(snow))))
    await chat(
        [turn("", write_call(target)), turn("ok")],
        "write",
        hooks=hooks_for("PreToolUse", record(wave)),
    )

    assert lines(wave)[0]["tool_name"] == "Write"
    assert lines(copilot)[0]["toolName"] == "create"
    assert lines(snow)[0]["toolName"] == "filesystem-create"
    assert target.read_text() == "hello\n"


async def test_a_deny_from_any_dialect_wins_and_the_first_dialects_text_stands(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    deny = {"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"}
    copilot_project(project, "a.json", {"preToolUse": [bash(f"echo '{json.dumps(deny)}'")]})
    snow_project(project, "beforeToolCall", rule(action("echo 'snow says no' >&2; exit 1")))
    result = await chat([turn("", write_call(target)), turn("ok")], "write")

    assert not target.exists()
    assert tool_results(result.llm.requests[1]) == ["Denied by preToolUse hook: copilot says no"]


async def test_prompt_context_of_every_dialect_reaches_the_model_in_order(
    chat: ChatRunner, project: Path
) -> None:
    copilot_project(
        project,
        "a.json",
        {"userPromptSubmitted": [bash("""echo '{"additionalContext": "COPILOT"}'""")]},
    )
    snow_project(
        project, "onUserMessage", rule({"type": "context", "content": "SNOW", "enabled": True})
    )
    result = await chat(
        [turn("hi")], "hello", hooks=hooks_for("UserPromptSubmit", "echo WAVE-CONTEXT")
    )

    assert metas(result.messages) == ["WAVE-CONTEXT"]
    assert user_texts(result.llm.requests[0]) == [
        "SNOW\n\nhello\n\n<system_reminder>\nCOPILOT\n</system_reminder>",
        "WAVE-CONTEXT",
    ]


async def test_a_user_setting_turns_a_dialect_off_in_the_chat(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    copilot, snow = project / "copilot.jsonl", project / "snow.jsonl"
    copilot_project(project, "a.json", {"preToolUse": [bash(record(copilot))]})
    snow_project(project, "beforeToolCall", rule(action(record(snow))))
    settings = paths.user_settings(home)
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hookDialects": {"copilot": False}}))
    result = await chat([turn("", ("Bash", {"command": "echo hi"})), turn("ok")], "run")

    assert not copilot.exists()
    assert lines(snow)[0]["toolName"] == "terminal-execute"
    assert tools(result.messages)[0].result == "hi"
