"""Test this hook: run one hook for real with a sample payload of its event, as `hooks run` does.

The sample is built from the event's payload model in the catalogue (every required field gets a
value of its type; the field the matcher tests gets a value this hook's matcher accepts, taken
from the project's recent real events when there are some). The person may edit it; it is
validated with the same model before the hook runs. The result is the raw run and what the agent
would do with it (its dialect's `interpret`, the engine's own function), and it goes into the
run log.
"""

import dataclasses
import json
import types
import typing
import uuid
from pathlib import Path
from typing import Any, Literal

import anyio
from pydantic import BaseModel, ValidationError

from wavehost import environment, paths
from wavehost.hooks import patterns, tools
from wavehost.hooks.config import HookHandler
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.engine import run_one
from wavehost.hooks.models import HookModels
from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput, plain_problems, problems_of
from wavehost.hooks.runlog import RunLog, RunRecord
from wavehost.hooks.runner import HookContext, HookRun
from wavehost.hooks.tools.bash import BASH
from wavehost.plumbing import orphans
from wavehost.settings.errors import SettingsError

TEST_TIMEOUT = 120.0  # seconds at most for a test, whatever the hook's own timeout
TEST_SESSION = "hook-test"

# The tools a sample may call, most typical first: Bash (what a matcher of every tool gets), then
# the tools wavehost offers, then Claude Code's others. Each comes with its catalogue sample.
_TOOL_NAMES = tuple(
    t.name for t in sorted(tools.TOOLS, key=lambda t: (t is not BASH, not t.offered))
)
_TEXTS = {
    "prompt": "Summarise what changed today",
    "message": "Wave needs your permission to use Bash",
    "title": "Permission needed",
    "notification_type": "permission_prompt",
    "agent_type": "general-purpose",
    "agent_id": "agent-1",
    "reason": "other",
    "name": "feature-x",
    "compact_summary": "The conversation so far, in short.",
    "error": "Command failed with exit code 1",
    "last_assistant_message": "Done.",
}


@dataclasses.dataclass(frozen=True)
class TrialResult:
    stdin: str
    run: HookRun
    outcome: Outcome
    record: RunRecord
    timeout: float


def _candidates(annotation: Any) -> list[Any]:
    """Values a field of this type may take, most typical first (empty: any string)."""
    if typing.get_origin(annotation) is Literal:
        return list(typing.get_args(annotation))
    return []


def _matcher_value(handler: HookHandler, field: str, annotation: Any, recent: list[str]) -> Any:
    matcher = handler.matcher
    options = recent + _candidates(annotation)
    if field == "tool_name":
        options += list(_TOOL_NAMES)
    if matcher.names:
        options = sorted(matcher.names) + options
    with patterns.deadline():  # every option together, however hostile the matcher
        for option in options:
            if matcher.matches(option):
                return option
    return options[0] if options else "example"


def _value(name: str, annotation: Any, project: Path) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _value(name, args[0], project) if args else None
    if origin is Literal:
        return typing.get_args(annotation)[0]
    if annotation is str:
        return _TEXTS.get(name, str(project) if name.endswith(("cwd", "_path")) else "example")
    if annotation is bool:
        return False
    if annotation in (int, float):
        return 0
    if origin is list or annotation is list:
        return []
    return {}


def sample_payload(
    handler: HookHandler, project: Path, home: Path | None, recent: list[str]
) -> dict[str, Any]:
    """A payload of the hook's event that its matcher accepts (JSON, as the hook reads it)."""
    spec = handler.event.spec
    model: type[HookInput] = spec.payload
    session_id = f"{TEST_SESSION}-{uuid.uuid4().hex[:8]}"
    out: dict[str, Any] = {
        "session_id": session_id,
        "transcript_path": str(paths.transcript_path(session_id, home)),
        "cwd": str(project),
        "hook_event_name": handler.event.name,
    }
    for name, info in model.model_fields.items():
        if name in out:
            continue
        if name == spec.matcher_field:
            out[name] = _matcher_value(handler, name, info.annotation, recent)
        elif not info.is_required():
            if info.default is not None and name != "hook_event_name":
                out[name] = info.get_default(call_default_factory=True)
        else:
            out[name] = _value(name, info.annotation, project)
    tool = out.get("tool_name")
    if "tool_input" in out and isinstance(tool, str):
        known = tools.named(tool)
        sample = known.sample if known is not None else {}
        out["tool_input"] = {
            k: v.replace("{project}", str(project)) if isinstance(v, str) else v
            for k, v in sample.items()
        }
    if "tool_response" in out:
        out["tool_response"] = {"success": True}
    return out


def parse_payload(handler: HookHandler, raw: dict[str, Any]) -> HookInput:
    """The edited payload, checked with the event's model (the event name cannot change)."""
    model: type[BaseModel] = handler.event.spec.payload
    data = {**raw, "hook_event_name": handler.event.name}
    try:
        payload = model.model_validate(data)
    except ValidationError as err:
        raise SettingsError(
            "invalidPayload",
            f"This is not a {handler.event.name} input: {plain_problems(err)}.",
            problems=problems_of(err),
        ) from err
    assert isinstance(payload, HookInput)
    return payload


def shown_stdin(handler: HookHandler, payload: HookInput, sent: str | None = None) -> str:
    """What the hook reads on stdin, in its dialect's shape (Copilot's `toolName`/`toolArgs`,
    Snow's context), laid out to be read and edited."""
    text = sent if sent is not None else DIALECTS[handler.dialect].stdin(handler, payload).decode()
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def edited_stdin(handler: HookHandler, text: str) -> tuple[dict[str, Any], bytes]:
    """An edited stdin: the document, and the bytes the hook reads — one line of compact JSON,
    as its dialect writes it (a Wave hook's ends with a newline, as Claude Code's does)."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        line = f" (line {err.lineno}, column {err.colno})"
        raise SettingsError("invalidPayload", f"The input is not JSON{line}.") from err
    if not isinstance(document, dict):
        raise SettingsError("invalidPayload", "The input must be a JSON object ({ … }).")
    compact = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return document, compact + b"\n" if handler.dialect == "wave" else compact


async def run_trial(
    handler: HookHandler,
    payload: HookInput,
    project: Path,
    run_log: RunLog,
    models: HookModels | None = None,
    stdin: bytes | None = None,
) -> TrialResult:
    """Run the hook once, for real, in the project; record it as a test run. `models`: what a
    prompt or agent hook asks (the session layer's, given by whoever runs the test). `stdin`:
    what to send instead of the payload as its dialect renders it (an edited input)."""
    timeout = min(handler.timeout or TEST_TIMEOUT, TEST_TIMEOUT)
    limited = dataclasses.replace(handler, timeout=timeout)
    # As a session runs it: its dialect's stdin (Copilot's and Snow's own shapes), its process
    # (shell, exec form, environment), or no process at all (Snow's context).
    dialect = DIALECTS[handler.dialect]
    sent = stdin if stdin is not None else dialect.stdin(limited, payload)
    owner = orphans.Owner()  # what the hook leaves running (`setsid … &`) ends with its test
    env = owner.env(environment.inherited())
    context = HookContext(cwd=Path(payload.cwd), project_dir=project, models=models, base_env=env)
    try:
        run = await run_one(limited, sent, context, dialect, payload)
    finally:
        with anyio.CancelScope(shield=True):
            await owner.end()
    run = dataclasses.replace(run, handler=handler)
    text = sent.decode("utf-8", "replace")
    record = run_log.ran(payload, run, trigger="test", stdin=text if stdin is not None else None)
    outcome = dialect.interpret(payload, [run])
    if outcome.after_call:  # a session adds these once the call is over; here, with the rest
        meta = [*outcome.meta_messages, *outcome.after_call]
        outcome = outcome.model_copy(update={"meta_messages": meta})
    return TrialResult(text, run, outcome, record, timeout)
