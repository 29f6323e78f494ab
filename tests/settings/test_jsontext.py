"""Cutting one member out of JSON text keeps every other byte."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wavehost.settings.jsontext import remove_member


@pytest.mark.parametrize(
    ("text", "path", "expected"),
    [
        ("[1, 2, 3]", [0], "[2, 3]"),
        ("[1, 2, 3]", [1], "[1, 3]"),
        ("[1, 2, 3]", [2], "[1, 2]"),
        ("[ 7 ]", [0], "[]"),
        ('{"a": 1,\n  "b": [2]}', ["b"], '{"a": 1}'),
        ('{"a": 1,\n  "b": [2]}', ["a"], '{"b": [2]}'),
        ('{\n\t"only": {}\n}\n', ["only"], "{}\n"),
        ('{"x": {"y": [1, {"z": 0}]}}', ["x", "y", 1, "z"], '{"x": {"y": [1, {}]}}'),
        ('{"k": "a,]}\\"", "j": 1}', ["k"], '{"j": 1}'),
        ('{"d": 1, "d": 2, "e": 3}', ["d"], '{"d": 1, "e": 3}'),  # the live (last) duplicate
        ("\r\n[\r\n  1,\r\n  2\r\n]\r\n", [0], "\r\n[\r\n  2\r\n]\r\n"),
    ],
)
def test_remove_member_cuts_only_that_member(
    text: str, path: list[str | int], expected: str
) -> None:
    assert remove_member(text, path) == expected


@pytest.mark.parametrize(
    ("text", "path"), [("[1]", [1]), ('{"a": 1}', ["b"]), ('{"a": 1}', ["a", 0])]
)
def test_a_missing_path_is_a_key_error(text: str, path: list[str | int]) -> None:
    with pytest.raises(KeyError):
        remove_member(text, path)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(
    st.dictionaries(st.text(max_size=4), json_values, min_size=1, max_size=5),
    st.sampled_from([None, 2, "\t"]),
    st.data(),
)
def test_removal_means_exactly_the_document_without_the_member(
    document: dict[str, object], indent: int | str | None, data: st.DataObject
) -> None:
    text = json.dumps(document, indent=indent)
    key = data.draw(st.sampled_from(sorted(document)))
    edited = remove_member(text, [key])
    expected = {k: v for k, v in document.items() if k != key}
    assert json.loads(edited) == expected
    assert list(json.loads(edited)) == list(expected)  # order kept
    others = json.dumps(expected, indent=indent)
    assert edited == others  # same formatter, so the rest is byte-identical
