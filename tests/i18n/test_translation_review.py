"""Fixes from the review of the catalogs (``issue 36``): the league line words its kind of
round robin in every language, placeholders that are not obvious carry a note for
translators, and the messages the review found wrong say what they mean."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from bot.discord_bot.club.club_texts import league_summary
from bot.i18n import SOURCE_LANGUAGE, SUPPORTED, translator
from bot.i18n.catalogs import read_catalog, source_checkout
from bot.leagues.service import create_league, league_view
from storage import open_store

LANGUAGES = [c for c in SUPPORTED if c != SOURCE_LANGUAGE]
PATHS = source_checkout()


@pytest.mark.parametrize("rounds", ["single", "double"])
async def test_the_league_line_words_its_round_robin_in_every_language(
        tmp_path: Path, rounds: str) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'league.db'}")
    try:
        league = await create_league(store, 1, 2, "Aces", "arbaa_turub", weekday=0,
                                     start_time=dt.time(19, 0), time_zone="Africa/Nairobi",
                                     rounds=rounds)  # type: ignore[arg-type]
        view = await league_view(store, league.id)
    finally:
        await store.close()
    lines = {code: league_summary(view, translator(code)) for code in SUPPORTED}
    assert f"{rounds} round robin" in lines["en"]
    for code in LANGUAGES:
        assert not re.search(r"\b(single|double)\b", lines[code]), lines[code]
    single = {"id": "setengah kompetisi", "sw": "mzunguko mmoja", "so": "hal-wareeg"}
    double = {"id": "kompetisi penuh", "sw": "mizunguko miwili", "so": "laba-wareeg"}
    for code, word in (single if rounds == "single" else double).items():
        assert word in lines[code], lines[code]


NOTED = {
    "{game} · {weekday} at {time} ({zone}) · {schedule} · {status} · in {channel} · "
    "{count} entrant": ["{schedule}", "{weekday}", "{zone}"],
    "{command} gives the record of the match.": ["{command}"],
    "Choose another with {command}.": ["{command}"],
    "{option} must be {single} or {double}": ["{option}", "{single}"],
    "Tricks: {counts}.": ["{counts}"],
    "{side} win the game: {vp}, because {why}.": ["{side}", "{vp}", "{why}"],
    "Made: {callers} took {points} of {total}, more than half, and both sides score what "
    "they took.": ["{callers}", "{total}"],
    "Trick {n}: {line}.": ["{n}", "{line}"],
}
"""Messages whose placeholders need a word of explanation, and what the note names."""


def test_placeholders_that_are_not_obvious_have_a_note_for_translators() -> None:
    template = read_catalog(PATHS.template, SOURCE_LANGUAGE)
    notes = {(m.id if isinstance(m.id, str) else m.id[0]): " ".join(m.auto_comments)
             for m in template if m.id}
    for message, named in NOTED.items():
        assert all(name in notes[message] for name in named), (message, notes[message])


FIXED = {
    "so": {
        "Conceded": "La is-dhiibay",  # a status, not the imperative "Is-dhiib"
        "Current trick: {cards}": "Wareegga hadda: {cards}",
        "a card face down": "turub wejigiisu hoos u jeedo",
    },
    "sw": {
        "the file is {size} KB; a scoresheet or game record may be at most {limit} KB":
            "faili ni KB {size}; karatasi ya alama au rekodi ya mchezo isizidi KB {limit}",
        "Waiting for {players}.": "Wanaosubiriwa: {players}.",
        "Deals won: {score}": "Migawo waliyoshinda: {score}",
    },
    "id": {
        "Signal with my next lead: {signal}":
            "Isyarat saat aku membuka putaran berikutnya: {signal}",
    },
}
"""Translations the review corrected, as corrected."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reviewed_messages_say_what_they_mean(language: str) -> None:
    t = translator(language)
    for message, text in FIXED.get(language, {}).items():
        assert t.gettext(message) == text


def test_the_indonesian_standings_line_spells_out_its_columns() -> None:
    """The English P/W/D/L came out as two different "M"s side by side."""
    line = translator("id").gettext(
        "`{rank}.` **{team}** — **{points} pts** · P{played} W{won} D{drawn} L{lost} · "
        "{scored}:{conceded} ({difference})")
    labels = re.findall(r"(\w+) \{(?:played|won|drawn|lost)\}", line)
    assert len(labels) == 4 and len(set(labels)) == 4, line


def test_swahili_waits_for_several_players_in_the_plural() -> None:
    """*Inamsubiri* (waits for him/her) cannot take a list of players or seats."""
    catalog = read_catalog(PATHS.catalog("sw"), "sw")
    waiting = [m for m in catalog if m.id and re.search(r"waiting for \{(players|seats)\}",
                                                        str(m.id))]
    assert waiting and all("inamsubiri" not in str(m.string).lower() for m in waiting)
