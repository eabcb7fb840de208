"""Every catalog compiles with the standard tools: ``pybabel compile`` (Babel, a dependency)
and GNU ``msgfmt -c`` (Debian's ``gettext`` package: CI installs it; where it is missing
only that check is skipped). Both check what the flags promise: a message flagged
``python-format`` must keep the same ``%`` directives in its translation."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import SOURCE_LANGUAGE, SUPPORTED
from bot.i18n.catalogs import source_checkout
from bot.i18n.translator import DOMAIN

PATHS = source_checkout()
LANGUAGES = [c for c in SUPPORTED if c != SOURCE_LANGUAGE]


@pytest.mark.parametrize("language", LANGUAGES)
def test_pybabel_compiles_the_catalog_without_errors(language: str, tmp_path: Path) -> None:
    out = tmp_path / f"{language}.mo"
    done = subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "compile", "--domain", DOMAIN,
         "--input-file", str(PATHS.catalog(language)), "--output-file", str(out),
         "--locale", language, "--statistics"],
        capture_output=True, text=True, check=False)
    said = done.stdout + done.stderr
    assert done.returncode == 0 and "error" not in said.lower(), said
    assert out.stat().st_size > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_checks_the_catalog_without_errors(language: str, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt is not installed (Debian: apt-get install gettext); CI has it")
    done = subprocess.run(
        [msgfmt, "--check", "-o", str(tmp_path / f"{language}.mo"),
         str(PATHS.catalog(language))], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # no warning either: the headers are real (PO-Revision-Date is the catalog tool's)
    assert "warning" not in done.stderr.lower(), done.stderr
