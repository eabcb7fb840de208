"""``tricktable simulate``: duplicate deals, the JSON result, records that replay."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bot.simulate import SimConfig, add_parser, mean_ci, play_board, wilson
from games.ai import Budget
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
    assert "albastini: 1 deals on duplicate, 3 plays (3 players)" in out
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
