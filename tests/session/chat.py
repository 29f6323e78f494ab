"""Session tests' helpers: real hook processes, the fake model server, what a chat did.

`chat(turns, "prompt", hooks=...)` (the `chat` fixture, a `ChatRunner`) writes the hooks into the
project's `.wave/settings.json`, points the official SDK at the fake server, runs the prompts to
idle and closes the session.
"""

import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.processes import TIMEOUT
from tests.session.fake_llm import FakeLLM, HttpError, Responder, serve
from wavehost import paths
from wavehost.session.chat_session import ChatSession, SessionConfig, open_session
from wavehost.session.messages import AssistantMessage, NoticeBlock, ToolBlock, UserMessage
from wavehost.session.permissions import PermissionAsker
from wavehost.session.providers import ProviderChoice, make_provider
from wavehost.session.providers.scripted import ScriptedToolCall, ScriptedTurn


def turn(text: str = "", *calls: tuple[str, dict[str, Any]]) -> ScriptedTurn:
    return ScriptedTurn(text=text, tool_calls=[ScriptedToolCall(name=n, input=i) for n, i in calls])


def record(path: Path) -> str:
    """A hook command appending its stdin as one JSON line to `path`."""
    return f"python3 -c \"import sys; open('{path}', 'a').write(sys.stdin.read().strip() + '\\n')\""


def lines(path: Path) -> list[dict[str, Any]]:
    """What `record` wrote: one hook input per line."""
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def metas(messages: Sequence[Any]) -> list[str]:
    return [m.content for m in messages if isinstance(m, UserMessage) and m.is_meta]


def users(messages: Sequence[Any]) -> list[UserMessage]:
    return [m for m in messages if isinstance(m, UserMessage)]


def tools(messages: Sequence[Any]) -> list[ToolBlock]:
    return [b for m in messages if isinstance(m, AssistantMessage) for b in m.tools()]


def notices(messages: Sequence[Any]) -> list[NoticeBlock]:
    return [b for m in messages if isinstance(m, AssistantMessage) for b in m.notices()]


@dataclass
class Chat:
    session: ChatSession
    llm: FakeLLM

    @property
    def messages(self) -> list[Any]:
        return self.session.messages


@dataclass
class ChatRunner:
    home: Path
    project: Path
    monkeypatch: pytest.MonkeyPatch

    def write_hooks(self, hooks: dict[str, Any]) -> None:
        settings = paths.project_settings(self.project)
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({"hooks": hooks}), encoding="utf-8")

    @asynccontextmanager
    async def open(
        self,
        turns: Sequence[ScriptedTurn | HttpError] = (),
        *,
        hooks: dict[str, Any] | None = None,
        programmatic: dict[str, Any] | None = None,
        provider: str = "anthropic",
        mode: Any = "bypassPermissions",
        ask: PermissionAsker | None = None,
        respond: Responder | None = None,
        resume: str | None = None,
        listeners: Sequence[Callable[[Any], None]] = (),
        config: dict[str, Any] | None = None,
    ) -> AsyncIterator[Chat]:
        if hooks is not None:
            self.write_hooks(hooks)
        async with serve(turns, respond) as llm:
            self.monkeypatch.setenv("ANTHROPIC_BASE_URL", llm.url)
            self.monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
            self.monkeypatch.setenv("OPENAI_BASE_URL", f"{llm.url}/v1")
            self.monkeypatch.setenv("OPENAI_API_KEY", "test-key")
            config = SessionConfig(
                root=self.project,
                provider=make_provider(ProviderChoice(provider, f"fake-{provider}")),
                permission_mode=mode,
                hooks=programmatic,
                ask_permission=ask,
                listeners=list(listeners),
                **(config or {}),
            )
            async with open_session(config, resume=resume) as session:
                yield Chat(session, llm)

    async def __call__(
        self, turns: Sequence[ScriptedTurn | HttpError], *prompts: str, **options: Any
    ) -> Chat:
        import anyio

        async with self.open(turns, **options) as chat:
            for prompt in prompts:
                chat.session.send(prompt)
            with anyio.fail_after(TIMEOUT):
                await chat.session.wait_idle()
        return chat
