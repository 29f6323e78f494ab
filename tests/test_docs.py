"""The repository stands alone: its README and docs link only to files inside it."""

import importlib.util
import re
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_readme_and_docs_link_only_to_files_in_the_repository() -> None:
    documents = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    assert REPO / "docs" / "architecture.md" in documents
    broken = []
    for document in documents:
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+://", target):
                continue  # a web address, not a file
            resolved = (document.parent / target).resolve()
            if not resolved.is_relative_to(REPO) or not resolved.exists():
                broken.append(f"{document.relative_to(REPO)}: {target}")
    assert broken == []


def _gen_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_docs", REPO / "scripts" / "gen_docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_generated_tables_are_what_their_sources_make() -> None:
    # On failure: run `.venv/bin/python scripts/gen_docs.py` and review the diff.
    gen_docs = _gen_docs()
    assert set(gen_docs.TABLES) >= {"tools", "methods", "shell-commands"}
    assert gen_docs.stale() == []


def test_a_stale_table_is_seen() -> None:
    gen_docs = _gen_docs()
    text = "before\n<!-- generated: tools -->\n| old |\n<!-- end generated -->\nafter\n"
    replaced = gen_docs._replaced(text, "tools", "| new |")
    assert replaced == "before\n<!-- generated: tools -->\n| new |\n<!-- end generated -->\nafter\n"
