"""The dialect registry: every hook format wavehost reads, declared once — its name, how people
call it, where its files are, whether the user can switch it off, what its `prompt` hooks do.

The CLI (`hooks list`, `hooks run --dialect`), the settings schema (`hookDialects`), the prefill
prompts and the page (`DIALECTS` in the generated TypeScript, through `wavehost
protocol-schema`) all read it. Plain data, no imports of the engine: the CLI's parser reads it.

A *dialect* is how hooks run (Wave, Copilot CLI, Snow CLI: `hooks.dialects`); a *format* is whose
file a hook is in — a dialect's own, or Claude Code's `.claude` files, which are Wave's format and
run as Wave's hooks (the page shows them under their own chip).
"""

from dataclasses import dataclass
from typing import Literal

DialectName = Literal["wave", "copilot", "snow"]
FileFormat = Literal["wave", "claude", "copilot", "snow"]
# What a hook of `"type": "prompt"` asks: the model (Claude Code's), or the user (Snow's)
PromptHook = Literal["model", "user"]


@dataclass(frozen=True, kw_only=True)
class HookFormat:
    name: FileFormat
    title: str  # as the page, the CLI and the prompts name it
    runs_as: DialectName  # the dialect whose engine path its hooks take
    files: str  # where its files are, in short (the settings schema's `hookDialects`)
    switchable: bool = True  # `hookDialects` in the user's settings can turn its files off
    prompt_hook: PromptHook = "model"


FORMATS: tuple[HookFormat, ...] = (
    HookFormat(name="wave", title="Wave", runs_as="wave", files=".wave/settings*.json, "
               "~/.wave/settings.json, plugins", switchable=False),
    HookFormat(name="claude", title="Claude Code", runs_as="wave",
               files=".claude/settings*.json, ~/.claude/settings.json"),
    HookFormat(name="copilot", title="Copilot CLI", runs_as="copilot",
               files=".github/hooks, ~/.copilot"),
    HookFormat(name="snow", title="Snow CLI", runs_as="snow", files=".snow/hooks, ~/.snow",
               prompt_hook="user"),
)  # fmt: skip
BY_NAME: dict[FileFormat, HookFormat] = {f.name: f for f in FORMATS}
# The dialects, in the documented order (their outcomes combine in it)
DIALECT_NAMES: tuple[DialectName, ...] = tuple(f.runs_as for f in FORMATS if f.runs_as == f.name)
# What `hookDialects` may name
SWITCHABLE: tuple[FileFormat, ...] = tuple(f.name for f in FORMATS if f.switchable)


def title(name: FileFormat) -> str:
    return BY_NAME[name].title
