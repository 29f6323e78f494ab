"""Headless mode: one turn with every hook firing, then the result on stdout.

This is how scripts and CI use wavehost. Nobody can answer a permission question, so the
permission mode alone decides. `text` prints the reply; `json` prints
`{"result", "session_id", "transcript_path", "is_error", "messages"}`. Notices (user-only lines:
hook errors, systemMessage) and tool calls that were refused or failed go to stderr in both forms,
one line each.

Before it ends, the run waits for the background hooks the turn started (`async`, `asyncRewake`;
each bounded by its own timeout): an asyncRewake hook that exits 2 wakes the model for a turn of
its own, as in a session that stays open, and the run prints that turn's reply. At most
`WAKE_ROUNDS` such turns: a hook that wakes the model every time cannot keep the run alive.
"""

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from wavehost.hooks.payloads import PermissionMode
from wavehost.session import transcript
from wavehost.session.chat_session import SessionConfig
from wavehost.session.lifecycle import open_session
from wavehost.session.messages import AssistantMessage
from wavehost.session.providers import ProviderError, chat_settings, choose, make_provider

OutputFormat = Literal["text", "json"]
WAKE_ROUNDS = 8  # wake-up turns a one-shot run still takes after its prompt's turn
ENTRYPOINT = "sdk-cli"  # $CLAUDE_CODE_ENTRYPOINT, as Claude Code's own `-p`
WRONG_CALL = 2  # the command line's status for a call that cannot work as given


@dataclass(frozen=True)
class HeadlessRun:
    prompt: str
    cwd: Path | None = None
    permission_mode: PermissionMode = "default"
    provider: str | None = None
    model: str | None = None
    script: Path | None = None
    output_format: OutputFormat = "text"
    resume: str | None = None


async def run_headless(run: HeadlessRun, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Run the turn and print it; the exit status is 1 when the turn failed."""
    try:
        saved = transcript.load(run.resume) if run.resume else None  # fails here, in one line
        root = run.cwd or (Path(saved.root) if saved else Path.cwd())
        choice = choose(run.provider, run.model, run.script, chat_settings(root.resolve()))
        provider = make_provider(choice)
    except (
        ProviderError,
        transcript.SessionNotFoundError,
        transcript.UnreadableSessionError,
    ) as problem:
        print(f"wavehost: {problem}", file=err)
        if run.output_format == "json":  # a script reading stdout learns it failed, and why
            failed = {"result": str(problem), "session_id": None, "transcript_path": None}
            print(json.dumps({**failed, "is_error": True, "messages": []}), file=out, flush=True)
        # An id that names no saved session is a wrong call (2), like an unknown folder.
        return WRONG_CALL if isinstance(problem, transcript.SessionNotFoundError) else 1
    config = SessionConfig(
        root=root, provider=provider, permission_mode=run.permission_mode, entrypoint=ENTRYPOINT
    )
    async with open_session(config, resume=run.resume) as session:
        session.send(run.prompt)
        await session.wait_idle()
        start = session.conversation.turn_start
        for _ in range(WAKE_ROUNDS):
            await session.hooks.background.settled()
            if session.inbox.idle:
                break  # no wake-up: nothing more to do
            await session.wait_idle()
        turn = session.messages[start:]
        replies = [m for m in turn if isinstance(m, AssistantMessage)]
        said: set[str] = set()
        for notice in (n for m in replies for n in m.notices()):
            origin = f" ({notice.event})" if notice.event else ""
            print(f"wavehost: {notice.level}{origin}: {notice.text}", file=err)
            said.add(notice.text)
        # Refused and failed tool calls: else a user only sees that nothing was written.
        for tool in (t for m in replies for t in m.tools() if t.error is not None):
            reason = (tool.error or "").strip().splitlines() or [""]
            print(f"wavehost: {tool.name} was not done: {reason[0]}", file=err)
        texts = [m.text() for m in replies if m.text()]
        is_error = session.turn_error is not None
        result = session.turn_error if is_error else (texts[-1] if texts else "")
        if run.output_format == "json":
            document: dict[str, Any] = {
                "result": result,
                "session_id": session.id,
                "transcript_path": str(session.transcript_path),
                "is_error": is_error,
                "messages": [m.to_wire() for m in session.messages],
            }
            print(json.dumps(document, ensure_ascii=False), file=out, flush=True)
        elif not is_error:
            print(result, file=out, flush=True)
        # A failed turn's reason goes to stderr, once (its error notice said it, or this line).
        if is_error and run.output_format == "text" and result not in said:
            print(f"wavehost: error: {result}", file=err)
    return 1 if is_error else 0
