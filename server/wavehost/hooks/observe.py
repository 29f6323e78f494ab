"""What the engine tells an observer: each event it was asked to dispatch, each hook process it ran.

The engine knows nothing about where this goes; the settings layer's run log (`settings.runlog`)
is the observer sessions give it, so the settings page can show what ran, and what did not.
"""

from collections.abc import Sequence
from typing import Protocol

from wavehost.hooks.outcome import Outcome
from wavehost.hooks.payloads import HookInput
from wavehost.hooks.runner import HookRun


class RunObserver(Protocol):
    def event(self, payload: HookInput) -> None:
        """An event was dispatched (whether or not any hook matched it)."""
        ...

    def ran(self, payload: HookInput, run: HookRun) -> object:
        """A background hook ran for `payload` and finished."""
        ...

    def ran_all(self, payload: HookInput, runs: Sequence[HookRun], outcome: Outcome) -> None:
        """The foreground hooks of one dispatch of `payload` ran and finished; what their
        dialect made of them."""
        ...
