"""``tricktable play`` driven through its standard input (in-process, fake streams)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.terminal import main
from games.records import replay
from games.registry import GAMES


def play(args: list[str], answers: str, db: Path) -> tuple[int, str]:
    out = io.StringIO()
    status = main([*args, "--pace", "0", "--database", f"sqlite:///{db}"],
                  io.StringIO(answers), out)
    return status, out.getvalue()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # records are written to the working directory


ANSWERS = {"arbaa_turub": 45, "turup": 14, "tarabish": 12, "albastini": 22, "truf": 16}


@pytest.mark.parametrize("game", list(GAMES))
def test_one_deal_then_end_of_input_then_resume(game: str, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    status, out = play([game, "--seed", "4"], "1\n" * ANSWERS[game], db)
    assert status == 0, out
    assert "--- Deal 1 result ---" in out
    assert "Your hand:" in out and "Your choices:" in out
    assert "match totals:" in out
    if "=== Match over ===" in out:  # pragma: no cover - a short match (concessions)
        assert "Record saved:" in out
        return
    assert f"Continue it with `tricktable play {game} --resume`" in out
    # Resuming continues where the game stopped (the first prompt is the interrupted one).
    status, more = play([game, "--resume"], "q\n", db)
    assert status == 0 and "Resuming" in more and "Game saved" in more
    last_prompt = out[out.rindex("Your choices:"):]
    first_prompt = more[more.index("Your choices:"):]
    assert first_prompt.splitlines()[:3] == last_prompt.splitlines()[:3]


@pytest.mark.parametrize(("game", "players"), [("turup", None), ("albastini", "3")])
def test_whole_match_saves_a_record_that_replays(game: str, players: str | None,
                                                 tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    extra = ["--players", players] if players else []
    status, out = play([game, "--seed", "2", *extra], "1\n" * 40, db)
    assert status == 0
    record_path = tmp_path / "match.json"
    status, out = play([game, "--resume", "--record", str(record_path)], "1\n" * 3000, db)
    assert status == 0, out[-2000:]
    assert "=== Match over ===" in out and f"Record saved: {record_path}" in out
    record = json.loads(record_path.read_text(encoding="utf-8"))
    result, code = replay(record)
    assert code == 0 and result["match"]["over"] is True
    # The game is finished: nothing is left to resume.
    status, out = play([game, "--resume"], "", db)
    assert status == 2 and "no interrupted" in out


def test_bad_input_gets_a_message_and_a_new_prompt(tmp_path: Path) -> None:
    status, out = play(["turup", "--seed", "1"], "x\n0\n99\n\nplay ZZ\nh\n1\n", tmp_path / "t.db")
    assert status == 0
    assert out.count("is not one of the choices") == 5
    assert out.count("Choose 1-") >= 7
    assert "Trick 1:" in out


def test_choice_by_name_or_card(tmp_path: Path) -> None:
    import re

    status, out = play(["turup", "--seed", "3"], "q\n", tmp_path / "a.db")
    choices = re.findall(r"^\s+\d+\) (play (\w\w))$", out, re.M)
    assert len(choices) >= 2
    label, card = choices[-1]
    for answer, db in ((label, "b.db"), (card.lower(), "c.db")):
        status, out = play(["turup", "--seed", "3"], f"{answer}\nq\n", tmp_path / db)
        assert status == 0 and "not one of the choices" not in out
        assert re.search(rf"Trick 1: .*You {card}", out)


def test_options_and_errors(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert play(["chess"], "", db)[0] == 2
    status, out = play(["turup", "--options", "{bad"], "", db)
    assert status == 2 and "not valid JSON" in out
    status, out = play(["turup", "--options", '{"no_such_option": 1}'], "", db)
    assert status == 2 and "Cannot start the game" in out
    status, out = play(["turup", "--seat", "7"], "", db)
    assert status == 2 and "--seat" in out
    status, out = play(["turup", "--resume"], "", db)
    assert status == 2 and "no interrupted turup game" in out
    assert play(["turup"], "", db)[0] == 0  # starts, and end of input saves it
    status, out = play(["turup"], "", db)
    assert status == 2 and "--resume" in out and "--new" in out
    status, out = play(["turup", "--new", "--seat", "2"], "", db)
    assert status == 0 and "you are seat 2" in out


def test_game_options_reach_the_table(tmp_path: Path) -> None:
    record_path = tmp_path / "short.json"
    status, out = play(["turup", "--seed", "5", "--options",
                        '{"target": 1, "signals_enabled": false}', "--record",
                        str(record_path)], "1\n" * 400, tmp_path / "t.db")
    assert status == 0 and "=== Match over ===" in out
    assert "(strong)" not in out and "(weak)" not in out
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["options"] == {"target": 1, "signals_enabled": False}
    assert max(replay(record)[0]["match"]["totals"]) == 1


def test_real_process_end_of_input(tmp_path: Path) -> None:
    """``python -m bot.terminal`` with a closed pipe as input: saved, exit status 0."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "bot.terminal", "albastini", "--players", "2", "--pace", "0",
         "--database", f"sqlite:///{tmp_path / 'p.db'}"],
        input="1\n1\n", capture_output=True, text=True, timeout=60, cwd=root,
    )
    assert done.returncode == 0, done.stderr
    assert "Game saved" in done.stdout and "--resume" in done.stdout
    assert done.stderr == ""
