"""The running-hooks status is kept per dispatch: one dispatch ending never clears another's."""

from pathlib import Path

import anyio

from tests.processes import TIMEOUT, until
from wavehost.hooks import payloads as p
from wavehost.hooks.engine import BackgroundHooks, HookEngine
from wavehost.hooks.sources import load_hook_config
from wavehost.session import transcript
from wavehost.session.conversation import AnyMessage, Conversation
from wavehost.session.hooks import SessionHooks
from wavehost.session.tools import Workspace
from wavehost.session.updates import HooksRunning, SessionUpdate


def _hook(command: str, status: str) -> dict[str, object]:
    return {"type": "command", "command": command, "statusMessage": status}


async def test_a_short_dispatch_ending_keeps_the_long_ones_status(
    project: Path, home: Path, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    wait = f"while [ ! -f {gate} ]; do sleep 0.05; done"
    programmatic = {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [_hook(wait, "main turn")]},
            {"matcher": "Read", "hooks": [_hook("true", "subagent")]},
        ]
    }
    engine = HookEngine(load_hook_config(project, home=home, programmatic=programmatic))
    seen: list[tuple[str, ...]] = []

    def listen(update: SessionUpdate) -> None:
        if isinstance(update, HooksRunning):
            seen.append(update.status_messages)

    def describe(messages: list[AnyMessage]) -> transcript.Transcript:
        now = transcript.now()
        state = transcript.TranscriptState(messages=messages)
        return transcript.Transcript(
            session_id="s", root=str(project), workdir=str(project), created_at=now,
            updated_at=now, state=state,
        )  # fmt: skip

    async with BackgroundHooks(lambda _: None) as background:
        hooks = SessionHooks(
            session_id="s",
            transcript_path=tmp_path / "session_s.json",
            root=project,
            workspace=Workspace(project, project),
            permission_mode="default",
            engine=engine,
            background=background,
            conversation=Conversation("s", tmp_path / "session_s.json", [], describe),
            emit=listen,
        )

        def call(tool: str) -> p.PreToolUseInput:
            return p.PreToolUseInput(
                **hooks.common(), tool_name=tool, tool_input={}, tool_use_id=tool
            )

        with anyio.fail_after(TIMEOUT):
            async with anyio.create_task_group() as group:
                group.start_soon(hooks.dispatch, call("Bash"))
                await until(lambda: hooks.running == ("main turn",))
                await hooks.dispatch(call("Read"))  # a subagent's hook, start to end
                assert hooks.running == ("main turn",)
                gate.touch()
    assert seen == [("main turn",), ("main turn", "subagent"), ("main turn",), ()]
