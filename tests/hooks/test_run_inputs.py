"""The inputs hook runs received are kept private, bounded, and read back as their payloads."""

import os
from pathlib import Path

from tests.hooks.inputs import common
from wavehost.hooks.payloads import PreToolUseInput, StopInput
from wavehost.hooks.run_inputs import RunInputs, payload_of
from wavehost.hooks.sources import load_hook_config


def _payload(project: Path, command: str) -> PreToolUseInput:
    fields = common("PreToolUse", project, tool_name="Bash", tool_input={"command": command})
    return PreToolUseInput(**fields, raw_args=["a", "list"])


def _handler(project: Path, event: str = "PreToolUse"):  # type: ignore[no-untyped-def]
    config = load_hook_config(
        project, programmatic={event: [{"hooks": [{"type": "command", "command": "x"}]}]}
    )
    return config.handlers[0]


def test_an_input_comes_back_as_the_payload_it_was_with_every_field(
    tmp_path: Path, project: Path
) -> None:
    inputs = RunInputs(tmp_path / "runs" / "log.inputs.jsonl")
    payload = _payload(project, "rm -rf build")
    input_id = inputs.keep(payload)
    assert input_id is not None
    kept = inputs.get(input_id)
    assert kept is not None
    again = payload_of(_handler(project), kept.payload)
    assert again == payload  # the fields the Wave stdin leaves out too (the instant, raw_args)
    assert again.to_stdin() == payload.to_stdin()
    assert (tmp_path / "runs" / "log.inputs.jsonl").stat().st_mode & 0o777 == 0o600
    assert inputs.get("0" * 16) is None
    assert inputs.get("../../etc/passwd") is None


def test_a_conversation_is_kept_as_it_was_then(tmp_path: Path, project: Path) -> None:
    inputs = RunInputs(tmp_path / "inputs.jsonl")
    said = [{"role": "user", "content": "hi"}]
    stop = StopInput(**common("Stop", project), stop_hook_active=False, history=lambda: said)
    kept = inputs.get(inputs.keep(stop) or "")
    assert kept is not None
    again = payload_of(_handler(project, "Stop"), kept.payload)
    assert again.history is not None
    assert again.history() == said


def test_inputs_stay_bounded_and_private(tmp_path: Path, project: Path) -> None:
    path = tmp_path / "inputs.jsonl"
    path.write_bytes(b"")
    os.chmod(path, 0o644)  # made by someone else, readable by all
    inputs = RunInputs(path, per_input=2_000, max_bytes=20_000)
    assert inputs.keep(_payload(project, "x" * 5_000)) is None  # too large to keep
    ids = [inputs.keep(_payload(project, f"echo {i}")) for i in range(200)]
    assert all(ids)
    assert inputs.get(ids[-1] or "") is not None  # (written on the disk thread: waited for)
    assert path.stat().st_size <= 20_000 + 2_000
    assert path.stat().st_mode & 0o777 == 0o600
    assert inputs.get(ids[-1] or "") is not None  # the newest are kept
    assert inputs.get(ids[0] or "") is None  # the oldest went
