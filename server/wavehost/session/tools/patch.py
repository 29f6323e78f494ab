"""The `structuredPatch` of a file change, in the shape Claude Code's Write/Edit hooks receive.

A list of hunks `{oldStart, oldLines, newStart, newLines, lines}`, each line prefixed with " ",
"-" or "+" (unified diff, 3 lines of context, numbers from 1), as the `diff` library makes them.
"""

from difflib import SequenceMatcher
from typing import Any

CONTEXT_LINES = 3


def structured_patch(old: str, new: str) -> list[dict[str, Any]]:
    before, after = old.splitlines(), new.splitlines()
    hunks: list[dict[str, Any]] = []
    matcher = SequenceMatcher(None, before, after, autojunk=False)
    for group in matcher.get_grouped_opcodes(CONTEXT_LINES):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(" " + line for line in before[i1:i2])
                continue
            lines.extend("-" + line for line in before[i1:i2])
            lines.extend("+" + line for line in after[j1:j2])
        first, last = group[0], group[-1]
        old_lines, new_lines = last[2] - first[1], last[4] - first[3]
        hunks.append(
            {
                # diff's convention: an empty side starts at the line before (0 for a new file)
                "oldStart": first[1] + (1 if old_lines else 0),
                "oldLines": old_lines,
                "newStart": first[3] + (1 if new_lines else 0),
                "newLines": new_lines,
                "lines": lines,
            }
        )
    return hunks
