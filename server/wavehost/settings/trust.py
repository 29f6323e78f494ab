"""Whether the user trusts the workspace: one state per server, read by whatever acts on it.

The client says so at `initialize` (untrusted unless it says otherwise) and when the user
changes it (`wave/workspace/setTrusted`). The settings list reads it each time it lists, a chat
session when it opens (it keeps the hooks it started with, as Claude Code does). Nothing keeps a
copy of its own.
"""


class Trust:
    def __init__(self, trusted: bool) -> None:
        self._trusted = trusted

    @property
    def trusted(self) -> bool:
        return self._trusted

    def set(self, trusted: bool) -> bool:
        """The user changed it; True if that is a change."""
        changed, self._trusted = self._trusted != trusted, trusted
        return changed

    def __repr__(self) -> str:
        return f"Trust({self._trusted})"
