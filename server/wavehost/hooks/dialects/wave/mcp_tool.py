"""Claude Code's `mcp_tool` hooks: call a tool of one of the session's MCP servers.

`{"type": "mcp_tool", "server": "memory", "tool": "recall", "input": {"key": "${tool_input.k}"}}`
calls `recall` on the server `memory` with `input`, each `${path}` in its strings filled in from
the hook's input (`${tool_input.file_path}`, `${hook_event_name}`, `${prompt}`, …; a path that is
not there is empty). The tool's text is read as a command hook's stdout (exit 0): JSON decisions,
`additionalContext`, plain text. A server that is not connected (or not configured) and an error
result are non-blocking errors, as in Claude Code 2.1.197; so is an `mcp_tool` hook on
SessionStart, where Claude Code has no MCP client yet. The MCP client is the session's, lent
through `HookContext.mcp`; outside a session (Test this hook) there is none.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wavehost.hooks.calls import Call, answered, failed
from wavehost.hooks.config import DiagnosticCode, HandlerSpec, HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import DEFAULT_TIMEOUT, HookContext, HookRun

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}")
NO_CLIENT_EVENTS = frozenset({"SessionStart", "Setup"})


@dataclass(frozen=True)
class McpToolSpec(HandlerSpec):
    server: str
    tool: str
    input: Mapping[str, Any]

    def identity(self) -> tuple[str, ...]:
        return ("mcp_tool", self.server, self.tool, json.dumps(self.input, sort_keys=True))


def read(raw: Mapping[str, Any]) -> dict[str, Any] | tuple[str, str, DiagnosticCode]:
    for name in ("server", "tool"):
        value = raw.get(name)
        if not isinstance(value, str) or not value.strip():
            return name, f'"{name}" must be a non-empty string', "emptyText"
    arguments = raw.get("input", {})
    if not isinstance(arguments, dict):
        return "input", '"input" must be an object (the tool\'s arguments)', "notAnObject"
    spec = McpToolSpec(raw["server"], raw["tool"], arguments)
    return {"command": f"mcp__{spec.server}__{spec.tool}", "spec": spec}


def _lookup(document: Any, path: str) -> str:
    value = document
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return ""
        value = value[part]
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def filled(value: Any, document: Any) -> Any:
    """`value` with each `${path}` in its strings replaced from the hook's input (one pass)."""
    if isinstance(value, str):
        return _PLACEHOLDER.sub(lambda found: _lookup(document, found[1]), value)
    if isinstance(value, list):
        return [filled(item, document) for item in value]
    if isinstance(value, dict):
        return {key: filled(item, document) for key, item in value.items()}
    return value


def call(handler: HookHandler, payload: HookInput, stdin: bytes, context: HookContext) -> Call:
    spec = handler.spec
    assert isinstance(spec, McpToolSpec)
    timeout = handler.timeout or DEFAULT_TIMEOUT

    async def run() -> HookRun:
        event = handler.event.name
        if event in NO_CLIENT_EVENTS or context.mcp is None:
            where = f"the '{event}' hook event" if event in NO_CLIENT_EVENTS else "this run"
            return failed(
                handler, f"mcp_tool hooks are not available for {where} (no MCP client context)"
            )
        try:
            document = json.loads(stdin)
        except ValueError:
            document = {}
        ok, text = await context.mcp(spec.server, spec.tool, filled(dict(spec.input), document))
        if not ok:
            return failed(handler, text, timeout)
        return answered(handler, 0, stdout=text, timeout=timeout)

    return Call(run, timeout)
