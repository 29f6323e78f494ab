"""`wavehost chat -p` end to end: a real subprocess, real hooks, the fake model server."""

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.dialect_files import action, bash, copilot_project, rule, snow_project
from tests.hooks_doc import hooks_for, merge
from tests.session.chat import PROCESS_TIMEOUT, settings, turn, wavehost
from tests.session.fake_llm import serve


async def test_json_output_with_hooks_firing_then_resume_in_text_mode(
    home: Path, project: Path
) -> None:
    seen = project.parent / "pre.json"
    settings(
        project,
        merge(
            hooks_for("UserPromptSubmit", "echo 'Use British spelling.'"),
            hooks_for("PreToolUse", f"cat > {seen}", matcher="Write"),
            hooks_for("Stop", 'echo \'{"systemMessage": "reply finished"}\''),
        ),
    )
    write = ("Write", {"file_path": "colour.txt", "content": "colour\n"})
    async with serve(
        [turn("Writing.", write), turn("Wrote colour.txt."), turn("Still here.")]
    ) as llm:
        code, out, err = await wavehost(
            "-p", "write the file", "--cwd", str(project), "--permission-mode", "acceptEdits",
            "--output-format", "json", home=home, url=llm.url,
        )  # fmt: skip
        assert code == 0, err
        document = json.loads(out)
        assert document["result"] == "Wrote colour.txt."
        assert document["is_error"] is False
        session_id = document["session_id"]
        path = home / ".wave" / "sessions" / f"session_{session_id}.json"
        assert document["transcript_path"] == str(path)
        roles = [(m["role"], m.get("isMeta")) for m in document["messages"]]
        assert roles == [("user", False), ("user", True), ("assistant", None), ("assistant", None)]
        assert document["messages"][2]["blocks"][1]["status"] == "success"
        assert (project / "colour.txt").read_text() == "colour\n"
        assert json.loads(seen.read_text())["tool_input"]["file_path"] == "colour.txt"
        assert "wavehost: info (Stop): reply finished" in err
        assert "Use British spelling." in llm.request_texts()[0]

        code, out, err = await wavehost(
            "-p", "still there?", "--resume", session_id, home=home, url=llm.url
        )
        assert (code, out) == (0, "Still here.\n"), err
        assert "Wrote colour.txt." in llm.request_texts()[2]


async def test_a_blocked_prompt_is_an_error_and_reaches_no_model(home: Path, project: Path) -> None:
    settings(project, hooks_for("UserPromptSubmit", "echo 'no secrets please' >&2; exit 2"))
    async with serve([turn("never")]) as llm:
        code, out, err = await wavehost(
            "-p",
            "token=abc",
            "--cwd",
            str(project),
            "--output-format",
            "json",
            home=home,
            url=llm.url,
        )
    document = json.loads(out)
    assert code == 1
    assert (document["is_error"], document["result"]) == (True, "no secrets please")
    assert [m["role"] for m in document["messages"]] == ["assistant"]
    assert llm.requests == []
    assert "no secrets please" in err


async def test_default_mode_headless_denies_edits_and_the_openai_provider_works(
    home: Path, project: Path
) -> None:
    write = ("Write", {"file_path": "x.txt", "content": "x"})
    async with serve([turn("", write), turn("Could not write.")]) as llm:
        code, out, err = await wavehost(
            "-p", "write x", "--cwd", str(project), "--output-format", "json",
            home=home, url=llm.url, provider="openai",
        )  # fmt: skip
    assert code == 0, err
    assert llm.paths == ["/v1/chat/completions", "/v1/chat/completions"]
    assert not (project / "x.txt").exists()
    tool = json.loads(out)["messages"][1]["blocks"][0]
    assert tool["status"] == "error"
    assert tool["error"] == (
        "Permission to use Write was denied: no one can be asked in headless mode."
    )


async def test_text_mode_tells_on_stderr_which_tool_calls_were_refused_and_why(
    home: Path, project: Path
) -> None:
    settings(project, hooks_for("PreToolUse", "echo 'no rm here' >&2; exit 2", matcher="Bash"))
    rm = ("Bash", {"command": "rm -rf build"})
    write = ("Write", {"file_path": "PLAN.md", "content": "plan"})
    async with serve([turn("Cleaning.", rm, write), turn("Nothing was written.")]) as llm:
        code, out, err = await wavehost("-p", "go", "--cwd", str(project), home=home, url=llm.url)
    assert (code, out) == (0, "Nothing was written.\n"), err
    assert err.splitlines() == [
        "wavehost: Bash was not done: PreToolUse:Bash hook error: no rm here",
        "wavehost: Write was not done: "
        "Permission to use Write was denied: no one can be asked in headless mode.",
    ]


async def no_key(*args: str, home: Path) -> tuple[int, str, str]:
    """`wavehost chat` with no provider credentials in its environment at all."""
    credentials = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "WAVE_PROVIDER")
    env = {k: v for k, v in os.environ.items() if k not in credentials}
    with anyio.fail_after(PROCESS_TIMEOUT):
        done = await anyio.run_process(
            [sys.executable, "-m", "wavehost", "chat", *args],
            env={**env, "HOME": str(home)}, check=False,
        )  # fmt: skip
    return done.returncode, done.stdout.decode(), done.stderr.decode()


@pytest.mark.parametrize(
    ("provider", "key"), [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")]
)
async def test_a_provider_without_its_api_key_is_one_line_naming_the_key(
    home: Path, project: Path, provider: str, key: str
) -> None:
    line = (
        f"wavehost: the {provider} provider needs an API key: set {key}, or choose another "
        'provider (--provider, WAVE_PROVIDER or "provider" in settings)\n'
    )
    code, out, err = await no_key(
        "-p", "hi", "--cwd", str(project), "--provider", provider, home=home
    )
    assert (code, out, err) == (1, "", line)
    code, out, err = await no_key(
        "-p", "hi", "--cwd", str(project), "--provider", provider, "--output-format", "json",
        home=home,
    )  # fmt: skip
    assert (code, err) == (1, line)
    document = json.loads(out)
    assert document["is_error"] is True
    assert document["result"] == line.removeprefix("wavehost: ").strip()
    assert not (home / ".wave" / "sessions").exists()  # no session was started


async def test_a_cwd_that_does_not_exist_is_one_line(home: Path, tmp_path: Path) -> None:
    code, out, err = await no_key("-p", "hi", "--cwd", str(tmp_path / "nowhere"), home=home)
    assert (code, out) == (2, "")
    assert (
        err == f"wavehost: no such folder: {tmp_path / 'nowhere'} (give --cwd an existing folder)\n"
    )


async def test_copilot_and_snow_hook_files_run_in_chat_p(home: Path, project: Path) -> None:
    """The CLI chat runs the other dialects' files too: a Copilot modifiedArgs rewrites the call,
    a Snow beforeToolCall exit 2 on the next one stops the flow (one fewer model call)."""
    rewrite = {"modifiedArgs": {"command": "echo rewritten"}}
    answer = bash(f"cat >/dev/null; echo '{json.dumps(rewrite)}'", matcher="bash")
    copilot_project(project, "a.json", {"preToolUse": [answer]})
    snow_project(
        project,
        "beforeToolCall",
        rule(action("echo 'no writes in CI' >&2; exit 2"), matcher="filesystem-create"),
    )
    calls = [
        turn("", ("Bash", {"command": "echo original"})),
        turn("", ("Write", {"file_path": "x.txt", "content": "x"})),
        turn("never reached"),
    ]
    async with serve(calls) as llm:
        code, out, err = await wavehost(
            "-p", "go", "--cwd", str(project), "--permission-mode", "bypassPermissions",
            "--output-format", "json", home=home, url=llm.url,
        )  # fmt: skip
        assert len(llm.requests) == 2
    document = json.loads(out)
    blocks = [b for m in document["messages"] if m["role"] == "assistant" for b in m["blocks"]]
    bash_block, write_block = (b for b in blocks if b["type"] == "tool")
    assert bash_block["input"] == {"command": "echo rewritten"}
    assert bash_block["result"] == "rewritten"
    assert write_block["error"] == "no writes in CI"
    assert not (project / "x.txt").exists()
    assert "no writes in CI" in err
    assert code in (0, 1)


def test_the_demo_readmes_headless_run_does_what_its_reply_says(home: Path, tmp_path: Path) -> None:
    """The demo project's README gives the headless run and its permission mode: the reply's
    claims (the Bash call refused, PLAN.md written) hold for that command."""
    demo = Path(__file__).resolve().parents[2] / "examples" / "demo-project"
    [line] = [
        x for x in (demo / "README.md").read_text().splitlines() if x.startswith("wavehost chat")
    ]
    project = tmp_path / "demo-project"
    shutil.copytree(demo, project)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("WAVE_", "ANTHROPIC_", "OPENAI_"))
    }
    done = subprocess.run(
        [sys.executable, "-m", "wavehost", *shlex.split(line)[1:]],
        cwd=project, env={**env, "HOME": str(home)}, capture_output=True, text=True,
        timeout=PROCESS_TIMEOUT, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "`PLAN.md` was written" in done.stdout
    assert (project / "PLAN.md").read_text().startswith("# Plan")
    assert "wavehost: Bash was not done: PreToolUse:Bash hook error:" in done.stderr
    assert "Write was not done" not in done.stderr
