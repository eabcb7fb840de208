"""League operations on both backends: create, join, start, withdraw, report, auto-record,
close; and the match-finished hook feeding ratings and fixtures."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from league_fixtures import (
    CHANNEL,
    GUILD,
    club_backend,
    club_schemas,
    club_store,
    club_url,
    store_match,
)

from bot.leagues.reports import (
    confirm_report,
    record_table_match,
    reject_report,
    report_result,
)
from bot.leagues.service import (
    LeagueError,
    close_league,
    create_league,
    join_league,
    league_view,
    standings,
    start_league,
    withdraw,
)
from bot.ratings import MatchResultsHook
from bot.service.hooks import FinishedMatch
from storage import Store
from storage.models import ChannelLocation, Fixture, League

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]

NOW = dt.datetime(2026, 3, 16, 12, 0, tzinfo=dt.UTC)  # a Monday
TEAMS = [[11, 13], [12, 14], [21, 23], [22, 24]]


def utc(year: int, month: int, day: int, hour: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, tzinfo=dt.UTC)


async def make_league(store: Store, teams: list[list[int]] = TEAMS, **kw: Any) -> League:
    args: dict[str, Any] = {"weekday": 3, "start_time": dt.time(19, 0),
                            "time_zone": "Europe/Berlin"} | kw
    league = await create_league(store, GUILD, CHANNEL, "Thursday Cup", "arbaa_turub",
                                 **args)
    for k, members in enumerate(teams):
        await join_league(store, league.id, members, name=f"T{k}")
    return league


async def fixture_between(store: Store, league_id: int, a: int, b: int) -> Fixture:
    view = await league_view(store, league_id)
    by_first = {e.members[0]: e.id for e in view.entrants.values()}
    pair = {by_first[a], by_first[b]}
    return next(f for f in view.fixtures if {f.home_entrant_id, f.away_entrant_id} == pair)


async def test_create_validates_and_stores_points(club_store: Store) -> None:
    league = await make_league(club_store, [])
    assert (league.points_win, league.points_draw, league.points_loss) == (2, 1, 0)
    assert league.status == "open" and league.options["players"] == 4
    solo = await create_league(club_store, GUILD, CHANNEL, "Duel", "albastini", weekday=0,
                               start_time=dt.time(20, 0), time_zone="UTC", players=2)
    await join_league(club_store, solo.id, [5])
    with pytest.raises(LeagueError, match="an entrant of this league is one player"):
        await join_league(club_store, solo.id, [6, 7])
    bad: list[tuple[dict[str, Any], str]] = [
        ({"game": "truf"}, "cannot be a league game"),
        ({"game": "chess"}, "unknown game"),
        ({"time_zone": "Mars/Olympus"}, "unknown time zone"),
        ({"weekday": 7}, "weekday"),
        ({"options": {"no_such_option": 1}}, "unknown option"),
        ({"game": "albastini", "players": 3}, "needs 2 or 4 players"),
    ]
    for changes, message in bad:
        args: dict[str, Any] = {"weekday": 3, "start_time": dt.time(19, 0),
                                "time_zone": "UTC", "game": "turup"} | changes
        game = args.pop("game")
        with pytest.raises(LeagueError, match=message):
            await create_league(club_store, GUILD, CHANNEL, "X", game, **args)


async def test_join_rules(club_store: Store) -> None:
    league = await make_league(club_store, TEAMS[:1])
    with pytest.raises(LeagueError, match="2 different players"):
        await join_league(club_store, league.id, [31])
    with pytest.raises(LeagueError, match="2 different players"):
        await join_league(club_store, league.id, [31, 31])
    with pytest.raises(LeagueError, match="already plays"):
        await join_league(club_store, league.id, [13, 40])
    await join_league(club_store, league.id, [31, 32])
    await start_league(club_store, league.id, NOW)
    with pytest.raises(LeagueError, match="not taking entrants"):
        await join_league(club_store, league.id, [41, 42])
    with pytest.raises(LeagueError, match="already started"):
        await start_league(club_store, league.id, NOW)


async def test_start_schedules_weekly_across_daylight_saving(club_store: Store) -> None:
    league = await make_league(club_store)
    fixtures = await start_league(club_store, league.id, NOW)
    assert len(fixtures) == 6 and {f.round for f in fixtures} == {1, 2, 3}
    # Thursdays 19:00 in Berlin: 18:00 UTC until the change on 29 March, then 17:00.
    by_round = {f.round: f.scheduled_at for f in fixtures}
    assert by_round == {1: utc(2026, 3, 19, 18), 2: utc(2026, 3, 26, 18),
                        3: utc(2026, 4, 2, 17)}
    view = await league_view(club_store, league.id)
    assert view.league.status == "running" and view.season.status == "active"
    assert all(f.status == "scheduled" for f in view.fixtures)
    assert view.label(fixtures[0].home_entrant_id).startswith("T")


async def test_odd_count_gets_byes_and_double_rounds(club_store: Store) -> None:
    league = await make_league(club_store, TEAMS[:3], rounds="double")
    fixtures = await start_league(club_store, league.id, NOW, first_day=dt.date(2026, 3, 19))
    assert len({f.round for f in fixtures}) == 6
    byes = [f for f in fixtures if f.away_entrant_id is None]
    assert len(byes) == 6 and all(f.status == "bye" for f in byes)
    with pytest.raises(LeagueError, match="weekday"):
        other = await make_league(club_store, [[51, 52], [53, 54]])
        await start_league(club_store, other.id, NOW, first_day=dt.date(2026, 3, 20))


async def test_withdraw_before_start_leaves_the_entrant_out(club_store: Store) -> None:
    league = await make_league(club_store, TEAMS[:3])
    view = await league_view(club_store, league.id)
    quitter = next(e for e in view.entrants.values() if e.members[0] == 21)
    result = await withdraw(club_store, league.id, quitter.id, NOW)
    assert result.forfeited == [] and result.voided == []
    fixtures = await start_league(club_store, league.id, NOW)
    assert all(quitter.id not in (f.home_entrant_id, f.away_entrant_id) for f in fixtures)
    assert len(fixtures) == 1
    with pytest.raises(LeagueError, match="does not play"):
        await withdraw(club_store, league.id, quitter.id, NOW)
    # The withdrawn team's players may enter again (a new entrant) only before the start.
    with pytest.raises(LeagueError, match="not taking entrants"):
        await join_league(club_store, league.id, [21, 23])


async def test_withdraw_after_start_forfeits_what_is_left(club_store: Store) -> None:
    league = await make_league(club_store, TEAMS[:3])
    await start_league(club_store, league.id, NOW)
    played = await fixture_between(club_store, league.id, 11, 21)
    await record_table_match(club_store, guild_id=GUILD, game="arbaa_turub", players=4,
                             options={}, sides=[[11, 13], [21, 23]],
                             summary={"winner": 1, "totals": [0, 2]}, match_id=None)
    view = await league_view(club_store, league.id)
    quitter = next(e for e in view.entrants.values() if e.members[0] == 21)
    result = await withdraw(club_store, league.id, quitter.id, NOW)
    assert len(result.forfeited) == 1 and len(result.voided) == 1
    forfeit = result.forfeited[0]
    assert forfeit.status == "forfeit" and forfeit.result is not None
    winner_side = forfeit.result["outcome"]
    winner = forfeit.home_entrant_id if winner_side == "home" else forfeit.away_entrant_id
    assert winner is not None
    assert winner != quitter.id and forfeit.result["forfeit"] is True
    kept = await club_store.get_fixture(played.id)
    assert kept is not None and kept.status == "played"
    table = {row.entrant_id: row for row in await standings(club_store, league.id)}
    assert table[quitter.id].points == 2 and table[quitter.id].lost == 1
    assert table[winner].points == 2 and table[winner].difference == 0


async def test_table_match_records_the_fixture_once(club_store: Store) -> None:
    league = await make_league(club_store)
    await start_league(club_store, league.id, NOW)
    fixture = await fixture_between(club_store, league.id, 12, 21)
    view = await league_view(club_store, league.id)
    home_first = view.entrants[fixture.home_entrant_id].members[0]
    # The team of 21 sits as team 0 and wins 2–1 (deals won); 12's team is team 1.
    common: dict[str, Any] = {"guild_id": GUILD, "game": "arbaa_turub", "players": 4,
              "summary": {"winner": 0, "totals": [2, 1]}}
    assert await record_table_match(club_store, options={"no_such": 1},
                                    sides=[[21, 23], [12, 14]], **common) is None
    assert await record_table_match(club_store, options={}, sides=[[21, None], [12, 14]],
                                    **common) is None
    assert await record_table_match(club_store, options={}, sides=[[21, 24], [12, 14]],
                                    **common) is None
    done = await record_table_match(club_store, options={}, sides=[[21, 23], [12, 14]],
                                    match_id=None, **common)
    assert done is not None and done.id == fixture.id and done.status == "played"
    assert done.result is not None
    expected = "home" if home_first == 21 else "away"
    assert done.result["outcome"] == expected
    scores = (done.result["home_score"], done.result["away_score"])
    assert scores == ((2, 1) if home_first == 21 else (1, 2))
    # The only fixture between them is played: a rematch records nothing.
    assert await record_table_match(club_store, options={}, sides=[[21, 23], [12, 14]],
                                    **common) is None


async def test_hook_rates_and_records_the_fixture_idempotently(club_store: Store) -> None:
    league = await make_league(club_store)
    await start_league(club_store, league.id, NOW)
    fixture = await fixture_between(club_store, league.id, 11, 12)
    match_id = await store_match(club_store, "arbaa_turub", [[11, 13], [12, 14]], winner=0,
                                 totals=[2, 0])
    match = await club_store.get_match(match_id)
    assert match is not None
    finished = FinishedMatch(match.table_id, match_id, "arbaa_turub",
                             ChannelLocation(GUILD, 77), GUILD, True, match.participants,
                             {"winner": 0, "totals": [2, 0], "over": True})
    hook = MatchResultsHook(club_store)
    await hook.match_finished(finished)
    await hook.match_finished(finished)  # recovery repeats the call
    stored = await club_store.get_fixture(fixture.id)
    assert stored is not None and stored.status == "played" and stored.match_id == match_id
    ratings = await club_store.get_ratings(GUILD, "arbaa_turub", [11, 12])
    assert ratings[11].matches == 1 and ratings[11].wins == 1 and ratings[12].wins == 0
    others = [f for f in (await league_view(club_store, league.id)).fixtures
              if f.status == "played"]
    assert [f.id for f in others] == [fixture.id]


SHEET_HOME_WINS = [{"tricks_by_team": [20, 16]}, {"tricks_by_team": [22, 14]}]


async def test_report_confirm_and_reject(club_store: Store) -> None:
    league = await make_league(club_store)
    await start_league(club_store, league.id, NOW)
    fixture = await fixture_between(club_store, league.id, 11, 12)
    view = await league_view(club_store, league.id)
    assert fixture.away_entrant_id is not None
    home = view.entrants[fixture.home_entrant_id].members
    away = view.entrants[fixture.away_entrant_id].members
    with pytest.raises(LeagueError, match="only the players"):
        await report_result(club_store, fixture.id, 99, SHEET_HOME_WINS)
    with pytest.raises(LeagueError, match="does not finish"):
        await report_result(club_store, fixture.id, home[0], SHEET_HOME_WINS[:1])
    with pytest.raises(LeagueError, match="not valid"):
        await report_result(club_store, fixture.id, home[0], [{"tricks_by_team": [30, 16]}])
    reported = await report_result(club_store, fixture.id, home[0], SHEET_HOME_WINS)
    assert reported.status == "reported" and reported.result is not None
    assert reported.result["outcome"] == "home"
    assert (reported.result["home_score"], reported.result["away_score"]) == (2, 0)
    before = {r.entrant_id: r.points for r in await standings(club_store, league.id)}
    assert before[fixture.home_entrant_id] == 0  # not counted until confirmed
    with pytest.raises(LeagueError, match="opponents of the reporter"):
        await confirm_report(club_store, fixture.id, home[1])
    rejected = await reject_report(club_store, fixture.id, away[1])
    assert rejected.status == "scheduled" and rejected.result is None
    await report_result(club_store, fixture.id, away[0], SHEET_HOME_WINS)
    with pytest.raises(LeagueError, match="opponents of the reporter"):
        await confirm_report(club_store, fixture.id, away[1])
    confirmed = await confirm_report(club_store, fixture.id, home[1])
    assert confirmed.status == "played" and confirmed.confirmed_by == home[1]
    table = {r.entrant_id: r for r in await standings(club_store, league.id)}
    assert table[fixture.home_entrant_id].points == 2
    assert table[fixture.home_entrant_id].difference == 2
    with pytest.raises(LeagueError, match="already has a result"):
        await report_result(club_store, fixture.id, home[0], SHEET_HOME_WINS)
    other = await fixture_between(club_store, league.id, 21, 22)
    await report_result(club_store, other.id, 5, SHEET_HOME_WINS, is_admin=True)
    by_admin = await confirm_report(club_store, other.id, 6, is_admin=True)
    assert by_admin.status == "played"


async def test_close_voids_the_rest_and_keeps_the_table(club_store: Store) -> None:
    league = await make_league(club_store)
    await start_league(club_store, league.id, NOW)
    fixture = await fixture_between(club_store, league.id, 11, 12)
    await report_result(club_store, fixture.id, 11, SHEET_HOME_WINS, is_admin=True)
    await confirm_report(club_store, fixture.id, 1, is_admin=True)
    final = await close_league(club_store, league.id, NOW + dt.timedelta(days=30))
    assert final[0].points == 2 and sum(r.played for r in final) == 2
    view = await league_view(club_store, league.id)
    assert view.league.status == "closed" and view.season.status == "finished"
    assert sorted(f.status for f in view.fixtures) == ["played"] + ["void"] * 5
    with pytest.raises(LeagueError, match="already closed"):
        await close_league(club_store, league.id, NOW)
