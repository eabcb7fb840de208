"""The slow-test guard of ``tests/conftest.py``: under CI an unmarked test that uses more
CPU than the limit fails and names the rule; a test in ``SLOW`` may; off locally."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).parent / "conftest.py").read_text(encoding="utf-8")
BUSY = """
import time

def test_busy():
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass

def test_idle():
    time.sleep(0.3)  # waiting costs no CPU
"""


def _run(pytester: pytest.Pytester, slow: str = "") -> pytest.RunResult:
    conftest = CONFTEST.replace("GUARD_SECONDS = 5.0", "GUARD_SECONDS = 0.1")
    if slow:
        conftest = conftest.replace("SLOW: tuple[str, ...] = (",
                                    f"SLOW: tuple[str, ...] = ({slow!r},")
    pytester.makeconftest(conftest)
    pytester.makepyfile(test_work=BUSY)
    return pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:textual-snapshot")


def test_under_ci_an_unmarked_busy_test_fails(pytester: pytest.Pytester,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRICKTABLE_SLOW_GUARD", raising=False)
    monkeypatch.setenv("CI", "true")
    result = _run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_busy used * s of CPU*add it to SLOW*"])


def test_a_slow_test_may_work_long(pytester: pytest.Pytester,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    _run(pytester, slow="test_work.py::test_busy").assert_outcomes(passed=2)


def test_the_guard_is_off_locally(pytester: pytest.Pytester,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("TRICKTABLE_SLOW_GUARD", raising=False)
    _run(pytester).assert_outcomes(passed=2)
