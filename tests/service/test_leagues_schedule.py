"""Round robin by the circle method, and weekly kick-offs across daylight-saving changes."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.leagues.schedule import first_kickoff_date, local_kickoff, round_robin, weekly_times

ids = st.lists(st.integers(1, 10_000), min_size=2, max_size=14, unique=True)


@settings(max_examples=60, deadline=None)
@given(ids)
def test_single_round_robin(entrants: list[int]) -> None:
    n = len(entrants)
    rounds = round_robin(entrants)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset((a, b)) for r in rounds for a, b in r if b is not None)
    assert set(met) == {frozenset(p) for p in combinations(entrants, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seen = [x for a, b in r for x in (a, b) if x is not None]
        assert sorted(seen) == sorted(entrants)  # everyone once per round
        assert sum(b is None for _, b in r) == n % 2
    byes = Counter(a for r in rounds for a, b in r if b is None)
    assert set(byes.values()) <= {1} and len(byes) == n % 2 * n
    home = Counter(a for r in rounds for a, b in r if b is not None)
    counts = [home[e] for e in entrants]
    assert max(counts) - min(counts) <= (0 if n % 2 else 1)


@settings(max_examples=40, deadline=None)
@given(ids)
def test_double_round_robin_mirrors_home_and_away(entrants: list[int]) -> None:
    single = round_robin(entrants)
    double = round_robin(entrants, "double")
    assert double[: len(single)] == single
    played = Counter((a, b) for r in double for a, b in r if b is not None)
    for a, b in combinations(entrants, 2):
        assert played[(a, b)] == 1 and played[(b, a)] == 1
    byes = Counter(a for r in double for a, b in r if b is None)
    assert set(byes.values()) <= {2}


def test_small_cases_and_refusals() -> None:
    assert round_robin([7]) == []
    assert round_robin([1, 2]) == [[(1, 2)]]
    three = round_robin([1, 2, 3])
    assert [sorted(x for p in r for x in p if x is not None) for r in three] == [[1, 2, 3]] * 3
    with pytest.raises(ValueError):
        round_robin([1, 2, 1])


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)


def test_weekly_times_across_spring_forward_keep_the_local_time() -> None:
    # Europe/Berlin moves to summer time on Sunday 29 March 2026.
    times = weekly_times(dt.date(2026, 3, 19), dt.time(19, 0), "Europe/Berlin", 3)
    assert times == [utc(2026, 3, 19, 18), utc(2026, 3, 26, 18), utc(2026, 4, 2, 17)]


def test_weekly_times_across_fall_back() -> None:
    # Summer time ends on Sunday 25 October 2026 in Berlin, 1 November in New York.
    assert weekly_times(dt.date(2026, 10, 22), dt.time(19, 0), "Europe/Berlin", 2) == [
        utc(2026, 10, 22, 17), utc(2026, 10, 29, 18)]
    assert weekly_times(dt.date(2026, 10, 25), dt.time(20, 30), "America/New_York", 2) == [
        utc(2026, 10, 26, 0, 30), utc(2026, 11, 2, 1, 30)]


def test_times_inside_the_gap_and_the_overlap() -> None:
    # 02:30 does not exist in Berlin on 29 March 2026: it is read as 03:30 summer time.
    assert local_kickoff(dt.date(2026, 3, 29), dt.time(2, 30), "Europe/Berlin") == utc(
        2026, 3, 29, 1, 30)
    # 01:30 happens twice in New York on 1 November 2026: the first (daylight) one.
    assert local_kickoff(dt.date(2026, 11, 1), dt.time(1, 30), "America/New_York") == utc(
        2026, 11, 1, 5, 30)


def test_first_kickoff_date() -> None:
    thursday_7pm_berlin = utc(2026, 3, 19, 18)
    zone = "Europe/Berlin"
    assert first_kickoff_date(thursday_7pm_berlin - dt.timedelta(minutes=1), 3,
                              dt.time(19, 0), zone) == dt.date(2026, 3, 19)
    assert first_kickoff_date(thursday_7pm_berlin, 3, dt.time(19, 0), zone) == dt.date(
        2026, 3, 26)
    # Sunday 20:00 UTC is Monday 05:00 in Tokyo: 04:00 has passed, 21:00 has not.
    assert first_kickoff_date(utc(2026, 3, 22, 20), 0, dt.time(4, 0), "Asia/Tokyo") == (
        dt.date(2026, 3, 30))
    assert first_kickoff_date(utc(2026, 3, 22, 20), 0, dt.time(21, 0), "Asia/Tokyo") == (
        dt.date(2026, 3, 23))
