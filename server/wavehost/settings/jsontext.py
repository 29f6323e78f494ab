"""Remove one member from JSON text without touching any other byte.

Re-serialising a settings file would lose what people care about (their indentation, spacing,
number spelling, escapes). Instead the span of the member is located in the text and cut out with
its separating comma, so everything else stays byte for byte.
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()

Key = str | int


@dataclass(frozen=True, slots=True)
class _Member:
    key: Key
    start: int  # the key of an object member, else the value
    value_start: int
    end: int


def _skip(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _members(text: str, start: int) -> tuple[list[_Member], int]:
    """The members of the object or array opening at `start`, and the position of its closer."""
    is_object = text[start] == "{"
    closer = "}" if is_object else "]"
    members: list[_Member] = []
    pos = _skip(text, start + 1)
    if text[pos] == closer:
        return members, pos
    while True:
        member_start = pos
        key: Key = len(members)
        if is_object:
            key, pos = _DECODER.raw_decode(text, pos)
            pos = _skip(text, pos)
            if text[pos] != ":":
                raise ValueError(f"expected ':' at offset {pos}")
            pos = _skip(text, pos + 1)
        value_start = pos
        _, pos = _DECODER.raw_decode(text, pos)  # C-speed skip over the whole value
        members.append(_Member(key, member_start, value_start, pos))
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
        elif text[pos] == closer:
            return members, pos
        else:
            raise ValueError(f"expected ',' or {closer!r} at offset {pos}")


def _find(text: str, path: Sequence[Key]) -> tuple[_Member, list[_Member], int, int]:
    """The member at `path`, its siblings, the position of their container and of its closer.
    Raises KeyError when the path does not exist and ValueError when the text is not JSON."""
    container = _skip(text, 0)
    for depth, key in enumerate(path):
        if text[container] not in "{[":
            raise KeyError(f"{list(path[:depth])} is not an object or array")
        members, closer = _members(text, container)
        # json.loads keeps the last of duplicate keys, so the last one is the live one.
        found = [m for m in members if m.key == key]
        if not found:
            raise KeyError(f"no {key!r} at {list(path[:depth])}")
        member = found[-1]
        if depth == len(path) - 1:
            return member, members, container, closer
        container = member.value_start
    raise KeyError("the root is no member")


def remove_member(text: str, path: Sequence[Key]) -> str:
    """`text` without the member at `path` (object keys and array indexes from the root).

    Raises KeyError when the path does not exist and ValueError when the text is not JSON.
    """
    if not path:
        raise KeyError("cannot remove the root")
    member, members, container, closer = _find(text, path)
    index = members.index(member)
    if len(members) == 1:  # leave an empty container: `{}` / `[]`
        return text[: container + 1] + text[closer:]
    if index < len(members) - 1:  # up to the next member: takes this one's comma along
        return text[: member.start] + text[members[index + 1].start :]
    return text[: members[index - 1].end] + text[member.end :]  # the last: the comma before it


def member_lines(text: str, path: Sequence[Key]) -> tuple[int, int] | None:
    """The 1-based first and last lines of the value at `path` (a hook's entry, to show it in
    an editor); None when the path is not in the text or the text is not JSON."""
    try:
        member, *_ = _find(text, path)
    except (KeyError, ValueError, IndexError):
        return None
    return text.count("\n", 0, member.value_start) + 1, text.count("\n", 0, member.end) + 1
