"""`wavehost chat -p` end to end: a real subprocess, real hooks, the fake model server."""

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio

from tests.hooks_doc import hooks_for, merge
from tests.processes import TIMEOUT
from tests.session.chat import turn
from tests.session.fake_llm import serve


async def wavehost(
    *args: str, home: Path, url: str, provider: str = "anthropic"
) -> tuple[int, str, str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "test-key",
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "test-key",
        "WAVE_PROVIDER": provider,
    }
    with anyio.fail_after(TIMEOUT):
        done = await anyio.run_process(
            [sys.executable, "-m", "wavehost", "chat", *args], env=env, check=False
        )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def settings(project: Path, hooks: dict[str, Any]) -> None:
    (project / ".wave").mkdir(parents=True, exist_ok=True)
    (project / ".wave" / "settings.json").write_text(json.dumps({"hooks": hooks}))


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
