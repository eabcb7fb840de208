"""The check for English left over in text meant for another language."""

from __future__ import annotations

import re

import pytest

from bot.i18n import SUPPORTED, translator
from bot.i18n.leftovers import english_leftovers, leftover_phrases
from bot.i18n.messages import (
    languages_overview,
    player_language_cleared,
    player_language_set,
    server_language_set,
    unknown_language,
)

OTHERS = [code for code in SUPPORTED if code != "en"]


@pytest.mark.parametrize("language", OTHERS)
def test_translated_messages_have_no_leftovers(language: str) -> None:
    t = translator(language)
    texts = [
        server_language_set(t, language),
        player_language_set(t, "en"),
        player_language_cleared(t, "sw"),
        unknown_language(t, "Klingon"),
        languages_overview(t),
    ]
    for text in texts:
        assert english_leftovers(text, language) == [], text


@pytest.mark.parametrize("language", OTHERS)
def test_english_text_is_caught(language: str) -> None:
    english = player_language_set(translator("en"), language)
    found = english_leftovers(f"**{english}**", language)
    assert found[0] == "Your hand, your private panels and the bot's DMs to you are now in"
    assert set(found[1:]) <= {"Your hand"}  # a shorter phrase of another message
    plural = languages_overview(translator("en"))
    assert english_leftovers(plural, language) == ["The bot speaks"]


def test_english_needs_no_check() -> None:
    assert leftover_phrases("en") == ()
    assert english_leftovers(languages_overview(translator("en")), "en") == []


def test_single_words_and_names_are_not_leftovers() -> None:
    # One word (a name, "DM", "Language") is never reported: only phrases of two words
    # (a compound counts its parts, as the detector does: "North-east" is two words).
    assert english_leftovers("Language: English (en)", "so") == []
    assert all(len(re.findall(r"[A-Za-z]+", p)) >= 2 for p in leftover_phrases("sw"))
