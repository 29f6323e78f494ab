"""The tool catalogue: every chat tool hooks can see, one module each. Everything else derives
from it.

A tool's module declares, once, what hooks and the page need to know of it: its name (Claude
Code's, which is Wave's), its names and input fields in Copilot CLI's and Snow CLI's words, the
input field its `if` rules match, a sample input ("Test this hook", the docs) and what it does.
MCP servers' tools are named by rule (`mcp`). Adding a tool is adding its module here (and, when
wavehost offers it, its implementation in `session.tools`, which takes its name from here); a
test checks that no other code spells a tool's name.
"""

import importlib
import pkgutil

from wavehost.hooks.tools.spec import ChatTool, ToolName

_NOT_TOOLS = frozenset({"spec", "mcp"})


def _discover() -> tuple[ChatTool, ...]:
    found: dict[int, ChatTool] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in _NOT_TOOLS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, ChatTool):
                found.setdefault(id(value), value)
    return tuple(sorted(found.values(), key=lambda tool: tool.name))


TOOLS: tuple[ChatTool, ...] = _discover()
BY_NAME: dict[str, ChatTool] = {tool.name: tool for tool in TOOLS}
# Claude Code's older names (`Task`) -> the tool's name now (`Agent`)
LEGACY_NAMES: dict[str, str] = {old: tool.name for tool in TOOLS for old in tool.legacy}


def named(name: str) -> ChatTool | None:
    """The tool with this (Wave) name, if the catalogue has it (an MCP tool it has not)."""
    return BY_NAME.get(name)


def is_shell(name: str) -> bool:
    """Whether the tool of this name runs a shell command (its input's `command`)."""
    tool = BY_NAME.get(name)
    return tool is not None and tool.shell


__all__ = ["BY_NAME", "LEGACY_NAMES", "TOOLS", "ChatTool", "ToolName", "is_shell", "named"]
