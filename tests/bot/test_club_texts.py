"""The club texts without Discord: the report scoresheet forms and the paging of long
lists inside Discord's limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_bot.club.club_texts import ScoresheetError, pages_of, parse_scoresheet
from games.records import FORMAT, replay


def test_compact_form_per_game() -> None:
    assert parse_scoresheet("arbaa_turub", "20-16, 22-14") == (
        [{"tricks_by_team": [20, 16]}, {"tricks_by_team": [22, 14]}], None)
    assert parse_scoresheet("albastini", " 80-40;90-30 ") == (
        [{"points_by_side": [80, 40]}, {"points_by_side": [90, 30]}], None)
    assert parse_scoresheet("turup", "5-0 9-0:made 1-0:failed")[0] == [
        {"tricks_by_team": [5, 0]}, {"tricks_by_team": [9, 0], "kort": "made"},
        {"tricks_by_team": [1, 0], "kort": "failed"}]


@pytest.mark.parametrize(("game", "text", "reason"), [
    ("arbaa_turub", "20:16", "cannot read '20:16'"),
    ("arbaa_turub", "9-0:made", "cannot read"),          # kort is Turup's only
    ("tarabish", "100-62", "Tarabish reports need the JSON form"),
    ("turup", "", "empty"),
    ("turup", "[1, 2", "not valid JSON"),
    ("turup", "[]", "non-empty list"),
    ("turup", "[3]", "deal 1 is not an object"),
    ("turup", '{"first_dealer": "x", "deals": [{}]}', "first_dealer must be a seat"),
])
def test_unreadable_scoresheets_are_refused(game: str, text: str, reason: str) -> None:
    with pytest.raises(ScoresheetError, match=reason):
        parse_scoresheet(game, text)


def test_json_form_replays_as_the_report_would() -> None:
    deals, dealer = parse_scoresheet(
        "arbaa_turub",
        '{"first_dealer": 2, "deals": [{"summary": {"tricks_by_team": [20, 16]}},'
        ' {"tricks_by_team": [22, 14]}]}')
    assert dealer == 2
    record = {"format": FORMAT, "game": "arbaa_turub", "players": 4, "options": {},
              "deals": [{"dealer": dealer, "summary": deals[0]}, {"summary": deals[1]}]}
    out, status = replay(record)
    assert status == 0 and out["match"]["over"] and out["match"]["winner"] == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=0, max_size=300), max_size=60),
       st.integers(min_value=50, max_value=4000))
def test_pages_keep_every_line_in_order_within_the_limit(lines: list[str], limit: int
                                                         ) -> None:
    pages = pages_of(lines, limit)
    assert pages and all(len("\n".join(p)) <= limit for p in pages)
    flat = [line for page in pages for line in page]
    assert len(flat) == len(lines)
    for got, want in zip(flat, lines, strict=True):
        assert got == want if len(want) <= limit else got == want[:limit - 1] + "…"
