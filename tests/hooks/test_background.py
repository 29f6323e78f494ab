"""async and asyncRewake hooks: run in the background; exit 2 of asyncRewake wakes the session."""

import logging
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import common, hooks_doc
from wavehost.hooks.config import load_hook_config
from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import StopInput
from wavehost.hooks.runner import HookContext


def rewake_hook(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, "asyncRewake": True, **fields}


async def stop_with(project: Path, *handlers: Any) -> tuple[Outcome, BackgroundHooks, list[Rewake]]:
    """Fire Stop and wait until the background hooks finished; returns what was delivered."""
    engine = HookEngine(
        load_hook_config(project, programmatic=hooks_doc("Stop", *handlers)["hooks"])
    )
    rewakes: list[Rewake] = []
    async with BackgroundHooks(rewakes.append) as background:
        outcome = await engine.dispatch(
            StopInput.model_validate(common("Stop", project)),
            HookContext(project, project),
            background,
        )
    return outcome, background, rewakes


async def test_async_hook_runs_in_the_background_and_dispatch_does_not_wait(
    project, tmp_path
) -> None:
    marker = tmp_path / "finished"
    engine = HookEngine(
        load_hook_config(
            project,
            programmatic=hooks_doc(
                "Stop", {"type": "command", "command": f"sleep 1; touch {marker}", "async": True}
            )["hooks"],
        )
    )
    async with BackgroundHooks(lambda _: None) as background:
        outcome = await engine.dispatch(
            StopInput.model_validate(common("Stop", project)),
            HookContext(project, project),
            background,
        )
        assert not marker.exists()  # dispatch came back before the hook's sleep ended
        assert background.running == 1
        assert outcome.runs == []
    assert marker.exists()  # leaving the context waited for it


async def test_async_hook_output_is_logged_not_delivered(project, caplog) -> None:
    caplog.set_level(logging.INFO, logger="wavehost.hooks.engine")
    hook = {
        "type": "command",
        "command": "echo async-says-hi; echo oops >&2; exit 2",
        "async": True,
    }
    outcome, _, rewakes = await stop_with(project, hook)
    assert rewakes == []  # plain async: exit 2 wakes nobody
    assert outcome.meta_messages == []
    assert outcome.notices == []
    assert "async-says-hi" in caplog.text
    assert "oops" in caplog.text


async def test_async_hook_timeout_is_honoured(project, tmp_path) -> None:
    hook = {"type": "command", "command": "sleep 60", "async": True, "timeout": 1}
    with anyio.fail_after(30):
        await stop_with(project, hook)


async def test_async_rewake_exit2_wakes_the_session_with_stderr_as_a_reminder(project) -> None:
    _, _, rewakes = await stop_with(
        project, rewake_hook("sleep 0.2; echo 发现硬编码密钥 >&2; exit 2")
    )
    (rewake,) = rewakes
    assert rewake.session_id == "s1"
    assert rewake.event == "Stop"
    assert rewake.text == "发现硬编码密钥"
    assert rewake.reminder == "<system-reminder>\n发现硬编码密钥\n</system-reminder>"


async def test_async_rewake_uses_stdout_when_stderr_is_empty(project) -> None:
    _, _, rewakes = await stop_with(project, rewake_hook("echo from-stdout; exit 2"))
    assert [r.text for r in rewakes] == ["from-stdout"]


@pytest.mark.parametrize("command", ["echo fine >&2; exit 0", "echo broken >&2; exit 1", "exit 3"])
async def test_async_rewake_other_exit_codes_deliver_nothing(project, command: str) -> None:
    _, _, rewakes = await stop_with(project, rewake_hook(command))
    assert rewakes == []


async def test_async_rewake_timeout_delivers_nothing(project) -> None:
    _, _, rewakes = await stop_with(project, rewake_hook("sleep 60; exit 2", timeout=1))
    assert rewakes == []


async def test_async_rewake_spawn_failure_delivers_nothing_and_is_logged(
    project, tmp_path, caplog
) -> None:
    caplog.set_level(logging.INFO, logger="wavehost.hooks.engine")
    nowhere = tmp_path / "deleted"
    config = load_hook_config(
        project, programmatic=hooks_doc("Stop", rewake_hook("exit 2"))["hooks"]
    )
    rewakes: list[Rewake] = []
    async with BackgroundHooks(rewakes.append) as background:
        payload = StopInput.model_validate(common("Stop", project))
        await HookEngine(config).dispatch(payload, HookContext(nowhere, nowhere), background)
    assert rewakes == []
    assert "could not start hook" in caplog.text


async def test_async_rewake_implies_async(project, tmp_path) -> None:
    marker = tmp_path / "done"
    engine = HookEngine(
        load_hook_config(
            project,
            programmatic=hooks_doc("Stop", rewake_hook(f"sleep 1; touch {marker}; exit 2"))[
                "hooks"
            ],
        )
    )
    rewakes: list[Rewake] = []
    async with BackgroundHooks(rewakes.append) as background:
        await engine.dispatch(
            StopInput.model_validate(common("Stop", project)),
            HookContext(project, project),
            background,
        )
        assert not marker.exists()
    assert len(rewakes) == 1


async def test_user_interrupt_kills_background_hooks_and_delivers_nothing(
    project, tmp_path
) -> None:
    pid_file = tmp_path / "pid"
    engine = HookEngine(
        load_hook_config(
            project,
            programmatic=hooks_doc("Stop", rewake_hook(f"echo $$ > {pid_file}; sleep 60; exit 2"))[
                "hooks"
            ],
        )
    )
    rewakes: list[Rewake] = []
    with anyio.fail_after(30):
        async with BackgroundHooks(rewakes.append) as background:
            await engine.dispatch(
                StopInput.model_validate(common("Stop", project)),
                HookContext(project, project),
                background,
            )
            while not pid_file.exists() or not pid_file.read_text():
                await anyio.sleep(0.02)
            background.cancel_all()
    assert rewakes == []
    assert background.running == 0


async def test_new_dispatches_do_not_cancel_running_background_hooks(project) -> None:
    engine = HookEngine(
        load_hook_config(
            project,
            programmatic=hooks_doc("Stop", rewake_hook("sleep 0.5; echo late >&2; exit 2"))[
                "hooks"
            ],
        )
    )
    rewakes: list[Rewake] = []
    async with BackgroundHooks(rewakes.append) as background:
        payload = StopInput.model_validate(common("Stop", project))
        await engine.dispatch(payload, HookContext(project, project), background)
        await engine.dispatch(payload, HookContext(project, project), background)  # the next turn
    assert [r.text for r in rewakes] == ["late", "late"]


async def test_foreground_and_background_hooks_mix(project) -> None:
    outcome, _, rewakes = await stop_with(
        project, "echo 'blocked' >&2; exit 2", rewake_hook("echo later >&2; exit 2")
    )
    assert outcome.meta_messages == ["blocked"]
    assert [r.text for r in rewakes] == ["later"]
