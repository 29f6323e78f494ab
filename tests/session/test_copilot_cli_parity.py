"""Copilot CLI hook files behave as Copilot CLI 1.0.102 runs them, in real chat turns with real
hook processes and the fake model server: the cases a first comparison with the real CLI found
different (seed 002 where it speaks; the observed CLI where it is silent). Each test names the
rule; docs/dialects.md says them all."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.dialect_files import bash, copilot_file, copilot_project, write
from tests.dialects.conftest import envs, lines, record
from tests.hooks_doc import hooks_for
from tests.session.chat import (
    ChatRunner,
    metas,
    notices,
    tool_results,
    tools,
    turn,
    user_texts,
    wavehost,
    write_call,
)
from tests.session.fake_llm import HttpError, serve
from wavehost import paths


def reply(document: Any) -> str:
    """A command printing this JSON document (after reading its stdin)."""
    text = document if isinstance(document, str) else json.dumps(document)
    return f"cat > /dev/null; printf '%s' '{text}'"


def noted(name: str, order: Path) -> str:
    """A command writing its name to `order` (after reading its stdin)."""
    return f"cat > /dev/null; echo {name} >> {order}"


def ran(order: Path) -> list[str]:
    return order.read_text().split() if order.exists() else []


def bash_call(command: str) -> tuple[str, dict[str, str]]:
    return ("Bash", {"command": command})


# --- 1. matchers ----------------------------------------------------------------------------


async def test_an_empty_pascal_matcher_matches_every_tool_on_pre_tool_use_and_permission(
    chat: ChatRunner, project: Path
) -> None:
    """Seed 002: "*、** 或空值匹配所有" for PascalCase PreToolUse / PermissionRequest."""
    pre, nested, perm = project / "pre.jsonl", project / "nested.jsonl", project / "perm.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "PreToolUse": [
                bash(record(pre), matcher=""),
                {"matcher": "", "hooks": [bash(record(nested))]},
            ],
            "PermissionRequest": [bash(record(perm), matcher="")],
        },
    )
    calls = (write_call(project / "a.txt"), bash_call("true"))
    await chat([turn("", *calls), turn("done")], "go")

    assert [seen["tool_name"] for seen in lines(pre)] == ["Write", "Bash"]
    assert [seen["tool_name"] for seen in lines(nested)] == ["Write", "Bash"]
    assert [seen["toolName"] for seen in lines(perm)] == ["edit", "bash"]


# --- 2. sessionStart ------------------------------------------------------------------------


async def test_a_session_starts_with_its_first_prompt_new_or_resumed(
    chat: ChatRunner, project: Path
) -> None:
    camel, pascal = project / "camel.jsonl", project / "pascal.jsonl"
    copilot_project(
        project,
        "a.json",
        {"sessionStart": [bash(record(camel))], "SessionStart": [bash(record(pascal))]},
    )
    first = await chat([turn("hi")], "hello there")
    await chat([turn("again")], "go on", resume=first.session.id)

    new, resumed = lines(camel)
    assert list(new) == ["sessionId", "timestamp", "cwd", "source", "initialPrompt"]
    assert (new["source"], new["initialPrompt"]) == ("new", "hello there")
    assert (resumed["source"], resumed["initialPrompt"]) == ("resume", "go on")
    assert [(s["source"], s["initial_prompt"]) for s in lines(pascal)] == [
        ("new", "hello there"),
        ("resume", "go on"),
    ]


# --- 3. sources -----------------------------------------------------------------------------


async def test_settings_file_hooks_run_too_in_copilots_order(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    order = project / "order.txt"
    user_dir = paths.copilot_user_hooks(home)
    repo_settings, repo_local = paths.copilot_project_settings(project)
    copilot_file(user_dir, "u.json", {"sessionStart": [bash(noted("user-dir", order))]})
    copilot_file(user_dir / "sub", "n.json", {"sessionStart": [bash(noted("user-sub", order))]})
    write(
        paths.copilot_user_settings(home),
        {"hooks": {"sessionStart": [bash(noted("user-settings", order))]}},
    )
    copilot_project(project, "p.json", {"sessionStart": [bash(noted("repo-dir", order))]})
    write(repo_settings, {"hooks": {"sessionStart": [bash(noted("repo-settings", order))]}})
    # Claude Code's own files are never read as Copilot files (a camelCase key is Copilot's)
    claude = {"hooks": {"sessionStart": [bash(noted("claude-as-copilot", order))]}}
    write(project / ".claude" / "settings.json", claude)
    write(project / ".claude" / "settings.local.json", claude)
    hook_dirs = project / "dirs.jsonl"
    copilot_project(project, "q.json", {"sessionStart": [bash(record(hook_dirs))]})
    write(repo_local, {"hooks": {"sessionStart": [bash(noted("repo-local", order))],
                                 "agentStop": [bash(record(hook_dirs))]}})  # fmt: skip
    await chat([turn("hi")], "hello")

    assert ran(order) == [
        "user-dir", "user-sub", "user-settings", "repo-dir", "repo-settings", "repo-local"
    ]  # fmt: skip
    from_folder, from_settings = envs(hook_dirs)
    assert from_folder["COPILOT_HOOK_DIR"] == str(paths.copilot_project_hooks(project))
    assert "COPILOT_HOOK_DIR" not in from_settings


async def test_disable_all_hooks_in_the_repository_settings_stops_every_copilot_hook(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    order = project / "order.txt"
    copilot_file(
        paths.copilot_user_hooks(home), "u.json", {"preToolUse": [bash(noted("user", order))]}
    )
    copilot_project(project, "p.json", {"preToolUse": [bash(noted("project", order))]})
    repo_settings, _ = paths.copilot_project_settings(project)
    write(repo_settings, {"disableAllHooks": True, "hooks": {"preToolUse": [bash("exit 1")]}})
    await chat(
        [turn("", bash_call("true")), turn("done")],
        "go",
        hooks=hooks_for("PreToolUse", noted("wave", order)),
    )

    assert ran(order) == ["wave"]  # Copilot's switch is Copilot's: Wave hooks still run


async def test_dot_files_and_dot_folders_in_a_hooks_folder_are_not_loaded(
    chat: ChatRunner, project: Path
) -> None:
    order = project / "order.txt"
    folder = paths.copilot_project_hooks(project)
    copilot_file(folder, ".hidden.json", {"sessionStart": [bash(noted("dot-file", order))]})
    copilot_file(folder / ".dir", "h.json", {"sessionStart": [bash(noted("dot-folder", order))]})
    copilot_file(folder, "seen.json", {"sessionStart": [bash(noted("seen", order))]})
    await chat([turn("hi")], "hello")

    assert ran(order) == ["seen"]


async def test_a_file_with_hooks_nested_deeper_than_one_level_is_rejected_whole(
    chat: ChatRunner, project: Path
) -> None:
    order = project / "order.txt"
    deep = {"hooks": [{"hooks": [bash(noted("deep", order))]}]}
    path = copilot_project(project, "a.json", {"sessionStart": [bash(noted("flat", order)), deep]})
    copilot_project(project, "b.json", {"sessionStart": [bash(noted("other-file", order))]})
    result = await chat([turn("hi")], "hello")

    assert ran(order) == ["other-file"]
    problems = [d for d in result.session.hooks.engine.config.diagnostics if d.path == str(path)]
    assert [d.message for d in problems] == [
        "/hooks/sessionStart/1: Nested hooks deeper than one level are not supported; "
        "the file's hooks are ignored"
    ]


async def test_a_bad_entry_in_a_settings_file_rejects_all_its_hooks(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    """Copilot reads a settings file's hooks strictly: one bad entry (here an empty matcher)
    and none of them run; an invalid regex only skips its own entry, as in a hooks file."""
    order = project / "order.txt"
    write(
        paths.copilot_user_settings(home),
        {"hooks": {"preToolUse": [bash(noted("user", order)), bash("x", matcher="")]}},
    )
    repo_settings, _ = paths.copilot_project_settings(project)
    write(
        repo_settings,
        {"hooks": {"preToolUse": [bash(noted("repo", order)), bash("x", matcher="b[")]}},
    )
    await chat([turn("", bash_call("true")), turn("done")], "go")

    assert ran(order) == ["repo"]


# --- 4. environment -------------------------------------------------------------------------


async def test_a_copilot_hook_gets_copilots_environment(
    chat: ChatRunner, project: Path, monkeypatch: Any
) -> None:
    seen = project / "env.jsonl"
    monkeypatch.setenv("GITHUB_TOKEN", "secret")
    monkeypatch.setenv("GH_TOKEN", "kept")
    overrides = {
        "COPILOT_CLI": "0", "COPILOT_PROJECT_DIR": "/x", "CLAUDE_PROJECT_DIR": "/x",
        "COPILOT_HOOK_DIR": "/mine", "GIT_CONFIG_COUNT": "1",
    }  # fmt: skip
    copilot_project(project, "a.json", {"sessionStart": [bash(record(seen), env=overrides)]})
    await chat([turn("hi")], "hello")

    [env] = envs(seen)
    assert (env["COPILOT_CLI"], env["COPILOT_PROJECT_DIR"]) == ("1", str(project))
    assert env["CLAUDE_PROJECT_DIR"] == str(project)
    assert env["COPILOT_HOOK_DIR"] == "/mine"  # this one an entry may set
    for gone in ("GITHUB_TOKEN", "OPENAI_BASE_URL", "OPENAI_API_KEY", "WAVE_PROJECT_DIR"):
        assert gone not in env
    assert env["GH_TOKEN"] == "kept"
    # appended to the list the hook already had
    assert (env["GIT_CONFIG_COUNT"], env["GIT_CONFIG_KEY_1"]) == ("2", "safe.bareRepository")
    assert env["GIT_CONFIG_VALUE_1"] == "explicit"


async def test_a_tilde_in_cwd_is_not_expanded_and_such_a_hook_cannot_start(
    chat: ChatRunner, project: Path, home: Path
) -> None:
    where = project / "where.txt"
    (home / "sub").mkdir()  # what an expanded "~/sub" would find
    copilot_project(
        project,
        "a.json",
        {
            "sessionStart": [
                bash(f"cat > /dev/null; pwd >> {where}", cwd="~"),
                bash(f"cat > /dev/null; pwd >> {where}", cwd="~/sub"),
                bash(f"cat > /dev/null; pwd >> {where}", cwd="."),
            ]
        },
    )
    result = await chat([turn("hi")], "hello")

    assert where.read_text().split() == [str(project)]
    assert [(n.level, n.text) for n in notices(result.messages)] == [
        (
            "warning",
            f'sessionStart hook: could not start hook: its cwd "{cwd}" is {project / cwd}, '
            "which is not a folder (Copilot resolves cwd against the session folder "
            '("~" is not expanded))',
        )
        for cwd in ("~", "~/sub")
    ]


# --- 5. the preToolUse chain ----------------------------------------------------------------


async def test_ask_ends_the_chain_and_headless_refuses_in_copilots_words(
    chat: ChatRunner, project: Path
) -> None:
    target, later = project / "a.txt", project / "later.jsonl"
    ask = {"permissionDecision": "ask", "permissionDecisionReason": "ask-reason"}
    deny = {"permissionDecision": "deny", "permissionDecisionReason": "deny-reason"}
    copilot_project(
        project,
        "a.json",
        {"preToolUse": [bash(reply(ask)), bash(record(later) + "; " + reply(deny))]},
    )
    result = await chat([turn("", write_call(target)), turn("ok")], "write", mode="default")

    refusal = "Denied by preToolUse hook (unable to ask user for confirmation): ask-reason"
    assert not later.exists()
    assert not target.exists()
    assert tool_results(result.llm.requests[1]) == [refusal]


async def test_an_ask_with_modified_args_keeps_the_call_as_the_model_made_it(
    chat: ChatRunner, project: Path
) -> None:
    target = project / "a.txt"
    ask = {
        "permissionDecision": "ask",
        "permissionDecisionReason": "sure?",
        "modifiedArgs": {"path": str(project / "other.txt"), "file_text": "x"},
    }
    copilot_project(project, "a.json", {"preToolUse": [bash(reply(ask))]})
    result = await chat([turn("", write_call(target)), turn("ok")], "write", mode="default")

    assert tools(result.messages)[0].input == {"file_path": str(target), "content": "hello\n"}
    [call] = [
        part
        for message in result.llm.requests[1]["messages"]
        for part in (message["content"] if isinstance(message["content"], list) else [])
        if part.get("type") == "tool_use"
    ]
    assert call["input"] == {"file_path": str(target), "content": "hello\n"}


async def test_modified_args_that_are_a_list_are_passed_on_and_the_tool_cannot_take_them(
    chat: ChatRunner, project: Path
) -> None:
    next_hook, failure = project / "next.jsonl", project / "failure.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "preToolUse": [bash(reply({"modifiedArgs": [1, 2]})), bash(record(next_hook))],
            "postToolUseFailure": [bash(record(failure))],
        },
    )
    target = project / "a.txt"
    result = await chat([turn("", write_call(target)), turn("ok")], "write")

    assert lines(next_hook)[0]["toolArgs"] == [1, 2]
    assert not target.exists()
    assert tool_results(result.llm.requests[1]) == [
        "Invalid input: Expected JSON object but got array"
    ]
    [failed] = lines(failure)
    assert (failed["toolArgs"], failed["error"]) == ({}, "Expected JSON object but got array")


async def test_a_bom_before_the_json_is_read_and_a_reason_reads_as_javascript_writes_it(
    chat: ChatRunner, project: Path
) -> None:
    hook = project / "hook.py"
    hook.write_text(
        "import json, sys\n"
        "command = json.load(sys.stdin)['toolArgs']['command']\n"
        "reasons = {'echo 1': 'bom', 'echo 2': {'x': 1}, 'echo 3': 5,\n"
        "           'echo 4': [1, [2, 3], None], 'echo 5': '', 'echo 6': False}\n"
        "out = json.dumps({'permissionDecision': 'deny',\n"
        "                  'permissionDecisionReason': reasons[command]})\n"
        "bom = '\\ufeff' if command == 'echo 1' else ''\n"
        "sys.stdout.buffer.write((bom + out).encode())\n"
    )
    copilot_project(project, "a.json", {"preToolUse": [bash(f"python3 {hook}")]})
    calls = [bash_call(f"echo {i}") for i in range(1, 7)]
    result = await chat([turn("", *calls), turn("ok")], "go")

    assert tool_results(result.llm.requests[1]) == [
        f"Denied by preToolUse hook: {reason}"
        for reason in ("bom", "[object Object]", "5", "1,2,3,", "", "false")
    ]


# --- 6. contexts ----------------------------------------------------------------------------


async def test_contexts_join_as_copilot_joins_them(chat: ChatRunner, project: Path) -> None:
    """sessionStart's in one message; userPromptSubmitted's last non-empty one only; preToolUse's
    one message, which comes after a failed tool's failure guidance."""
    copilot_project(
        project,
        "a.json",
        {
            "sessionStart": [
                bash(reply({"additionalContext": "SS-1"})),
                bash(reply({"additionalContext": "SS-2"})),
            ],
            "userPromptSubmitted": [
                bash(reply({"additionalContext": "UPS-1"})),
                bash(reply({"additionalContext": "UPS-2"})),
                bash(reply({"additionalContext": ""})),
                bash(reply({})),
            ],
            "preToolUse": [
                bash(reply({"additionalContext": "PRE-1"})),
                bash(reply({"additionalContext": "PRE-2"})),
            ],
            "PreToolUse": [bash(reply({"hookSpecificOutput": {"additionalContext": "P-PRE"}}))],
            "postToolUseFailure": [bash(reply({"additionalContext": "FAIL-1"}))],
        },
    )
    missing = ("Read", {"file_path": str(project / "missing.txt")})
    result = await chat([turn("", missing), turn("done")], "go")

    assert user_texts(result.llm.requests[0]) == [
        "SS-1\n\nSS-2",
        "go\n\n<system_reminder>\nUPS-2\n</system_reminder>",
    ]
    assert user_texts(result.llm.requests[1])[2:] == [
        'Tool "view" failed. Additional guidance from postToolUseFailure hooks:\nFAIL-1',
        "Additional context from preToolUse hook:\nPRE-1\n\nPRE-2\n\nP-PRE",
    ]


@pytest.mark.server  # `wavehost chat -p`
async def test_session_start_exit_2_warns_on_stderr_and_its_context_still_counts(
    home: Path, project: Path
) -> None:
    """Through `wavehost chat -p` itself (its stderr is what the user sees), which also starts
    the session as Copilot's `-p` does: `new`, with the prompt."""
    seen = project / "start.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "sessionStart": [
                bash(record(seen)),
                bash(reply({"additionalContext": "SS-CTX"}) + "; echo SS-STDERR >&2; exit 2"),
            ]
        },
    )
    async with serve([turn("done")]) as llm:
        code, _, err = await wavehost(
            "-p", "go", "--cwd", str(project), home=home, url=llm.url, provider="openai"
        )
    assert code == 0, err
    assert [(p["source"], p["initialPrompt"]) for p in lines(seen)] == [("new", "go")]
    assert "wavehost: warning (sessionStart): SS-STDERR" in err
    texts = [m["content"] for m in llm.requests[0]["messages"] if m["role"] == "user"]
    assert texts == ["SS-CTX", "go"]


# --- 7. chaining ----------------------------------------------------------------------------


async def test_prompt_transformed_hooks_each_read_the_original_and_the_last_rewrite_wins(
    chat: ChatRunner, project: Path
) -> None:
    first, second = project / "first.jsonl", project / "second.jsonl"
    copilot_project(
        project,
        "a.json",
        {
            "userPromptTransformed": [
                bash(record(first) + "; " + reply({"modifiedTransformedPrompt": "T-1"})),
                bash(record(second) + "; " + reply({"modifiedTransformedPrompt": "T-2"})),
            ]
        },
    )
    result = await chat([turn("hi")], "original prompt")

    for seen in (first, second):
        transformed = lines(seen)[0]["transformedPrompt"]
        stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d"
        assert re.fullmatch(
            f"<current_datetime>{stamp}</current_datetime>\n\noriginal prompt", transformed
        )
    assert user_texts(result.llm.requests[0]) == ["T-2"]


async def test_post_tool_use_hooks_each_read_the_result_the_one_before_made(
    chat: ChatRunner, project: Path
) -> None:
    second, third = project / "second.jsonl", project / "third.jsonl"
    first_result = {"modifiedResult": {"resultType": "failure", "textResultForLlm": "MOD-1"}}
    second_result = {"modifiedResult": {"textResultForLlm": "MOD-2"}}
    copilot_project(
        project,
        "a.json",
        {
            "postToolUse": [
                bash(reply(first_result)),
                bash(record(second) + "; " + reply(second_result)),
                bash(record(third)),
            ]
        },
    )
    result = await chat([turn("", bash_call("echo out")), turn("ok")], "go")

    assert lines(second)[0]["toolResult"] == {"resultType": "failure", "textResultForLlm": "MOD-1"}
    assert lines(third)[0]["toolResult"] == {"resultType": "failure", "textResultForLlm": "MOD-2"}
    assert tool_results(result.llm.requests[1]) == ["MOD-2"]


# --- 8. ordering ----------------------------------------------------------------------------


async def test_session_start_and_prompt_submitted_chains_start_together(
    chat: ChatRunner, project: Path
) -> None:
    """The sessionStart hook waits (up to 20 s) for the prompt hook to have started: it only
    sees it when the two chains run at the same time."""
    started, saw = project / "prompt-started", project / "saw.txt"
    waits = (
        f"cat > /dev/null; for i in $(seq 200); do [ -e {started} ] && break; sleep 0.1; done; "
        f"[ -e {started} ] && echo together > {saw} || echo apart > {saw}"
    )
    copilot_project(
        project,
        "a.json",
        {
            "sessionStart": [bash(waits)],
            "userPromptSubmitted": [bash(f"cat > /dev/null; touch {started}")],
        },
    )
    await chat([turn("hi")], "hello")

    assert saw.read_text().strip() == "together"


# --- 9. tool results as Copilot reports them --------------------------------------------------


async def test_a_command_exiting_non_zero_is_a_successful_bash_call_for_copilot_hooks(
    chat: ChatRunner, project: Path
) -> None:
    post, failure = project / "post.jsonl", project / "failure.jsonl"
    copilot_project(
        project,
        "a.json",
        {"postToolUse": [bash(record(post))], "postToolUseFailure": [bash(record(failure))]},
    )
    await chat([turn("", bash_call("echo out; exit 3")), turn("ok")], "go")

    [payload] = lines(post)
    assert payload["toolResult"] == {
        "resultType": "success",
        "textResultForLlm": "Exit code 3\nout",
    }
    assert not failure.exists()


async def test_pascal_tool_input_keeps_copilots_keys(chat: ChatRunner, project: Path) -> None:
    seen = project / "seen.jsonl"
    target = project / "a.txt"
    target.write_text("one two\n")
    copilot_project(project, "a.json", {"PostToolUse": [bash(record(seen))]})
    edit = ("Edit", {"file_path": str(target), "old_string": "two", "new_string": "2"})
    await chat([turn("", edit), turn("ok")], "go")

    [payload] = lines(seen)
    assert (payload["tool_name"], payload["tool_input"]) == (
        "Edit",
        {"path": str(target), "old_str": "two", "new_str": "2"},
    )


async def test_a_permission_request_for_a_file_names_edit_with_its_diff(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "perm.jsonl"
    created, changed = project / "new.txt", project / "old.txt"
    changed.write_text("line one\nline two\n")
    copilot_project(project, "a.json", {"permissionRequest": [bash(record(seen))]})
    edit = ("Edit", {"file_path": str(changed), "old_string": "line two", "new_string": "line 2"})
    await chat([turn("", write_call(created, "hello\nworld\n"), edit), turn("ok")], "go")

    first, second = lines(seen)
    assert (first["toolName"], first["toolInput"]) == (
        "edit",
        {
            "file_path": str(created),
            "diff": f"\ndiff --git a{created} b{created}\ncreate file mode 100644\n"
            f"index 0000000..0000000\n--- a/dev/null\n+++ b{created}\n"
            "@@ -1,0 +1,2 @@\n+hello\n+world\n",
        },
    )
    assert (second["toolName"], second["toolInput"]) == (
        "edit",
        {
            "file_path": str(changed),
            "diff": f"\ndiff --git a{changed} b{changed}\nindex 0000000..0000000 100644\n"
            f"--- a{changed}\n+++ b{changed}\n"
            "@@ -1,3 +1,3 @@\n line one\n-line two\n+line 2\n \n",
        },
    )


async def test_error_occurred_says_error_with_a_stack(chat: ChatRunner, project: Path) -> None:
    seen = project / "err.jsonl"
    copilot_project(project, "a.json", {"errorOccurred": [bash(record(seen))]})
    await chat([HttpError(400, "bad request from fake")], "hello")

    [payload] = lines(seen)
    error = payload["error"]
    assert error["name"] == "Error"
    assert error["stack"].startswith(f"Error: {error['message']}\n")
    assert "bad request from fake" in error["message"]


# --- 10. big outputs --------------------------------------------------------------------------


async def test_big_contexts_and_reasons_pass_whole_but_post_tool_guidance_is_cut(
    chat: ChatRunner, project: Path
) -> None:
    def printing(document: dict[str, Any], name: str) -> str:
        path = project / f"{name}.json"
        path.write_text(json.dumps(document))
        return f"cat > /dev/null; cat {path}"

    start, pre, deny, post = ("S" * 20_000, "P" * 15_000, "D" * 20_000, "G" * 50_000)
    copilot_project(
        project,
        "a.json",
        {
            "sessionStart": [bash(printing({"additionalContext": start}, "start"))],
            "preToolUse": [bash(printing({"additionalContext": pre}, "pre"))],
            "postToolUse": [bash(printing({"additionalContext": post}, "post"))],
        },
    )
    copilot_project(
        project,
        "b.json",
        {
            "preToolUse": [
                {
                    "matcher": "create",
                    "bash": printing(
                        {"permissionDecision": "deny", "permissionDecisionReason": deny}, "deny"
                    ),
                }
            ]
        },
    )
    calls = (bash_call("echo out"), write_call(project / "a.txt"))
    result = await chat([turn("", *calls), turn("ok")], "go")

    assert user_texts(result.llm.requests[0])[0] == start
    ran_result, denied = tool_results(result.llm.requests[1])
    assert ran_result == (
        'out\n\nTool "bash" succeeded. Additional guidance from postToolUse hooks:\n'
        + post[:10_240]
    )
    assert denied == f"Denied by preToolUse hook: {deny}"
    assert f"Additional context from preToolUse hook:\n{pre}" in user_texts(result.llm.requests[1])
    assert metas(result.messages)[0] == start


# --- 11. the agentStop block cap --------------------------------------------------------------


async def test_eight_agent_stop_blocks_are_honoured_then_the_stop_goes_through_silently(
    chat: ChatRunner, project: Path
) -> None:
    seen = project / "stop.jsonl"
    block = reply({"decision": "block", "reason": "KEEP-GOING"})
    copilot_project(project, "a.json", {"agentStop": [bash(record(seen) + "; " + block)]})
    result = await chat([], "loop", respond=lambda index, body: turn(f"reply {index}"))

    assert len(result.llm.requests) == 9
    assert len(lines(seen)) == 9
    assert metas(result.messages) == ["KEEP-GOING"] * 8
    assert not [n for n in notices(result.messages) if n.level == "warning"]
