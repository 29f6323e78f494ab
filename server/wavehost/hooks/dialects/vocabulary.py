"""Tool names and input fields in a dialect's own words.

wavehost's tools carry Claude Code's names and fields (`Bash {command}`, `Write {file_path,
content}`); a Copilot hook expects `bash` / `create {path, file_text}`, a Snow hook
`terminal-execute` / `filesystem-create {filePath, content}`. Each dialect declares a table from
the Wave name to its own; a tool missing from it keeps its Wave name and fields. An MCP tool
(`mcp__<server>__<tool>`, Claude Code's name) is named by the dialect's `mcp` rule when it has one:
Copilot CLI calls it `<server>-<tool>` (observed, 1.0.102), Snow its MCP tools `<service>-<tool>`
(`terminal-execute`); its arguments are the server's own, never renamed.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Args = dict[str, Any]


@dataclass(frozen=True)
class ToolName:
    name: str
    fields: Mapping[str, str] = field(default_factory=dict)  # Wave field -> the dialect's
    aliases: tuple[str, ...] = ()  # other names of the dialect that mean this tool
    render: Callable[[Args], Args] | None = None  # a reshaping beyond renamed fields


MCP_PREFIX = "mcp__"


def mcp_parts(name: str) -> tuple[str, str] | None:
    """(server, tool) of an MCP tool's name (`mcp__<server>__<tool>`); None for any other."""
    if not name.startswith(MCP_PREFIX):
        return None
    server, sep, tool = name[len(MCP_PREFIX) :].partition("__")
    return (server, tool) if sep and server and tool else None


def dashed(server: str, tool: str) -> str:
    """An MCP tool's name as Copilot CLI and Snow CLI give it: `<server>-<tool>`."""
    return f"{server}-{tool}"


class Vocabulary:
    def __init__(
        self, table: Mapping[str, ToolName], mcp: Callable[[str, str], str] | None = None
    ) -> None:
        self._table = dict(table)
        self._mcp = mcp
        self._wave: dict[str, str] = {}
        for wave, tool in table.items():
            for name in (tool.name, *tool.aliases):
                self._wave.setdefault(name, wave)

    def name(self, wave_tool: str) -> str:
        tool = self._table.get(wave_tool)
        if tool is not None:
            return tool.name
        parts = mcp_parts(wave_tool) if self._mcp is not None else None
        return self._mcp(*parts) if self._mcp is not None and parts else wave_tool

    def names(self, wave_tool: str) -> tuple[str, ...]:
        """Every name of the dialect for this tool (its own first)."""
        tool = self._table.get(wave_tool)
        return (tool.name, *tool.aliases) if tool else (self.name(wave_tool),)

    def known(self, wave_tool: str) -> bool:
        """Whether the table has this Wave tool (it has no MCP tool, nor a tool of its own)."""
        return wave_tool in self._table

    def wave_name(self, name: str) -> str:
        return self._wave.get(name, name)

    def args(self, wave_tool: str, wave_input: Mapping[str, Any]) -> Args:
        tool = self._table.get(wave_tool)
        if tool is None:
            return dict(wave_input)
        if tool.render is not None:
            return tool.render(dict(wave_input))
        return {tool.fields.get(k, k): v for k, v in wave_input.items()}

    def wave_args(self, wave_tool: str, args: Mapping[str, Any]) -> Args:
        """The dialect's input back in Wave fields (a hook's rewritten arguments)."""
        tool = self._table.get(wave_tool)
        if tool is None:
            return dict(args)
        back = {v: k for k, v in tool.fields.items()}
        return {back.get(k, k): v for k, v in args.items()}
