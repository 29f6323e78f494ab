"""The tool catalogue (`wavehost.hooks.tools`) is the one place a chat tool is declared: its
names in every dialect, its `if` field, its sample input and its summary. Nothing else spells a
tool's name, and adding a tool is adding one file."""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from wavehost.hooks import tools
from wavehost.hooks.tools import TOOLS, ChatTool
from wavehost.hooks.tools.spec import ToolName

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "server" / "wavehost"
CATALOGUE = PACKAGE / "hooks" / "tools"
# Code that could name a tool, besides the server: the page and the shells (not their tests,
# whose fixtures call tools by name; nor generated files, which are the catalogue's)
OTHER_SOURCES = {
    "webview/src": ("*.ts",),
    "extension-vscode/src": ("*.ts",),
    "extension-jetbrains": ("*/src/main/**/*.kt",),
}


def _spelled_names() -> set[str]:
    """Every name the scan looks for: Claude Code's (with its older ones) and Snow CLI's. Copilot
    CLI's are plain words (`bash`, `edit`, `view`, `ask_user`) that also name a shell, an action,
    an outcome's field: a scan cannot tell those apart, so it leaves them out."""
    names: set[str] = set()
    for tool in TOOLS:
        names |= {tool.name, *tool.legacy}
        if tool.snow is not None:
            names |= {tool.snow.name, *tool.snow.aliases}
    return names


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def python_strays(source: str, names: set[str]) -> list[tuple[int, str]]:
    """String literals (not docstrings) that are a tool's name, or an `if` rule on one."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    rule = re.compile(rf"(?:{'|'.join(map(re.escape, names))})\(")
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and (node.value in names or rule.match(node.value))
    ]


def script_strays(source: str, names: set[str]) -> list[tuple[int, str]]:
    """TypeScript / Kotlin: a tool's name compared with, switched on, or used as a key."""
    quoted = rf"""["'`]({"|".join(map(re.escape, names))})["'`]"""
    pattern = re.compile(
        rf"(?:===?|!==?|\bcase|\bin|\bhas\(|\bget\()\s*{quoted}|{quoted}\s*(?:===?|!==?|:\s|\bin\b|->)"
    )
    return [
        (number, match.group(1) or match.group(2))
        for number, line in enumerate(source.splitlines(), 1)
        for match in pattern.finditer(line)
    ]


def _other_sources() -> list[Path]:
    found = []
    for folder, patterns in OTHER_SOURCES.items():
        for pattern in patterns:
            for path in (REPO / folder).glob(f"**/{pattern}" if "/" not in pattern else pattern):
                text = path.read_text(encoding="utf-8")
                if "GENERATED" not in "\n".join(text.splitlines()[:3]):
                    found.append(path)
    return sorted(set(found))


def test_no_code_outside_the_catalogue_spells_a_tool_name() -> None:
    names = _spelled_names()
    assert {"Bash", "Task", "terminal-execute", "filesystem-edit_search"} <= names
    stray = []
    scanned = 0
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(CATALOGUE):
            continue
        scanned += 1
        for line, text in python_strays(path.read_text(encoding="utf-8"), names):
            stray.append(f"{path.relative_to(REPO)}:{line}: {text!r}")
    others = _other_sources()
    assert any(p.suffix == ".kt" for p in others)
    assert any(p.name == "view.ts" for p in others)
    for path in others:
        scanned += 1
        for line, text in script_strays(path.read_text(encoding="utf-8"), names):
            stray.append(f"{path.relative_to(REPO)}:{line}: {text!r}")
    assert scanned > 150  # the scan looked at the code it is meant to
    assert stray == [], "name the catalogue's tool (hooks/tools/<tool>.py):\n" + "\n".join(stray)


def test_the_scan_would_see_a_stray_name() -> None:
    names = _spelled_names()
    assert python_strays('if payload.tool_name == "Bash":\n    pass\n', names) == [(1, "Bash")]
    assert python_strays('RULE = "Edit(*.ts)"\n', names) == [(1, "Edit(*.ts)")]
    assert python_strays('x = {"Task": 1}\n', names) == [(1, "Task")]
    assert python_strays('TOOL = "filesystem-read"\n', names) == [(1, "filesystem-read")]
    assert python_strays('def f():\n    """The Bash tool."""\n', names) == []  # a docstring
    assert python_strays('LABEL = "Bashful"\n', names) == []
    assert script_strays('if (tool === "Bash") return;', names) == [(1, "Bash")]
    assert script_strays('case "Write":', names) == [(1, "Write")]
    assert script_strays('const m = { "Edit": 1 };', names) == [(1, "Edit")]
    assert script_strays('"row.edit": "Edit",', names) == []  # a word on the page
    assert script_strays('if (name == "Read") {', names) == [(1, "Read")]


def test_every_tool_declares_every_field_and_its_names_are_its_own() -> None:
    assert {t.name for t in TOOLS} >= {"Bash", "Read", "Write", "Edit", "Glob", "Grep", "Agent"}
    for tool in TOOLS:
        assert isinstance(tool, ChatTool)
        assert re.fullmatch(r"[A-Z][A-Za-z]+", tool.name), tool.name
        assert tool.summary
        assert tool.summary[0].isupper()
        assert not tool.summary.endswith(".")
        assert isinstance(tool.sample, dict)
        json.dumps(tool.sample)  # plain JSON, as the model writes it
        if tool.if_field is not None:
            assert tool.if_field in tool.sample, tool.name  # the sample shows what a rule reads
        assert not tool.shell or tool.if_field == "command", tool.name
        assert tool.change is None or "file_path" in tool.sample, tool.name
        for words in (tool.copilot, tool.snow):
            assert words is None or isinstance(words, ToolName)
    # Every name means one tool, in each dialect (a hook's matcher names it unambiguously)
    for dialect in ("copilot", "snow"):
        spoken = [n for t in TOOLS if (w := getattr(t, dialect)) for n in (w.name, *w.aliases)]
        assert len(spoken) == len(set(spoken)), dialect
    wave = [n for t in TOOLS for n in (t.name, *t.legacy)]
    assert len(wave) == len(set(wave))


def _module_name(tool_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", tool_name).lower()


def test_each_tool_is_one_module_named_after_it() -> None:
    modules = {p.stem for p in CATALOGUE.glob("*.py")} - {"__init__", "spec", "mcp"}
    assert modules == {_module_name(t.name) for t in TOOLS}


PROBE = '''"""Probe: a tool added by this one file."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

PROBE = ChatTool(
    name="ProbeTool",
    summary="Looks something up",
    legacy=("OldProbe",),
    copilot=ToolName("probe_tool", {"query": "q"}),
    snow=ToolName("probe-lookup", {"query": "searchText"}),
    if_field="query",
    shell=False,
    change=None,
    sample={"query": "{project}/x"},
    offered=False,
)
'''

PROBE_CHECK = """
import json
from wavehost.hooks import payloads as p
from wavehost.hooks.dialects.copilot.events import TOOLS as COPILOT
from wavehost.hooks.dialects.snow.events import TOOLS as SNOW
from wavehost.hooks.dialects.wave.if_rules import parse_rule
from wavehost.protocol.schema import protocol_schema

call = p.PreToolUseInput(session_id="s", transcript_path="/t", cwd="/", tool_name="ProbeTool",
                         tool_input={"query": "abc"}, tool_use_id="u")
print(json.dumps({
    "copilot": [COPILOT.name("ProbeTool"), COPILOT.args("ProbeTool", {"query": 1}),
                COPILOT.wave_name("probe_tool")],
    "snow": [SNOW.name("ProbeTool"), SNOW.args("ProbeTool", {"query": 1})],
    "if": [parse_rule(r).holds(call) for r in ("ProbeTool(a*)", "OldProbe(ab*)", "ProbeTool(x*)")],
    "schema": protocol_schema()["tools"].get("ProbeTool"),
}))
"""


def test_adding_a_tool_is_adding_one_file(tmp_path: Path) -> None:
    """A copy of the package with one more module in the catalogue: every dialect, the `if`
    rules and the protocol schema know the new tool, with no other change."""
    shutil.copytree(PACKAGE, tmp_path / "wavehost", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "wavehost" / "hooks" / "tools" / "probe_tool.py").write_text(PROBE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    found = subprocess.run(
        [sys.executable, "-c", PROBE_CHECK],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        timeout=120,
    )
    report = json.loads(found.stdout)
    assert report["copilot"] == ["probe_tool", {"q": 1}, "ProbeTool"]
    assert report["snow"] == ["probe-lookup", {"searchText": 1}]
    assert report["if"] == [True, True, False]  # its field matched; its older name counts too
    assert report["schema"] == {"summary": "Looks something up", "shell": False, "change": None}


def test_copilot_and_snow_names_come_from_the_catalogue() -> None:
    from wavehost.hooks.dialects.copilot.events import TOOLS as COPILOT
    from wavehost.hooks.dialects.snow.events import TOOLS as SNOW

    for tool in TOOLS:
        for vocabulary, words in ((COPILOT, tool.copilot), (SNOW, tool.snow)):
            assert vocabulary.name(tool.name) == (words.name if words else tool.name)
            assert vocabulary.known(tool.name) == (words is not None)
    assert tools.named("mcp__memory__recall") is None
    assert COPILOT.name("mcp__memory__recall") == SNOW.name("mcp__memory__recall")
    assert COPILOT.name("mcp__memory__recall") == "memory-recall"
