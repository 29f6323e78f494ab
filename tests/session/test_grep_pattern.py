"""Grep's patterns read as ripgrep reads them (its syntax, Unicode-aware classes), run by RE2;
a search is bounded in time."""

import re
from pathlib import Path

import pytest

from wavehost.session.tools import BackgroundTasks, Workspace, default_tools, search
from wavehost.session.tools.grep_pattern import GrepPatternError, compile_pattern


@pytest.mark.parametrize(
    ("pattern", "line", "matches"),
    [
        (r"\d+", "page ٣", True),  # an Arabic-Indic digit: ripgrep's \d is Unicode (RE2's ASCII)
        (r"^\w+$", "héllo", True),
        (r"^\W+$", "é", False),
        (r"[\w-]+=", "clé-x=", True),
        (r"a\sb", "a\u3000b", True),
        (r"^\S+$", "a\u00a0b", False),
        (r"\u00e9|\u{e8}", "è", True),
        (r"\U0001F600", "😀", True),
        (r"[]a]", "]", True),
        (r"[^]a]x", "]x", False),
        (r"[[:digit:]]{3}", "a123", True),
        (r"\[x\]\.", "[x].", True),
        (r"(?i)todo", "TODO", True),
        ("TODO", "todo", False),
        (r"(a+)+$", "a" * 40 + "!", False),  # exponential for a backtracking engine
        (r"(?:.*){400}!", "Bash", False),
    ],
)
def test_grep_patterns_mean_what_ripgrep_means(pattern: str, line: str, matches: bool) -> None:
    assert compile_pattern(pattern).search(line.encode()) is matches


def test_case_insensitive_search() -> None:
    assert compile_pattern("ünïcode", ignore_case=True).search("ÜNÏCODE".encode())


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        (r"(?<=a)b", "invalid perl operator"),  # look-around: ripgrep refuses it too
        (r"(a)\1", "invalid escape sequence"),  # backreferences as well
        ("(", "missing )"),
        ("x{1001}", "invalid repetition size"),  # RE2 counts to 1,000 at most
    ],
)
def test_what_no_automaton_can_run_is_a_clear_error(pattern: str, said: str) -> None:
    with pytest.raises(GrepPatternError, match=re.escape(said)):
        compile_pattern(pattern)


async def test_a_search_over_its_time_is_a_tool_error_that_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    monkeypatch.setattr(search, "GREP_TIMEOUT", -1.0)  # spent before it begins
    async with BackgroundTasks() as tasks:
        grep = default_tools(tasks)["Grep"]
        result = await grep({"pattern": "needle"}, Workspace(tmp_path, tmp_path))
    assert not result.ok
    assert result.text == search.TIMED_OUT


def test_a_search_cut_short_keeps_what_it_found(tmp_path: Path) -> None:
    for name in ("a.txt", "b.txt", "c.txt"):
        (tmp_path / name).write_text("needle\nneedle\n")
    calls = 0

    def stop() -> bool:  # the budget runs out after the first file's two lines
        nonlocal calls
        calls += 1
        return calls > 3

    args = search.GrepInput(pattern="needle", output_mode="content")
    results, files = search._grep(tmp_path, args, stop)
    assert files == [str(tmp_path / "a.txt")]
    assert results == [f"{tmp_path / 'a.txt'}:1:needle", f"{tmp_path / 'a.txt'}:2:needle"]
