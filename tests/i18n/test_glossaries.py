"""Every translated language has a glossary of the game words, with its sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.i18n import SOURCE_LANGUAGE, SUPPORTED

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAME_WORDS = [
    "trump", "trick", "deal", "dealer", "lead", "follow suit", "partner", "team", "bid",
    "pass", "signal", "strong", "weak", "kort", "bella", "bait", "half bait", "run",
    "concede", "draw", "target", "score", "spades", "hearts", "diamonds", "clubs", "ace",
    "king", "queen", "jack", "hand", "card", "table", "match", "turn", "player", "AI player",
]
"""English words every glossary explains (in its first column)."""
GAME_OWN_WORDS = ["main atas", "main bawah", "kort"]
"""The games' own words, kept or translated somewhere in every glossary."""


def _rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.fullmatch(r"\|[-| ]+\|", line):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header row


@pytest.mark.parametrize("language", [c for c in SUPPORTED if c != SOURCE_LANGUAGE])
def test_glossary_explains_every_game_word(language: str) -> None:
    text = (DOCS / f"glossary-{language}.md").read_text(encoding="utf-8")
    rows = _rows(text)
    english = [row[0].lower() for row in rows]
    missing = [w for w in GAME_WORDS if not any(re.search(rf"\b{w.lower()}\b", e) for e in english)]
    assert missing == []
    assert all(len(row) == 3 and row[1] for row in rows), "every row: English | word | notes"
    assert all(word in text for word in GAME_OWN_WORDS)
    sources = text.split("## Sources", 1)
    assert len(sources) == 2 and re.search(r"^1\. ", sources[1], re.MULTILINE)


def test_translating_guide_names_the_maintainer_command() -> None:
    guide = (DOCS / "translating.md").read_text(encoding="utf-8")
    assert "python -m bot.i18n.catalogs" in guide
    assert "init xx" in guide
