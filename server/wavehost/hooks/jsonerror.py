"""Where a JSON syntax error really is, in words a person can act on.

Python's decoder reports where it noticed the problem, which for the two commonest slips is the
line after it: a trailing comma (`"a": 1,` then `}`) is reported at the `}`, and a missing comma
at the start of the next member. Both are moved back to the line that needs the fix.
"""

import json
from dataclasses import dataclass
from typing import Literal

SyntaxCode = Literal["invalidJson", "trailingComma", "missingComma"]


@dataclass(frozen=True, slots=True)
class JsonSyntax:
    code: SyntaxCode
    line: int  # 1-based
    column: int  # 1-based
    detail: str  # the decoder's own words

    @property
    def message(self) -> str:
        where = f"line {self.line}, column {self.column}"
        if self.code == "trailingComma":
            return f"invalid JSON at {where}: a comma before the closing bracket (remove it)"
        if self.code == "missingComma":
            return f"invalid JSON at {where}: a comma is missing after this value"
        return f"invalid JSON at {where}: {self.detail}"


def _line_column(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def locate(text: str, err: json.JSONDecodeError) -> JsonSyntax:
    before = len(text[: err.pos].rstrip())  # the last thing written before the error
    at = text[err.pos : err.pos + 1]
    if before > 0 and text[before - 1] == "," and at in ("}", "]"):
        return JsonSyntax("trailingComma", *_line_column(text, before - 1), err.msg)
    if err.msg == "Expecting ',' delimiter" and before < err.pos and "\n" in text[before : err.pos]:
        return JsonSyntax("missingComma", *_line_column(text, before), err.msg)
    return JsonSyntax("invalidJson", err.lineno, err.colno, err.msg)
