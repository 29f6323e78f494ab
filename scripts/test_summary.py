"""One line of `scripts/test`'s summary: a suite's outcome and its test counts.

    python scripts/test_summary.py NAME STATUS SECONDS REPORT

REPORT is a glob of the JUnit XML files the suite wrote (pytest, vitest, Maven's surefire and
failsafe all write that format), or "-" for a check without tests (ruff, mypy, a build). Counts
come from the <testcase> elements: one with <failure> or <error> failed, one with <skipped> was
skipped, any other passed. A suite whose command failed is FAILED even when no test did (it did
not compile, or crashed before its report).
"""

import glob
import sys
import xml.etree.ElementTree as ElementTree


def counts(pattern: str) -> tuple[int, int, int] | None:
    """(passed, failed, skipped) over the files `pattern` matches; None when there are none."""
    files = sorted(glob.glob(pattern))
    if not files:
        return None
    passed = failed = skipped = 0
    for file in files:
        try:
            root = ElementTree.parse(file).getroot()
        except ElementTree.ParseError:
            failed += 1  # a report cut short: its suite did not finish
            continue
        for case in root.iter("testcase"):
            outcomes = {child.tag for child in case}
            if outcomes & {"failure", "error"}:
                failed += 1
            elif "skipped" in outcomes:
                skipped += 1
            else:
                passed += 1
    return passed, failed, skipped


def line(name: str, status: int, seconds: int, report: str) -> str:
    verdict = "passed" if status == 0 else f"FAILED (exit {status})"
    found = None if report == "-" else counts(report)
    if found is None and report != "-":
        tests = "no test report"
    elif found is None:
        tests = ""
    else:
        tests = "{} passed, {} failed, {} skipped".format(*found)
    took = f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"
    return f"{name:<22} {verdict:<16} {tests:<36} {took}".rstrip()


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    name, status, seconds, report = argv
    print(line(name, int(status), int(seconds), report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
