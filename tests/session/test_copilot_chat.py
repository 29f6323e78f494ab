"""GitHub Copilot CLI hook files (`.github/hooks/*.json`) in real chat turns: real hook processes,
the fake model server. What each hook reads, and what its output does to the tool call, the
prompt, the permission and the turn (seed 002; the observed contract where it is silent)."""

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.dialect_files import bash, copilot_project
from tests.dialects.conftest import lines, record
from tests.processes import TIMEOUT, until
from tests.session.chat import (
    ChatRunner,
    metas,
    tool_results,
    tools,
    turn,
    user_texts,
    users,
    write_call,
)
from tests.session.fake_llm import HttpError


def reply(document: dict[str, Any]) -> str:
    """A command printing this JSON document (after reading its stdin)."""
    return f"cat > /dev/null; echo '{json.dumps(document)}'"


async def test_pre_tool_use_reads_copilot_names_in_both_naming_styles(
    chat: ChatRunner, project: Path
) -> None:
    camel, pascal = project / "camel.jsonl", project / "pascal.jsonl"
    target = project / "a.txt"
    copilot_project(
        project,
        "a.json",
        {"preToolUse": [bash(record(camel))], "PreToolUse": [bash(record(pascal))]},
    )
    result = await chat([turn("", write_call(target)), turn("done")], "write it")

    [payload] = lines(camel)
    assert list(payload) == ["sessionId", "timestamp", "cwd", "toolName", "toolArgs"]
    assert payload["sessionId"] == result.session.id
    assert isinstance(payload["timestamp"], int)  # epoch milliseconds
    assert payload["timestamp"] > 1_600_000_000_000
    assert payload["toolName"] == "create"
    assert payload["toolArgs"] == {"path": str(target), "file_text": "hello\n"}
    [snake] = lines(pascal)
    assert snake["hook_event_name"] == "PreToolUse"
    assert snake["session_id"] == result.session.id
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", snake["timestamp"])
    assert (snake["tool_name"], snake["tool_input"]["path"]) == ("Write", str(target))
    assert target.read_text() == "hello\n"


async def test_pre_tool_use_deny_refuses_the_call_in_copilots_words_and_ends_the_chain(
    chat: ChatRunner, project: Path
) -> None:
    target, later = project / "a.txt", project / "later.jsonl"
    deny = reply({"permissionDecision": "deny", "permissionDecisionReason": "frozen"})
    copilot_project(project, "a.json", {"preToolUse": [bash(deny), bash(record(later))]})
    result = await chat([turn("", write_call(target)), turn("ok")], "write it")

    assert not target.exists()
    assert not later.exists()  # the first deny ends the chain
    assert tools(result.messages)[0].error == "Denied by preToolUse hook: frozen"
    assert tool_results(result.llm.requests[1]) == ["Denied by preToolUse hook: frozen"]


async def test_pre_tool_use_modified_args_replace_the_input_the_tool_runs_with(
    chat: ChatRunner, project: Path
) -> None:
    target, seen = project / "a.txt", project / "seen.jsonl"
    changed = {"modifiedArgs": {"path": str(target), "file_text": "rewritten\n"}}
    copilot_project(project, "a.json", {"preToolUse": [bash(reply(changed)), bash(record(seen))]})
    result = await chat([turn("", write_call(target)), turn("ok")], "write it")

    assert target.read_text() == "rewritten\n"
    assert lines(seen)[0]["toolArgs"]["file_text"] == "rewritten\n"  # the next hook sees it
    assert tools(result.messages)[0].input == {"file_path": str(target), "content": "rewritten\n"}


async def test_pre_tool_use_exit_1_fails_closed_naming_the_file(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    copilot_project(project, "guard.json", {"preToolUse": [bash("exit 1")]})
    result = await chat([turn("", write_call(target)), turn("ok")], "write it")

    assert not target.exists()
    assert tools(result.messages)[0].error == (
        'Denied by preToolUse hook from ".github/hooks/guard.json" (hook errored)'
    )


async def test_post_tool_use_modified_result_and_context_are_what_the_model_sees(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    modified = {"modifiedResult": {"resultType": "success", "textResultForLlm": "NEW RESULT"}}
    copilot_project(
        project,
        "a.json",
        {
            "postToolUse": [
                bash(reply(modified)),
                bash(reply({"additionalContext": "run the tests"})),
            ]
        },
    )
    result = await chat([turn("", write_call(target)), turn("ok")], "write it")

    expected = (
        'NEW RESULT\n\nTool "create" succeeded. Additional guidance from postToolUse hooks:\n'
        "run the tests"
    )
    assert tool_results(result.llm.requests[1]) == [expected]
    assert tools(result.messages)[0].result == expected


async def test_post_tool_use_does_not_fire_for_a_failed_tool_but_failure_guidance_does(
    chat: ChatRunner, project: Path
) -> None:
    post = project / "post.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "postToolUse": [bash(record(post))],
            "postToolUseFailure": [bash("echo 'check the path' >&2; exit 2")],
        },
    )
    missing = ("Read", {"file_path": str(project / "missing.txt")})
    result = await chat([turn("", missing), turn("ok")], "read it")

    assert not post.exists()
    assert metas(result.messages) == [
        'Tool "view" failed. Additional guidance from postToolUseFailure hooks:\ncheck the path'
    ]


async def test_user_prompt_transformed_rewrites_what_the_model_gets_not_the_bubble(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "seen.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "userPromptSubmitted": [
                bash(reply({"modifiedPrompt": "IGNORED", "additionalContext": "be brief"}))
            ],
            "userPromptTransformed": [
                bash(record(seen)),
                bash(reply({"modifiedTransformedPrompt": "MODEL SEES THIS"})),
            ],
        },
    )
    result = await chat([turn("hi")], "hello there")

    [payload] = lines(seen)
    assert payload["prompt"] == "hello there"
    # modifiedPrompt is for SDK programmatic hooks only (seed 002); additionalContext is kept.
    assert payload["transformedPrompt"].endswith(
        "</current_datetime>\n\nhello there\n\n<system_reminder>\nbe brief\n</system_reminder>"
    )
    assert user_texts(result.llm.requests[0]) == ["MODEL SEES THIS"]
    [prompt] = users(result.messages)
    assert (prompt.content, prompt.model_content) == ("hello there", "MODEL SEES THIS")


async def test_a_resumed_session_replays_the_transformed_prompt(
    chat: ChatRunner, project: Path
) -> None:
    """Seed 002: modifiedTransformedPrompt changes the model's content and the history, so a
    resumed session sends the modified text again, not what was typed."""
    once = project / "transformed-once"
    transform = (
        f"cat > /dev/null; [ -e {once} ] && exit 0; touch {once}; "
        """echo '{"modifiedTransformedPrompt": "MODEL SEES THIS"}'"""
    )
    copilot_project(project, "a.json", {"userPromptTransformed": [bash(transform)]})
    first = await chat([turn("hi")], "hello there")
    second = await chat([turn("again")], "go on", resume=first.session.id)

    assert user_texts(second.llm.requests[0]) == ["MODEL SEES THIS", "go on"]
    assert [m.content for m in users(second.messages)] == ["hello there", "go on"]


async def test_session_start_context_is_a_message_before_the_first_prompt(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "start.jsonl"
    copilot_project(
        project,
        "a.json",
        {"sessionStart": [bash(record(seen)), bash(reply({"additionalContext": "repo rules"}))]},
    )
    result = await chat([turn("hi")], "hello")

    assert lines(seen)[0]["source"] == "new"  # a new session starts with its first prompt
    assert user_texts(result.llm.requests[0]) == ["repo rules", "hello"]


async def test_permission_request_fires_even_when_the_mode_would_not_ask_and_deny_refuses(
    chat: ChatRunner, project: Path
) -> None:
    target, seen = project / "a.txt", project / "perm.jsonl"
    deny = reply({"behavior": "deny", "message": "no writes today"})
    copilot_project(project, "a.json", {"permissionRequest": [bash(record(seen)), bash(deny)]})
    result = await chat(
        [turn("", write_call(target)), turn("ok")], "write it", mode="bypassPermissions"
    )

    [payload] = lines(seen)
    assert payload["hookName"] == "permissionRequest"
    assert (payload["toolName"], payload["permissionSuggestions"]) == ("edit", [])
    assert not target.exists()
    assert tool_results(result.llm.requests[1]) == [
        "Permission denied by a PermissionRequest hook: no writes today"
    ]


async def test_permission_request_deny_with_interrupt_stops_the_agent(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    stop = reply({"behavior": "deny", "message": "stop", "interrupt": True})
    copilot_project(project, "a.json", {"permissionRequest": [bash(stop)]})
    result = await chat([turn("", write_call(target)), turn("never")], "write it")

    assert not target.exists()
    assert len(result.llm.requests) == 1  # no further model call
    assert result.session.status == "idle"


async def test_permission_request_is_not_fired_for_reads(chat: ChatRunner, project: Path) -> None:
    seen = project / "perm.jsonl"
    (project / "notes.md").write_text("a\n")
    copilot_project(project, "a.json", {"permissionRequest": [bash(record(seen))]})
    await chat([turn("", ("Read", {"file_path": str(project / "notes.md")})), turn("ok")], "read")

    assert not seen.exists()


async def test_agent_stop_block_makes_the_agent_go_on_with_the_reason(
    chat: ChatRunner, project: Path
) -> None:
    flag = project / "blocked-once"
    once = (
        f"cat > /dev/null; if [ ! -e {flag} ]; then touch {flag}; "
        """echo '{"decision":"block","reason":"also update the changelog"}'; fi"""
    )
    copilot_project(project, "a.json", {"agentStop": [bash(once)]})
    result = await chat([turn("first"), turn("second")], "go")

    assert len(result.llm.requests) == 2
    assert user_texts(result.llm.requests[1])[-1] == "also update the changelog"


async def test_error_occurred_fires_when_the_model_call_fails_then_session_end_says_error(
    chat: ChatRunner, project: Path
) -> None:
    seen, ends, stops = project / "err.jsonl", project / "end.jsonl", project / "stop.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "errorOccurred": [bash(record(seen))],
            "sessionEnd": [bash(record(ends))],
            "SessionEnd": [bash(record(ends))],
            "agentStop": [bash(record(stops))],
        },
    )
    result = await chat([HttpError(400, "bad request")], "hello")

    [payload] = lines(seen)
    assert list(payload)[:3] == ["sessionId", "timestamp", "cwd"]
    assert payload["errorContext"] == "model_call"
    assert payload["recoverable"] is True
    assert "bad request" in payload["error"]["message"]
    assert isinstance(payload["error"]["name"], str)
    assert result.session.turn_error is not None
    # The contract (errocc): sessionEnd then fires with reason "error", agentStop does not.
    assert [end["reason"] for end in lines(ends)] == ["error", "error"]
    assert not stops.exists()


async def test_session_end_says_complete_when_the_last_turn_recovered_from_an_error(
    chat: ChatRunner, project: Path
) -> None:
    ends = project / "end.jsonl"
    copilot_project(project, "a.json", {"sessionEnd": [bash(record(ends))]})
    await chat([HttpError(400, "bad request"), turn("fine now")], "hello", "again")

    assert [end["reason"] for end in lines(ends)] == ["complete"]


async def test_session_end_says_abort_when_the_last_turn_was_interrupted(
    chat: ChatRunner, project: Path
) -> None:
    ends, started = project / "end.jsonl", project / "started"
    copilot_project(project, "a.json", {"sessionEnd": [bash(record(ends))]})
    call = ("Bash", {"command": f"touch {started}; sleep 60"})
    async with chat.open([turn("", call), turn("unused")]) as opened:
        opened.session.send("run it")
        await until(started.exists)
        opened.session.cancel()
        with anyio.fail_after(TIMEOUT):
            await opened.session.wait_idle()

    assert [end["reason"] for end in lines(ends)] == ["abort"]


@pytest.mark.parametrize(
    ("event", "answer"),
    [
        ("preToolUse", {"permissionDecision": "ask", "permissionDecisionReason": "R"}),
        (
            "PreToolUse",
            {"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "R"}},
        ),
    ],
)
async def test_headless_pre_tool_use_ask_is_denied_in_copilots_words(
    chat: ChatRunner, project: Path, event: str, answer: dict[str, Any]
) -> None:
    """Nobody to ask (headless, like Copilot's `-p`): the contract's text, the call not run."""
    target = project / "a.txt"
    copilot_project(project, "a.json", {event: [bash(reply(answer))]})
    result = await chat([turn("", write_call(target)), turn("ok")], "write it", mode="default")

    refusal = "Denied by preToolUse hook (unable to ask user for confirmation): R"
    assert not target.exists()
    assert tools(result.messages)[0].error == refusal
    assert tool_results(result.llm.requests[1]) == [refusal]


async def test_subagent_start_context_goes_before_the_task_and_stop_rewrites_the_report(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "start.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "subagentStart": [bash(record(seen)), bash(reply({"additionalContext": "CTX"}))],
            "subagentStop": [bash(reply({"modifiedResponse": "REWRITTEN REPORT"}))],
        },
    )
    call = (
        "Agent",
        {"prompt": "look around", "description": "explore", "subagent_type": "Explore"},
    )
    result = await chat([turn("", call), turn("sub report"), turn("done")], "delegate")

    assert lines(seen)[0]["agentName"] == "Explore"
    assert user_texts(result.llm.requests[1]) == ["CTX\n\nlook around"]  # the subagent's
    [agent] = tools(result.messages)
    assert agent.result == "REWRITTEN REPORT"
    assert tool_results(result.llm.requests[2]) == ["REWRITTEN REPORT"]


async def test_notification_context_reaches_the_model_as_news(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "notif.jsonl"
    context = reply({"additionalContext": "the user went for coffee"})
    copilot_project(
        project,
        "a.json",
        {"notification": [bash(record(seen), matcher="idle_prompt"), bash(context)]},
    )
    turns = [turn("first"), turn("noted")]
    async with chat.open(turns, config={"idle_notify_after": 0.2}) as opened:
        opened.session.send("hello")
        await until(lambda: len(opened.llm.requests) == 2)
        with anyio.fail_after(TIMEOUT):
            await opened.session.wait_idle()

    payload = lines(seen)[0]
    assert (payload["hook_event_name"], payload["notification_type"]) == (
        "Notification",
        "idle_prompt",
    )
    assert user_texts(opened.llm.requests[1])[-1] == "the user went for coffee"
