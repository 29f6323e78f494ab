"""A session's life: `open_session` builds what lives as long as it does (its inbox, background
tasks and hooks, MCP servers, task group), fires SessionStart and starts its turns; on exit it
closes it — the running turn interrupted, Snow's onStop when owed, SessionEnd — and stops them.
"""

import logging
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Literal

import anyio

from wavehost import environment
from wavehost.hooks import payloads as p
from wavehost.hooks.catalogue import Event
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.engine import BackgroundHooks
from wavehost.hooks.outcome import Outcome
from wavehost.plumbing import heap, orphans
from wavehost.plumbing.task_group import OwnedTaskGroup
from wavehost.session import transcript
from wavehost.session.background import BackgroundTasks
from wavehost.session.chat_session import ChatSession, SessionConfig
from wavehost.session.inbox import Inbox
from wavehost.session.mcp import started
from wavehost.session.messages import history
from wavehost.settings.mcp_servers import McpConfig, read_mcp_config

log = logging.getLogger(__name__)

CLOSE_WAIT = 5.0  # seconds a closing session waits for its interrupted turn to end


def mcp_servers(root: Path, home: Path | None, *, trusted: bool) -> McpConfig:
    """The MCP servers a session of this project starts. A file that cannot be used is logged; a
    wrong entry is told in the chat (a notice) and on the settings page, not at every start."""
    found = read_mcp_config(root, home=home, trusted=trusted)
    for file in found.files:
        if file.error:
            log.warning("MCP servers: %s: %s", file.path, file.error)
    untrusted = [s.name for s in found.servers if s.untrusted]
    if untrusted:
        log.info("MCP servers of an untrusted workspace, not started: %s", ", ".join(untrusted))
    return found


@asynccontextmanager
async def open_session(
    config: SessionConfig, *, resume: str | None = None, session_id: str | None = None
) -> AsyncIterator[ChatSession]:
    """Open a session — `resume` a saved one by id, else a new one (under `session_id` if given,
    else a fresh id) — and close it on exit, its provider with it."""
    heap.settle()  # the first session: what start-up loaded is there for good
    transcript.remove_stale(config.home)  # what a killed chat's last save left behind
    saved = transcript.load(resume, config.home) if resume else None
    inbox = Inbox(saved.session_id if saved else session_id or str(uuid.uuid4()))
    root = config.root.resolve()
    servers = mcp_servers(root, config.home, trusted=config.trusted)
    owner = orphans.Owner()  # what its processes leave running ends with it
    env = owner.env(environment.inherited())
    try:
        with closing(inbox):
            async with (
                BackgroundTasks(inbox.task_done) as tasks,
                BackgroundHooks(inbox.rewake) as background_hooks,
                started(servers.startable(), root=root, env=env) as mcp,  # after SessionEnd
                OwnedTaskGroup() as group,
            ):
                session = ChatSession(
                    config,
                    saved,
                    inbox=inbox,
                    tasks=tasks,
                    background_hooks=background_hooks,
                    group=group,
                    mcp=mcp,
                    env=env,
                )
                for server in servers.servers:
                    if server.error:
                        mcp.tell(f"MCP server {server.name} was not started: {server.error}")
                await start(session, group)
                try:
                    yield session
                finally:
                    with anyio.CancelScope(shield=True):
                        try:
                            await close(session)
                        finally:
                            await config.provider.aclose()
                    group.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            ended = await owner.end()
        if ended:
            log.info("ended %d process(es) the session's hooks and commands left running", ended)


async def start(session: ChatSession, group: OwnedTaskGroup) -> None:
    """SessionStart, then the session takes prompts (and its crons run)."""
    _fresh_env_file(session.env_file)
    session.conversation.begin_turn()
    source: Literal["startup", "resume"] = "resume" if session.resumed else "startup"
    payload = p.SessionStartInput(
        **session.hooks.common(),
        source=source,
        model=session.provider.model,
        history=lambda: history(session.messages),
    )
    # Copilot CLI starts (or resumes) a session with its first prompt: its sessionStart waits
    turns = session.turns
    turns.copilot_start_owed = session.hooks.engine.has_hooks(Event.SessionStart, "copilot")
    held: dict[DialectName, Outcome] = {"copilot": session.hooks.engine.nothing(Event.SessionStart)}
    turns.take_pending(
        await session.hooks.fire(payload, given=held if turns.copilot_start_owed else None)
    )
    await session.conversation.flush(durable=True)
    group.start_soon(turns.work)
    group.start_soon(session.crons.run)


async def close(session: ChatSession) -> None:
    """Stop taking prompts, interrupt the turn, then the session's last hooks: Snow's onStop
    unless a Stop already followed the last model call (seed 004: it fires when the session
    ends, once per stop), and SessionEnd. `session.abandon_end` kills those last hooks."""
    session.inbox.closed = True
    session.cancel()
    session.turns.stop_idle_wait()
    with anyio.move_on_after(CLOSE_WAIT):
        await session.wait_idle()
    session.conversation.begin_turn()
    with session.ending:
        if session.turns.stop_owed:
            await session.turns.interrupted()
        payload = p.SessionEndInput(
            **session.hooks.common(), reason=session.end_reason, last_turn=session.turns.last_turn
        )
        await session.hooks.fire(payload, meta=False)
    await session.conversation.flush(durable=True)


def _fresh_env_file(path: Path) -> None:
    """An empty `$CLAUDE_ENV_FILE` for this run's SessionStart hooks to append to."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
        os.close(os.open(path, flags, 0o600))
    except OSError as err:
        log.warning("could not create the hooks' env file %s: %s", path, err)
