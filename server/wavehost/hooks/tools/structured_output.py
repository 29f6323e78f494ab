"""StructuredOutput: how an agent hook's subagent gives its answer."""

from wavehost.hooks.tools.spec import ChatTool

STRUCTURED_OUTPUT = ChatTool(
    name="StructuredOutput",
    summary="An agent hook's subagent gives its answer (offered to agent hooks only)",
    sample={"ok": False, "reason": "The tests do not pass yet"},
    offered=True,
)
