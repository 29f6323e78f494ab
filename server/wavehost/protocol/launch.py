"""How the IDE shells start `wavehost serve` and keep it running: one policy for both.

The VS Code extension and the JetBrains plugin ship the server bundle (`scripts/bundle-server`)
and start it through its launcher; they restart a server that stopped without being asked to,
waiting longer after each crash in a row, and give up after the last wait. These numbers reach
TypeScript and Kotlin by generation (`wavehost protocol-schema`'s `launch`), as the method table
does: a shell never writes them itself.
"""

from typing import Final

# `python <bundle>/launch.py serve --stdio`: the launcher checks the interpreter, then puts the
# bundle on sys.path in the server process only (hooks and tools never inherit it).
LAUNCHER: Final = "launch.py"
# The launcher's exit status when this interpreter cannot run the bundle (scripts/bundle/launch.py
# says so; a test keeps the two equal): the shells stop restarting and show its last line.
UNUSABLE_EXIT: Final = 3
# Before restart n after n crashes in a row (ms); after the last one, the shells give up and wait
# for the user (Wave: Restart Host).
RESTART_DELAYS_MS: Final = (1000, 2000, 4000, 8000, 16000)
# A server that ran this long counts as healthy: its crash starts the count again.
STABLE_MS: Final = 60_000
# How long a start may take up to the LSP handshake before it counts as failed.
START_TIMEOUT_MS: Final = 30_000
# How long a server asked to stop may take before it is killed.
STOP_GRACE_MS: Final = 3_000


def launch_policy() -> dict[str, object]:
    """The policy as `wavehost protocol-schema` exports it (camelCase, as the shells read it)."""
    return {
        "launcher": LAUNCHER,
        "unusableExit": UNUSABLE_EXIT,
        "restartDelaysMs": list(RESTART_DELAYS_MS),
        "stableMs": STABLE_MS,
        "startTimeoutMs": START_TIMEOUT_MS,
        "stopGraceMs": STOP_GRACE_MS,
    }
