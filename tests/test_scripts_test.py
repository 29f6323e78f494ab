"""scripts/test's suites (scripts/lib/suites.sh, with scripts/test's own shell options): every
suite runs after one failed, each says its counts in one summary line, the status is 1 if any
failed. Real commands: a pytest run that writes its JUnit report, a command that fails."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SUITES = REPO / "scripts" / "test"


def _run_suites(tmp_path: Path, *suites: str) -> subprocess.CompletedProcess[str]:
    options = re.search(r"^set -[a-z]+ pipefail$", SUITES.read_text(), re.M)
    assert options is not None, "scripts/test sets its shell options on one line"
    script = "\n".join([
        options[0],
        f"cd {REPO}",
        f"reports={tmp_path / 'reports'}",
        ". scripts/lib/suites.sh",
        "suites_begin",
        *suites,
        "suites_end",
    ])  # fmt: skip
    return subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=300, check=False
    )


def test_every_suite_runs_after_one_failed_and_the_summary_has_a_line_each(tmp_path: Path) -> None:
    tests = tmp_path / "cases" / "test_cases.py"
    tests.parent.mkdir()
    tests.write_text(
        "import pytest\n\n"
        "def test_passes(): pass\n\n"
        "def test_fails(): assert False\n\n"
        "@pytest.mark.skip(reason='not here')\ndef test_skipped(): pass\n"
    )
    report = tmp_path / "reports" / "cases.xml"
    ran = tmp_path / "the-last-suite-ran"
    done = _run_suites(
        tmp_path,
        f'suite cases "{report}" {sys.executable} -m pytest -q -p no:cacheprovider '
        f"--rootdir {tests.parent} --junitxml={report} {tests}",
        "suite broken - false",
        f"suite last - touch {ran}",
    )
    assert done.returncode == 1, done.stderr
    assert ran.exists()  # two failed suites before it did not stop it
    summary = done.stdout.split("== summary", 1)[1].splitlines()[1:]
    assert [line.split()[:2] for line in summary] == [
        ["cases", "FAILED"],
        ["broken", "FAILED"],
        ["last", "passed"],
    ]
    assert "1 passed, 1 failed, 1 skipped" in summary[0]
    assert (tmp_path / "reports" / "summary.txt").read_text().splitlines() == summary


def test_all_suites_passing_is_status_0(tmp_path: Path) -> None:
    done = _run_suites(tmp_path, "suite one - true", "suite two - true")
    assert done.returncode == 0, done.stdout
    summary = done.stdout.split("== summary", 1)[1].splitlines()[1:]
    assert [line.split()[:2] for line in summary] == [["one", "passed"], ["two", "passed"]]


def test_scripts_test_runs_its_suites_through_that_library() -> None:
    text = SUITES.read_text()
    assert ". scripts/lib/suites.sh\nsuites_begin\n" in text
    assert text.rstrip().endswith("suites_end")
