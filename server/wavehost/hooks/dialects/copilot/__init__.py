"""The Copilot CLI dialect (seed 002): `.github/hooks/*.json`, `~/.copilot/hooks/*.json` and the
`hooks` of Copilot's settings files.

Hooks of one event run one after another in config order (`sources`); `bash` and `command` run
under bash, `powershell` under pwsh, `exec` + `args` directly. cwd is the session root; a
relative `cwd` resolves against it and is not `~`-expanded (a hook whose folder does not exist
cannot start). `env` values are literal, the timeout is `timeoutSec` (or `timeout`) seconds, 30
by default. The environment is Copilot's: `COPILOT_CLI=1`, `COPILOT_PROJECT_DIR` and
`CLAUDE_PROJECT_DIR` (which an entry's `env` cannot override), `COPILOT_HOOK_DIR` (a hooks file's
folder; a settings file's hooks get none), git's `safe.bareRepository=explicit` appended to
`GIT_CONFIG_*`; without the model provider's secrets and base URLs, `GITHUB_TOKEN`, or the names
wavehost adds for its own hooks (`WAVE_PROJECT_DIR`).
"""

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from wavehost.environment import PROVIDER_SECRETS
from wavehost.hooks import payloads as p
from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import HookHandler, Source
from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.copilot import outcome, payloads, sources
from wavehost.hooks.dialects.copilot.events import EVENT_KEYS, TOOLS
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.runner import HookContext, HookRun, Launch

DEFAULT_TIMEOUT = 30.0  # seconds
BASH = shutil.which("bash") or "/bin/bash"
# What Copilot 1.0.102 keeps from its hooks (observed), and wavehost's own name for its hooks
REMOVED_ENV = frozenset(
    {
        "COPILOT_OFFLINE",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "GITHUB_TOKEN",
        "COPILOT_GITHUB_TOKEN",
        "COPILOT_API_URL",
        "COPILOT_HOOK_DIR",
        "WAVE_PROJECT_DIR",
        *PROVIDER_SECRETS,  # wavehost's model keys (`environment`): ANTHROPIC_AUTH_TOKEN too
    }
)
REMOVED_PREFIXES = ("COPILOT_PROVIDER_",)
GIT_SAFETY = ("safe.bareRepository", "explicit")  # appended to the hook's GIT_CONFIG_* list


class CopilotDialect:
    name: DialectName = "copilot"
    events: Mapping[str, Event] = EVENT_KEYS
    concurrent = False

    def names_transcript(self, event: Event) -> bool:
        return event in payloads.NAMES_TRANSCRIPT

    def load(self, project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
        return sources.load(project_dir, home, trusted)

    def handlers_in(self, source: Source, path: Path, document: Any) -> list[HookHandler]:
        return sources.handlers_in(source, path, document)

    def stdin(self, handler: HookHandler, payload: p.HookInput) -> bytes:
        document = payloads.render(handler.event_name, payload)
        return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def launch(self, handler: HookHandler, payload: p.HookInput, context: HookContext) -> Launch:
        root = context.root
        env = {
            k: v
            for k, v in context.env_for(handler).items()
            if k not in REMOVED_ENV and not k.startswith(REMOVED_PREFIXES)
        }
        if handler.hook_dir is not None:
            env["COPILOT_HOOK_DIR"] = str(handler.hook_dir)
        env.update(handler.env or {})  # literal; it may override anything but what follows
        env["COPILOT_CLI"] = "1"
        env["COPILOT_PROJECT_DIR"] = env["CLAUDE_PROJECT_DIR"] = str(root)
        _git_safety(env)
        if handler.argv is not None:
            argv = handler.argv
        elif handler.shell == "pwsh":
            argv = ("pwsh", "-NoProfile", "-Command", handler.command)
        else:
            argv = (BASH, "-c", handler.command)
        timeout = handler.timeout or DEFAULT_TIMEOUT
        # A process group of its own in our session, as Copilot CLI starts its hooks: not a
        # session, which on Linux is a new scheduling autogroup (about 4 ms a hook, busy box).
        if handler.cwd is None:
            return Launch(argv, root, env, timeout, new_session=False)
        cwd = root / handler.cwd  # no `~` expansion, as in Copilot
        error = None if cwd.is_dir() else missing_cwd(handler.cwd, cwd)
        return Launch(argv, cwd, env, timeout, error=error, new_session=False)

    def call(
        self, handler: HookHandler, payload: p.HookInput, stdin: bytes, context: HookContext
    ) -> Call | None:
        return None  # every hook of this dialect is a process (or an action without one)

    def immediate(self, handler: HookHandler, payload: p.HookInput) -> HookRun | None:
        return None

    def advance(self, payload: p.HookInput, run: HookRun) -> p.HookInput | None:
        """preToolUse: a deny or an ask ends the chain; rewritten arguments (even a list) are
        what the next hook sees. postToolUse: so is a rewritten result. (userPromptTransformed
        is not chained: each hook reads the prompt as it was.)"""
        if isinstance(payload, p.PreToolUseInput):
            if outcome.pre_tool_ends_chain(run):
                return None
            args = outcome.modified_args(run)
            if isinstance(args, dict):
                wave_args = TOOLS.wave_args(payload.tool_name, args)
                return payload.model_copy(update={"tool_input": wave_args, "raw_args": None})
            if isinstance(args, list):
                return payload.model_copy(update={"raw_args": args})
        if isinstance(payload, p.PostToolUseInput) and not run.stopped:
            modified = outcome.post_tool_modified(run)
            if modified is not None:
                kind, text = modified
                update = {"result_text": text, "result_type": kind or payload.result_type}
                return payload.model_copy(update=update)
        return payload

    def interpret(self, payload: p.HookInput, runs: Sequence[HookRun]) -> Outcome:
        return outcome.interpret(payload, runs)

    def after(self, payload: p.HookInput, outcome: Outcome, context: HookContext) -> None:
        return None


def missing_cwd(written: str, resolved: Path) -> str:
    tilde = ' ("~" is not expanded)' if written.startswith("~") else ""
    return (
        f'could not start hook: its cwd "{written}" is {resolved}, which is not a folder '
        f"(Copilot resolves cwd against the session folder{tilde})"
    )


def _git_safety(env: dict[str, str]) -> None:
    """Copilot's git safety entry, appended to whatever `GIT_CONFIG_*` list the hook has."""
    count = env.get("GIT_CONFIG_COUNT", "")
    index = int(count) if count.isascii() and count.isdigit() else 0
    key, value = GIT_SAFETY
    env[f"GIT_CONFIG_KEY_{index}"], env[f"GIT_CONFIG_VALUE_{index}"] = key, value
    env["GIT_CONFIG_COUNT"] = str(index + 1)


COPILOT = CopilotDialect()
