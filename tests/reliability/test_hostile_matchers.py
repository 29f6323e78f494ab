"""A hostile matcher cannot freeze the server: not in any dialect, not on the settings page's Test
or "Why didn't it fire?", not when a session dispatches, not even once the IDE has gone.

Each attack froze the whole server before (every request unanswered, 95 % of a core after the
IDE closed its pipe): `(?:.*){400}!` backtracks through about 10^9 ways of splitting a tool name.
"""

import json
import re
import time
from pathlib import Path
from typing import Any

import anyio

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.hooks_doc import hook
from tests.lsp.client import reply, running_server, script
from tests.processes import TIMEOUT
from tests.reliability.figures import record
from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace
from wavehost import paths
from wavehost.hooks import payloads as p
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runlog import RunLog
from wavehost.protocol import table

# RE2 can take these: linear time, whatever they look like.
BACKTRACKER = "(?:.*){400}!"
SNOW_STARS = "*" * 400 + "!"
# Only Python's `re` can take this one (a lookahead): the bounded worker runs it, over budget.
LOOKAHEAD = "(?=(?:.*){400}!)"
ANSWER_WITHIN = 60.0  # seconds: generous on a loaded machine, far below "frozen"


def hostile_hooks(project: Path, marker: str) -> None:
    """PreToolUse hooks in every dialect whose matchers backtrack forever in `re`."""
    (project / ".wave").mkdir(parents=True, exist_ok=True)
    wave = {
        "hooks": {
            "PreToolUse": [
                {"matcher": BACKTRACKER, "hooks": [hook(f"touch {marker}-wave")]},
                {"matcher": LOOKAHEAD, "hooks": [hook(f"touch {marker}-lookahead")]},
                {"matcher": "Bash", "hooks": [hook("touch ordinary-ran")]},
            ]
        }
    }
    (project / ".wave" / "settings.json").write_text(json.dumps(wave))
    copilot_project(
        project,
        "hostile.json",
        {"preToolUse": [bash(f"touch {marker}-copilot", matcher=BACKTRACKER)]},
    )
    snow_project(
        project, "beforeToolCall", rule(action(f"touch {marker}-snow"), matcher=SNOW_STARS)
    )


def seen_a_bash_call(workspace: Workspace) -> None:
    """A real recent event for "Why didn't it fire?" to test the matchers against."""
    log = RunLog(paths.run_log(workspace.project, workspace.home))
    payload = p.PreToolUseInput(
        session_id="earlier",
        transcript_path="/dev/null",
        cwd=str(workspace.project),
        hook_event_name="PreToolUse",
        tool_name="Bash",
        tool_input={"command": "ls"},
        tool_use_id="t1",
    )
    log.dispatched(payload, [], Outcome(event="PreToolUse"))


def responses(server: RawServer, ids: list[int]) -> dict[int, dict[str, Any]]:
    """The answers to all of `ids`, in whatever order they come."""
    found: dict[int, dict[str, Any]] = {}
    while len(found) < len(ids):
        message = server.receive(timeout=ANSWER_WITHIN)
        if message.get("id") in ids and "method" not in message:
            found[message["id"]] = message
    return found


def listed_hooks(server: RawServer) -> list[dict[str, Any]]:
    answer = server.response(server.request(table.HOOKS_LIST.name, {}), timeout=ANSWER_WITHIN)
    hooks: list[dict[str, Any]] = answer["result"]["hooks"]
    return hooks


def test_test_and_why_didnt_it_fire_on_hostile_matchers_leave_the_server_answering(
    workspace: Workspace,
) -> None:
    hostile_hooks(workspace.project, "pwned")
    seen_a_bash_call(workspace)
    server = RawServer(workspace)
    try:
        server.initialize({"trusted": False})
        hostile = [
            h for h in listed_hooks(server) if h["matcher"] in (BACKTRACKER, LOOKAHEAD, SNOW_STARS)
        ]
        assert len(hostile) == 4  # Wave ×2, Copilot, Snow: listed (untrusted), not run
        began = time.monotonic()
        asked: dict[int, str] = {}
        for entry in hostile:
            asked[server.request(table.HOOKS_SAMPLE.name, {"id": entry["id"]})] = entry["matcher"]
            asked[server.request(table.HOOKS_EXPLAIN.name, {"id": entry["id"]})] = entry["matcher"]
        # while they are worked on, the server still answers anything else
        listed = server.request(table.HOOKS_LIST.name, {})
        answers = responses(server, [*asked, listed])
        assert "result" in answers[listed]
        for msg_id, matcher in asked.items():
            answer = answers[msg_id]
            if "error" in answer:  # found over budget by then: the list shows it in its place
                assert matcher == LOOKAHEAD
                assert answer["error"]["data"]["reason"] == "notFound"
            else:
                assert "result" in answer
        record("hostile matchers", test_and_explain_s=round(time.monotonic() - began, 2))
        explained = server.response(
            server.request(table.HOOKS_EXPLAIN.name, {"id": hostile[0]["id"]}),
            timeout=ANSWER_WITHIN,
        )
        matcher_step = next(s for s in explained["result"]["steps"] if s["code"] == "matcher")
        assert [c["subject"] for c in matcher_step["cases"]] == ["Bash"]
        assert [c["verdict"] for c in matcher_step["cases"]] == ["noMatch"]
    finally:
        server.close()
    assert not list(workspace.project.glob("pwned-*"))


def test_the_server_exits_when_the_ide_closes_its_pipe_in_the_middle_of_a_hostile_test(
    workspace: Workspace,
) -> None:
    hostile_hooks(workspace.project, "pwned")
    server = RawServer(workspace)
    server.initialize({"trusted": False})
    entry = next(h for h in listed_hooks(server) if h["matcher"] == BACKTRACKER)
    server.request(table.HOOKS_SAMPLE.name, {"id": entry["id"]})
    time.sleep(1)  # under way (it was spinning for good before)
    assert server.process.stdin is not None
    server.process.stdin.close()  # the IDE is gone
    try:
        server.process.wait(timeout=ANSWER_WITHIN)
    finally:
        if server.alive():
            server.process.kill()
    assert server.process.returncode is not None


async def test_a_trusted_session_runs_its_ordinary_hooks_past_hostile_matchers(
    workspace: Workspace,
) -> None:
    hostile_hooks(workspace.project, "ran")
    script(workspace, reply("", ("Bash", {"command": "echo hi"})), reply("done"))
    began = time.monotonic()
    async with running_server(workspace) as client:
        opened = await client.open_chat(permissionMode="bypassPermissions")
        view = await client.turn(opened["sessionId"], "go")
        # On a busy machine the worker's verdict may come after the turn (the lookup stopped
        # waiting at its deadline): the listing says so once it has come.
        listed = await client.list_hooks()
        with anyio.fail_after(TIMEOUT):
            while not _over_budget(listed):
                await anyio.sleep(0.2)
                listed = await client.list_hooks()
    record("hostile matchers", trusted_turn_s=round(time.monotonic() - began, 2))
    assert [b["text"] for b in view.blocks("text")] == ["done"]
    assert (workspace.project / "ordinary-ran").exists()
    assert not list(workspace.project.glob("ran-*"))  # none of them matches "Bash"
    # the lookahead went over its budget in the worker: from now on it is a diagnostic
    over = _over_budget(listed)
    assert [d["args"]["matcher"] for d in over] == [LOOKAHEAD]
    assert re.search(r"over budget.*ms of CPU", over[0]["message"])


def _over_budget(listed: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in listed["diagnostics"] if d.get("code") == "matcherOverBudget"]


def test_huge_and_numerous_matchers_are_refused_with_a_diagnostic_not_compiled(
    workspace: Workspace,
) -> None:
    """2.5 MB alternations took 10 s and 37 MB each to compile on the first listing."""
    alternation = "|".join(f"mcp__server__tool_{i}(_v2)?" for i in range(90_000))
    many = [{"matcher": f"tool_{i}.*", "hooks": [hook("true")]} for i in range(3_000)]
    (workspace.project / ".wave").mkdir(parents=True)
    workspace.write(
        workspace.project_settings,
        {"hooks": {"PreToolUse": [{"matcher": alternation, "hooks": [hook("true")]}]}},
    )
    workspace.write(workspace.local_settings, {"hooks": {"PostToolUse": many}})
    copilot_project(
        workspace.project, "big.json", {"preToolUse": [bash("true", matcher=alternation)]}
    )
    snow_project(
        workspace.project,
        "beforeToolCall",
        rule(action("true"), matcher=alternation.replace("|", ",")),
    )
    server = RawServer(workspace)
    try:
        server.initialize({"trusted": False})
        began = time.monotonic()
        answer = server.response(server.request(table.HOOKS_LIST.name, {}), timeout=120)
        seconds = time.monotonic() - began
        memory_mb = server.peak_memory_kb() / 1024
    finally:
        server.close()
    record("hostile matchers", huge_first_list_s=round(seconds, 2), peak_mb=round(memory_mb))
    diagnostics = answer["result"]["diagnostics"]
    over = [d for d in diagnostics if "over budget" in d["message"]]
    by_file = {d["path"] for d in over}
    assert str(workspace.project_settings) in by_file  # the 2.5 MB one
    assert str(workspace.local_settings) in by_file  # past 2,000 distinct patterns in one file
    assert any(".github" in path for path in by_file)
    assert any(".snow" in path for path in by_file)
    kept = [h for h in answer["result"]["hooks"] if h["event"] == "PostToolUse"]
    assert len(kept) == 2_000  # the budget's worth is listed; the rest are diagnostics
    assert seconds < 60
