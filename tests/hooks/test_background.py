"""async and asyncRewake hooks: run in the background; exit 2 of asyncRewake wakes the session."""

import logging
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.hooks.inputs import common
from tests.hooks_doc import hooks_doc
from tests.processes import alive
from wavehost.hooks.engine import BackgroundHooks, HookEngine, Rewake
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import StopInput
from wavehost.hooks.runner import HookContext
from wavehost.hooks.sources import load_hook_config


def rewake_hook(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, "asyncRewake": True, **fields}


def async_hook(command: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": command, "async": True, **fields}


class StopHooks:
    """Stop hooks of one session: `fire` dispatches Stop; `rewakes` collects what woke it."""

    def __init__(self, project: Path, *handlers: Any, workdir: Path | None = None) -> None:
        config = load_hook_config(project, programmatic=hooks_doc("Stop", *handlers)["hooks"])
        self.engine = HookEngine(config)
        self.payload = StopInput.model_validate(common("Stop", project))
        self.context = HookContext(workdir or project, workdir or project)
        self.rewakes: list[Rewake] = []
        self.background = BackgroundHooks(self.rewakes.append)

    async def fire(self) -> Outcome:
        return await self.engine.dispatch(self.payload, self.context, self.background)

    async def fire_and_wait(self) -> Outcome:
        async with self.background:
            return await self.fire()


async def test_async_hook_runs_in_the_background_and_dispatch_does_not_wait(
    project, tmp_path
) -> None:
    marker, pid_file = tmp_path / "finished", tmp_path / "pid"
    hooks = StopHooks(project, async_hook(f"echo $$ > {pid_file}; sleep 1; touch {marker}"))
    async with hooks.background:
        outcome = await hooks.fire()
        assert not marker.exists()  # dispatch came back before the hook's sleep ended
        assert outcome.runs == []
        with anyio.fail_after(30):
            while not pid_file.exists() or not pid_file.read_text():
                await anyio.sleep(0.02)
        assert alive(int(pid_file.read_text()))  # it runs meanwhile, in the background
    assert marker.exists()  # leaving the context waited for it


async def test_async_hook_output_is_logged_not_delivered(project, caplog) -> None:
    caplog.set_level(logging.INFO, logger="wavehost.hooks.engine")
    hooks = StopHooks(project, async_hook("echo async-says-hi; echo oops >&2; exit 2"))
    outcome = await hooks.fire_and_wait()
    assert hooks.rewakes == []  # plain async: exit 2 wakes nobody
    assert outcome.meta_messages == []
    assert outcome.notices == []
    assert "async-says-hi" in caplog.text
    assert "oops" in caplog.text


async def test_async_hook_timeout_is_honoured(project) -> None:
    with anyio.fail_after(30):
        await StopHooks(project, async_hook("sleep 60", timeout=1)).fire_and_wait()


async def test_async_rewake_exit2_wakes_the_session_with_stderr_as_a_reminder(project) -> None:
    hooks = StopHooks(project, rewake_hook("sleep 0.2; echo 发现硬编码密钥 >&2; exit 2"))
    await hooks.fire_and_wait()
    (rewake,) = hooks.rewakes
    assert rewake.session_id == "s1"
    assert rewake.event == "Stop"
    assert rewake.text == "发现硬编码密钥"
    assert rewake.reminder == "<system-reminder>\n发现硬编码密钥\n</system-reminder>"


async def test_async_rewake_uses_stdout_when_stderr_is_empty(project) -> None:
    hooks = StopHooks(project, rewake_hook("echo from-stdout; exit 2"))
    await hooks.fire_and_wait()
    assert [r.text for r in hooks.rewakes] == ["from-stdout"]


@pytest.mark.parametrize("command", ["echo fine >&2; exit 0", "echo broken >&2; exit 1", "exit 3"])
async def test_async_rewake_other_exit_codes_deliver_nothing(project, command: str) -> None:
    hooks = StopHooks(project, rewake_hook(command))
    await hooks.fire_and_wait()
    assert hooks.rewakes == []


async def test_async_rewake_timeout_delivers_nothing(project) -> None:
    hooks = StopHooks(project, rewake_hook("sleep 60; exit 2", timeout=1))
    await hooks.fire_and_wait()
    assert hooks.rewakes == []


async def test_async_rewake_spawn_failure_delivers_nothing_and_is_logged(
    project, tmp_path, caplog
) -> None:
    caplog.set_level(logging.INFO, logger="wavehost.hooks.engine")
    hooks = StopHooks(project, rewake_hook("exit 2"), workdir=tmp_path / "deleted")
    await hooks.fire_and_wait()
    assert hooks.rewakes == []
    assert "could not start hook" in caplog.text


async def test_async_rewake_implies_async(project, tmp_path) -> None:
    marker = tmp_path / "done"
    hooks = StopHooks(project, rewake_hook(f"sleep 1; touch {marker}; exit 2"))
    async with hooks.background:
        await hooks.fire()
        assert not marker.exists()
    assert len(hooks.rewakes) == 1


async def test_user_interrupt_kills_background_hooks_and_delivers_nothing(
    project, tmp_path
) -> None:
    pid_file = tmp_path / "pid"
    hooks = StopHooks(project, rewake_hook(f"echo $$ > {pid_file}; sleep 60; exit 2"))
    with anyio.fail_after(30):
        async with hooks.background:
            await hooks.fire()
            while not pid_file.exists() or not pid_file.read_text():
                await anyio.sleep(0.02)
            hooks.background.cancel_all()
    assert hooks.rewakes == []
    assert not alive(int(pid_file.read_text()))


async def test_new_dispatches_do_not_cancel_running_background_hooks(project) -> None:
    hooks = StopHooks(project, rewake_hook("sleep 0.5; echo late >&2; exit 2"))
    async with hooks.background:
        await hooks.fire()
        await hooks.fire()  # the next turn
    assert [r.text for r in hooks.rewakes] == ["late", "late"]


async def test_foreground_and_background_hooks_mix(project) -> None:
    hooks = StopHooks(project, "echo 'blocked' >&2; exit 2", rewake_hook("echo later >&2; exit 2"))
    outcome = await hooks.fire_and_wait()
    assert outcome.meta_messages == ["blocked"]
    assert [r.text for r in hooks.rewakes] == ["later"]
