"""Prints the reliability figures (requests, conflicts, lost, corrupted, …) after the run."""

import pytest

from tests.reliability.figures import FIGURES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not FIGURES:
        return
    terminalreporter.section("reliability figures")
    for section, values in FIGURES.items():
        shown = ", ".join(f"{name} = {value}" for name, value in values.items())
        terminalreporter.write_line(f"{section}: {shown}")
