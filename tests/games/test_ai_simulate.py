"""``tricktable simulate``: duplicate deals, the JSON result, records that replay."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.simulate import (
    PlayResult,
    SimConfig,
    add_parser,
    board_totals,
    matchpoints,
    mean_ci,
    play_board,
    summarize,
    wilson,
)
from games.ai import Budget
from games.ai.results import side_tiebreaks
from games.records import replay


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="tricktable")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["simulate", *argv])
    status = args.handler(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_json_result_and_records_replay(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "recs"
    status, out, _ = run_cli(["turup", "--deals", "3", "--players", "search,random",
                                "--budget-ms", "0", "--samples", "2", "--seed", "7",
                                "--records", str(records), "--json"], capsys)
    assert status == 0
    result = json.loads(out)  # one JSON object, nothing else on stdout
    assert result["game"] == "turup" and result["deals"] == 3 and result["plays"] == 6
    assert result["players"] == ["search", "random"]
    assert len(result["win_rate"]) == 2 and len(result["ci95"]) == 2
    for lo, hi in result["ci95"]:
        assert 0.0 <= lo <= hi <= 1.0
    assert sum(result["win_rate"]) <= 1.0 + 1e-9  # Turup always has a winner: = 1
    assert abs(sum(result["win_rate"]) - 1.0) < 1e-9
    assert set(result["move_ms"]) == {"p50", "p95", "max"}
    assert isinstance(result["mean_score_diff"], float)
    assert abs(sum(result["duplicate_score"]) - 1.0) < 1e-9  # matchpoints: 1 per deal
    assert len(result["duplicate_ci95"]) == 2 and len(result["boards_won"]) == 2
    files = sorted(records.iterdir())
    assert len(files) == 6  # every deal played twice, sides swapped
    for f in files:
        out_obj, code = replay(json.loads(f.read_text()))
        assert code == 0 and out_obj["deals"][0]["hand_over"]


def test_duplicate_plays_use_the_same_cards_with_sides_swapped() -> None:
    cfg = SimConfig(game="arbaa_turub", levels=("rules", "random"), boards=1,
                    budget=Budget.samples(1), seed=3)
    a, b = play_board(cfg, 0)
    assert (a.rotation, b.rotation) == (0, 1)
    # scores are reported per player entry: rules' tricks first in both plays
    assert a.scores[0] + a.scores[1] == 36 == b.scores[0] + b.scores[1]


def test_individual_game_reports_mean_score_and_rank(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["truf", "--deals", "1", "--players",
                              "rules,random,random,random", "--budget-ms", "0",
                              "--samples", "1", "--json"], capsys)
    assert status == 0
    result = json.loads(out)
    assert result["plays"] == 4  # four rotations of one deal
    assert sorted(result["rank"]) == [1, 2, 3, 4]
    assert len(result["mean_score"]) == 4 and len(result["mean_score_diff"]) == 4


def test_albastini_player_count_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["albastini", "--players-count", "3", "--deals", "1",
                                "--players", "rules,random,random", "--budget-ms", "0",
                                "--samples", "1"], capsys)
    assert status == 0
    assert "albastini: 1 deal on duplicate, 3 plays (3 players)" in out
    assert "rules" in out and err == ""  # no progress bar when stderr is not a terminal


def test_matches_mode(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["turup", "--matches", "1", "--players", "rules,random",
                              "--options", '{"target": 2}', "--json"], capsys)
    assert status == 0
    result = json.loads(out)
    assert result["mode"] == "matches" and result["matches"] == 1 and result["plays"] == 2
    assert result["deals"] >= 4  # two matches to 2 game points: at least two deals each


@pytest.mark.parametrize(("argv", "message"), [
    (["turup", "--players", "search,random,rules"], "give one player level per team"),
    (["truf", "--players", "search,random"], "give one player level per seat"),
    (["turup", "--players", "genius,random"], "unknown player level"),
    (["nosuchgame", "--players", "random,random"], "unknown game"),
    (["turup", "--players", "rules,random", "--options", "[1]"], "must be a JSON object"),
    (["turup", "--players", "rules,random", "--options", '{"nope": 1}'], "unknown option"),
    (["turup", "--players", "rules,random", "--budget-ms", "0"], "needs a time limit"),
])
def test_bad_configurations_exit_2(argv: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(argv, capsys)
    assert status == 2 and out == "" and message in err


def test_statistics_helpers() -> None:
    lo, hi = wilson(45, 50)
    assert 0.0 <= lo < 0.9 < hi <= 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    m, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert m == 2.0 and lo < 2.0 < hi


def test_matchpoints_score_a_board_like_duplicate_bridge() -> None:
    assert matchpoints([(2.0, 0.0), (1.0, 0.0)]) == [1.0, 0.0]
    assert matchpoints([(1.0, 8.0), (1.0, 8.0)]) == [0.5, 0.5]
    assert matchpoints([(1.0, 9.0), (1.0, 8.0)]) == [1.0, 0.0]  # the tiebreak decides
    # four entries: better than two, tied with one -> (2 + 0.5) / 3
    assert matchpoints([(5.0, 0.0), (1.0, 0.0), (5.0, 0.0), (0.0, 0.0)])[0] == 2.5 / 3


def _play(board: int, rot: int, scores: list[float], tb: list[float]) -> PlayResult:
    winner = 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else None
    return PlayResult(board, rot, scores, winner, {}, 1, tb)


def test_duplicate_score_cancels_the_luck_of_the_cards() -> None:
    """Each side wins the play in which it holds the strong cards, but the first entry wins
    by more tricks: it wins the board, though the plays are split."""
    cfg = SimConfig(game="turup", levels=("search", "random"), boards=2,
                    budget=Budget.samples(1))
    plays = [_play(0, 0, [1.0, 0.0], [5.0, 0.0]), _play(0, 1, [0.0, 1.0], [3.0, 5.0]),
             _play(1, 0, [1.0, 0.0], [5.0, 4.0]), _play(1, 1, [0.0, 1.0], [4.0, 5.0])]
    assert board_totals(plays[:2], 2) == [(1.0, 8.0), (1.0, 5.0)]
    result = summarize(cfg, plays)
    assert result["win_rate"] == [0.5, 0.5]
    assert result["duplicate_score"] == [0.75, 0.25]  # board 0 won, board 1 tied
    assert result["boards_won"] == [0.5, 0.0]


def test_side_tiebreaks() -> None:
    teams = [(0, 2), (1, 3)]
    assert side_tiebreaks("turup", {"tricks_by_team": [5, 2]}, teams) == [5.0, 2.0]
    assert side_tiebreaks("tarabish", {"raw_points_by_team": [120, 42]}, teams) == [120, 42]
    assert side_tiebreaks("albastini", {"points_by_side": [70, 50]}, teams) == [0.0, 0.0]
