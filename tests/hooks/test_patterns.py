"""Bounded patterns answer exactly as Python's `re` does, on RE2 or in the worker."""

import contextlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wavehost.hooks import patterns
from wavehost.hooks.catalogue import Event
from wavehost.hooks.engine import HookEngine
from wavehost.hooks.sources import load_hook_config


@pytest.fixture(autouse=True)
def patient_callers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Callers here wait for the `re` worker as long as it takes: on a loaded machine starting it
    can take longer than the default half-second, which would read as "undecided". The tests of
    deadlines set their own."""
    monkeypatch.setattr(patterns, "LOOKUP_WAIT", 120.0)


ATOMS = st.sampled_from(
    [
        "a",
        "b",
        "A",
        ".",
        r"\d",
        r"\w",
        r"\s",
        r"\W",
        r"\S",
        r"\D",
        "[a-c]",
        "[^ab]",
        "[Z-a]",
        r"[\s\d]",
        r"[^\w]",
        r"\b",
        r"\B",
        "^",
        "$",
        r"\A",
        r"\Z",
        "é",
        "K",
        "\n",
        "ſ",
        "İ",
        "1",
        r"\.",
        "[é-ü]",
        "(?=a)",
        "(?!b)",
        "(?<=a)",
    ]
)
SUBJECT = st.text(alphabet="abAB\n é\u212aſİi1_\x1c.", max_size=6)
FLAGS = st.sampled_from([0, re.I, re.M, re.S, re.A, re.I | re.M, re.I | re.A, re.S | re.M])
MODES = st.sampled_from(["search", "match", "fullmatch"])


def _regexes() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map("|".join),
            st.tuples(st.sampled_from(["(?:", "(", "(?i:", "(?m:", "(?s:", "(?-i:"]), inner).map(
                lambda t: f"{t[0]}{t[1]})"
            ),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{1,3}", "{2}", "*?"])).map(
                lambda t: f"(?:{t[0]}){t[1]}"
            ),
        )

    return st.recursive(ATOMS, extend, max_leaves=6)


@settings(max_examples=600, deadline=None)
@given(_regexes(), FLAGS, MODES, st.lists(SUBJECT, min_size=1, max_size=4))
def test_every_answer_is_re_s_answer(
    source: str, flags: int, mode: str, subjects: list[str]
) -> None:
    try:
        expected = re.compile(source, flags)
    except re.error:
        with pytest.raises(patterns.PatternError):
            patterns.compile(source, flags, mode)  # type: ignore[arg-type]
        return
    compiled = patterns.compile(source, flags, mode)  # type: ignore[arg-type]
    for subject in subjects:
        assert compiled.test(subject) == (getattr(expected, mode)(subject) is not None), (
            source,
            flags,
            mode,
            subject,
            compiled.engine,
        )


LOOKAHEAD = "(?=(?:.*){400}!)"  # only `re` can run it, and it backtracks for hours


def test_a_pattern_over_its_cpu_budget_matches_nothing_and_is_refused_from_then_on() -> None:
    source = LOOKAHEAD + "over"
    pattern = patterns.compile(source)
    assert pattern.engine == "re"
    before = patterns.over_budget()
    assert pattern.test("Bash") is False  # stopped by the kernel after 50 ms of CPU
    assert pattern.over
    assert patterns.over_budget() == before + 1
    with pytest.raises(patterns.PatternError) as refused:
        patterns.compile(source)
    assert refused.value.over_budget
    assert patterns.compile("(?=B)ash|Bash").test("Bash")  # the next worker answers


def test_a_caller_s_deadline_leaves_patterns_undecided_not_over_budget() -> None:
    pattern = patterns.compile(LOOKAHEAD + "deadline")
    with patterns.deadline(0.0) as limit:
        assert pattern.test("Bash") is False
    assert limit.cut
    assert not pattern.over


def test_compiling_is_bounded_per_file() -> None:
    with pytest.raises(patterns.PatternError) as long:
        patterns.compile("a" * (patterns.MAX_LENGTH + 1) + "(")
    assert long.value.over_budget  # refused before Python's parser sees it
    budget = patterns.CompileBudget()
    for i in range(patterns.SOURCE_PATTERNS):
        patterns.compile(f"tool{i}.*", budget=budget)
    patterns.compile("tool0.*", budget=budget)  # a repeat is free
    with pytest.raises(patterns.PatternError) as many:
        patterns.compile("one.*more", budget=budget)
    assert many.value.over_budget
    costly = patterns.CompileBudget()
    compiled = 0
    with contextlib.suppress(patterns.PatternError):
        for i in range(1_000):  # each about 3,600 instructions
            patterns.compile(f"(?:.*){{400}}!{i}", budget=costly)
            compiled += 1
    assert 100 < compiled < 200


def test_a_lookup_cut_short_by_its_deadline_is_not_memoised(tmp_path: Path) -> None:
    matcher = "(?<=x)memo|Bash"  # the worker runs it, in no time
    hooks = {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": "x"}]}]}
    settings = tmp_path / ".wave" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"hooks": hooks}))
    config = load_hook_config(tmp_path, home=tmp_path / "home")
    engine = HookEngine(config)
    with patterns.deadline(0.0):
        assert engine.matching(Event.PreToolUse, "Bash") == ()  # undecided: no
    assert not engine._index[Event.PreToolUse].ready("Bash")
    assert len(engine.matching(Event.PreToolUse, "Bash")) == 1  # decided now
    assert engine._index[Event.PreToolUse].ready("Bash")
