"""Agent: hands a task to a subagent (Claude Code's tool name and inputs; it was `Task` once)."""

from typing import Protocol

from pydantic import Field

from wavehost.hooks.tools.agent import AGENT
from wavehost.session.agent_types import AGENT_TYPES
from wavehost.session.tools.base import Tool, ToolInput, ToolResult, Workspace


class AgentInput(ToolInput):
    prompt: str = Field(description="The task for the agent to perform")
    description: str = Field(description="A short (3-5 word) description of the task")
    subagent_type: str = Field(
        "general-purpose", description="The type of specialized agent to use for this task"
    )
    model: str | None = Field(None, description="Ignored: subagents use the session's model")
    run_in_background: bool = Field(
        False, description="Run the agent in the background; you are notified when it is done"
    )


class AgentLauncher(Protocol):
    async def launch(self, args: AgentInput, workspace: Workspace) -> ToolResult: ...


class Agent(Tool[AgentInput]):
    name = AGENT.name
    kind = "read"  # the subagent's own tool calls are checked one by one
    description = (
        "Launches a subagent to handle a task on its own and returns its final report. "
        "Available agent types:\n"
        + "\n".join(f"- {t.name}: {t.purpose}" for t in AGENT_TYPES.values())
    )
    input_model = AgentInput

    def __init__(self, launcher: AgentLauncher) -> None:
        self.launcher = launcher

    async def run(self, args: AgentInput, workspace: Workspace) -> ToolResult:
        return await self.launcher.launch(args, workspace)
