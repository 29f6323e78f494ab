"""Tool names and input fields in a dialect's own words, from the tool catalogue.

wavehost's tools carry Claude Code's names and fields (`Bash {command}`, `Write {file_path,
content}`); a Copilot hook expects `bash` / `create {path, file_text}`, a Snow hook
`terminal-execute` / `filesystem-create {filePath, content}`. Each tool's module in the catalogue
(`hooks.tools`) says what it is called in each dialect; a tool the dialect has no name for keeps
its Wave name and fields. An MCP tool (`mcp__<server>__<tool>`, Claude Code's name) is named by
the dialect's rule (`hooks.tools.mcp`); its arguments are the server's own, never renamed.
"""

from collections.abc import Callable, Mapping
from typing import Any

from wavehost.hooks.tools import TOOLS, mcp
from wavehost.hooks.tools.spec import Args, ChatTool, ToolName

McpName = Callable[[str, str], str]  # (server, tool) -> the dialect's name of an MCP tool


class Vocabulary:
    def __init__(self, table: Mapping[str, ToolName], mcp_name: McpName | None = None) -> None:
        self._table = dict(table)
        self._mcp = mcp_name
        self._wave: dict[str, str] = {}
        for wave, tool in table.items():
            for name in (tool.name, *tool.aliases):
                self._wave.setdefault(name, wave)

    @classmethod
    def of(cls, words: Callable[[ChatTool], ToolName | None], mcp_name: McpName) -> "Vocabulary":
        """The dialect's words for each catalogue tool (`words`), and its MCP rule."""
        return cls({t.name: w for t in TOOLS if (w := words(t)) is not None}, mcp_name)

    def name(self, wave_tool: str) -> str:
        tool = self._table.get(wave_tool)
        if tool is not None:
            return tool.name
        parts = mcp.parts(wave_tool) if self._mcp is not None else None
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
