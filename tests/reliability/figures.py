"""The suite's measured figures, printed at the end of the test run (see conftest.py)."""

from typing import Any

FIGURES: dict[str, dict[str, Any]] = {}


def record(section: str, **values: Any) -> None:
    FIGURES.setdefault(section, {}).update(values)
