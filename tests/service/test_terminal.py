"""``tricktable play --plain`` driven through its standard input (in-process, fake
streams), and the ``play`` arguments' refusals."""

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
    status = main([*args, "--pace", "0", "--forced-pause", "0", "--name", "Ann",
                   "--database", f"sqlite:///{db}"], io.StringIO(answers), out)
    return status, out.getvalue()


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.mark.parametrize("game", list(GAMES))
def test_one_deal_then_end_of_input_then_resume(game: str, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    status, out = play([game, "--seed", "4"], "1\n" * 60, db)
    assert status == 0, out
    assert "--- Deal 1 ---" in out
    assert "In your hand:" in out and "Choices:" in out
    assert "'" not in out.split("In your hand:")[1].split("\n")[0]  # no raw reprs
    if "=== Match over ===" in out:  # pragma: no cover - a short match
        assert "Record saved:" in out
        return
    assert f"Continue it with `tricktable play {game} --resume`" in out
    status, more = play([game, "--resume"], "q\n", db)
    assert status == 0 and "Resuming" in more and "Game saved" in more
    last_prompt = out[out.rindex("In your hand:"):]
    first_prompt = more[more.index("In your hand:"):]
    assert first_prompt.splitlines()[:2] == last_prompt.splitlines()[:2]


@pytest.mark.parametrize(("game", "players"), [("turup", None), ("albastini", "3")])
def test_whole_match_saves_a_record_that_replays(game: str, players: str | None,
                                                 tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    extra = ["--players", players] if players else []
    status, out = play([game, "--seed", "2", *extra], "1\n" * 8, db)
    assert status == 0
    record_path = tmp_path / "match.json"
    status, out = play([game, "--resume", "--record", str(record_path)], "1\n" * 3000, db)
    assert status == 0, out[-2000:]
    assert "=== Match over ===" in out and f"Record saved: {record_path}" in out
    record = json.loads(record_path.read_text(encoding="utf-8"))
    result, code = replay(record)
    assert code == 0 and result["match"]["over"] is True
    status, out = play([game, "--resume"], "", db)
    assert status == 2 and "no interrupted" in out


def test_records_go_to_the_data_folder_by_default(tmp_path: Path) -> None:
    status, out = play(["turup", "--seed", "5", "--options", '{"target": 1}'], "1\n" * 400,
                       tmp_path / "t.db")
    assert status == 0 and "=== Match over ===" in out
    records = list((tmp_path / "data" / "tricktable" / "records").glob("*.json"))
    assert len(records) == 1 and str(records[0]) in out
    assert not list(tmp_path.glob("tricktable-*.json"))


def test_bad_input_gets_a_reason_and_a_new_prompt(tmp_path: Path) -> None:
    status, out = play(["turup", "--seed", "1"], "x\n0\n99\n\nzz\nh\n1\n",
                       tmp_path / "t.db")
    assert status == 0
    assert out.count("Type a number from 1 to") == 5
    assert "There is no choice 99." in out and "not a card or a choice" in out


def test_refused_card_gives_the_engines_reason(tmp_path: Path) -> None:
    import re

    # Find a prompt where a held card is not among the choices, and type it.
    for seed in range(1, 12):
        db = tmp_path / f"s{seed}.db"
        _, out = play(["turup", "--seed", str(seed)], "q\n", db)
        hand = re.search(r"In your hand: (.*)", out)
        choices = re.search(r"Choices: (.*)", out)
        assert hand and choices
        held = hand.group(1).replace("|", " ").split()
        legal = re.findall(r"\d+ (\S+)", choices.group(1))
        illegal = [c for c in held if c not in legal]
        if illegal:
            _status, out = play(["turup", "--seed", str(seed), "--new"],
                               f"{illegal[0]}\nq\n", db)
            assert "Not allowed: You must follow" in out or "Not allowed:" in out
            assert re.search(r"Not allowed: .*[♠♥♦♣]", out)
            assert not re.search(r"\b[2-9TJQKA][SHDC]\b", out.split("Not allowed:")[1]
                                 .splitlines()[0])
            return
    pytest.skip("no deal with a refused card in the first seeds")


def test_choice_by_card_and_signal_words(tmp_path: Path) -> None:
    import re

    status, out = play(["turup", "--seed", "3"], "q\n", tmp_path / "a.db")
    choices = re.search(r"Choices: (.*)", out)
    assert choices
    card = re.findall(r"\d+ (\S+)", choices.group(1))[-1]
    typed = card.replace("♠", "s").replace("♥", "h").replace("♦", "d").replace("♣", "c")
    status, out = play(["turup", "--seed", "3", "--new"], f"{typed.lower()}\nq\n",
                       tmp_path / "a.db")
    assert status == 0 and "Type a number" not in out
    assert re.search(rf"Ann (led|played) {re.escape(card)}", out)


def test_options_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "t.db"
    assert play(["chess"], "", db)[0] == 2
    status, out = play(["turup", "--options", "{bad"], "", db)
    assert status == 2 and "not valid JSON" in out
    status, out = play(["turup", "--options", '{"target": ' + "9" * 5000 + "}"], "", db)
    assert status == 2 and len(out.splitlines()) == 1
    status, out = play(["turup", "--options", '{"no_such_option": 1}'], "", db)
    assert status == 2 and "Cannot start the match" in out
    status, out = play(["turup", "--seat", "7"], "", db)
    assert status == 2 and "--seat" in out
    status, out = play(["turup", "--ai", "genius"], "", db)
    assert status == 2 and out.strip() == "tricktable play: --ai must be one of " \
        "random, rules, search"
    status, out = play(["turup", "--resume"], "", db)
    assert status == 2 and "no interrupted Turup match" in out
    assert play(["Turup"], "", db)[0] == 0  # starts, and end of input saves it
    status, out = play(["turup"], "", db)
    assert status == 2 and "--resume" in out and "--new" in out
    status, out = play(["turup", "--resume", "--seed", "3"], "", db)
    assert status == 2 and "cannot change a match in progress" in out
    status, out = play(["turup", "--new", "--seat", "2"], "q\n", db)
    assert status == 0 and "you play with" in out


@pytest.mark.parametrize("argv", [["turup", "--pace", "-1"], ["turup", "--pace", "nan"],
                                  ["turup", "--ai", "genius"],
                                  ["turup", "--options", "9" * 5000],
                                  ["turup", "--seed", "9" * 5000],
                                  ["turup", "--forced-pause", "-3"]])
def test_cli_refuses_bad_play_arguments_in_one_line(argv: list[str],
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    from bot.cli import main as cli_main

    assert cli_main(["play", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tricktable play: ") and len(err.strip().splitlines()) == 1


def test_game_names_in_any_case_and_with_hyphens(tmp_path: Path) -> None:
    status, out = play(["Arbaa-Turub"], "q\n", tmp_path / "t.db")
    assert status == 0 and "Arba'a Turub: you play with" in out


def test_resume_says_which_settings_it_uses(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert play(["turup", "--ai", "random"], "", db)[0] == 0
    _status, out = play(["turup", "--resume"], "q\n", db)
    assert "stored settings (AI random, pace 0 s" in out and "changed:" not in out
    out_io = io.StringIO()
    main(["turup", "--resume", "--ai", "rules", "--pace", "0", "--database",
          f"sqlite:///{db}"], io.StringIO("q\n"), out_io)
    assert "changed: AI level rules (--ai)" in out_io.getvalue()


def test_help_shows_the_default_database_in_the_data_folder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from bot.cli import main as cli_main

    with pytest.raises(SystemExit):
        cli_main(["play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert str(tmp_path / "data" / "tricktable" / "tricktable.db") in text.replace(" ", "") \
        or "tricktable.db" in text


def test_real_process_end_of_input(tmp_path: Path) -> None:
    """``python -m bot.terminal`` with a closed pipe as input: saved, exit status 0."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "bot.terminal", "albastini", "--players", "2", "--pace", "0",
         "--database", f"sqlite:///{tmp_path / 'p.db'}"],
        input="1\n1\n", capture_output=True, text=True, timeout=60, cwd=root,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert done.returncode == 0, done.stderr
    assert "Game saved" in done.stdout and "--resume" in done.stdout
    assert done.stderr == ""
