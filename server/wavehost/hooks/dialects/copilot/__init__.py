"""The Copilot CLI dialect (seed 002): `.github/hooks/*.json` and `~/.copilot/hooks/*.json`.

Hooks of one event run one after another in config order (user files, then project files);
`bash` and `command` run under bash, `powershell` under pwsh, `exec` + `args` directly. cwd is
the session root (a relative `cwd` resolves against it), `env` values are literal, the timeout
is `timeoutSec` (or `timeout`) seconds, 30 by default. The environment gains `COPILOT_CLI=1`,
`COPILOT_HOOK_DIR`, `COPILOT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`, and loses the model
provider's secrets.
"""

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import DialectName, HookHandler, Source
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.copilot import outcome, payloads, sources
from wavehost.hooks.dialects.copilot.events import EVENT_KEYS, TOOLS
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runner import HookContext, HookRun, Launch

DEFAULT_TIMEOUT = 30.0  # seconds
BASH = shutil.which("bash") or "/bin/bash"
REMOVED_ENV = ("COPILOT_OFFLINE", "OPENAI_API_KEY", "ANTHROPIC_API_KEY")
REMOVED_PREFIXES = ("COPILOT_PROVIDER_",)


class CopilotDialect:
    name: DialectName = "copilot"
    events: Mapping[str, Event] = EVENT_KEYS
    concurrent = False

    def load(self, project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
        return sources.load(project_dir, home, trusted)

    def handlers_in(self, source: Source, path: Path, document: Any) -> list[HookHandler]:
        return sources.handlers_in(source, path, document)

    def stdin(self, handler: HookHandler, payload: p.HookInput) -> bytes:
        document = payloads.render(handler.event_name, payload)
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def launch(self, handler: HookHandler, payload: p.HookInput, context: HookContext) -> Launch:
        root = context.root
        cwd = root if handler.cwd is None else root / Path(handler.cwd).expanduser()
        env = {
            k: v
            for k, v in context.env_for(handler).items()
            if k not in REMOVED_ENV and not k.startswith(REMOVED_PREFIXES)
        }
        env["COPILOT_CLI"] = "1"
        env["COPILOT_PROJECT_DIR"] = env["CLAUDE_PROJECT_DIR"] = str(root)
        if handler.path is not None:
            env["COPILOT_HOOK_DIR"] = str(handler.path.parent)
        env.update(handler.env or {})
        if handler.argv is not None:
            argv = handler.argv
        elif handler.shell == "pwsh":
            argv = ("pwsh", "-NoProfile", "-Command", handler.command)
        else:
            argv = (BASH, "-c", handler.command)
        return Launch(argv, cwd, env, handler.timeout or DEFAULT_TIMEOUT)

    def call(
        self, handler: HookHandler, payload: p.HookInput, stdin: bytes, context: HookContext
    ) -> Call | None:
        return None  # every hook of this dialect is a process (or an action without one)

    def immediate(self, handler: HookHandler, payload: p.HookInput) -> HookRun | None:
        return None

    def advance(self, payload: p.HookInput, run: HookRun) -> p.HookInput | None:
        """preToolUse: a deny ends the chain; rewritten arguments are what the next hook sees.
        userPromptTransformed: so is a rewritten prompt."""
        if isinstance(payload, p.PreToolUseInput):
            if outcome.pre_tool_denies(run):
                return None
            args = outcome.modified_args(run)
            if args is not None:
                wave_args = TOOLS.wave_args(payload.tool_name, args)
                return payload.model_copy(update={"tool_input": wave_args})
        if isinstance(payload, p.UserPromptTransformedInput) and run.exit_code == 0:
            doc = outcome.read_output(run.stdout).doc or {}
            modified = doc.get("modifiedTransformedPrompt")
            if isinstance(modified, str) and modified.strip():
                return payload.model_copy(update={"transformed_prompt": modified})
        return payload

    def interpret(self, payload: p.HookInput, runs: Sequence[HookRun]) -> Outcome:
        return outcome.interpret(payload, runs)

    def after(self, payload: p.HookInput, outcome: Outcome, context: HookContext) -> None:
        return None


COPILOT = CopilotDialect()
