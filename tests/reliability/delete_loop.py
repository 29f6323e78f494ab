"""Deletes hooks from the user's settings file one after another, for ever (to be killed).

    python delete_loop.py HOME PROJECT [COUNT [KEEP]]

The settings service's own delete path, in a process of its own; prints `ready` once it has
listed, then deletes the first listed hook again and again (COUNT times, -1 or absent: for ever),
stopping while KEEP hooks are left (default 0) so that a fast machine cannot run out of hooks
before the test is done killing it.
"""

import contextlib
import sys
from pathlib import Path

from wavehost.settings.errors import SettingsError
from wavehost.settings.service import SettingsService
from wavehost.settings.trust import Trust


def main() -> None:
    service = SettingsService(Path(sys.argv[2]), home=Path(sys.argv[1]), trust=Trust(True))
    service.list_hooks()
    print("ready", flush=True)
    left = int(sys.argv[3]) if len(sys.argv) > 3 else -1
    keep = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    while left != 0:
        left -= 1
        hooks = service.list_hooks().hooks
        if len(hooks) <= keep:
            return
        with contextlib.suppress(SettingsError):
            service.delete(hooks[0].handler.id)


if __name__ == "__main__":
    main()
