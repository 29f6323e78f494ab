"""The repository stands alone: its README and docs link only to files inside it."""

import re
from pathlib import Path

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
