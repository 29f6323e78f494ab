"""Session tests' helpers: real hook processes, the fake model server, what a chat did.

`chat(turns, "prompt", hooks=...)` (the `chat` fixture, a `ChatRunner`) writes the hooks into the
project's `.wave/settings.json`, points the official SDK at the fake server, runs the prompts to
idle and closes the session.
"""

import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.processes import TIMEOUT
from tests.session.fake_llm import FakeLLM, HttpError, Responder, serve
from wavehost import paths
from wavehost.session.chat_session import ChatSession, SessionConfig
from wavehost.session.lifecycle import open_session
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
    """The hooks' and the session's notices (not the lines that a Stop hook made it go on)."""
    every = [b for m in messages if isinstance(m, AssistantMessage) for b in m.notices()]
    return [b for b in every if b.kind is None]


def continued(messages: Sequence[Any]) -> list[NoticeBlock]:
    """The lines between two replies: a Stop hook made the agent go on, and why."""
    every = [b for m in messages if isinstance(m, AssistantMessage) for b in m.notices()]
    return [b for b in every if b.kind == "stopContinue"]


# A whole `wavehost chat` process (Python, the SDKs, every hook): generous, for loaded machines.
PROCESS_TIMEOUT = 4 * TIMEOUT


async def wavehost(
    *args: str, home: Path, url: str, provider: str = "anthropic"
) -> tuple[int, str, str]:
    """`wavehost chat ARGS` as a real subprocess against the fake model server at `url`."""
    env = {
        **os.environ,
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": url,
        "ANTHROPIC_API_KEY": "test-key",
        "OPENAI_BASE_URL": f"{url}/v1",
        "OPENAI_API_KEY": "test-key",
        "WAVE_PROVIDER": provider,
    }
    with anyio.fail_after(PROCESS_TIMEOUT):
        done = await anyio.run_process(
            [sys.executable, "-m", "wavehost", "chat", *args], env=env, check=False
        )
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def settings(project: Path, hooks: dict[str, Any]) -> None:
    """The project's `.wave/settings.json` with these hooks."""
    (project / ".wave").mkdir(parents=True, exist_ok=True)
    (project / ".wave" / "settings.json").write_text(json.dumps({"hooks": hooks}))


def write_call(path: Path, content: str = "hello\n") -> tuple[str, dict[str, str]]:
    return ("Write", {"file_path": str(path), "content": content})


def tool_results(request: dict[str, Any]) -> list[str]:
    """The tool_result texts of one request to the model (Anthropic wire format)."""
    found: list[str] = []
    for message in request["messages"]:
        content = message["content"]
        for part in content if isinstance(content, list) else []:
            if part.get("type") == "tool_result":
                inner = part["content"]
                found.append(inner if isinstance(inner, str) else inner[0]["text"])
    return found


def user_texts(request: dict[str, Any]) -> list[str]:
    """The user-side texts of one request to the model (Anthropic wire format)."""
    texts: list[str] = []
    for message in request["messages"]:
        if message["role"] != "user":
            continue
        content = message["content"]
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [p["text"] for p in content if p.get("type") == "text"]
    return texts


def is_subagent(body: dict[str, Any]) -> bool:
    return "subagent of Wave" in body["system"]


def by_agent(main: Sequence[ScriptedTurn], sub: Sequence[ScriptedTurn]) -> Responder:
    """Answers the main agent and the subagent from their own scripts: their requests may
    interleave when the subagent runs in the background."""
    seen = {"main": 0, "sub": 0}

    def respond(index: int, body: dict[str, Any]) -> ScriptedTurn:
        who = "sub" if is_subagent(body) else "main"
        script = sub if who == "sub" else main
        seen[who] += 1
        return script[seen[who] - 1]

    return respond


def agent(prompt: str, description: str, kind: str, **more: Any) -> tuple[str, dict[str, Any]]:
    return ("Agent", {"prompt": prompt, "description": description, "subagent_type": kind, **more})


# An AskUserQuestion call's input (seed 004's deployment question).
QUESTION = {
    "questions": [
        {
            "question": "您希望使用哪种部署方式？",
            "header": "部署",
            "options": [{"label": "Docker"}, {"label": "Kubernetes"}, {"label": "直接部署"}],
            "multiSelect": False,
        }
    ]
}


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
        async with self.open(turns, **options) as chat:
            for prompt in prompts:
                chat.session.send(prompt)
            with anyio.fail_after(TIMEOUT):
                await chat.session.wait_idle()
        return chat
