"""Many sessions at once through one server: every turn answered, nothing of one session in
another's replies, updates or transcript (bench/sessions.py runs it at 50 × 100)."""

import asyncio

from tests.reliability.figures import FIGURES
from tests.reliability.many_sessions import run
from tests.workspace import Workspace


def test_sessions_running_together_keep_to_themselves(workspace: Workspace) -> None:
    outcome = asyncio.run(run(workspace, sessions=8, turns=6))
    FIGURES["many sessions"] = outcome.figures()
    assert outcome.errors == []
    assert outcome.cross_talk == []
    assert len(outcome.latencies) == 8 * 6
    assert outcome.model_requests == 8 * 6
