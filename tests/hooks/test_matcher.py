"""Matchers with Claude Code's semantics, by example and by property."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wavehost.hooks.dialects.wave.matcher import compile_matcher
from wavehost.hooks.patterns import PatternError

TOOL_NAME = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=30
)
NAME = st.from_regex(r"[A-Za-z0-9_\-]{1,12}", fullmatch=True)


@pytest.mark.parametrize("source", [None, "", "*", "  "])
def test_star_empty_or_missing_matches_everything(source: str | None) -> None:
    matcher = compile_matcher(source)
    assert matcher.matches_all
    assert matcher.matches("Bash")
    assert matcher.matches("mcp__memory__write")


@pytest.mark.parametrize(
    ("source", "kind", "hits", "misses"),
    [
        # only letters, digits, _ - space , |: exact names, case-sensitive, never substrings
        ("Bash", "names", ["Bash"], ["bash", "BashOutput", "PowerShell"]),
        ("Edit|Write", "names", ["Edit", "Write"], ["NotebookEdit", "MultiEdit", "write"]),
        ("Edit, Write", "names", ["Edit", "Write"], ["Edit, Write"]),
        ("Edit | Write", "names", ["Edit", "Write"], ["Read"]),
        ("my-tool", "names", ["my-tool"], ["my-tool-2", "xmy-tool"]),
        ("startup", "names", ["startup"], ["resume"]),
        # anything else: a case-sensitive regex, searched (unanchored, like RegExp.test)
        ("Edit.*", "regex", ["Edit", "NotebookEdit", "EditX"], ["Write"]),
        ("^Edit$", "regex", ["Edit"], ["NotebookEdit"]),
        ("mcp__memory__.*", "regex", ["mcp__memory__create"], ["mcp__github__x", "mcp__memory"]),
        ("mcp__.*__write.*", "regex", ["mcp__fs__write_file"], ["mcp__fs__read_file"]),
        ("Web(Fetch|Search)", "regex", ["WebFetch", "WebSearch"], ["webfetch"]),
    ],
)
def test_names_are_exact_and_anything_else_is_a_searched_regex(
    source: str, kind: str, hits: list[str], misses: list[str]
) -> None:
    matcher = compile_matcher(source)
    assert (matcher.names is not None, matcher.pattern is not None) == (
        kind == "names",
        kind == "regex",
    )
    assert all(matcher.matches(n) for n in hits)
    assert not any(matcher.matches(n) for n in misses)


def test_invalid_regex_raises() -> None:
    with pytest.raises(PatternError):
        compile_matcher("Bash(")


@given(st.lists(NAME, min_size=1, max_size=5), TOOL_NAME)
def test_a_name_list_matches_exactly_its_members(names: list[str], tool: str) -> None:
    for separator in ("|", ",", " | ", ", "):
        matcher = compile_matcher(separator.join(names))
        assert matcher.matches(tool) == (tool in names)


@given(NAME, TOOL_NAME)
def test_a_name_never_matches_by_substring(name: str, tool: str) -> None:
    matcher = compile_matcher(name)
    assert matcher.matches(tool) == (tool == name)


@given(st.from_regex(r"[A-Za-z_.*^$()|]{1,12}", fullmatch=True), TOOL_NAME)
def test_regex_matchers_agree_with_re_search(source: str, tool: str) -> None:
    try:
        matcher = compile_matcher(source)
    except PatternError:
        return
    if matcher.pattern is not None:
        assert matcher.matches(tool) == (re.search(source, tool) is not None)
