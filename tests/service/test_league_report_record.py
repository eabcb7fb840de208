"""``report_record``: a league fixture reported with a full game record (``docs/records.md``)
instead of a scoresheet: what it must match (game, players, options, first dealer), what
it stores, and that every refusal stores nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from league_records import AWAY, HOME, fixture_of, scoresheet_record, untouched

from bot.leagues.reports import _deals_listed, report_record, report_result
from bot.leagues.service import LeagueError
from storage import Store, open_store

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_record_is_replayed_and_stored_as_sent(store: Store) -> None:
    fixture = await fixture_of(store)
    record = scoresheet_record()
    done = await report_record(store, fixture.id, AWAY[1], record)
    assert done.status == "reported" and done.result is not None
    assert (done.result["outcome"], done.result["home_score"], done.result["away_score"]) \
        == ("home", 3, 0)
    assert done.result["record"] == record and done.result["reporter_side"] == "away"
    assert done.result["source"] == "report" and done.result["reported_by"] == AWAY[1]


async def test_record_equals_the_same_deals_as_a_scoresheet(store: Store) -> None:
    record = scoresheet_record()
    by_record = await report_record(store, (await fixture_of(store)).id, HOME[0], record)
    summaries = [d["summary"] for d in record["deals"]]
    by_sheet = await report_result(store, (await fixture_of(store)).id, HOME[0], summaries)
    assert by_record.result is not None and by_sheet.result is not None
    keys = ("outcome", "home_score", "away_score", "reporter_side")
    assert [by_record.result[k] for k in keys] == [by_sheet.result[k] for k in keys]


async def test_defaults_written_out_are_the_same_options(store: Store) -> None:
    fixture = await fixture_of(store)
    record = {**scoresheet_record(), "players": 4, "options": {"signals_enabled": True}}
    done = await report_record(store, fixture.id, HOME[0], record, first_dealer=0)
    assert done.status == "reported"


@pytest.mark.parametrize(("change", "message"), [
    ({"game": "turup"}, "this is a record of Turup, but league 'Cup' plays Arba'a Turub"),
    ({"game": "whist"}, "this is a record of 'whist', but league 'Cup' plays"),
    ({"options": {"signals_enabled": False}},
     'the record was played with the options {"signals_enabled": false}; league \'Cup\' '
     "plays with {}"),
    ({"options": {"no_such_option": 1}}, "the game record does not replay: field 'options'"),
    ({"format": "tricktable/9"}, "the game record does not replay: field 'format'"),
    ({"deals": []}, "the game record does not replay: field 'deals': must be a non-empty"),
])
async def test_records_of_other_rules_are_refused(store: Store, change: dict[str, Any],
                                                  message: str) -> None:
    fixture = await fixture_of(store)
    with pytest.raises(LeagueError) as refused:
        await report_record(store, fixture.id, HOME[0], {**scoresheet_record(), **change})
    assert message in str(refused.value)
    await untouched(store, fixture)


async def test_player_count_first_dealer_and_an_unfinished_match(store: Store) -> None:
    fixture = await fixture_of(store, "albastini", players=4)
    pairs = {"format": "tricktable/1", "game": "albastini", "players": 2,
             "deals": [{"dealer": 0, "summary": {"points_by_side": [80, 40]}}]}
    with pytest.raises(LeagueError, match="the record is of a 2-player match; league 'Cup' "
                                          "plays with 4 players"):
        await report_record(store, fixture.id, HOME[0], pairs)

    turub = await fixture_of(store)
    record = scoresheet_record()
    with pytest.raises(LeagueError, match=r"the record says seat 0 dealt first, not seat 2 "
                                          r"\(leave first_dealer out for a record\)"):
        await report_record(store, turub.id, HOME[0], record, first_dealer=2)
    short = {**record, "deals": record["deals"][:2]}
    with pytest.raises(LeagueError, match=r"the game record's match is not finished: report "
                                          r"it once the match is over \(after 2 deals the "
                                          r"score is 2–0\)"):
        await report_record(store, turub.id, HOME[0], short)
    with pytest.raises(LeagueError, match="only the players of this fixture or an admin"):
        await report_record(store, turub.id, 99, record)
    for f in (fixture, turub):
        await untouched(store, f)


async def test_a_single_deal_shorthand_is_stored_as_a_deals_list(store: Store) -> None:
    fixture = await fixture_of(store)
    shorthand = {"game": "arbaa_turub", "dealer": 1, "summary": {"tricks_by_team": [20, 16]}}
    with pytest.raises(LeagueError, match=r"after 1 deal the score is 1–0\)"):
        await report_record(store, fixture.id, HOME[0], shorthand)
    assert _deals_listed(shorthand) == {
        "game": "arbaa_turub", "deals": [{"dealer": 1, "summary": {"tricks_by_team": [20, 16]}}]}


def test_deals_listed_leaves_everything_else_to_the_replay() -> None:
    record = scoresheet_record()
    assert _deals_listed(record) == record and _deals_listed(record) is not record
    odd = {"game": "arbaa_turub", "dealer": 0, "summary": {}, "comment": "x"}
    assert _deals_listed(odd) == odd  # the replay names the unknown field
    header_only = {"game": "arbaa_turub"}
    assert _deals_listed(header_only) == header_only
