"""The environment wavehost was started with, and what each kind of child process gets of it.

Claude Code hands its whole environment to its hooks and its Bash tool, provider keys included
(checked against Claude Code 2.1.197: `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`,
`OPENAI_API_KEY`, … all reach both), and hooks written for it may rely on that: Wave hooks and
the tools' processes get the same (`inherited`). Two things are kept back:

- wavehost's own secrets (`OWN_SECRETS`: the browser-mode token) reach no child at all, `serve`
  started by `web` included;
- the keys of wavehost's model providers (`PROVIDER_SECRETS`) do not reach Copilot CLI and Snow
  CLI hooks (`without_provider_keys`): those tools never hand their hooks the credentials of
  their own model (Copilot removes `GITHUB_TOKEN`, `COPILOT_PROVIDER_*`, …), so in wavehost,
  whose model those keys serve, their hooks do not get them either.

`protect()` (called by `serve`, `web`, `chat` and `hooks run` at start) copies the environment
and removes both kinds from the process's own `os.environ` — code reads them from the copy
(`started_with`) — and on Linux makes the process non-dumpable: `/proc/<pid>/environ` and its
memory are then readable by root only, not by the hooks and commands it starts as the same user.
"""

import contextlib
import ctypes
import os
import sys
from collections.abc import Mapping

OWN_SECRETS = ("WAVEHOST_TOKEN",)
PROVIDER_SECRETS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY")
_PR_SET_DUMPABLE = 4

_started: dict[str, str] | None = None


def started_with() -> Mapping[str, str]:
    """The environment as the process was started, secrets included: for wavehost's own use."""
    return _started if _started is not None else os.environ


def inherited() -> dict[str, str]:
    """What a child gets by default (a Wave hook, a tool's process): everything but wavehost's
    own secrets."""
    return {k: v for k, v in started_with().items() if k not in OWN_SECRETS}


def without_provider_keys(env: Mapping[str, str]) -> dict[str, str]:
    """`env` without the model providers' keys (Copilot and Snow hooks)."""
    return {k: v for k, v in env.items() if k not in PROVIDER_SECRETS}


def protect() -> None:
    """Keep the secrets out of this process's own environment (see the module docstring)."""
    global _started
    if _started is None:
        _started = dict(os.environ)
    for name in (*OWN_SECRETS, *PROVIDER_SECRETS):
        os.environ.pop(name, None)
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):  # no libc to ask: /proc stays
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
