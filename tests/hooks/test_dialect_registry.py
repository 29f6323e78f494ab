"""The dialect registry (`wavehost.hooks.dialect_registry`) is the one place the hook formats are
named: the CLI, the settings schema, the prompts and the page take them from it."""

import ast
import json
import re
from pathlib import Path
from typing import get_args

import pytest

from wavehost import cli
from wavehost.hooks import dialect_registry as registry
from wavehost.hooks.dialects import DIALECTS
from wavehost.hooks.settings_schema import settings_schema_text
from wavehost.protocol.schema import protocol_schema

REPO = Path(__file__).resolve().parents[2]
# "Wave" is the product's name too (a notification's title): the other titles are scanned for
TITLES = {f.title for f in registry.FORMATS if f.name != "wave"}


def test_the_types_and_the_registry_name_the_same_formats_in_the_same_order() -> None:
    assert tuple(registry.BY_NAME) == get_args(registry.FileFormat)
    assert registry.DIALECT_NAMES == get_args(registry.DialectName) == tuple(DIALECTS)
    assert all(DIALECTS[name].name == name for name in registry.DIALECT_NAMES)
    # Claude Code's own files run as Wave's; every other format is its dialect's own
    assert {f.name: f.runs_as for f in registry.FORMATS if f.runs_as != f.name} == {
        "claude": "wave"
    }


def test_the_cli_the_schemas_and_the_page_take_the_formats_from_the_registry() -> None:
    parser = cli._parser()
    for name in registry.DIALECT_NAMES:
        assert parser.parse_args(["hooks", "run", "Stop", "--dialect", name]).dialect == name
    with pytest.raises(cli.UsageError):  # a format, not a dialect: its hooks run as Wave's
        parser.parse_args(["hooks", "run", "Stop", "--dialect", "claude"])
    settings = json.loads(settings_schema_text())
    switches = settings["$defs"]["HookDialects"]["properties"]
    assert tuple(switches) == registry.SWITCHABLE == ("claude", "copilot", "snow")
    assert switches["snow"]["description"] == "Snow CLI hooks (.snow/hooks, ~/.snow)"
    wire = protocol_schema()["dialects"]
    assert wire["snow"] == {
        "title": "Snow CLI",
        "runsAs": "snow",
        "files": ".snow/hooks, ~/.snow",
        "promptHook": "user",
    }
    assert list(wire) == list(registry.BY_NAME)
    generated = (REPO / "webview/src/protocol/generated.ts").read_text(encoding="utf-8")
    assert '"title": "Copilot CLI"' in generated  # the page's DIALECTS (a drift test guards it)


def _title_literals(source: str) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in TITLES
    ]


def test_no_code_outside_the_registry_spells_a_format_title() -> None:
    stray = []
    for path in sorted((REPO / "server/wavehost").rglob("*.py")):
        if path.name == "dialect_registry.py":
            continue
        stray += [f"{path}:{n}: {t!r}" for n, t in _title_literals(path.read_text("utf-8"))]
    quoted = re.compile(rf"""["'`]({"|".join(map(re.escape, TITLES))})["'`]""")
    for path in sorted((REPO / "webview/src").rglob("*.ts")):
        text = path.read_text(encoding="utf-8")
        if "GENERATED" in text.splitlines()[0]:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            stray += [f"{path}:{number}: {t!r}" for t in quoted.findall(line)]
    assert _title_literals('NAME = "Snow CLI"\n') == [(1, "Snow CLI")]  # the scan sees one
    assert stray == []
