"""Snow's sensitive-command check: which terminal commands count as sensitive (seed 004,
`toolConfirmation`: "工具二次确认时（包括敏感命令检查）").

A toolConfirmation hook reads the result as `isSensitive`, and for a sensitive command also
`matchedPattern` (the pattern that matched) and `matchedReason` (what it is). The patterns are
the ones Snow CLI checks out of the box; the two the seed shows (`rm `, `git push --force`) carry
the seed's words. A command is split at `;`, `&&`, `||`, `|` and newlines; a part is sensitive
when it starts with a pattern (case-insensitive, blanks collapsed, `*` standing for anything).
Snow's own list of extra patterns (its settings UI) is not read.
"""

import re
from dataclasses import dataclass
from functools import cache

from wavehost.hooks import payloads as p
from wavehost.hooks.tools import is_shell


@dataclass(frozen=True)
class Sensitive:
    pattern: str
    reason: str


PATTERNS: tuple[Sensitive, ...] = (
    Sensitive("rm ", "Delete files or directories (rm, rm -rf, etc.)"),
    Sensitive("rmdir ", "Remove directories"),
    Sensitive("unlink ", "Delete a file with unlink"),
    Sensitive("dd ", "Low-level copy of disks or devices"),
    Sensitive("mkfs", "Format a filesystem"),
    Sensitive("fdisk ", "Change disk partitions"),
    Sensitive("reboot", "Reboot the machine"),
    Sensitive("shutdown ", "Shut the machine down"),
    Sensitive("git push --force", "Force push to remote repository"),
    Sensitive("git push*--force", "Force push to remote repository"),
    Sensitive("git push*-f ", "Force push to remote repository (-f)"),
    Sensitive("git reset*--hard", "Hard reset of the repository (destructive)"),
    Sensitive("git clean*-f", "Delete untracked files from the repository"),
    Sensitive("npm publish", "Publish a package to the npm registry"),
    Sensitive("Remove-Item ", "PowerShell: delete files or directories"),
    Sensitive("Remove-Item*-Recurse", "PowerShell: recursive delete (destructive)"),
    Sensitive("Format-Volume", "PowerShell: format a volume (destructive)"),
    Sensitive("DROP TABLE", "SQL: drop a table and all its data"),
    Sensitive("DROP DATABASE", "SQL: drop a whole database"),
    Sensitive("TRUNCATE ", "SQL: remove every row of a table"),
)

_SEPARATORS = re.compile(r"\s*(?:;|&&|\|\||\||\n)\s*")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    body = ".*".join(re.escape(piece) for piece in pattern.split("*"))
    return re.compile(body, re.IGNORECASE)


def sensitive(command: str) -> Sensitive | None:
    """The first pattern a part of this command starts with, or None."""
    for part in _SEPARATORS.split(command.strip()):
        text = " ".join(part.split())
        if not text:
            continue
        for candidate in PATTERNS:
            if _compiled(candidate.pattern).match(text):
                return candidate
    return None


def sensitive_call(payload: p.PermissionRequestInput) -> Sensitive | None:
    """A terminal command (Bash, Snow's `terminal-execute`) the check flags; other tools: None."""
    command = payload.tool_input.get("command")
    if not is_shell(payload.tool_name) or not isinstance(command, str):
        return None
    return sensitive(command)
