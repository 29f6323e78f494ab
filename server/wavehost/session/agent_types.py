"""The subagent types the `Agent` tool offers (Claude Code's built-in names).

A type says what the agent is for (shown to the model in the tool description), which tools it
gets, and how its system prompt frames the job. Subagents never get `Agent` itself (no nesting),
nor the session-level tools (crons, worktrees): those belong to the session, not to a task.
"""

from dataclasses import dataclass

from wavehost.hooks.tools.bash import BASH
from wavehost.hooks.tools.glob import GLOB
from wavehost.hooks.tools.grep import GREP
from wavehost.hooks.tools.read import READ
from wavehost.hooks.tools.task_output import TASK_OUTPUT

READ_ONLY = frozenset(t.name for t in (READ, GLOB, GREP, BASH, TASK_OUTPUT))


@dataclass(frozen=True)
class AgentType:
    name: str
    purpose: str
    tools: frozenset[str] | None  # None: every tool a subagent may have
    instructions: str


AGENT_TYPES: dict[str, AgentType] = {
    t.name: t
    for t in (
        AgentType(
            "general-purpose",
            "researches complex questions, searches code and carries out multi-step tasks",
            None,
            "Complete the task fully, then reply with a concise report of what you did and found.",
        ),
        AgentType(
            "Explore",
            "fast read-only search of the codebase: finds files, code and answers questions",
            READ_ONLY,
            "Search and read only; do not change any file. Reply with what you found, with paths.",
        ),
        AgentType(
            "Plan",
            "read-only research that ends in an implementation plan",
            READ_ONLY,
            "Research read-only, then reply with a step-by-step implementation plan.",
        ),
    )
}

SUBAGENT_SYSTEM_PROMPT = """You are a {type} subagent of Wave, a coding agent, in a project.
Project root: {root}
{instructions}
Text inside <system-reminder> tags comes from the user's hooks: treat it as context."""
