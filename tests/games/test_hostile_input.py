"""Rule clarifications of the records spec and hostile input (issue 18).

* ``docs/records.md``: a deal complete before a rejected action counts fully in ``match``
  (totals, ``over``, ``winner``, ``decided_after``, dealers, next hand number), in every game.
* ``docs/rules/README.md``: game names in any case and with a hyphen for the underscore.
* Hostile input: one short line (or a short JSON error) and exit status 2, never a traceback;
  the input is quoted at most as a short clipped piece.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from games.errors import OptionError, RecordError, quote
from games.records import load_json, replay, replay_text
from games.registry import GAMES, UnknownGame, game_id

ROOT = Path(__file__).resolve().parents[2]
HUGE = 5000
"""Digits of the hostile number."""


def played_match(game: str, deals: int, options: dict[str, Any] | None = None,
                 players: int | None = None, seed: int = 5) -> dict[str, Any]:
    """A record of ``deals`` deals of ``game`` played with random legal actions (never a
    concession)."""
    m = GAMES[game].match_type(options, players, 0, seed=seed)
    rng = random.Random(seed)
    for _ in range(deals):
        if m.over:
            break
        d = m.start_deal()
        while not d.is_over:
            seat = d.to_act[0]
            legal = [a for a in d.legal_actions(seat) if a.type != "concede"]
            d.apply(seat, rng.choice(legal))
        m.finish_deal()
    return m.record()


def one_more_action(record: dict[str, Any]) -> dict[str, Any]:
    """The record with one action after the last deal's end (always rejected)."""
    out = json.loads(json.dumps(record))
    out["deals"][-1].setdefault("actions", []).append({"seat": 0, "type": "pass"})
    return out


CASES = [
    ("arbaa_turub", None, None, 1),
    ("turup", None, None, 3),
    ("turup", {"target": 1}, None, 1),
    ("tarabish", None, None, 3),
    ("tarabish", {"target": 100}, None, 9),
    ("truf", None, None, 3),
    ("truf", {"deals": 2}, None, 2),
    ("truf", None, 3, 2),
    ("albastini", None, 2, 3),
    ("albastini", None, 4, 2),
]


@pytest.mark.parametrize(("game", "options", "players", "deals"), CASES)
def test_a_finished_deal_before_a_rejected_action_counts_in_match(game, options, players,
                                                                  deals):
    record = played_match(game, deals, options, players)
    clean, status = replay(record)
    assert status == 0, clean
    out, status = replay(one_more_action(record))
    assert status == 1 and out["illegal"]["deal"] == len(record["deals"]) - 1
    assert out["deals"] == clean["deals"]
    assert out["deals"][-1].get("hand_over", True) is True
    assert out["match"] == clean["match"]


def test_a_decided_match_shows_its_winner_before_the_rejected_action():
    record = played_match("turup", 1, {"target": 1})
    out, status = replay(one_more_action(record))
    assert status == 1
    assert out["match"]["over"] is True and out["match"]["decided_after"] == 0
    assert out["match"]["winner"] in (0, 1) and sum(out["match"]["totals"]) == 1


def test_a_deal_after_a_rejected_action_is_refused_naming_it():
    record = one_more_action(played_match("turup", 2))
    last = record["deals"][-1]
    record["deals"].append({"summary": {"tricks_by_team": [5, 1]}})
    out, status = replay(record)
    assert status == 2
    assert out["error"] == (f"deal 2: follows a rejected action (deal 1, action "
                            f"{len(last['actions']) - 1})")


def test_truf_next_hand_number_counts_the_finished_deal():
    record = played_match("truf", 1)
    out, status = replay(one_more_action(record))
    assert status == 1
    played = [d for d in out["deals"] if not d.get("redeal")]
    assert out["match"]["next_hand_number"] == len(played) + 1


# -- game names ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["arbaa_turub", "arbaa-turub", "Arbaa_Turub", "ARBAA-TURUB",
                                  " arbaa_turub "])
def test_game_names_in_any_case_and_with_a_hyphen(text):
    assert game_id(text) == "arbaa_turub"
    out, status = replay({"game": text, "dealer": 0,
                          "summary": {"tricks_by_team": [20, 16]}})
    assert status == 0 and out["match"]["totals"] == [1, 0]


@pytest.mark.parametrize("text", ["bridge", "arbaa turub", "arbaa__turub", "", None, 3,
                                  ["turup"], "x" * 2_000_000])
def test_unknown_game_names_are_refused_briefly(text):
    with pytest.raises(UnknownGame) as exc:
        game_id(text)
    assert len(str(exc.value)) < 150 and "turup" in str(exc.value)


def test_simulate_and_rules_accept_game_names_like_records(capsys):
    assert cli.main(["rules", "Arbaa-Turub"]) == 0
    assert "Arba'a Turub" in capsys.readouterr().out
    assert cli.main(["rules", "bridge"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game 'bridge'" in err


# -- quoting -------------------------------------------------------------------------------
def test_quote_never_grows_with_the_input():
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for value in ["x" * 2_000_000, 10 ** HUGE, deep, list(range(10 ** 6)),
                  {"k" * 10 ** 6: 1}, -(10 ** HUGE)]:
        assert len(quote(value)) <= 41
    assert quote("TS") == "'TS'" and quote(12) == "12" and quote(["a", 1]) == "['a', 1]"


# -- hostile records (the parser every path shares) ------------------------------------------
def hostile_texts() -> dict[str, str]:
    digits = "9" * HUGE
    return {
        "deep array": "[" * 100_000 + "]" * 100_000,
        "deep options": ('{"game": "turup", "dealer": 0, "hands": [], "options": '
                         + '{"a": ' * 50_000 + "1" + "}" * 50_000 + "}"),
        "long number": ('{"game": "turup", "dealer": 0, "hands": [], "options": {"target": '
                        + digits + "}}"),
        "long name": json.dumps({"game": "x" * 2_000_000, "dealer": 0, "hands": []}),
        "long option name": json.dumps({"game": "turup", "dealer": 0, "hands": [],
                                        "options": {"y" * 100_000: 1}}),
        "long signal": json.dumps({"game": "turup", "dealer": 0, "hands": [[]] * 4,
                                   "actions": [{"seat": 0, "type": "play", "card": "AS",
                                                "signal": "s" * 100_000}]}),
        "long action type": json.dumps({"game": "turup", "dealer": 0, "hands": [[]] * 4,
                                        "actions": [{"seat": 0, "type": "t" * 100_000}]}),
        "list action type": json.dumps({"game": "turup", "deals": [{
            "dealer": 0, "hands": [["AS"] * 9] * 4, "actions": [{"seat": 0, "type": []}]}]}),
    }


@pytest.mark.parametrize("kind", sorted(hostile_texts()))
def test_hostile_records_are_status_2_with_a_short_message(kind):
    out, status = replay_text(hostile_texts()[kind])
    assert status == 2 and out["ok"] is False
    assert len(out["error"]) < 200, out["error"][:300]


def test_a_huge_option_value_is_refused_by_the_options_parser():
    """``GameOptions.from_json`` serves records, ``/table new options:``, league setups and
    ``--options``: a 5,000-digit value (a Python int, past the JSON parser) is refused with
    a short message."""
    for info in GAMES.values():
        with pytest.raises(OptionError) as exc:
            info.options_type.from_json({"target": 10 ** HUGE} if info.name != "truf"
                                        else {"deals": 10 ** HUGE})
        assert len(str(exc.value)) < 200
        with pytest.raises(OptionError) as exc:
            info.options_type.from_json({"z" * 100_000: 1})
        assert len(str(exc.value)) < 400


def test_load_json_refuses_each_hostile_text_as_a_record_error():
    for text in hostile_texts().values():
        try:
            load_json(text)
        except RecordError as exc:
            assert len(str(exc)) < 100
    with pytest.raises(RecordError, match="nested too deeply"):
        load_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="number too long"):
        load_json("9" * HUGE)


def test_a_league_report_file_goes_through_the_same_checks():
    """``/league report`` files are read by ``bot.leagues`` with the record replay: a hostile
    game name or option comes back as the replay's short refusal."""
    from bot.leagues.reports import _replay_problem

    for text in hostile_texts().values():
        try:
            record = load_json(text)
        except RecordError:
            continue
        out, status = replay(record)
        assert status == 2
        assert len(_replay_problem(out)) < 250


# -- the command line ----------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(hostile_texts()))
def test_cli_replay_of_hostile_files_is_one_short_line_and_status_2(kind, tmp_path, capsys):
    path = tmp_path / "hostile.json"
    path.write_text(hostile_texts()[kind])
    assert cli.main(["replay", "--compact", str(path)]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and len(out) < 250
    assert json.loads(out)["ok"] is False


def test_cli_replay_into_a_closed_pipe_has_no_traceback():
    """``tricktable replay FILE | head``: the reader stops early; no BrokenPipeError."""
    example = ROOT / "examples" / "truf-game.json"
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "replay", str(example)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `head -1`
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert code == cli.BROKEN_PIPE


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_simulate_refuses_zero_deals_and_bad_names_and_options(capsys):
    base = ["simulate", "turup", "--players", "random,random"]
    assert cli.main([*base, "--deals", "0"]) == 2
    assert "at least one deal" in capsys.readouterr().err
    assert cli.main([*base, "--deals", "1", "--options",
                     '{"target": ' + "9" * HUGE + "}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200
    assert cli.main(["simulate", "x" * 100_000, "--players", "random,random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 200
    assert cli.main([*base, "--deals", "1", "--options", "[" * 100_000]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_simulate_accepts_a_hyphenated_game_name():
    res = run_cli("simulate", "Arbaa-Turub", "--players", "random,random", "--deals", "1",
                  "--budget-ms", "0", "--samples", "1", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["game"] == "arbaa_turub"
