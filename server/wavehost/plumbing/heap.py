"""The garbage collector in a long-running process: what start-up loaded is set aside, once.

A full collection walks every object the process holds. Here that is mostly what start-up loaded
and keeps for good (modules, classes, pydantic's schemas): about 200 ms a time on a
2-core machine, landing in the middle of whatever runs then — a tool call, a keystroke's answer.
`gc.freeze()` moves those objects to a generation no collection walks (a full one then takes
milliseconds). Done once per process, when the first session opens (its provider is loaded by
then) and before any of its objects exist, so what sessions create is still collected as usual.
No collection first: it would cost that first session the same 200 ms (a `chat -p` run, every
time), for the little garbage start-up leaves.
"""

import gc

_settled = False


def settle() -> None:
    """Set aside what the process holds now; later calls do nothing."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.freeze()
