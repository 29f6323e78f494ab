"""The one rule that picks the UI language, for the server's texts (prefill prompts) and the
page's alike (the page gets it generated from `wavehost protocol-schema`); docs/protocol.md, "The
UI language", is where it is written down for people.

A locale in a language wavehost has texts for picks it (by its primary subtag: `zh-TW` → zh,
`en_GB` → en); any other locale (fr, de, no, …), the C / POSIX locale and no locale at all pick
English. Where the locale comes from is each shell's: the IDE's display language in VS Code and
JetBrains; `?locale=`, then `--locale`, then the environment in browser mode; the environment for
the command line and the JetBrains preview — read here, as POSIX programs read it
(`environment_locale`).
"""

import os
from collections.abc import Mapping
from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
FALLBACK: Language = "en"
# What sets the language of messages, in the order POSIX programs read them.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
# The locales that choose no language (a program's own, untranslated messages).
NO_LANGUAGE = ("C", "POSIX")


def language_of(locale: str | None) -> Language:
    if not locale or not locale.strip():
        return FALLBACK
    primary = locale.strip().replace("_", "-").split("-")[0].lower()
    for language in LANGUAGES:
        if primary == language:
            return language
    return FALLBACK


def environment_locale(env: Mapping[str, str] = os.environ) -> str | None:
    """The locale the environment chose for messages, as a BCP 47 tag (`zh_CN.UTF-8` → `zh-CN`):
    the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty. None when none is, or it
    is the C / POSIX locale (`C.UTF-8` too), which chooses no language."""
    for name in LOCALE_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            tag = value.split(".")[0].split("@")[0]
            return None if tag in NO_LANGUAGE or not tag else tag.replace("_", "-")
    return None


def default_locale(env: Mapping[str, str] = os.environ) -> str:
    """The locale a shell without a language of its own uses: the environment's, else English."""
    return environment_locale(env) or FALLBACK
