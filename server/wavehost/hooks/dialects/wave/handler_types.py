"""Claude Code's handler types (a hook entry's `"type"`): what each one takes and how it runs.

`command` starts a process (`hooks.runner`); every other type runs without one of ours
(`hooks.calls`): it reads its own fields into its `HandlerSpec` and, for each payload, makes the
`Call` the engine runs beside the hooks' processes. A type is one entry of `TYPES`; the settings
reader (`sources`) checks an entry's common fields (`type`, `if`, `timeout`, `statusMessage`,
`description`), then hands it to its type's `read`.

Adding a type: its `HandlerSpec` (with the `identity` Claude Code deduplicates it by), a `read`
giving the handler its fields (`command`: what names it on the settings page; `spec`), a `call`
(the coroutine bounded by its timeout, reporting a `HookRun`: exit 0 / 2 and stdout / stderr as a
command hook would have answered, or `calls.failed` for a non-blocking error) and, if it only
runs on some events, `events`. Whatever the session must lend it (a model, an MCP client) comes
through `HookContext`, so this layer never imports the session.
"""

import json
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import wavehost.hooks.dialects.wave.http_hooks as http_hooks
import wavehost.hooks.dialects.wave.mcp_tool as mcp_tool
import wavehost.hooks.dialects.wave.model_hooks as model_hooks
from wavehost.hooks.calls import Call
from wavehost.hooks.catalogue import WAVE_EVENTS, Event
from wavehost.hooks.config import DiagnosticCode, HandlerKind, HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookContext

# (field, message, code): the first thing wrong with an entry of this type
FieldError = tuple[str, str, DiagnosticCode]
# What a valid entry gives its `HookHandler` (field name → value)
Fields = dict[str, Any]
CallMaker = Callable[[HookHandler, HookInput, bytes, HookContext], Call]

SHELLS = ("bash", "powershell")


@dataclass(frozen=True)
class UserPolicy:
    """What the user's own settings allow hooks (Claude Code's `allowedHttpHookUrls` and
    `httpHookAllowedEnvVars`): read with each entry, so a hook carries what applies to it."""

    http: http_hooks.HttpPolicy = field(default_factory=http_hooks.HttpPolicy)


@dataclass(frozen=True)
class HandlerType:
    name: HandlerKind
    read: Callable[[Mapping[str, Any], UserPolicy], Fields | FieldError]
    call: CallMaker | None = None  # None: the hook is a process
    # The events a hook of this type may be on (None: every one); elsewhere it never runs
    events: frozenset[Event] | None = None


def _text_field(raw: Mapping[str, Any], name: str) -> FieldError | None:
    value = raw.get(name)
    if not isinstance(value, str) or not value.strip():
        return name, f'"{name}" must be a non-empty string', "emptyText"
    return None


def _read_command(raw: Mapping[str, Any], policy: UserPolicy) -> Fields | FieldError:
    if (error := _text_field(raw, "command")) is not None:
        return error
    for flag in ("async", "asyncRewake"):
        if flag in raw and not isinstance(raw[flag], bool):
            return flag, f'"{flag}" must be true or false', "notBoolean"
    args = raw.get("args")
    if "args" in raw and (not isinstance(args, list) or not all(isinstance(a, str) for a in args)):
        return "args", '"args" must be a list of strings', "notStringList"
    # Shell form runs under `sh -c` (Claude Code's "bash" on Linux and macOS) or PowerShell;
    # exec form has no shell, so there `shell` is ignored, as in Claude Code.
    if "shell" in raw and raw["shell"] not in SHELLS and "args" not in raw:
        message = f'"shell" must be "bash" or "powershell", not {json.dumps(raw["shell"])}'
        return "shell", message, "unsupportedField"
    # Exec form (`args` given): `command` is the program, run without a shell.
    argv = (raw["command"], *raw["args"]) if "args" in raw else None
    powershell = argv is None and raw.get("shell") == "powershell"
    return {
        "command": raw["command"] if argv is None else shlex.join(argv),
        "argv": argv,
        "shell": "powershell" if powershell else None,
        "is_async": raw.get("async", False),
        "async_rewake": raw.get("asyncRewake", False),
    }


def _read_http(raw: Mapping[str, Any], policy: UserPolicy) -> Fields | FieldError:
    return http_hooks.read(raw, policy.http)


def _read_mcp_tool(raw: Mapping[str, Any], policy: UserPolicy) -> Fields | FieldError:
    return mcp_tool.read(raw)


def _read_model(raw: Mapping[str, Any], policy: UserPolicy) -> Fields | FieldError:
    return model_hooks.read(raw)


TYPES: dict[str, HandlerType] = {
    "command": HandlerType("command", _read_command),
    # Claude Code skips http hooks on SessionStart (it runs before there is anything to tell)
    "http": HandlerType(
        "http",
        _read_http,
        http_hooks.make_call,
        frozenset(e for e in WAVE_EVENTS.values() if e is not Event.SessionStart),
    ),
    "mcp_tool": HandlerType("mcp_tool", _read_mcp_tool, mcp_tool.call),
    "prompt": HandlerType("prompt", _read_model, model_hooks.prompt_call, model_hooks.EVENTS),
    "agent": HandlerType("agent", _read_model, model_hooks.agent_call, model_hooks.EVENTS),
}


def make_call(
    handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext
) -> Call | None:
    """The call a hook of a process-less type makes for this payload; None for a process."""
    kind = TYPES.get(handler.kind)
    if kind is None or kind.call is None:
        return None
    return kind.call(handler, payload, stdin, context)
