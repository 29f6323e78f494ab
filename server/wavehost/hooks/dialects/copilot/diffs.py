"""The `diff` Copilot CLI 1.0.102 shows a file change with: what its `permissionRequest` hooks read
as `toolInput` for a file tool, `{file_path, diff}` (the tool named `edit` for a create too).

Its own format, copied as observed: lines are the text split at `\\n`; a new file's hunk is
`@@ -1,0 +1,N @@` below `--- a/dev/null`, a changed file's hunks keep three lines of context and
always write both counts; the paths follow `a` and `b` with no slash of their own (they are
absolute).
"""

import difflib
from pathlib import Path

from wavehost.hooks.tools import named

CONTEXT = 3
READ_LIMIT = 1 << 20  # a larger file's change is shown without its hunks


def _side(prefix: str, path: str) -> str:
    return f"{prefix}{path}" if path.startswith("/") else f"{prefix}/{path}"


def created(path: str, text: str) -> str:
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    head = (
        f"\ndiff --git {_side('a', path)} {_side('b', path)}\ncreate file mode 100644\n"
        f"index 0000000..0000000\n--- a/dev/null\n+++ {_side('b', path)}\n"
    )
    return head + f"@@ -1,0 +1,{len(lines)} @@\n" + "".join(f"+{line}\n" for line in lines)


def changed(path: str, old: str | None, new: str | None) -> str:
    """A change of an existing file; without both texts, the header alone."""
    out = [
        f"\ndiff --git {_side('a', path)} {_side('b', path)}\nindex 0000000..0000000 100644\n"
        f"--- {_side('a', path)}\n+++ {_side('b', path)}\n"
    ]
    if old is None or new is None:
        return out[0]
    a, b = old.split("\n"), new.split("\n")
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{i1 + 1},{i2 - i1} +{j1 + 1},{j2 - j1} @@\n")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out += [f" {line}\n" for line in a[a1:a2]]
                continue
            out += [f"-{line}\n" for line in a[a1:a2]]
            out += [f"+{line}\n" for line in b[b1:b2]]
    return "".join(out)


def current_text(path: str) -> str | None:
    """The file's text now, if it is a readable file of at most `READ_LIMIT` bytes."""
    try:
        with Path(path).open("rb") as file:
            data = file.read(READ_LIMIT + 1)
    except OSError:
        return None
    if len(data) > READ_LIMIT:
        return None
    return data.decode("utf-8", errors="replace")


def of_call(tool_name: str, tool_input: dict[str, object]) -> dict[str, str] | None:
    """`{file_path, diff}` for a call that writes or edits a file (Write, Edit), else None."""
    path = tool_input.get("file_path")
    change = tool.change if (tool := named(tool_name)) is not None else None
    if change is None or not isinstance(path, str):
        return None
    old = current_text(path) if Path(path).exists() else None
    if change == "write":
        content = tool_input.get("content")
        text = content if isinstance(content, str) else ""
        diff = created(path, text) if old is None else changed(path, old, text)
        return {"file_path": path, "diff": diff}
    before, after = tool_input.get("old_string"), tool_input.get("new_string")
    new = None
    if old is not None and isinstance(before, str) and isinstance(after, str) and before in old:
        count = -1 if tool_input.get("replace_all") is True else 1
        new = old.replace(before, after, count)
    return {"file_path": path, "diff": changed(path, old, new)}
