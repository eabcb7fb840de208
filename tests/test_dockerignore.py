"""Security review L8: no SQLite database of the checkout reaches the Docker build.

Docker reads ``.dockerignore`` with its own rules (not Git's): a pattern is matched
against the whole path from the build context's root, ``*`` and ``?`` never cross a
``/``, ``**`` matches any number of folders (none included), and a pattern that matches a
folder leaves out everything under it. So ``*.db`` leaves out ``tricktable.db`` at the
root only, and ``bot/tricktable.db`` went into the build stage. :func:`excluded` applies
those rules to the project's ``.dockerignore``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def docker_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` of a ``.dockerignore`` line as a regular expression over a path."""
    out, i = "", 0
    text = pattern.strip().strip("/")
    while i < len(text):
        if text.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif text.startswith("**", i):
            out, i = out + ".*", i + 2
        elif text[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif text[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(text[i]), i + 1
    return re.compile(out)


def excluded(path: str, lines: list[str]) -> bool:
    """Docker leaves ``path`` out of the build context (exceptions ``!…`` applied)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]
    out = False
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        rx = docker_pattern(line[1:] if keep else line)
        if any(rx.fullmatch(p) for p in prefixes):
            out = not keep
    return out


def dockerignore() -> list[str]:
    return (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()


def test_the_matcher_follows_docker_not_git() -> None:
    assert excluded("tricktable.db", ["*.db"])
    assert not excluded("bot/tricktable.db", ["*.db"])  # the hole of L8
    assert excluded("bot/tricktable.db", ["**/*.db"])
    assert excluded("tricktable.db", ["**/*.db"])
    assert excluded("bot/__pycache__/x.pyc", ["**/__pycache__"])


@pytest.mark.parametrize("path", [
    "tricktable.db", "tricktable.db-wal", "tricktable.db-shm", "tricktable.db-journal",
    "bot/tricktable.db", "games/old.db-wal", "storage/a/b/c.db-shm", "bot/x.db-journal",
    "docs/rules/notes.db",
])
def test_no_database_file_enters_the_build(path: str) -> None:
    assert excluded(path, dockerignore()), path


@pytest.mark.parametrize("path", [
    "pyproject.toml", "README.md", "requirements.lock", "bot/app.py", "games/registry.py",
    "storage/migrations.py", "docs/rules/turup.md", "bot/i18n/locales/so/LC_MESSAGES/tricktable.po",
])
def test_what_the_image_is_built_from_still_enters(path: str) -> None:
    assert not excluded(path, dockerignore()), path
