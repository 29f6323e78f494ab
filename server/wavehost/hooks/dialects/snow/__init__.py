"""The Snow CLI dialect (seed 004): `.snow/hooks/<type>.json` and `~/.snow/hooks/<type>.json`.

Actions of one type run one after another: the project's rules, then the user's; a command
exiting 2 or more ends the chain. Commands run under `/bin/sh -c` where the agent is, with a
`timeout` in milliseconds (5000 by default) and output capped at Snow's 10,000 bytes; a `context`
action starts no process, a `prompt` action shows its text to the user (placeholders filled).
The environment gains the session identity (seed 004 "Session identity 环境变量契约"):
`SNOW_SESSION_ID` always, `TRELLIS_CONTEXT_ID=snow-<id>` and `SNOW_PLATFORM=snow` only where the
parent left them empty, `SNOW_CWD` = the hook's cwd; `LANG`/`LC_ALL` are `en_US.UTF-8`.
"""

import hashlib
import json
import logging
import os
import shlex
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wavehost import environment, paths
from wavehost.environment import without_provider_keys
from wavehost.hooks import payloads as p
from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import HookHandler, Source
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.snow import outcome, payloads, sources
from wavehost.hooks.dialects.snow.events import SESSION_TYPES, TYPES
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runner import SHELL, HookContext, HookRun, Launch

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 5.0  # seconds (5000 ms)
OUTPUT_CAP = 10_000  # bytes: Snow's exec maxBuffer
DEBUG_VALUES = {"1", "true", "yes", "on"}


def identity_env(base: Mapping[str, str], session_id: str, cwd: str) -> dict[str, str]:
    """The environment of a Snow hook: `base` with the session identity (the seed's rules)."""
    env = session_identity(base, session_id, cwd)
    env["LANG"] = env["LC_ALL"] = "en_US.UTF-8"
    return env


def session_identity(base: Mapping[str, str], session_id: str, cwd: str) -> dict[str, str]:
    """`base` with Snow's session identity: what hooks get, and the tools' processes too in a
    session that runs Snow hooks (seed 004 "注入路径": terminal, bash mode, subagents)."""
    env = dict(base)
    if session_id.strip():
        env["SNOW_SESSION_ID"] = session_id.strip()
        if not env.get("TRELLIS_CONTEXT_ID", "").strip():
            env["TRELLIS_CONTEXT_ID"] = f"snow-{session_id.strip()}"
    if not env.get("SNOW_PLATFORM", "").strip():
        env["SNOW_PLATFORM"] = payloads.PLATFORM
    env["SNOW_CWD"] = cwd
    return env


class SnowDialect:
    name: DialectName = "snow"
    events: Mapping[str, Event] = TYPES
    concurrent = False

    def names_transcript(self, event: Event) -> bool:
        return False  # Snow hands its hooks the messages themselves

    def load(self, project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
        return sources.load(project_dir, home, trusted)

    def _stdin_doc(self, handler: HookHandler, payload: p.HookInput) -> dict[str, object]:
        ctx = payloads.context(payload)
        if handler.event_name not in SESSION_TYPES:
            ctx.pop("sessionId", None)
        return payloads.enrich(ctx, payload.cwd)

    def handlers_in(self, source: Source, path: Path, document: Any) -> list[HookHandler]:
        return sources.handlers_in(source, path, document)

    def stdin(self, handler: HookHandler, payload: p.HookInput) -> bytes:
        return payloads.compact(self._stdin_doc(handler, payload)).encode("utf-8")

    def launch(self, handler: HookHandler, payload: p.HookInput, context: HookContext) -> Launch:
        cwd = context.spawn_dir()
        # Placeholders are filled shell-quoted: the JSON holds what the model wrote.
        command = payloads.fill(handler.command, payloads.context(payload), shlex.quote)
        # Snow hands its hooks no model key: nor do we (`environment`)
        base = without_provider_keys(context.env_for(handler))
        env = identity_env(base, payload.session_id, str(cwd))
        timeout = handler.timeout or DEFAULT_TIMEOUT
        return Launch((SHELL, "-c", command), cwd, env, timeout, OUTPUT_CAP)

    def call(
        self, handler: HookHandler, payload: p.HookInput, stdin: bytes, context: HookContext
    ) -> Call | None:
        return None  # every hook of this dialect is a process (or an action without one)

    def immediate(self, handler: HookHandler, payload: p.HookInput) -> HookRun | None:
        """`context` actions inject their text, `prompt` actions ask theirs: no process."""
        if handler.kind == "command":
            return None
        if handler.kind == "prompt":
            text = payloads.fill(handler.command, payloads.context(payload))
        else:
            text = _context_content(handler.command)
        return HookRun(handler, 0, text, "", 0.0, handler.timeout or 0.0)

    def advance(self, payload: p.HookInput, run: HookRun) -> p.HookInput | None:
        return None if outcome.ends_chain(run) else payload

    def interpret(self, payload: p.HookInput, runs: Sequence[HookRun]) -> Outcome:
        return outcome.interpret(payload, runs)

    def after(self, payload: p.HookInput, result: Outcome, context: HookContext) -> None:
        """`SNOW_DEBUG_HOOKS`: one JSON line per injection in `.snow/log/hooks-inject.txt`."""
        env = context.base_env if context.base_env is not None else environment.inherited()
        if env.get("SNOW_DEBUG_HOOKS", "").strip().lower() not in DEBUG_VALUES:
            return
        injected = result.pending_context or "\n\n".join(result.prompt_prefix) or result.prompt
        if not injected:
            return
        line = {
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()),
            "hookType": _hook_type(payload),
            "length": len(injected),
            "hash": hashlib.sha256(injected.encode("utf-8")).hexdigest()[:12],
            "hasDisplay": any(n.level == "info" for n in result.notices),
            "hasPromptOverride": result.prompt is not None,
            "envHasSnowSessionId": bool(payload.session_id.strip()),
            "envHasTrellisContextId": True,
            "sessionId": payload.session_id,
        }
        target = paths.snow_inject_log(context.root)
        try:
            # Never through a link out of the project (`.snow` or `.snow/log` → `~`, the file
            # → ~/.bashrc): looked at before the folder is made, and again once it is there
            for _ in range(2):
                leads = paths.outside(context.root, target.parent)
                if leads is not None:
                    raise OSError(f"{target.parent} leads out of the project (to {leads})")
                target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as file:
                file.write(json.dumps(line, ensure_ascii=False) + "\n")
        except OSError as err:
            log.warning("SNOW_DEBUG_HOOKS: cannot write %s: %s", target, err)


def _hook_type(payload: p.HookInput) -> str:
    event = event_of(payload)
    return next((name for name, e in TYPES.items() if e is event), event.name)


def _context_content(content: str) -> str:
    """A `context` action's text as a hook's stdout: JSON already in the injection protocol
    passes as it is, anything else becomes `{"additionalContext": text}`."""
    text = content.strip()
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        doc = None
    if isinstance(doc, dict) and (
        any(isinstance(doc.get(k), str) for k in ("additionalContext", "prompt", "display"))
        or isinstance(doc.get("hookSpecificOutput"), dict)
    ):
        return text
    return json.dumps({"additionalContext": text}, ensure_ascii=False)


SNOW = SnowDialect()
