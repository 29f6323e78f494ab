"""The one rule that picks the UI language from a locale: for the server's texts (prefill
prompts) and the page's alike (the page gets it generated from `wavehost protocol-schema`).

A locale in a language wavehost has texts for picks it (by its primary subtag: `zh-TW` → zh,
`en_GB` → en); any other locale (fr, de, no, …) picks English; no locale at all picks Chinese,
the product's own language (the seed texts).
"""

from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
UNSET: Language = "zh"
FALLBACK: Language = "en"


def language_of(locale: str | None) -> Language:
    if not locale or not locale.strip():
        return UNSET
    primary = locale.strip().replace("_", "-").split("-")[0].lower()
    for language in LANGUAGES:
        if primary == language:
            return language
    return FALLBACK
