"""Two rule readings settled in docs/rules (the engine already behaves so), each shown by a
record that follows the sentence to the letter, replayed as ``tricktable replay`` does.

* Tarabish §7: "If K-Q of trumps are part of a declared run that is shown (the winning
  side's runs, section 6), bella counts as announced when the run is shown: no action is
  needed, it still scores separately (run + 20). A later call with the second card (or the
  first, with ``bella_call_on_first``) is still accepted and changes nothing; bella counts
  once."
* Truf §9: "the option belongs to the 3-player game: a 4-player record naming ``"S"`` is
  invalid".
"""

from __future__ import annotations

import copy
from typing import Any

from games.actions import Action
from games.records import replay
from games.registry import GAMES
from games.tarabish import TarabishDeal, TarabishMatch

HOLDER = ["JH", "9H", "AH", "TH", "KH", "QH", "6S", "6D", "6C"]
"""Seat 0: the six top trumps (a fifty holding K-Q) and three sixes."""


def _hands() -> list[list[str]]:
    rest = [r + s for s in "SHDC" for r in "AKQJT9876" if r + s not in HOLDER]
    return [HOLDER, rest[0:9], rest[9:18], rest[18:27]]


def _bella_in_the_shown_run() -> dict[str, Any]:
    """A Tarabish record: seat 0 calls hearts, declares its run (which holds K♥ Q♥), wins
    the runs at the end of trick 1 and never calls bella; everyone plays the first legal
    card."""
    deal = TarabishMatch({}, None, 3, seed=1).start_deal(_hands())
    assert isinstance(deal, TarabishDeal)
    deal.apply(0, Action.call_trump("H"))
    deal.apply(0, Action("declare_runs"))
    while not deal.is_over:
        seat = deal.turn
        action = next(a for a in deal.legal_actions(seat) if a.type == "play" and not a.bella)
        deal.apply(seat, action)
    return {"game": "tarabish", "options": {}, **deal.record()} | {
        "players": 4, "dealer": 3}


def _summary(record: dict[str, Any]) -> dict[str, Any]:
    out, status = replay(record)
    assert status == 0, out
    summary: dict[str, Any] = out["deals"][0]
    return summary


def test_tarabish_bella_inside_the_shown_run_counts_without_a_call() -> None:
    record = _bella_in_the_shown_run()
    actions = record["deals"][0]["actions"] if "deals" in record else record["actions"]
    assert not any(a.get("bella") for a in actions)  # nobody called bella
    summary = _summary(record)
    assert summary["runs_winner"] == 0 and summary["run_points"] == 50
    assert summary["bella"] == 0
    assert summary["hand_total"] == 162 + 50 + 20


def test_tarabish_a_later_bella_call_is_accepted_and_changes_nothing() -> None:
    record = _bella_in_the_shown_run()
    called = copy.deepcopy(record)
    actions = called["deals"][0]["actions"] if "deals" in called else called["actions"]
    plays = [a for a in actions if a.get("type") == "play" and a.get("seat") == 0
             and a.get("card") in ("KH", "QH")]
    plays[-1]["bella"] = True  # the holder calls with the second of the two
    assert _summary(called) == _summary(record)


def test_truf_removed_suit_belongs_to_the_three_player_game() -> None:
    four = GAMES["truf"].match_type(None, 4, 0, seed=1).start_deal().dealt_hands()
    out, status = replay({"game": "truf", "options": {"removed_suit": "S"}, "dealer": 0,
                          "hands": four})
    assert status == 2 and "removed_suit" in out["error"] and "3-player" in out["error"]
    assert replay({"game": "truf", "dealer": 0, "hands": four})[1] == 0
    three = GAMES["truf"].match_type({"removed_suit": "S"}, 3, 0, seed=1).start_deal()
    out, status = replay({"game": "truf", "options": {"removed_suit": "S"}, "players": 3,
                          "dealer": 0, "hands": three.dealt_hands()})
    assert status == 0 and out["ok"]
