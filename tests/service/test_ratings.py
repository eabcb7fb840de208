"""Ratings: ranks, OpenSkill updates, exactly-once, AI seats, seasons, leaderboards."""

from __future__ import annotations

import datetime as dt

import pytest
from league_fixtures import (
    GUILD,
    T0,
    club_backend,
    club_schemas,
    club_store,
    club_url,
    store_match,
)
from openskill.models import PlackettLuce

from bot.ratings import (
    AI_MU,
    AI_SIGMA,
    PlayerRating,
    compute_updates,
    end_rating_season,
    leaderboard,
    rate_match,
    side_ranks,
    start_rating_season,
)
from storage import Store
from storage.models import Participant

__all__ = ["club_backend", "club_schemas", "club_store", "club_url"]

MODEL = PlackettLuce()


def _p(seat: int, user: int | None, team: int, outcome: str = "loss") -> Participant:
    return Participant(seat, user, team, outcome)  # type: ignore[arg-type]


# -- ranks -----------------------------------------------------------------------------


def test_two_sides_rank_by_winner_whatever_the_totals() -> None:
    parts = [_p(0, 1, 0), _p(1, 2, 1), _p(2, 3, 0), _p(3, 4, 1)]
    # Arba'a Turub totals are deals won; the match rule may pick a side with fewer.
    assert side_ranks(parts, {"winner": 1, "totals": [3, 2]}) == {0: 2, 1: 1}
    assert side_ranks(parts, {"winner": None, "totals": [1, 1]}) == {0: 1, 1: 1}


def test_truf_ranks_individuals_by_totals_with_shared_ranks() -> None:
    parts = [_p(s, 10 + s, s) for s in range(4)]
    summary = {"winner": 2, "winners": [2], "totals": [-5, 12, 40, 12]}
    assert side_ranks(parts, summary) == {2: 1, 1: 2, 3: 2, 0: 4}
    tied_top = {"winner": None, "winners": [0, 3], "totals": [30, -2, 5, 30]}
    assert side_ranks(parts, tied_top) == {0: 1, 3: 1, 2: 3, 1: 4}


def test_albastini_three_sides_winner_first_then_totals() -> None:
    parts = [_p(s, 20 + s, s) for s in range(3)]
    assert side_ranks(parts, {"winner": 1, "totals": [4, 7, 6]}) == {1: 1, 2: 2, 0: 3}


# -- updates ---------------------------------------------------------------------------


def test_team_update_matches_openskill_directly() -> None:
    parts = [_p(0, 1, 0, "win"), _p(1, 2, 1), _p(2, 3, 0, "win"), _p(3, 4, 1)]
    current = {1: PlayerRating(30.0, 5.0), 4: PlayerRating(20.0, 6.0)}
    updates = {u.user_id: u for u in compute_updates(parts, {0: 1, 1: 2}, current)}
    r = MODEL.rating
    expected = MODEL.rate([[r(30.0, 5.0), r()], [r(), r(20.0, 6.0)]], ranks=[1, 2])
    assert updates[1].mu == pytest.approx(expected[0][0].mu)
    assert updates[3].sigma == pytest.approx(expected[0][1].sigma)
    assert updates[2].mu == pytest.approx(expected[1][0].mu)
    assert updates[4].mu == pytest.approx(expected[1][1].mu)
    assert updates[1].won and updates[3].won and not updates[2].won
    assert updates[1].mu > 30.0 and updates[4].mu < 20.0


def test_ai_seats_take_part_at_a_fixed_rating_and_are_not_updated() -> None:
    parts = [_p(0, 1, 0, "win"), _p(1, None, 1), _p(2, None, 0, "win"), _p(3, 4, 1)]
    updates = compute_updates(parts, {0: 1, 1: 2}, {})
    assert sorted(u.user_id for u in updates) == [1, 4]
    r = MODEL.rating
    expected = MODEL.rate([[r(), r(AI_MU, AI_SIGMA)], [r(AI_MU, AI_SIGMA), r()]], ranks=[1, 2])
    by_user = {u.user_id: u for u in updates}
    assert by_user[1].mu == pytest.approx(expected[0][0].mu)
    assert by_user[4].mu == pytest.approx(expected[1][1].mu)


def test_humans_against_ai_only_side_are_rated_and_nobody_else() -> None:
    parts = [_p(0, 1, 0, "win"), _p(1, None, 1), _p(2, 3, 0, "win"), _p(3, None, 1)]
    updates = compute_updates(parts, {0: 1, 1: 2}, {})
    assert sorted(u.user_id for u in updates) == [1, 3]
    assert all(u.mu > AI_MU for u in updates)
    only_ai = [_p(0, None, 0), _p(1, None, 1)]
    assert compute_updates(only_ai, {0: 1, 1: 2}, {}) == []


def test_truf_individual_order_is_respected() -> None:
    parts = [_p(s, 10 + s, s, "win" if s == 2 else "loss") for s in range(4)]
    ranks = {2: 1, 1: 2, 3: 2, 0: 4}
    by_user = {u.user_id: u for u in compute_updates(parts, ranks, {})}
    assert by_user[12].mu > by_user[11].mu > by_user[10].mu
    assert by_user[11].mu == pytest.approx(by_user[13].mu)
    assert by_user[12].won and not by_user[11].won


# -- through the store -----------------------------------------------------------------


async def test_rate_match_once_even_when_repeated(club_store: Store) -> None:
    match_id = await store_match(club_store, "tarabish", [[1, 3], [2, 4]], winner=0,
                                 totals=[1000, 700])
    assert await rate_match(club_store, match_id) == {None: True}
    first = await club_store.get_ratings(GUILD, "tarabish", [1, 2, 3, 4])
    assert first[1].mu > AI_MU > first[2].mu
    assert first[1].matches == 1 and first[1].wins == 1 and first[2].wins == 0
    assert await rate_match(club_store, match_id) == {None: False}
    again = await club_store.get_ratings(GUILD, "tarabish", [1, 2, 3, 4])
    assert again == first
    history = await club_store.rating_history(1, GUILD, "tarabish")
    assert [h.match_id for h in history] == [match_id]


async def test_unrated_and_guildless_matches_change_nothing(club_store: Store) -> None:
    unrated = await store_match(club_store, "turup", [[1, 3], [2, None]], winner=0,
                                rated=False)
    assert await rate_match(club_store, unrated) == {}
    terminal = await store_match(club_store, "turup", [[1, 3], [2, 4]], winner=0,
                                 guild_id=None)
    assert await rate_match(club_store, terminal) == {}
    assert await club_store.get_ratings(GUILD, "turup", [1, 2, 3, 4]) == {}


async def test_rated_match_with_ai_rates_only_the_humans(club_store: Store) -> None:
    match_id = await store_match(club_store, "turup", [[1, None], [2, 4]], winner=1)
    await rate_match(club_store, match_id)
    board = await leaderboard(club_store, GUILD, "turup")
    assert sorted(row.user_id for row in board.rows) == [1, 2, 4]
    ratings = await club_store.get_ratings(GUILD, "turup", [1, 2, 4])
    assert ratings[1].mu < AI_MU < ratings[2].mu


async def test_second_match_computes_from_the_first(club_store: Store) -> None:
    m1 = await store_match(club_store, "tarabish", [[1, 3], [2, 4]], winner=0)
    m2 = await store_match(club_store, "tarabish", [[1, 2], [3, 4]], winner=1,
                           finished_at=T0 + dt.timedelta(hours=1))
    await rate_match(club_store, m1)
    after1 = await club_store.get_ratings(GUILD, "tarabish", [1, 2, 3, 4])
    await rate_match(club_store, m2)
    after2 = await club_store.get_ratings(GUILD, "tarabish", [1, 2, 3, 4])
    r = MODEL.rating
    a = {u: r(after1[u].mu, after1[u].sigma) for u in (1, 2, 3, 4)}
    expected = MODEL.rate([[a[1], a[2]], [a[3], a[4]]], ranks=[2, 1])
    assert after2[1].mu == pytest.approx(expected[0][0].mu)
    assert after2[4].mu == pytest.approx(expected[1][1].mu)
    assert after2[3].matches == 2 and after2[3].wins == 2


async def test_rating_season_counts_separately(club_store: Store) -> None:
    before = await store_match(club_store, "turup", [[1, 3], [2, 4]], winner=0)
    await rate_match(club_store, before)
    season = await start_rating_season(club_store, GUILD, "Spring", T0 + dt.timedelta(days=1))
    during = await store_match(club_store, "turup", [[1, 3], [2, 4]], winner=1,
                               finished_at=T0 + dt.timedelta(days=2))
    assert await rate_match(club_store, during) == {None: True, season.id: True}
    all_time = await club_store.get_ratings(GUILD, "turup", [1, 2])
    seasonal = await club_store.get_ratings(GUILD, "turup", [1, 2], season_id=season.id)
    assert all_time[1].matches == 2 and seasonal[1].matches == 1
    assert seasonal[2].mu > AI_MU > seasonal[1].mu  # fresh start: only the season's match
    board = await leaderboard(club_store, GUILD, "turup", season_id=season.id)
    assert [row.user_id for row in board.rows][:2] in ([2, 4], [4, 2])
    await end_rating_season(club_store, GUILD, T0 + dt.timedelta(days=3))
    after = await store_match(club_store, "turup", [[1, 3], [2, 4]], winner=0,
                              finished_at=T0 + dt.timedelta(days=4))
    assert await rate_match(club_store, after) == {None: True}


async def test_leaderboard_pages_order_and_win_rate(club_store: Store) -> None:
    # Player 1 wins three matches, player 2 loses all, the others in between.
    for k in range(3):
        m = await store_match(club_store, "albastini", [[1], [2]], winner=0,
                              finished_at=T0 + dt.timedelta(minutes=k))
        await rate_match(club_store, m)
    m = await store_match(club_store, "albastini", [[3], [4]], winner=None,
                          finished_at=T0 + dt.timedelta(minutes=9))
    await rate_match(club_store, m)
    first = await leaderboard(club_store, GUILD, "albastini", per_page=2)
    assert first.total == 4 and first.pages == 2 and first.page == 0
    assert first.rows[0].user_id == 1 and first.rows[0].rank == 1
    assert first.rows[0].matches == 3 and first.rows[0].win_rate == 1.0
    ratings = [row.rating for row in first.rows]
    assert ratings == sorted(ratings, reverse=True)
    assert first.rows[0].rating == pytest.approx(first.rows[0].mu - 3 * first.rows[0].sigma)
    last = await leaderboard(club_store, GUILD, "albastini", page=7, per_page=2)
    assert last.page == 1 and last.rows[-1].user_id == 2 and last.rows[-1].rank == 4
    assert last.rows[-1].win_rate == 0.0
    empty = await leaderboard(club_store, GUILD, "truf")
    assert empty.rows == [] and empty.pages == 1
