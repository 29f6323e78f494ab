"""What the tool catalogue says about one chat tool (`ChatTool`), and how a dialect names it
(`ToolName`)."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Args = dict[str, Any]


@dataclass(frozen=True)
class ToolName:
    """A tool in a dialect's own words: its name, its input fields renamed, other names of the
    dialect that mean it, and a reshaping of its input beyond renamed fields."""

    name: str
    fields: Mapping[str, str] = field(default_factory=dict)  # Wave field -> the dialect's
    aliases: tuple[str, ...] = ()
    render: Callable[[Args], Args] | None = None


@dataclass(frozen=True, kw_only=True)
class ChatTool:
    """One tool, declared once. What every tool has comes first; the rest only some tools have."""

    name: str  # Claude Code's name (and Wave's): what the model calls and Wave hooks see
    summary: str  # what it does, in a line (docs)
    sample: Mapping[str, Any]  # an input as the model writes it; `{project}`: the project folder
    offered: bool  # False: Claude Code's tool, which wavehost does not offer (hooks name it)
    legacy: tuple[str, ...] = ()  # Claude Code's older names for it: an `if` rule may use them
    copilot: ToolName | None = None  # in Copilot CLI's words; None: its hooks see it as it is
    snow: ToolName | None = None  # in Snow CLI's words; None: likewise
    # The input field an `if` rule's pattern is matched against (`Edit(*.ts)`: `file_path`);
    # None: a rule with a pattern never matches a call of it
    if_field: str | None = None
    shell: bool = False  # its `if_field` is a shell command: read into its simple commands (Bash)
    change: Literal["write", "edit"] | None = None  # it writes a whole file, or edits one in place
