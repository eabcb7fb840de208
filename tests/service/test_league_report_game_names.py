"""``report_record`` and the game a record names (issue 18): read as
:func:`games.registry.game_id` reads it — any case, ``-`` for ``_``, blanks around — and,
when it names no game, quoted clipped (:func:`games.errors.quote`) however long it is. On
SQLite and PostgreSQL; every refusal stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from league_fixtures import club_backend, club_schemas, club_store, club_url
from league_records import HOME, fixture_of, scoresheet_record, untouched

from bot.leagues.reports import report_record
from bot.leagues.service import LeagueError
from storage import Store

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]  # fixtures used here

SHORT = 200
"""A refusal is a sentence, whatever the size of the name it quotes."""


@pytest.mark.parametrize("spelling", ["arbaa_turub", "Arbaa-Turub", "ARBAA_TURUB",
                                      " arbaa-TURUB\n"])
async def test_the_leagues_game_in_any_spelling_is_accepted_and_stored_as_sent(
        club_store: Store, spelling: str) -> None:
    fixture = await fixture_of(club_store)
    record = {**scoresheet_record(), "game": spelling}
    done = await report_record(club_store, fixture.id, HOME[0], record)
    assert done.status == "reported" and done.result is not None
    assert (done.result["outcome"], done.result["home_score"], done.result["away_score"]) \
        == ("home", 3, 0)
    assert done.result["record"] == record


@pytest.mark.parametrize(("spelling", "message"), [
    ("TURUP", "this is a record of Turup, but league 'Cup' plays Arba'a Turub"),
    ("Tarabish", "this is a record of Tarabish, but league 'Cup' plays Arba'a Turub"),
    ("arbaa turub", "this is a record of 'arbaa turub', but league 'Cup' plays Arba'a Turub"),
    ("arbaa--turub", "this is a record of 'arbaa--turub', but league 'Cup' plays Arba'a "
                     "Turub"),
])
async def test_another_game_or_no_game_is_named_in_the_refusal(
        club_store: Store, spelling: str, message: str) -> None:
    fixture = await fixture_of(club_store)
    with pytest.raises(LeagueError) as refused:
        await report_record(club_store, fixture.id, HOME[0],
                            {**scoresheet_record(), "game": spelling})
    assert str(refused.value) == message
    await untouched(club_store, fixture)


def deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(("name", "opening"), [
    ("x" * 2_000_000, "this is a record of 'xxxxxxxx"),
    ("Arbaa-Turub" * 1000, "this is a record of 'Arbaa-TurubArbaa-Turub"),
    (deep_list(100_000), "the game record does not replay: field 'game': unknown game [[[["),
    (int("7" * 4_000), "the game record does not replay: field 'game': unknown game <a "
                       "number of about 40"),
], ids=["2 MB name", "a game name a thousand times", "100,000 deep", "4,000 digits"])
async def test_a_huge_name_is_quoted_clipped(club_store: Store, name: object,
                                             opening: str) -> None:
    fixture = await fixture_of(club_store)
    with pytest.raises(LeagueError) as refused:
        await report_record(club_store, fixture.id, HOME[0],
                            {**scoresheet_record(), "game": name})
    text = str(refused.value)
    assert text.startswith(opening) and len(text) <= SHORT, text[:SHORT * 2]
    assert "…" in text or isinstance(name, int)
    await untouched(club_store, fixture)
