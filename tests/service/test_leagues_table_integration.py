"""End to end: a match played at a real table service with :class:`MatchResultsHook`
rates the players and records the league fixture between the two teams."""

from __future__ import annotations

import datetime as dt

from league_fixtures import (
    CHANNEL,
    GUILD,
    club_backend,
    club_schemas,
    club_store,
    club_url,
)

from bot.leagues.service import create_league, join_league, league_view, start_league
from bot.ratings import MatchResultsHook
from bot.service import FakeClock, Seat, TableService
from storage import ChannelLocation, Store

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]


async def test_table_match_rates_and_records_the_fixture(club_store: Store) -> None:
    league = await create_league(club_store, GUILD, CHANNEL, "Cup", "turup", weekday=3,
                                 start_time=dt.time(19, 0), time_zone="UTC")
    await join_league(club_store, league.id, [11, 13], name="Aces")
    await join_league(club_store, league.id, [12, 14], name="Kings")
    await start_league(club_store, league.id, dt.datetime(2026, 3, 1, tzinfo=dt.UTC))

    service = TableService(club_store, clock=FakeClock(), ratings=MatchResultsHook(club_store))
    seats = [Seat.human(11, "Ann"), Seat.human(12, "Bob"), Seat.human(13, "Cy"),
             Seat.human(14, "Di")]
    # Another channel than the league's: any channel of the guild counts.
    table_id = await service.create_table(ChannelLocation(GUILD, 4242), "turup", seed=5,
                                          seats=seats, ai_pace=0, turn_timeout=0, start=True)
    for seat in range(4):
        await service.set_away(table_id, seat)  # the stand-in AI plays for everyone
    await service.settle(timeout=60)
    await service.close()

    match = await club_store.get_match_for_table(table_id)
    assert match is not None and match.rated
    winner = match.result["summary"]["winner"]
    totals = match.result["summary"]["totals"]
    view = await league_view(club_store, league.id)
    (fixture,) = view.fixtures
    assert fixture.status == "played" and fixture.match_id == match.id
    assert fixture.result is not None
    home_members = view.entrants[fixture.home_entrant_id].members
    home_team = 0 if home_members == (11, 13) else 1
    assert fixture.result["outcome"] == ("home" if winner == home_team else "away")
    assert fixture.result["home_score"] == totals[home_team]
    ratings = await club_store.get_ratings(GUILD, "turup", [11, 12, 13, 14])
    winners = {11, 13} if winner == 0 else {12, 14}
    assert {u for u, r in ratings.items() if r.wins == 1} == winners
    assert all(r.matches == 1 for r in ratings.values())
