"""Writes the docs' generated tables from their one source: the tool catalogue
(`wavehost.hooks.tools`) into docs/hooks.md, the protocol's methods and shell-local commands
(`wavehost protocol-schema`, made from `wavehost.protocol.table`) into docs/protocol.md.

    .venv/bin/python scripts/gen_docs.py          rewrite the tables in place
    .venv/bin/python scripts/gen_docs.py --check  exit 1 if a committed table differs (drift)

A table lives between `<!-- generated: NAME -->` and `<!-- end generated -->`; the text around it
is the docs' own. tests/test_docs.py runs the check.
"""

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wavehost.hooks import tools
from wavehost.hooks.tools.spec import ToolName
from wavehost.protocol.schema import protocol_schema

DOCS = Path(__file__).resolve().parents[1] / "docs"
END = "<!-- end generated -->"


def _code(text: str) -> str:
    return f"`{text}`"


def _words(words: ToolName | None) -> str:
    if words is None:
        return "—"
    aliases = f" (also {', '.join(map(_code, words.aliases))})" if words.aliases else ""
    return _code(words.name) + aliases


def _if_field(tool: tools.ChatTool) -> str:
    if tool.if_field is None:
        return "—"
    return _code(tool.if_field) + (", its simple commands" if tool.shell else "")


def tools_table() -> str:
    rows = [
        "| tool | what it does | Copilot CLI | Snow CLI | `Tool(pattern)` matches | sample input |",
        "|---|---|---|---|---|---|",
    ]
    for tool in tools.TOOLS:
        name = _code(tool.name)
        if tool.legacy:
            name += f" (was {', '.join(map(_code, tool.legacy))})"
        summary = tool.summary if tool.offered else f"{tool.summary} *(Claude Code's only)*"
        sample = json.dumps(tool.sample, ensure_ascii=False).replace("|", "\\|")
        cells = [name, summary, _words(tool.copilot), _words(tool.snow), _if_field(tool)]
        rows.append(f"| {' | '.join(cells)} | `{sample}` |")
    return "\n".join(rows)


_ARROWS = {
    "clientToServer": "client→server",
    "serverToClient": "server→client",
    "pageToShell": "page→shell",
    "shellToPage": "shell→page",
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def methods_table() -> str:
    schema = protocol_schema()
    rows = [
        "| method | direction | feature | session | what |",
        "|---|---|---|---|---|",
    ]
    listed = [(name, m, "") for name, m in schema["methods"].items()]
    listed += [(name, m, " (standardMethods)") for name, m in schema["standardMethods"].items()]
    for name, method, where in listed:
        session = _code(method["session"]) if method["session"] else "—"
        cells = [
            _code(name) + where,
            _ARROWS[method["direction"]] + (" (shell only)" if method["shellOnly"] else ""),
            method["feature"],
            session,
            _cell(method["description"]),
        ]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)


def _args(schema: dict[str, Any], ref: str) -> str:
    """A model's fields as `{a, b?}` (`?`: may be left out)."""
    model = schema["$defs"][ref.rsplit("/", 1)[-1]]
    required = set(model.get("required", ()))
    names = [name + ("" if name in required else "?") for name in model.get("properties", {})]
    return _code("{" + ", ".join(names) + "}")


def shell_commands_table() -> str:
    schema = protocol_schema()
    rows = ["| command | direction | args | what |", "|---|---|---|---|"]
    for name, command in schema["shellCommands"].items():
        cells = [
            _code(name),
            _ARROWS[command["direction"]],
            _args(schema, command["args"]["$ref"]),
            _cell(command["description"]),
        ]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)


# Each generated table: the document it is in, and what makes it
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "tools": ("hooks.md", tools_table),
    "methods": ("protocol.md", methods_table),
    "shell-commands": ("protocol.md", shell_commands_table),
}


def _replaced(text: str, name: str, body: str) -> str:
    start = f"<!-- generated: {name} -->"
    pattern = re.compile(rf"{re.escape(start)}\n.*?{re.escape(END)}", re.DOTALL)
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"expected one '{start}' … '{END}' block")
    return pattern.sub(lambda _: f"{start}\n{body}\n{END}", text)


def generated() -> dict[Path, str]:
    """Every document with generated tables, as it should read."""
    documents: dict[Path, str] = {}
    for name, (file, make) in TABLES.items():
        path = DOCS / file
        text = documents.get(path) or path.read_text(encoding="utf-8")
        documents[path] = _replaced(text, name, make())
    return documents


def stale() -> list[Path]:
    return [p for p, text in generated().items() if p.read_text(encoding="utf-8") != text]


def main(argv: list[str]) -> int:
    if "--check" in argv:
        drifted = stale()
        for path in drifted:
            print(
                f"{path} is out of date: run .venv/bin/python scripts/gen_docs.py", file=sys.stderr
            )
        return 1 if drifted else 0
    for path, text in generated().items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
