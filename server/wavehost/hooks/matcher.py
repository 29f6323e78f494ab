"""What every dialect's matcher offers the engine.

A matcher tests the event's subject: the value of its catalogue `matcher_field` (a tool name, a
session source, a trigger, …) in the Wave vocabulary; a dialect matcher translates it into its
own (Copilot `bash`, Snow `terminal-execute`) itself. `names` lists the subjects it matches
exactly and `keys` the case-folded ones it might match, so the engine can index them; a
`dynamic` matcher needs the whole payload (Snow's `key:pattern` parts), so the engine asks it on
every dispatch instead of memoising.
"""

from dataclasses import dataclass

from wavehost.hooks.payloads import HookInput


@dataclass(frozen=True, slots=True)
class Matcher:
    """The base rule: match everything. Dialects subclass it."""

    source: str | None

    @property
    def names(self) -> frozenset[str] | None:
        """Exact subjects, when that is all it matches; None otherwise."""
        return None

    @property
    def keys(self) -> frozenset[str] | None:
        """Case-folded subjects it may match (each confirmed with `matches`); None: any."""
        return None

    @property
    def matches_all(self) -> bool:
        return True

    @property
    def dynamic(self) -> bool:
        return False

    def matches(self, subject: str) -> bool:
        return True

    def matches_payload(self, subject: str | None, payload: HookInput) -> bool:
        """For dynamic matchers (and events without a subject): decide on the whole payload."""
        return subject is None or self.matches(subject)
