"""An actor is one agent talking to the model: the session's main agent or a subagent.

Both run the same loop (`agent_loop.AgentLoop`); what differs is kept here: whose messages, which
tools, which workdir, what the hooks are told about who is running (`agent_id` / `agent_type`
inside a subagent, as in Claude Code) and which event ends a reply (Stop or SubagentStop).
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wavehost.hooks import payloads as p
from wavehost.session.conversation import Conversation
from wavehost.session.providers.base import ToolSpec
from wavehost.session.tools import Toolbox, Workspace

# Builds the Stop (or SubagentStop) input from the common fields, stop_hook_active and the
# reply's text; the main agent's also snapshots background work and crons at this moment.
StopPayload = Callable[[dict[str, Any], bool, str | None], p.HookInput]


@dataclass
class Actor:
    conversation: Conversation
    workspace: Workspace
    tools: Toolbox
    system: str
    stop_payload: StopPayload
    agent_id: str | None = None  # None for the main agent
    agent_type: str | None = None
    # Said once, as an isMeta message, when it would stop without having ended its reply by a
    # tool (an agent hook's subagent that has not called StructuredOutput)
    reminder: str | None = None
    model: str | None = None  # another model of the session's provider (a hook's `model`)
    permission_mode: p.PermissionMode | None = None  # its own, when not the session's
    _specs: tuple[tuple[int, ...], list[ToolSpec]] = field(init=False, default=((), []))

    @property
    def specs(self) -> list[ToolSpec]:
        """The tools as the model is told of them; made again only when the toolbox changed
        (an MCP server connected, changed its tools or went away)."""
        key = tuple(map(id, self.tools.values()))
        if key != self._specs[0]:
            built = [ToolSpec(t.name, t.description, t.input_schema()) for t in self.tools.values()]
            self._specs = (key, built)
        return self._specs[1]

    @property
    def is_main(self) -> bool:
        return self.agent_id is None

    def identity(self) -> dict[str, Any]:
        """Extra common fields for hooks fired while this actor runs."""
        if self.agent_id is None:
            return {}
        return {"agent_id": self.agent_id, "agent_type": self.agent_type}
