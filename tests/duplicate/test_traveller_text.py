"""Travellers and score cards explain the score: each row shows what the game's scoring
compares, in the order the matchpoints use it (so two rows with different matchpoints never
read the same), a lone result says so, and a score card sets each board against the field
(docs/duplicate.md, *Scoring*)."""

from __future__ import annotations

from typing import Any

from bot.duplicate.scoring import result_from_summary, score_event
from bot.duplicate.text import card_lines, traveller_lines

PAIRS = [[0, 2], [1, 3]]


def _turup(game_points: list[int], tricks: list[int]) -> dict[str, Any]:
    return {"trump": "D", "game_points": game_points, "tricks_by_team": tricks,
            "tricks_by_seat": [tricks[0], tricks[1], 0, 0]}


def test_turup_rows_with_different_matchpoints_read_differently() -> None:
    results = [
        result_from_summary("turup", _turup([0, 1], [4, 5]), PAIRS, board=1, direction=0,
                            entrant="ann & ben"),
        result_from_summary("turup", _turup([0, 1], [3, 6]), PAIRS, board=1, direction=0,
                            entrant="eve & fay"),
    ]
    score = score_event(results, 1)
    lines = traveller_lines(score.travellers[0], score.method)
    assert lines[2] == ("  ann & ben: ♦ diamonds; game points 0 – 1; tricks 4 – 5; "
                        "2 of 2 matchpoints, 100.00%")
    assert lines[3] == ("  eve & fay: ♦ diamonds; game points 0 – 1; tricks 3 – 6; "
                        "0 of 2 matchpoints, 0.00%")
    card = card_lines(score.card("eve & fay"), score)  # type: ignore[arg-type]
    assert card[0] == ("Board 1: ♦ diamonds; game points 0 – 1; tricks 3 – 6, 0 of 2 "
                       "matchpoints, 0.00%")
    assert card[1] == ("  you: net −1 (tricks −3); the field's best: net −1 (tricks −1); "
                       "its average: net −1 (tricks −2); yours is the lowest result of the "
                       "field")


def test_a_lone_result_says_it_is_alone() -> None:
    score = score_event([result_from_summary("turup", _turup([1, 0], [5, 4]), PAIRS,
                                             board=1, direction=1, entrant="cy")], 1)
    [_, _, line] = traveller_lines(score.travellers[0], score.method)
    assert line == "  cy: ♦ diamonds; game points 0 – 1; tricks 4 – 5; alone in its " \
                   "direction, 50.00%"
    assert "0 of 0" not in line
    card = card_lines(score.card("cy"), score, {1: "net +1"})  # type: ignore[arg-type]
    assert card[1] == "  you: net −1 (tricks −1); the only result in your direction"
    assert card[2] == "  AI in your seat: net +1"


def test_tarabish_shows_the_hand_the_points_and_the_bonuses() -> None:
    summary = {"trump": "S", "caller": 1, "hand_score": [0, 182], "raw_points_by_team":
               [80, 102], "run_points": 20, "runs_winner": 3, "bella": 0}
    row = result_from_summary("tarabish", summary, PAIRS, board=1, direction=0, entrant="a")
    other = result_from_summary("tarabish", summary, PAIRS, board=1, direction=1,
                                entrant="b")
    score = score_event([row, other], 1, "imps")
    lines = traveller_lines(score.travellers[0], score.method)
    assert lines[2] == ("  a: ♠ spades, called by the other side; hand 0 – 182; points "
                        "80 – 102; runs 20 to the other side; bella to your side; alone in "
                        "its direction, 50.00%, 0 IMPs")
    assert "hand 182 – 0; points 102 – 80; runs 20 to your side; bella to the other side" \
        in lines[4]


def test_individual_games_show_the_others_scores() -> None:
    sides = [[0], [1], [2], [3]]
    row = result_from_summary("truf", {"points": [-4, 16, -3, -3]}, sides, board=1,
                              direction=1, entrant="di")
    score = score_event([row], 1)
    line = traveller_lines(score.travellers[0], score.method)[2]
    assert line.startswith("  di: points 16 (the others: -4, -3, -3); ")
