"""What the engine tells an observer: each event it dispatched, with the hooks that ran for it.

The engine knows nothing about where this goes; the run log (`hooks.runlog`) is the observer
sessions give it, so the settings page can show what ran, and what did not.
"""

from collections.abc import Sequence
from typing import Protocol

from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookRun


class RunObserver(Protocol):
    def dispatched(self, payload: HookInput, runs: Sequence[HookRun], outcome: Outcome) -> None:
        """A dispatch of `payload` ended (whether or not any hook matched it): the foreground
        hooks that ran (none if none matched, or if it was cancelled) and what their dialects
        made of them."""
        ...

    def ran(self, payload: HookInput, run: HookRun) -> object:
        """A background hook ran for `payload` and finished."""
        ...
