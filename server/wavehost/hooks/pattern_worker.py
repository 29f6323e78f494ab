"""The matcher worker: Python's `re` for what RE2 cannot answer (see `hooks/patterns.py`).

    python -I -S pattern_worker.py CPU_SECONDS

One request a line on stdin, JSON `[pattern, flags, mode, subject]`; one answer a line on stdout:
`1` (it matches), `0`, or `!message` (it did not compile). Each request may use CPU_SECONDS of
CPU, compile included: the kernel's profiling timer ends the process (SIGPROF, whose default
action is to terminate — no handler is installed) even inside one long `re` call, which never
lets Python code run. At the end of stdin (the server is gone) it exits. It imports nothing of
wavehost, so it starts in milliseconds.
"""

import json
import re
import signal
import sys


def main() -> None:
    budget = float(sys.argv[1])
    compiled: dict[tuple[str, int], re.Pattern[str]] = {}
    for line in sys.stdin.buffer:
        pattern, flags, mode, subject = json.loads(line)
        signal.setitimer(signal.ITIMER_PROF, budget)
        try:
            found = compiled.get((pattern, flags))
            if found is None:
                if len(compiled) >= 256:
                    compiled.clear()
                found = compiled[(pattern, flags)] = re.compile(pattern, flags)
            answer = "1" if getattr(found, mode)(subject) is not None else "0"
        except (re.error, OverflowError, RecursionError, MemoryError) as err:
            answer = "!" + " ".join(str(err).split())
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
