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


# -- the glossary enforced ---------------------------------------------------------------

SUMMARIES = Path(__file__).resolve().parents[2] / "bot" / "words" / "summaries"


def checked_words(language: str) -> tuple[list[str], dict[str, str]]:
    """The glossary's **Use** words, and its **Never** words with their reasons."""
    text = (DOCS / f"glossary-{language}.md").read_text(encoding="utf-8")
    section = text.split("## Checked words", 1)[1].split("\n## ", 1)[0]
    use_line = section.split("**Use:**", 1)[1].split("**Never:**", 1)[0]
    use = re.findall(r"`([^`]+)`", use_line)
    never = dict(re.findall(r"^\* `([^`]+)` — (.+)$", section, re.MULTILINE))
    return use, never


def _found(word: str, text: str) -> bool:
    return re.search(r"(?<!\w)" + re.escape(word), text, re.IGNORECASE) is not None


def _translations(language: str) -> list[tuple[str, str]]:
    """(English, translation) of every message of the language's catalog."""
    from bot.i18n.catalogs import read_catalog, source_checkout

    catalog = read_catalog(source_checkout().catalog(language), language)
    pairs = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(ids[0], str(s)) for s in strings]
    return pairs


@pytest.mark.parametrize("language", [c for c in SUPPORTED if c != SOURCE_LANGUAGE])
def test_the_catalog_and_summaries_use_the_glossarys_words_and_none_it_bans(
        language: str) -> None:
    use, never = checked_words(language)
    assert use and never, "the glossary lists the words it checks"
    translations = _translations(language)
    summaries = {p.name: p.read_text(encoding="utf-8")
                 for p in sorted((SUMMARIES / language).glob("*.md"))}
    banned = [(word, english, text) for english, text in translations for word in never
              if _found(word, text)]
    banned += [(word, name, "") for name, text in summaries.items() for word in never
               if _found(word, text)]
    assert banned == [], [f"{w!r} ({never[w]}) in {where!r}" for w, where, _ in banned]
    unused = [w for w in use if not any(_found(w, text) for _, text in translations)]
    assert unused == []
