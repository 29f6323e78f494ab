"""The hook dialects wavehost runs, in the documented order: Wave (Claude Code's format),
GitHub Copilot CLI, Snow CLI. Each maps onto the one event catalogue (`hooks.catalogue`)."""

from wavehost.hooks.dialect_registry import DialectName
from wavehost.hooks.dialects.base import Dialect
from wavehost.hooks.dialects.copilot import COPILOT
from wavehost.hooks.dialects.snow import SNOW
from wavehost.hooks.dialects.wave import WAVE

DIALECTS: dict[DialectName, Dialect] = {"wave": WAVE, "copilot": COPILOT, "snow": SNOW}
# Every dialect's event names, Wave's first (`wavehost hooks run` accepts any of them).
EVENT_NAMES: tuple[str, ...] = tuple(dict.fromkeys(n for d in DIALECTS.values() for n in d.events))
