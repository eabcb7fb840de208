"""Duplicate scoring against values worked out by hand (docs/duplicate.md)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.duplicate.scoring import BoardResult, imps_for, matchpoints, net_result, score_event


def r(board: int, direction: int, entrant: str, score: int, *, finished: bool = True,
      tiebreak: int = 0) -> BoardResult:
    return BoardResult(board, direction, entrant, Fraction(score), Fraction(tiebreak), finished)


# Board 1, direction 0: A +40, B +40, C −20, D +100 (top 6).
# Board 2, direction 1: A +10, B 0; direction 0: C +5 alone; D left board 2 unfinished.
EVENT = [r(1, 0, "A", 40), r(1, 0, "B", 40), r(1, 0, "C", -20), r(1, 0, "D", 100),
         r(2, 1, "A", 10), r(2, 1, "B", 0), r(2, 0, "C", 5), r(2, 0, "D", 0, finished=False)]


def test_matchpoints_two_per_result_beaten_one_per_tie() -> None:
    board1 = EVENT[:4]
    # D beats three: 6 of 6; A and B beat C (2) and tie each other (1): 3; C beats none.
    assert matchpoints(board1) == [(3, 6), (3, 6), (0, 6), (6, 6)]


def test_traveller_percentages_and_a_result_alone() -> None:
    score = score_event(EVENT, 2)
    t1 = {row.result.entrant: row.percent for row in score.travellers[0].rows}
    assert t1 == {"A": 50, "B": 50, "C": 0, "D": 100}
    t2 = {row.result.entrant: (row.mp, row.top, row.percent) for row in score.travellers[1].rows}
    # Direction 1: A beat B (2 of 2); direction 0: C alone, 50%; D unfinished is no result.
    assert t2 == {"A": (2, 2, 100), "B": (0, 2, 0), "C": (0, 0, 50)}


def test_matchpoint_ranking_unfinished_board_and_tie_break() -> None:
    score = score_event(EVENT, 2)
    rows = {row.entrant: row for row in score.ranking}
    # A: (50 + 100) / 2 = 75; B: (50 + 0) / 2 = 25; C: (0 + 50) / 2 = 25;
    # D: 100 and the unfinished board at min(own 100, 50) = 50 -> 75.
    assert {k: v.total for k, v in rows.items()} == {"A": 75, "B": 25, "C": 25, "D": 75}
    assert rows["D"].boards[1].finished is False and rows["D"].boards[1].value == 50
    # A and D tie on 75: A finished more boards. B and C are equal on both: they share 3rd.
    assert [(row.rank, row.entrant) for row in score.ranking] == [
        (1, "A"), (2, "D"), (3, "B"), (3, "C")]


def test_imps_against_the_datum() -> None:
    score = score_event(EVENT, 2, "imps")
    imps = {(t.board, row.result.entrant): row.imps for t in score.travellers for row in t.rows}
    # Board 1 datum (40 + 40 − 20 + 100) / 4 = 40: C −60 -> −5, D +60 -> +5.
    # Board 2 direction 1 datum 5: A +5, B −5 -> 0 IMPs; C alone: 0.
    assert imps == {(1, "A"): 0, (1, "B"): 0, (1, "C"): -5, (1, "D"): 5,
                    (2, "A"): 0, (2, "B"): 0, (2, "C"): 0}
    # D's unfinished board: min(own average +5, 0) = 0.
    assert [(row.rank, row.entrant, row.total) for row in score.ranking] == [
        (1, "D", 5), (2, "A", 0), (2, "B", 0), (4, "C", -5)]


@pytest.mark.parametrize(("difference", "imps"), [
    (0, 0), (9, 0), (10, 1), (19, 1), (20, 2), (59, 4), (60, 5), (160, 9), (299, 11),
    (300, 12), (1000, 12), (-45, -4), (Fraction(25, 2), 1)])
def test_tarabish_imp_scale(difference: int, imps: int) -> None:
    assert imps_for(difference) == imps


def test_tiebreak_separates_equal_scores() -> None:
    # Two Turup results of 1 game point: 6 tricks beat 5.
    a, b = r(1, 0, "A", 1, tiebreak=2), r(1, 0, "B", 1, tiebreak=0)
    assert matchpoints([a, b]) == [(2, 2), (0, 2)]


def test_net_scores_partnership_and_per_seat() -> None:
    tarabish = {"hand_score": [86, 76]}
    assert net_result("tarabish", tarabish, [(0, 2), (1, 3)], 0)[0] == 10
    assert net_result("tarabish", tarabish, [(0, 2), (1, 3)], 1)[0] == -10
    truf = {"points": [3, -1, 2, 0]}
    # Seat 0: 3 minus the mean of the others' (−1 + 2 + 0) / 3.
    assert net_result("truf", truf, [(0,), (1,), (2,), (3,)], 0)[0] == Fraction(8, 3)


def test_a_board_played_twice_by_one_entrant_is_an_error() -> None:
    with pytest.raises(ValueError, match="two results"):
        score_event([r(1, 0, "A", 1), r(1, 1, "A", 2)], 1)
    with pytest.raises(ValueError, match="not a board"):
        score_event([r(3, 0, "A", 1)], 2)


def test_entrant_without_results_is_listed_unranked() -> None:
    score = score_event([r(1, 0, "A", 1)], 1, entrants=["Z"])
    assert [(row.rank, row.entrant) for row in score.ranking] == [(1, "A"), (None, "Z")]
