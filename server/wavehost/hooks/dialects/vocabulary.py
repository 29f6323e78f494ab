"""Tool names and input fields in a dialect's own words.

wavehost's tools carry Claude Code's names and fields (`Bash {command}`, `Write {file_path,
content}`); a Copilot hook expects `bash` / `create {path, file_text}`, a Snow hook
`terminal-execute` / `filesystem-create {filePath, content}`. Each dialect declares a table from
the Wave name to its own; a tool missing from it keeps its Wave name and fields.
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


class Vocabulary:
    def __init__(self, table: Mapping[str, ToolName]) -> None:
        self._table = dict(table)
        self._wave: dict[str, str] = {}
        for wave, tool in table.items():
            for name in (tool.name, *tool.aliases):
                self._wave.setdefault(name, wave)

    def name(self, wave_tool: str) -> str:
        tool = self._table.get(wave_tool)
        return tool.name if tool else wave_tool

    def names(self, wave_tool: str) -> tuple[str, ...]:
        """Every name of the dialect for this tool (its own first)."""
        tool = self._table.get(wave_tool)
        return (tool.name, *tool.aliases) if tool else (wave_tool,)

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
