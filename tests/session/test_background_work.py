"""Background shells: Stop's `background_tasks` (seed 000 "Stop Hook 后台工作感知"), reading and
stopping them (TaskOutput / TaskStop), and the notification that restarts the loop when one ends."""

import re
from pathlib import Path
from typing import Any

import anyio

from tests.hooks_doc import hooks_for
from tests.processes import TIMEOUT, alive, until
from tests.session.chat import ChatRunner, lines, record, tools, turn
from wavehost.session.providers.scripted import ScriptedTurn

# Blocks the first Stop of a turn while background work runs; lets later ones through.
WAIT_FOR_BACKGROUND = (
    'python3 -c "import json,sys; d=json.load(sys.stdin); '
    "sys.exit(0) if d['stop_hook_active'] or not d['background_tasks'] "
    "else (print('wait for the background work', file=sys.stderr), sys.exit(2))\""
)


def gated(gate: Path, then: str = "echo finished") -> str:
    return f"while [ ! -f {gate} ]; do sleep 0.02; done; {then}"


async def test_stop_sees_running_shells_blocks_and_the_completion_restarts_the_loop(
    chat: ChatRunner, project: Path
) -> None:
    gate, log = project.parent / "gate", project.parent / "stop.jsonl"
    command = gated(gate)
    hooks = {
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": record(log)},
                    {"type": "command", "command": WAIT_FOR_BACKGROUND},
                ]
            }
        ]
    }
    script = [
        turn("", ("Bash", {"command": command, "run_in_background": True})),
        turn("started it"),
        turn("still waiting"),
        turn("it finished"),
    ]
    async with chat.open(script, hooks=hooks) as running:
        running.session.send("run it in the background")
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()
        assert len(running.llm.requests) == 3  # blocked once: "wait for the background work"
        gate.touch()
        await until(lambda: len(lines(log)) == 3)
        with anyio.fail_after(TIMEOUT):
            await running.session.wait_idle()

    shell = {"type": "shell", "status": "running", "command": command}
    assert [i["background_tasks"] for i in lines(log)] == [[shell], [shell], []]
    assert [i["stop_hook_active"] for i in lines(log)] == [False, True, False]
    texts = running.llm.request_texts()
    assert "wait for the background work" in texts[2]
    assert "<task-notification>" in texts[3]
    assert f'Background command "{command}" completed (exit code 0)' in texts[3]


async def test_stop_always_has_both_lists_and_long_commands_are_cut_to_1000_characters(
    chat: ChatRunner, project: Path
) -> None:
    log = project.parent / "stop.jsonl"
    command = "sleep 30 # " + "x" * 1200  # killed when the session closes
    script = [turn("", ("Bash", {"command": command, "run_in_background": True})), turn("ok")]
    await chat(script, "go", hooks=hooks_for("Stop", record(log)))

    [stop] = lines(log)
    [task] = stop["background_tasks"]
    assert task["command"] == command[:1000] + f"… [+{len(command) - 1000} chars]"
    assert set(task) == {"type", "status", "command"}  # no agent_type / name for a shell
    assert stop["session_crons"] == []


def _task(body: dict[str, Any]) -> tuple[str, str]:
    text = "\n".join(str(m) for m in body["messages"])
    found = re.search(r"ID: (bash_\w+)\. Output is being written to: (\S+\.log)", text)
    assert found, text
    return found[1], found[2]


async def test_task_output_reads_a_running_shell_and_task_stop_kills_it_without_a_notification(
    chat: ChatRunner,
) -> None:
    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        if index == 0:
            return turn(
                "", ("Bash", {"command": "echo started; sleep 30", "run_in_background": True})
            )
        task_id, output = _task(body)
        script = [
            ("Bash", {"command": f"until grep -q started {output}; do sleep 0.02; done"}),
            ("TaskOutput", {"task_id": task_id, "block": False}),
            ("TaskStop", {"task_id": task_id}),
            ("TaskOutput", {"task_id": task_id}),
            ("TaskStop", {"task_id": "bash_nope"}),
        ]
        return turn("", script[index - 1]) if index <= len(script) else turn("stopped")

    result = await chat([], "go", respond=respond)

    _, _, peek, stop, after, unknown = tools(result.messages)
    assert peek.result is not None
    assert peek.result.startswith(f"Task {stop.input['task_id']} (shell) status: running")
    assert peek.result.endswith("started")
    assert stop.result is not None
    assert stop.result.startswith("Successfully stopped task")
    assert after.result is not None
    assert "status: killed" in after.result
    assert unknown.error == "No task found with ID: bash_nope"
    assert not any("<task-notification>" in text for text in result.llm.request_texts())


async def test_sessions_leave_no_task_folder_behind(
    chat: ChatRunner, tmp_path: Path, monkeypatch: Any
) -> None:
    import tempfile

    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    await chat([turn("no background work")], "hello")
    started = await chat(
        [turn("", ("Bash", {"command": "echo hi", "run_in_background": True})), turn("started")],
        "run it in the background",
    )
    [bash] = tools(started.messages)
    output = Path(bash.result.split("Output is being written to: ")[1].split(". ")[0])
    assert output.parent.parent == temp  # it was a task folder in the temp dir…
    assert sorted(p.name for p in temp.iterdir() if p.name.startswith("wavehost-tasks-")) == []


async def test_the_sessions_end_kills_a_background_shell_that_ignores_sigterm(
    chat: ChatRunner, project: Path
) -> None:
    pid_file = project.parent / "stubborn.pid"
    stubborn = f"trap '' TERM; echo $$ > {pid_file}; while true; do sleep 0.1; done"
    script = [turn("", ("Bash", {"command": stubborn, "run_in_background": True})), turn("ok")]
    with anyio.fail_after(TIMEOUT):
        async with chat.open(script) as running:
            running.session.send("start it")
            await running.session.wait_idle()
            await until(lambda: pid_file.exists() and bool(pid_file.read_text().strip()))
            pid = int(pid_file.read_text())
            assert alive(pid)
    assert not alive(pid)
