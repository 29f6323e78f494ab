"""PreToolUse / PostToolUse / PostToolUseFailure: what hooks see, what the model and user see."""

import json
from pathlib import Path

from tests.hooks_doc import hooks_for, merge
from tests.session.chat import ChatRunner, notices, tools, turn, users


def write_call(path: Path, content: str = "hello\n") -> tuple[str, dict[str, str]]:
    return ("Write", {"file_path": str(path), "content": content})


async def test_pre_tool_use_receives_write_input_and_the_common_fields(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    seen = project / "pre.json"
    target = project / "a.txt"
    hooks = hooks_for("PreToolUse", f"cat > {seen}", matcher="Write")
    result = await chat([turn("", write_call(target)), turn("done")], "write it", hooks=hooks)

    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_name"] == "Write"
    assert payload["tool_input"] == {"file_path": str(target), "content": "hello\n"}
    assert payload["tool_use_id"] == tools(result.messages)[0].id
    assert payload["session_id"] == result.session.id
    assert payload["cwd"] == str(project)
    sessions = home / ".wave" / "sessions"
    assert payload["transcript_path"] == str(sessions / f"session_{result.session.id}.json")
    assert "last_assistant_message" not in payload
    assert "stop_hook_active" not in payload


async def test_pre_tool_use_receives_read_input(chat: ChatRunner, project: Path) -> None:
    seen = project / "pre.json"
    (project / "notes.md").write_text("a\nb\nc\n")
    call = ("Read", {"file_path": str(project / "notes.md"), "offset": 2, "limit": 1})
    result = await chat(
        [turn("", call), turn("done")], "read", hooks=hooks_for("PreToolUse", f"cat > {seen}")
    )

    payload = json.loads(seen.read_text())
    assert (payload["tool_name"], payload["tool_input"]) == ("Read", call[1])
    assert tools(result.messages)[0].result == "     2\tb"


async def test_pre_tool_use_exit_2_blocks_the_tool_and_its_result_is_the_hook_error(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    hooks = hooks_for("PreToolUse", "echo 'writes are frozen' >&2; exit 2", matcher="Write")
    result = await chat([turn("", write_call(target)), turn("ok")], "write", hooks=hooks)

    assert not target.exists()
    [block] = tools(result.messages)
    assert block.error == "PreToolUse:Write hook error: writes are frozen"
    # Its own state: a hook refused it (it never ran), naming that hook for the page.
    assert block.status == "blocked"
    assert block.blocked_by is not None
    assert (block.blocked_by.event, block.blocked_by.matcher) == ("PreToolUse", "Write")
    assert block.blocked_by.source == "project"
    assert block.blocked_by.command == "echo 'writes are frozen' >&2; exit 2"
    second = result.llm.requests[1]["messages"]
    [tool_result] = [c for m in second for c in m["content"] if c["type"] == "tool_result"]
    assert tool_result["content"] == "PreToolUse:Write hook error: writes are frozen"
    assert tool_result["is_error"] is True


async def test_post_tool_use_receives_the_input_and_a_response_with_success_and_file_path(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "post.json"
    target = project / "a.txt"
    hooks = hooks_for("PostToolUse", f"cat > {seen}", matcher="Write")
    await chat([turn("", write_call(target)), turn("done")], "write", hooks=hooks)

    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PostToolUse"
    assert payload["tool_name"] == "Write"
    assert payload["tool_input"] == {"file_path": str(target), "content": "hello\n"}
    assert payload["tool_response"]["success"] is True
    assert payload["tool_response"]["filePath"] == str(target)
    assert target.read_text() == "hello\n"


async def test_post_tool_use_exit_2_adds_an_is_meta_message_and_leaves_the_result_alone(
    chat: ChatRunner, project: Path
) -> None:
    command = "echo 'lint failed: tabs' >&2; exit 2"
    hooks = hooks_for("PostToolUse", command, matcher="Write")
    result = await chat(
        [turn("", write_call(project / "a.txt")), turn("fixing")], "write", hooks=hooks
    )

    expected = f'PostToolUse:Write hook blocking error from command: "{command}": lint failed: tabs'
    assert [(m.content, m.is_meta) for m in users(result.messages)[1:]] == [(expected, True)]
    [block] = tools(result.messages)
    assert block.status == "success"
    assert block.error is None
    assert block.result is not None
    assert block.result.startswith("File created successfully")
    assert expected in result.llm.request_texts()[1]
    assert notices(result.messages) == []


async def test_a_failed_tool_goes_to_post_tool_use_failure_with_error_and_to_post_tool_use(
    chat: ChatRunner, project: Path
) -> None:
    failure, post = project / "failure.json", project / "post.json"
    hooks = merge(
        hooks_for("PostToolUseFailure", f"cat > {failure}"),
        hooks_for("PostToolUse", f"cat > {post}"),
    )
    call = ("Bash", {"command": "echo oops >&2; exit 3"})
    result = await chat([turn("", call), turn("done")], "run", hooks=hooks)

    [block] = tools(result.messages)
    assert block.error == "Exit code 3\noops"
    failed = json.loads(failure.read_text())
    assert failed["hook_event_name"] == "PostToolUseFailure"
    assert failed["error"] == "Exit code 3\noops"
    response = json.loads(post.read_text())["tool_response"]
    assert response["success"] is False
    assert response["error"] == "Exit code 3\noops"


async def test_non_blocking_hook_error_is_shown_to_the_user_only(
    chat: ChatRunner, project: Path
) -> None:
    hooks = hooks_for("PostToolUse", "echo 'formatter crashed' >&2; echo 'stdout too'; exit 1")
    result = await chat(
        [turn("", write_call(project / "a.txt")), turn("done")], "write", hooks=hooks
    )

    [notice] = notices(result.messages)
    assert (notice.level, notice.text, notice.event) == (
        "error",
        "formatter crashed",
        "PostToolUse",
    )
    assert [m for m in users(result.messages) if m.is_meta] == []
    assert tools(result.messages)[0].status == "success"
    for request in result.llm.request_texts():
        assert "formatter crashed" not in request
        assert "stdout too" not in request


async def test_tool_hook_stdout_on_exit_0_never_reaches_the_model(
    chat: ChatRunner, project: Path
) -> None:
    hooks = merge(
        hooks_for("PreToolUse", "echo pre-stdout; echo pre-stderr >&2"),
        hooks_for("PostToolUse", "echo post-stdout"),
    )
    result = await chat([turn("", write_call(project / "a.txt")), turn("done")], "go", hooks=hooks)

    texts = " ".join(result.llm.request_texts())
    for text in ("pre-stdout", "pre-stderr", "post-stdout"):
        assert text not in texts
    assert notices(result.messages) == []


async def test_several_exit_2_hooks_the_first_in_config_order_supplies_the_text(
    chat: ChatRunner, project: Path
) -> None:
    hooks = merge(
        hooks_for("PreToolUse", "sleep 0.3; echo first >&2; exit 2"),
        hooks_for("PreToolUse", "echo second >&2; exit 2"),
        hooks_for("PostToolUse", "sleep 0.3; echo one >&2; exit 2", "echo two >&2; exit 2"),
    )
    result = await chat([turn("", write_call(project / "a.txt")), turn("ok")], "go", hooks=hooks)

    assert tools(result.messages)[0].error == "PreToolUse:Write hook error: first"


async def test_post_tool_use_additional_context_arrives_as_system_reminder_without_errors(
    chat: ChatRunner, project: Path
) -> None:
    output = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "X"}}
    hooks = hooks_for("PostToolUse", f"echo '{json.dumps(output)}'", matcher="Edit|Write")
    result = await chat([turn("", write_call(project / "a.txt")), turn("ok")], "go", hooks=hooks)

    [meta] = [m for m in users(result.messages) if m.is_meta]
    assert (
        meta.content
        == "<system-reminder>\nPostToolUse:Write hook additional context: X\n</system-reminder>"
    )
    assert tools(result.messages)[0].status == "success"
    assert notices(result.messages) == []


async def test_pre_tool_use_additional_context_is_injected_and_the_tool_still_runs(
    chat: ChatRunner, project: Path
) -> None:
    output = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Y"}}
    target = project / "a.txt"
    hooks = hooks_for("PreToolUse", f"echo '{json.dumps(output)}'")
    result = await chat([turn("", write_call(target)), turn("ok")], "go", hooks=hooks)

    assert target.exists()
    expected = "PreToolUse:Write hook additional context: Y"
    assert any(expected in m.content for m in users(result.messages))


async def test_hook_event_name_mismatch_injects_nothing_and_is_a_non_blocking_error(
    chat: ChatRunner, project: Path
) -> None:
    output = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Z"}}
    hooks = hooks_for("PostToolUse", f"echo '{json.dumps(output)}'")
    result = await chat([turn("", write_call(project / "a.txt")), turn("ok")], "go", hooks=hooks)

    assert [m for m in users(result.messages) if m.is_meta] == []
    [notice] = notices(result.messages)
    assert notice.level == "error"
    assert "hookEventName" in notice.text
    assert all(
        '"Z"' not in text and "context: Z" not in text for text in result.llm.request_texts()
    )


async def test_permission_request_hook_sees_the_tool_and_its_exit_2_denies(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "permission.json"
    target = project / "a.txt"
    hooks = hooks_for("PermissionRequest", f"cat > {seen}; echo 'not on fridays' >&2; exit 2")
    asked: list[str] = []

    async def ask(prompt: object) -> object:
        asked.append("asked")
        raise AssertionError("the hook denied; the user must not be asked")

    result = await chat(
        [turn("", write_call(target)), turn("ok")], "go", hooks=hooks, mode="default", ask=ask
    )  # type: ignore[arg-type]

    payload = json.loads(seen.read_text())
    assert (payload["hook_event_name"], payload["tool_name"]) == ("PermissionRequest", "Write")
    assert payload["tool_input"]["file_path"] == str(target)
    assert payload["permission_mode"] == "default"
    assert not target.exists()
    assert asked == []
    # seed: exit 2's stderr is shown to the user only, not put into the model's tool result
    assert tools(result.messages)[0].error == (
        "Permission to use Write was denied by a PermissionRequest hook"
    )
    assert [n.text for n in notices(result.messages)] == ["not on fridays"]


async def test_a_tool_that_ran_and_failed_is_not_blocked(chat: ChatRunner, project: Path) -> None:
    call = ("Read", {"file_path": str(project / "missing.txt")})
    result = await chat([turn("", call), turn("ok")], "read", hooks=hooks_for("PreToolUse", "true"))

    [block] = tools(result.messages)
    assert (block.status, block.blocked_by) == ("error", None)


async def test_a_hook_notice_names_its_hook_event_matcher_source_and_command(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    failing = "echo 'prettier not found' >&2; exit 1"
    hooks = hooks_for("PostToolUse", failing, matcher="Write|Edit")
    result = await chat([turn("", write_call(target)), turn("done")], "write", hooks=hooks)

    [notice] = [n for n in notices(result.messages) if n.level == "error"]
    assert notice.text == "prettier not found"
    assert (notice.label, notice.exit_code) == ("PostToolUse:Write", 1)
    assert notice.hook is not None
    assert (notice.hook.event, notice.hook.matcher) == ("PostToolUse", "Write|Edit")
    assert (notice.hook.source, notice.hook.command) == ("project", failing)
    assert notice.hook.id  # the settings row's id: the page links to it
