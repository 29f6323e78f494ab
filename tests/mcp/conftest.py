"""MCP tests: the `chat` fixture (tests/session/chat.py), on the shared home and project."""

from pathlib import Path

import pytest

from tests.session.chat import ChatRunner


@pytest.fixture
def chat(home: Path, project: Path, monkeypatch: pytest.MonkeyPatch) -> ChatRunner:
    return ChatRunner(home, project, monkeypatch)
