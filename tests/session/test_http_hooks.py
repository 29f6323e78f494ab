"""Claude Code's `http` hooks (issue 27, item 2), as Claude Code 2.1.197 runs them: the payload
POSTed to a real server on 127.0.0.1, exactly a command hook's stdin; headers with `$VAR` only for
`allowedEnvVars`; 2xx empty = success, 2xx JSON read like stdout, anything else a non-blocking
error; the user's `allowedHttpHookUrls` / `httpHookAllowedEnvVars`; deduplicated by URL; trust,
`disableAllHooks` and timeouts as for every hook. Real chat turns and the fake model server.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.hook_server import Reply, hook_server
from tests.hooks_doc import hooks_doc, hooks_for, merge
from tests.session.chat import ChatRunner, lines, metas, notices, record, tool_results, turn
from tests.workspace import write_json
from wavehost import paths
from wavehost.hooks.sources import load_hook_config


def http(url: str, **fields: Any) -> dict[str, Any]:
    return {"type": "http", "url": url, **fields}


def bash(command: str = "true") -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": command, "description": "run it"})


NOT_JSON = "HTTP hook must return JSON, but got non-JSON response body: "
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no shell today",
    }
}


async def test_the_body_is_exactly_what_a_command_hook_reads_on_stdin(
    chat: ChatRunner, home: Path
) -> None:
    log = home / "stdin.jsonl"
    async with hook_server() as server:
        hooks = hooks_for("PreToolUse", http(server.url("/pre")), record(log), matcher="Bash")
        await chat([turn("", bash()), turn("done")], "go", hooks=hooks)

    [request] = server.requests
    assert (request.method, request.path) == ("POST", "/pre")
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.body) == lines(log)[0]
    assert not request.body.endswith(b"\n")  # the JSON alone, as Claude Code posts it


async def test_a_json_reply_decides_like_stdout_and_its_context_reaches_the_model(
    chat: ChatRunner,
) -> None:
    context = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "C1"}}
    replies = {"/deny": Reply(body=json.dumps(DENY).encode()), "/ctx": Reply(body=b"")}
    async with hook_server(replies) as server:
        replies["/ctx"] = Reply(body=json.dumps(context).encode())
        server.replies.update(replies)
        hooks = merge(
            hooks_for("PreToolUse", http(server.url("/deny")), matcher="Bash"),
            hooks_for("PostToolUse", http(server.url("/ctx")), matcher="Write"),
        )
        write = ("Write", {"file_path": str(chat.project / "a.txt"), "content": "x\n"})
        result = await chat([turn("", bash(), write), turn("done")], "go", hooks=hooks)

    assert tool_results(result.llm.requests[1])[0] == "no shell today"  # the reason, as written
    context_seen = "PostToolUse:Write hook additional context: C1"
    assert f"<system-reminder>\n{context_seen}\n</system-reminder>" in metas(result.messages)


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        (Reply(500, b"oops"), "HTTP 500 from {url}"),
        (Reply(302, b""), "HTTP 302 from {url}"),  # redirects are not followed
        (Reply(200, b"plain text"), f"{NOT_JSON}plain text"),
    ],
)
async def test_other_replies_are_non_blocking_errors_the_model_never_sees(
    chat: ChatRunner, reply: Reply, shown: str
) -> None:
    async with hook_server({"/h": reply}) as server:
        hooks = hooks_for("PreToolUse", http(server.url("/h")), matcher="Bash")
        result = await chat([turn("", bash("echo ran")), turn("done")], "go", hooks=hooks)

    assert [n.text for n in notices(result.messages)] == [shown.format(url=server.url("/h"))]
    assert tool_results(result.llm.requests[1]) == ["ran"]  # the tool ran; nothing else said
    assert metas(result.messages) == []


async def test_an_empty_2xx_is_success_and_a_refused_connection_a_non_blocking_error(
    chat: ChatRunner,
) -> None:
    async with hook_server({"/ok": Reply(204)}) as server:
        refused = hook_server()
        async with refused as gone:
            closed = gone.url("/x")  # a port nobody listens on once this block ends
        hooks = hooks_for("PreToolUse", http(server.url("/ok")), http(closed), matcher="Bash")
        result = await chat([turn("", bash("echo ran")), turn("done")], "go", hooks=hooks)

    [notice] = notices(result.messages)
    assert notice.text.startswith(f"HTTP hook request to {closed} failed: ")
    assert tool_results(result.llm.requests[1]) == ["ran"]


async def test_headers_get_only_the_allowed_variables(
    chat: ChatRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "tok123")
    monkeypatch.setenv("HOOK_SECRET", "sec")
    async with hook_server() as server:
        headers = {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${HOOK_SECRET}-x"}
        hook = http(server.url("/h"), headers=headers, allowedEnvVars=["HOOK_TOKEN"])
        await chat([turn("", bash()), turn("done")], "go", hooks=hooks_for("PreToolUse", hook))

    [request] = server.requests
    assert request.headers["authorization"] == "Bearer tok123"
    assert request.headers["x-other"] == "-x"  # not allowed: left empty


async def test_the_users_allowed_urls_and_variables_are_enforced(
    chat: ChatRunner, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOOK_TOKEN", "tok123")
    async with hook_server() as server:
        allowed = f"http://127.0.0.1:{server.port}/ok/*"
        write_json(
            paths.user_settings(home),
            {"allowedHttpHookUrls": [allowed], "httpHookAllowedEnvVars": ["OTHER"]},
        )
        token = {"headers": {"X-T": "$HOOK_TOKEN"}, "allowedEnvVars": ["HOOK_TOKEN"]}
        inside, outside = http(server.url("/ok/a"), **token), http(server.url("/no"))
        hooks = hooks_for("PreToolUse", inside, outside, matcher="Bash")
        result = await chat([turn("", bash()), turn("done")], "go", hooks=hooks)

    assert [r.path for r in server.requests] == ["/ok/a"]  # /no is never called
    assert server.requests[0].headers["x-t"] == ""  # narrowed away by httpHookAllowedEnvVars
    assert [n.text for n in notices(result.messages)] == [
        f"HTTP hook blocked: {server.url('/no')} does not match any pattern in allowedHttpHookUrls"
    ]


async def test_the_same_url_in_a_wave_and_a_claude_file_is_called_once(
    chat: ChatRunner, project: Path
) -> None:
    async with hook_server() as server:
        write_json(
            paths.claude_project_settings(project),
            hooks_doc("PreToolUse", http(server.url("/h"), headers={"X-From": "claude"})),
        )
        hooks = hooks_for("PreToolUse", http(server.url("/h"), headers={"X-From": "wave"}))
        await chat([turn("", bash()), turn("done")], "go", hooks=hooks)

    assert [r.headers["x-from"] for r in server.requests] == ["wave"]  # by URL: the first runs


@pytest.mark.parametrize("why", ["untrusted", "disableAllHooks"])
async def test_an_http_hook_that_may_not_run_sends_nothing(
    chat: ChatRunner, project: Path, why: str
) -> None:
    async with hook_server() as server:
        hooks = hooks_for("PreToolUse", http(server.url("/h")))
        options: dict[str, Any] = {"hooks": hooks}
        if why == "untrusted":
            options["config"] = {"trusted": False}
        else:
            write_json(paths.local_settings(project), {"disableAllHooks": True})
        await chat([turn("", bash()), turn("done")], "go", **options)
        await_all = server.requests

    assert await_all == []  # a real listening server saw no request


async def test_an_http_hook_past_its_timeout_is_stopped_and_the_tool_runs(
    chat: ChatRunner,
) -> None:
    async with hook_server({"/slow": Reply(body=json.dumps(DENY).encode(), delay=30)}) as server:
        hook = http(server.url("/slow"), timeout=1)
        result = await chat(
            [turn("", bash("echo ran")), turn("done")], "go", hooks=hooks_for("PreToolUse", hook)
        )

    assert [n.text for n in notices(result.messages)] == [
        "hook timed out after 1 s and was stopped"
    ]
    assert tool_results(result.llm.requests[1]) == ["ran"]


def test_http_hooks_do_not_run_on_session_start(home: Path, project: Path) -> None:
    write_json(
        paths.project_settings(project), hooks_doc("SessionStart", http("http://127.0.0.1:9/s"))
    )
    config = load_hook_config(project, home=home)
    assert config.runnable() == ()
    [problem] = config.diagnostics
    assert (problem.code, dict(problem.args)) == (
        "typeNotForThisEvent",
        {"field": "type", "type": "http", "event": "SessionStart"},
    )
