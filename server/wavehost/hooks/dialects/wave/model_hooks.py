"""Claude Code's `prompt` and `agent` hooks: a model decides, answering `{ok, reason}`.

As Claude Code 2.1.197 does it (its evaluator instructions, word for word):

- `prompt`: one call on the session's model (or the hook's `model`) with no tools, asking for a
  JSON object `{ok, reason, impossible?}` by JSON schema. The prompt gets the hook's input JSON
  for `$ARGUMENTS` (appended as `ARGUMENTS: …` when it has no `$ARGUMENTS`); on Stop and
  SubagentStop the conversation so far goes before it and it asks whether the stopping condition
  holds. 30 s by default.
- `agent`: a short subagent with read-only tools and a `StructuredOutput {ok, reason}` tool, told
  where the transcript is; reminded once if it stops without calling it, then given up (the
  hook has no effect). At most 50 model calls; 60 s by default.

Their answer is read as the command hook that would have said the same: `ok: true` is exit 0;
`ok: false` blocks as exit 2 does, with `[<prompt>]: <reason>` (a prompt hook) or `Agent hook
condition was not met: <reason>` as the stderr — so a blocked Write reads `PreToolUse:Write hook
error: [<prompt>]: <reason>` and a Stop goes on with that text. A prompt hook's `ok: false` on an
event that is neither a tool's PreToolUse nor a stop also stops the turn (Claude Code's
`continue: false` with the reason, unless `continueOnBlock: true`); `impossible: true` on a stop
lets it end. Inside an agent hook's own subagent, prompt and agent hooks do not run (no loops).
"""

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from wavehost.hooks.calls import Call, answered, failed
from wavehost.hooks.catalogue import Event, event_of
from wavehost.hooks.config import DiagnosticCode, HandlerSpec, HookHandler
from wavehost.hooks.models import HookModelError, HookModels, Judgement, Verification
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext, HookRun
from wavehost.hooks.tools.structured_output import STRUCTURED_OUTPUT as STRUCTURED

PROMPT_TIMEOUT = 30.0  # seconds, Claude Code's defaults
AGENT_TIMEOUT = 60.0
AGENT_MAX_TURNS = 50
HOOK_AGENT = "hook-agent-"  # an agent hook's subagent: its `agent_id` starts so
STRUCTURED_OUTPUT = STRUCTURED.name
# Where a prompt or agent hook may be (Claude Code's list, as far as wavehost has the events).
EVENTS = frozenset(
    {
        Event.PreToolUse,
        Event.PostToolUse,
        Event.PostToolUseFailure,
        Event.PermissionRequest,
        Event.UserPromptSubmit,
        Event.Stop,
        Event.SubagentStop,
    }
)
_STOPS = (Event.Stop, Event.SubagentStop)
_GOES_ON = (Event.PreToolUse, Event.PermissionRequest, *_STOPS)  # a block does not end the turn

SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean"},
        "reason": {"type": "string"},
        "impossible": {"type": "boolean"},
    },
    "required": ["ok", "reason"],
    "additionalProperties": False,
}
TOOL_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "ok": {"type": "boolean", "description": "Whether the condition was met"},
        "reason": {"type": "string", "description": "Reason, if the condition was not met"},
    },
    "required": ["ok"],
    "additionalProperties": False,
}
TOOL_DESCRIPTION = (
    "Use this tool to return your verification result. You MUST call this tool exactly once at "
    "the end of your response."
)
REMINDER = (
    f"[structured-output-enforce] You MUST call the {STRUCTURED_OUTPUT} tool to complete this "
    "request. Call this tool now."
)
SYSTEM = """You are evaluating a hook condition in Claude Code. Judge whether the user-provided condition is met.

Your response must be a JSON object with one of these shapes:
- {"ok": true, "reason": "<reason the condition is met>"}
- {"ok": false, "reason": "<reason the condition is not met>"}

Always include a "reason" field."""  # noqa: E501
STOP_SYSTEM = """You are evaluating a stop-condition hook in Claude Code. Read the conversation transcript carefully, then judge whether the user-provided condition is satisfied.

Your response must be a JSON object with one of these shapes:
- {"ok": true, "reason": "<quote evidence from the transcript that satisfies the condition>"}
- {"ok": false, "reason": "<quote what is missing or what blocks the condition>"}
- {"ok": false, "impossible": true, "reason": "<explain why the condition can never be satisfied>"}

Always include a "reason" field, quoting specific text from the transcript whenever possible. If the transcript does not contain clear evidence that the condition is satisfied, return {"ok": false, "reason": "insufficient evidence in transcript"}.

Only use {"ok": false, "impossible": true} when the condition is genuinely unachievable in this session \u2014 for example: the condition is self-contradictory, it depends on a resource or capability that is unavailable, or the assistant has explicitly tried, exhausted reasonable approaches, and stated it cannot be done. Apply your own judgment when deciding this \u2014 the assistant claiming the goal is impossible is evidence, not proof; independently confirm the condition is genuinely unachievable rather than deferring to the assistant's self-assessment. Do not use it just because the goal has not been reached yet or because progress is slow. When in doubt, return {"ok": false} without "impossible"."""  # noqa: E501
STOP_QUESTION = (
    "Based on the conversation transcript above, has the following stopping condition been "
    "satisfied? Answer based on transcript evidence only.\n\nCondition: "
)
AGENT_SYSTEM = """{task} The conversation transcript is available at: {transcript}
You can read this file to analyze the conversation history if needed.

Use the available tools to inspect the codebase and verify the condition.
Use as few steps as possible - be efficient and direct.

When done, return your result using the StructuredOutput tool with:
- ok: true if the condition is met
- ok: false with reason if the condition is not met"""
AGENT_STOP_TASK = (
    "You are verifying a stop condition in Claude Code. Your task is to verify that the agent "
    "completed the given plan."
)
AGENT_TASK = (
    "You are evaluating a {event} hook in Claude Code. Your task is to evaluate the condition "
    "described in the user message."
)
NO_MODEL = (
    "{kind} hooks need a model: they run in a chat session (and Test this hook, with a model "
    "provider set up)"
)


@dataclass(frozen=True)
class ModelSpec(HandlerSpec):
    prompt: str
    model: str | None = None
    continue_on_block: bool = False  # a prompt hook's `ok: false` does not end the turn

    def identity(self) -> tuple[str, ...]:
        return (self.prompt,)  # Claude Code: prompt (and agent) hooks are the same by prompt


def read(raw: Mapping[str, Any]) -> dict[str, Any] | tuple[str, str, DiagnosticCode]:
    """A prompt or agent entry's fields for its `HookHandler`, or (field, message, code)."""
    prompt = raw.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        return "prompt", '"prompt" must be a non-empty string', "emptyText"
    model = raw.get("model")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        return "model", '"model" must be a non-empty string', "emptyText"
    go_on = raw.get("continueOnBlock", False)
    if not isinstance(go_on, bool):
        return "continueOnBlock", '"continueOnBlock" must be true or false', "notBoolean"
    return {"command": prompt, "spec": ModelSpec(prompt, model, go_on)}


def with_arguments(text: str, arguments: str) -> str:
    """The hook's input JSON for `$ARGUMENTS`, or after the text when it has none."""
    if "$ARGUMENTS" in text:
        return text.replace("$ARGUMENTS", arguments)
    return f"{text}\n\nARGUMENTS: {arguments}"


def in_hook_agent(payload: HookInput) -> bool:
    agent = (payload.model_extra or {}).get("agent_id")
    return isinstance(agent, str) and agent.startswith(HOOK_AGENT)


def _spec(handler: HookHandler) -> ModelSpec:
    spec = handler.spec
    assert isinstance(spec, ModelSpec)
    return spec


def prompt_call(
    handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext
) -> Call:
    spec, event = _spec(handler), event_of(payload)
    stop = event in _STOPS
    text = (STOP_QUESTION if stop else "") + spec.prompt
    request = Judgement(
        system=STOP_SYSTEM if stop else SYSTEM,
        prompt=with_arguments(text, stdin.decode("utf-8", "replace").removesuffix("\n")),
        schema=SCHEMA,
        with_transcript=stop,
        agent_id=(payload.model_extra or {}).get("agent_id"),
        model=spec.model,
    )

    async def ask(models: HookModels) -> HookRun:
        try:
            reply = await models.judge(request)
        except HookModelError as err:
            return failed(handler, f"Hook evaluator API error: {err}")
        return judged(handler, event, reply)

    return _call(handler, payload, context, ask, PROMPT_TIMEOUT)


def judged(handler: HookHandler, event: Event, reply: str) -> HookRun:
    """What a prompt hook's answer means, as the command hook that said the same."""
    text = reply.strip()
    try:
        answer = json.loads(_unfenced(text))
    except ValueError:
        return failed(handler, f"JSON validation failed: the model answered {text[:200]!r}")
    problem = _schema_problem(answer, required_reason=False)
    if problem is not None:
        return failed(handler, f"Schema validation failed: {problem}")
    if answer["ok"]:
        return answered(handler, 0)
    reason = answer.get("reason", "")
    if event in _STOPS and answer.get("impossible") is True:
        return answered(handler, 0, stderr=f"judged impossible: {reason}")  # the turn may end
    blocking = f"[{_spec(handler).prompt}]: {reason}"
    if event in _GOES_ON or _spec(handler).continue_on_block:
        return answered(handler, 2, stderr=blocking)
    # Claude Code ends the turn here (its `continue: false`, the reason for the user)
    return answered(handler, 0, json.dumps({"continue": False, "stopReason": reason}))


def agent_call(
    handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext
) -> Call:
    spec, event = _spec(handler), event_of(payload)
    task = AGENT_STOP_TASK if event in _STOPS else AGENT_TASK.format(event=event.name)
    request = Verification(
        system=AGENT_SYSTEM.format(task=task, transcript=payload.transcript_path),
        prompt=with_arguments(spec.prompt, stdin.decode("utf-8", "replace").removesuffix("\n")),
        tool=STRUCTURED_OUTPUT,
        tool_description=TOOL_DESCRIPTION,
        schema=TOOL_SCHEMA,
        reminder=REMINDER,
        cwd=payload.cwd,
        max_turns=AGENT_MAX_TURNS,
        model=spec.model,
    )

    async def ask(models: HookModels) -> HookRun:
        try:
            answer = await models.verify(request)
        except HookModelError as err:
            return failed(handler, f"Error executing agent hook: {err}")
        if answer is None:  # Claude Code: the hook is given up, as if cancelled
            return answered(handler, 0, stderr="no answer: the agent never called StructuredOutput")
        problem = _schema_problem(answer, required_reason=False)
        if problem is not None:
            return failed(handler, f"Error executing agent hook: {problem}")
        if answer["ok"]:
            return answered(handler, 0)
        reason = answer.get("reason", "")
        return answered(handler, 2, stderr=f"Agent hook condition was not met: {reason}")

    return _call(handler, payload, context, ask, AGENT_TIMEOUT)


def _call(
    handler: HookHandler,
    payload: HookInput,
    context: HookContext,
    ask: Callable[[HookModels], Awaitable[HookRun]],
    timeout: float,
) -> Call:
    """The call a prompt or agent hook makes: not inside an agent hook's own subagent (no
    loops), a non-blocking error without a model to ask, bounded by its timeout."""

    async def run() -> HookRun:
        if in_hook_agent(payload):
            return answered(handler, 0, stderr="not run: a prompt or agent hook in an agent hook")
        if context.models is None:
            return failed(handler, NO_MODEL.format(kind=handler.kind))
        return await ask(context.models)

    return Call(run, handler.timeout or timeout)


def _unfenced(text: str) -> str:
    """The JSON inside a ```json fence a model may wrap it in."""
    if text.startswith("```") and text.endswith("```"):
        inner = text[3:-3]
        return inner.split("\n", 1)[1] if inner.startswith("json") and "\n" in inner else inner
    return text


def _schema_problem(answer: Any, *, required_reason: bool) -> str | None:
    if not isinstance(answer, dict):
        return "the answer must be a JSON object"
    if not isinstance(answer.get("ok"), bool):
        return "ok: must be true or false"
    if "reason" in answer and not isinstance(answer["reason"], str):
        return "reason: must be a string"
    if required_reason and "reason" not in answer:
        return "reason: is required"
    if "impossible" in answer and not isinstance(answer["impossible"], bool):
        return "impossible: must be true or false"
    return None
