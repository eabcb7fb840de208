"""League tables against hand-computed ones, one tie-breaker at a time."""

from __future__ import annotations

import datetime as dt
import itertools

from bot.leagues.standings import (
    Points,
    ResultOutcome,
    StandingRow,
    compute_standings,
    field_outcomes,
    fixture_result,
    round_outcomes,
    round_value,
)
from storage.models import Fixture

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
_ids = itertools.count(1)


def fx(home: int, away: int | None, home_score: int = 0, away_score: int = 0, *,
       status: str = "played", forfeit_winner: ResultOutcome | None = None) -> Fixture:
    if forfeit_winner is not None:
        result = fixture_result(forfeit_winner, 0, 0, source="withdrawal", forfeit=True)
        status = "forfeit"
    elif status in ("played", "reported"):
        outcome: ResultOutcome = (
            "home" if home_score > away_score else "away" if away_score > home_score
            else "draw")
        result = fixture_result(outcome, home_score, away_score, source="table")
    else:
        result = None
    return Fixture(next(_ids), 1, 1, NOW, home, away, status, result, None, None, None,
                   NOW, NOW)


def table(rows: list[StandingRow]) -> list[tuple[int, int, int, int, int, int, int, int]]:
    """(rank, entrant, played, won, drawn, lost, points, difference) per row."""
    return [(r.rank, r.entrant_id, r.played, r.won, r.drawn, r.lost, r.points, r.difference)
            for r in rows]


def test_points_and_counts() -> None:
    rows = compute_standings([1, 2, 3], [fx(1, 2, 20, 16), fx(1, 3, 18, 18), fx(2, 3, 25, 11)])
    assert table(rows) == [
        (1, 1, 2, 1, 1, 0, 3, 4),
        (2, 2, 2, 1, 0, 1, 2, 10),
        (3, 3, 2, 0, 1, 1, 1, -14),
    ]
    assert (rows[1].score_for, rows[1].score_against) == (41, 31)


def test_head_to_head_beats_a_better_difference() -> None:
    rows = compute_standings([1, 2, 3, 4], [
        fx(1, 2, 17, 19), fx(1, 3, 30, 6), fx(2, 4, 16, 20), fx(3, 4, 18, 18)])
    # 1 and 2 both have 2 points; 1's difference is +22, 2's is -2, but 2 beat 1.
    assert table(rows) == [
        (1, 4, 2, 1, 1, 0, 3, 4),
        (2, 2, 2, 1, 0, 1, 2, -2),
        (3, 1, 2, 1, 0, 1, 2, 22),
        (4, 3, 2, 0, 1, 1, 1, -24),
    ]
    assert rows[1].head_to_head == 2 and rows[2].head_to_head == 0


def test_circular_head_to_head_falls_to_difference() -> None:
    rows = compute_standings([3, 2, 1], [fx(1, 2, 17, 19), fx(1, 3, 30, 6), fx(2, 3, 17, 19)])
    assert [r.head_to_head for r in rows] == [2, 2, 2]
    assert table(rows) == [
        (1, 1, 2, 1, 0, 1, 2, 22),
        (2, 2, 2, 1, 0, 1, 2, 0),
        (3, 3, 2, 1, 0, 1, 2, -22),
    ]


def test_matches_won_then_shared_rank() -> None:
    rows = compute_standings([1, 2, 3, 4, 5, 6, 7], [
        fx(1, 3, 20, 16), fx(4, 1, 20, 16),       # 1: W, L = 2 pts, diff 0, 1 win
        fx(2, 3, 18, 18), fx(5, 2, 18, 18),       # 2: D, D = 2 pts, diff 0, 0 wins
    ])
    # Tied on 2: {1, 2, 4}; head-to-head in that group puts 4 first (it beat 1); 1 and 2
    # are equal on head-to-head (0) and difference (0): 1 won a match, 2 none.
    # Tied on 1: {3, 5}, who never met: 5 has the better difference. 6 and 7: nothing.
    assert [(r.rank, r.entrant_id) for r in rows] == [
        (1, 4), (2, 1), (3, 2), (4, 5), (5, 3), (6, 6), (6, 7)]


def test_configured_points_change_the_order() -> None:
    fixtures = [fx(1, 3, 20, 16), fx(4, 1, 20, 16), fx(2, 3, 18, 18), fx(5, 2, 18, 18)]
    rows = compute_standings([1, 2, 3, 4, 5], fixtures, Points(win=3, draw=1, loss=0))
    assert [(r.entrant_id, r.points) for r in rows][:3] == [(4, 3), (1, 3), (2, 2)]
    rows = compute_standings([1, 2, 3, 4, 5], fixtures, Points(win=1, draw=1, loss=0))
    # A draw is worth a win now: 2 (two draws) leads alone; 1 (a win, a loss) has 1.
    assert (rows[0].entrant_id, rows[0].points) == (2, 2)
    assert {r.entrant_id: r.points for r in rows}[1] == 1


def test_forfeits_count_but_unplayed_and_void_do_not() -> None:
    rows = compute_standings([1, 2, 3], [
        fx(1, 2, forfeit_winner="away"),
        fx(1, 3, 10, 30, status="reported"),   # awaiting confirmation
        fx(2, 3, status="scheduled"),
        fx(3, 1, status="void"),
        fx(3, None, status="bye"),
    ])
    # 1 (a forfeit lost) and 3 (nothing counted) are equal on every tie-breaker.
    assert table(rows) == [
        (1, 2, 1, 1, 0, 0, 2, 0),
        (2, 1, 1, 0, 0, 1, 0, 0),
        (2, 3, 0, 0, 0, 0, 0, 0),
    ]


def test_a_duplicate_round_is_one_match_against_the_field() -> None:
    # Ranks 1, 2, 2, 4 and one entrant that finished no board (None): 1 is above four
    # (a win); the two 2s are above two and below one (wins); 4 is above one (the entrant
    # without a board) and below three (a loss); no board is a loss.
    outcomes = field_outcomes({10: 1, 11: 2, 12: 2, 13: 4, 14: None})
    assert outcomes == {10: "home", 11: "home", 12: "home", 13: "away", 14: "away"}
    # An odd field's middle draws; equal ranks across the middle draw too.
    assert field_outcomes({1: 1, 2: 2, 3: 3}) == {1: "home", 2: "draw", 3: "away"}
    assert field_outcomes({1: 1, 2: 1}) == {1: "draw", 2: "draw"}
    assert round_outcomes(round_value(outcomes)) == outcomes
    assert round_outcomes(None) == {}
    # In the table: one match each, the league's points, no score difference.
    rows = {r.entrant_id: r for r in compute_standings(
        [1, 2, 3], [], Points(3, 1, 0), rounds=[field_outcomes({1: 1, 2: 2, 3: 3})])}
    assert [(rows[e].played, rows[e].points, rows[e].won, rows[e].drawn, rows[e].lost)
            for e in (1, 2, 3)] == [(1, 3, 1, 0, 0), (1, 1, 0, 1, 0), (1, 0, 0, 0, 1)]
    assert all(r.difference == 0 and r.head_to_head == 0 for r in rows.values())
