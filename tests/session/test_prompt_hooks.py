"""UserPromptSubmit: stdout and additionalContext reach the model; exit 2 erases the prompt."""

import json
from pathlib import Path

from tests.hooks_doc import hooks_for
from tests.session.chat import ChatRunner, notices, turn, users
from wavehost.session.messages import AssistantMessage


async def test_exit_0_stdout_becomes_a_second_user_message_marked_is_meta(chat: ChatRunner) -> None:
    hooks = hooks_for("UserPromptSubmit", "echo 'Project rule: use tabs'")
    result = await chat([turn("ok")], "add a login page", hooks=hooks)

    prompts = users(result.messages)
    assert [(m.content, m.is_meta) for m in prompts] == [
        ("add a login page", False),
        ("Project rule: use tabs", True),
    ]
    assert "Project rule: use tabs" in result.llm.request_texts()[0]


async def test_json_additional_context_is_injected_instead_of_the_raw_json(
    chat: ChatRunner,
) -> None:
    output = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "X"}}
    hooks = hooks_for("UserPromptSubmit", f"echo '{json.dumps(output)}'")
    result = await chat([turn("ok")], "hi", hooks=hooks)

    meta = [m.content for m in users(result.messages) if m.is_meta]
    assert meta == [
        "<system-reminder>\nUserPromptSubmit hook additional context: X\n</system-reminder>"
    ]
    assert "hookSpecificOutput" not in result.llm.request_texts()[0]


async def test_exit_2_erases_the_prompt_shows_stderr_as_error_notice_and_calls_no_model(
    chat: ChatRunner,
) -> None:
    hooks = hooks_for("UserPromptSubmit", "echo 'prompt contains a secret' >&2; exit 2")
    result = await chat([turn("never")], "my password is hunter2", hooks=hooks)

    assert users(result.messages) == []
    assert isinstance(result.messages[-1], AssistantMessage)
    [notice] = notices(result.messages)
    assert (notice.level, notice.text) == ("error", "prompt contains a secret")
    assert result.llm.requests == []
    assert result.session.turn_error == "prompt contains a secret"


async def test_hook_receives_the_prompt_and_a_transcript_that_already_holds_it(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    seen = project / "seen.json"
    history = project / "history.json"
    command = (
        f'tee {seen} | python3 -c "import json,sys,shutil; '
        f"shutil.copy(json.load(sys.stdin)['transcript_path'], '{history}')\""
    )
    result = await chat(
        [turn("first"), turn("second")], "one", "two", hooks=hooks_for("UserPromptSubmit", command)
    )

    payload = json.loads(seen.read_text())
    session_id = result.session.id
    assert payload["hook_event_name"] == "UserPromptSubmit"
    assert payload["prompt"] == "two"
    assert payload["session_id"] == session_id
    assert payload["cwd"] == str(project)
    assert payload["transcript_path"] == str(
        home / ".wave" / "sessions" / f"session_{session_id}.json"
    )
    assert payload["permission_mode"] == "bypassPermissions"
    saved = json.loads(history.read_text())["state"]["messages"]
    contents = [m.get("content") for m in saved if m["role"] == "user"]
    assert contents == ["one", "two"]  # the whole conversation so far, the new prompt included
    assert saved[1]["blocks"][0] == {"type": "text", "text": "first"}
