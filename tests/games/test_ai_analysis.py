"""The analysis of a deal from one seat's view (:mod:`games.ai.analysis`).

Positions (``tests/games/data/analysis_positions.json``, found by
``bench/analysis_positions.py`` in seeded deals of ``rules`` players and kept as records):
each is a card decision in the second half of a deal where, played out in the real deal
with every hand in view, one legal card (``good``) wins at least the game's mistake
threshold more than another (``bad``) — the values in the real deal are in the file
(``real_good``, ``real_bad``, in the playout's units for the seat's side, ``docs/ai.md``):

* Albastini, seat 3 at action 20: 6♦ ends the deal at +98, A♣ at +36;
* Albastini, seat 3 at action 20: J♦ ends the deal at +94, 7♥ at +36;
* Albastini, seat 0 at action 21: A♣ ends the deal at +18, J♦ at -36;
* Albastini, seat 1 at action 21: A♥ ends the deal at +60, 4♦ at -32;
* Albastini, seat 2 at action 21: 7♥ ends the deal at +96, A♣ at +52;
* Albastini, seat 2 at action 22: 4♣ ends the deal at +102, K♥ at +74;
* Arba'a Turub, seat 2 at action 79: K♣ ends the deal at -7, J♣ at -11;
* Arba'a Turub, seat 0 at action 101: K♥ ends the deal at +0, J♥ at -9;
* Arba'a Turub, seat 3 at action 118: 10♦ ends the deal at +11, K♥ at +7;
* Tarabish, seat 3 at action 23: K♦ ends the deal at +202, 10♦ at -22;
* Tarabish, seat 2 at action 24: 6♥ ends the deal at +142, A♥ at +60;
* Tarabish, seat 0 at action 35: 8♦ ends the deal at +232, 9♦ at +126;
* Truf, seat 1 at action 30: 8♥ ends the deal at +2, 2♦ at +0;
* Truf, seat 0 at action 35: 7♠ ends the deal at -1, 3♦ at -3;
* Truf, seat 1 at action 35: 7♥ ends the deal at -3, 5♠ at -7;
* Truf, seat 2 at action 39: 3♥ ends the deal at +2, 2♠ at +0;
* Turup, seat 3 at action 18: 7♠ ends the deal at +3.4, K♦ at +1.6;
* Turup, seat 0 at action 26: 7♥ ends the deal at +1.6, K♠ at -2.2;
* Turup, seat 0 at action 26: 8♦ ends the deal at +1.6, Q♣ at -2.2;
* Turup, seat 0 at action 31: J♣ ends the deal at +1.6, K♠ at -1.6.

From the seat's view alone the analysis must name
the winning card best and label the losing one a mistake or a blunder, and label the
winning card ``best`` when it is the card played.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from games.actions import Action, action_from_json
from games.ai.analysis import (
    ANALYSIS_WORLDS,
    THRESHOLDS,
    accuracy_of,
    analyse_deal,
    label_for,
)
from games.ai.players import DEFAULT_WORLDS
from games.records import open_match

POSITIONS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "analysis_positions.json").read_text())


def _with_card(pos: dict[str, Any], c: str) -> dict[str, Any]:
    record = copy.deepcopy(pos["record"])
    record["deals"][0]["actions"][-1]["card"] = c
    return record


def test_every_game_has_positions() -> None:
    assert {p["game"] for p in POSITIONS} >= {"turup", "tarabish", "albastini", "arbaa_turub"}


@pytest.mark.parametrize("pos", POSITIONS,
                         ids=[f"{p['game']}-{p['seat']}-{p['index']}" for p in POSITIONS])
def test_losing_card_is_labelled_and_winning_card_is_best(pos: dict[str, Any]) -> None:
    bad = analyse_deal(pos["record"], pos["seat"], only={pos["index"]})
    (d,) = bad.decisions
    assert d.made.action.card == pos["bad"]
    assert d.best.action.card == pos["good"]
    assert d.label in ("mistake", "blunder")
    assert d.loss >= THRESHOLDS[pos["game"]][1]
    assert d.worlds == ANALYSIS_WORLDS[pos["game"]]
    good = analyse_deal(_with_card(pos, pos["good"]), pos["seat"], only={pos["index"]})
    (g,) = good.decisions
    assert g.label == "best" and g.loss == 0.0 and good.accuracy == 100.0
    assert g.choices == d.choices  # the same view, the same values


def test_labels_and_accuracy() -> None:
    inacc, mistake, blunder = THRESHOLDS["turup"]
    assert label_for("turup", 0.0) == "best"
    assert label_for("turup", inacc / 2) == "good"
    assert label_for("turup", inacc) == "inaccuracy"
    assert label_for("turup", mistake) == "mistake"
    assert label_for("turup", blunder * 3) == "blunder"
    assert accuracy_of("turup", []) is None
    assert accuracy_of("turup", [0.0, blunder]) == 50.0
    assert all(ANALYSIS_WORLDS[g] > n for g, n in DEFAULT_WORLDS.items())


def _record(game: str) -> dict[str, Any]:
    pos = next(p for p in POSITIONS if p["game"] == game)
    return copy.deepcopy(pos["record"]), pos["seat"]


GAMES = sorted({p["game"] for p in POSITIONS})


@pytest.mark.parametrize("game", GAMES)
def test_same_record_same_analysis(game: str) -> None:
    record, seat = _record(game)
    first = analyse_deal(record, seat, worlds=12, seed=5)
    assert first.decisions
    assert analyse_deal(record, seat, worlds=12, seed=5) == first
    for d in first.decisions:
        assert d.best.mean >= d.made.mean and d.choices[0] == d.best


def _views(record: dict[str, Any], seat: int) -> list[Any]:
    match = open_match(record)
    deal_obj = record["deals"][0]
    deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra", {}), deal_obj["dealer"])
    out = []
    for raw in deal_obj["actions"]:
        who, action = action_from_json(raw, "test")
        if who == seat:
            out.append((deal.view(seat), deal.legal_actions(seat)))
        deal.apply(who, action)
    out.append(deal.view(seat))
    return out


def _swapped(record: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record with two unplayed cards of one suit swapped between two other seats,
    checked to leave every view of ``seat`` unchanged."""
    deal_obj = record["deals"][0]
    hands = deal_obj["hands"]
    left = [Counter(h) for h in hands]  # the cards each seat has not played yet
    for raw in deal_obj["actions"]:
        if raw.get("card") and raw["type"] == "play":
            left[raw["seat"]][raw["card"]] -= 1
    views = _views(record, seat)
    others = [s for s in range(len(hands)) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in sorted(+left[a]):
                for y in sorted(+left[b]):
                    if x[-1] != y[-1] or x == y:
                        continue
                    new = copy.deepcopy(record)
                    h = new["deals"][0]["hands"]
                    h[a][h[a].index(x)] = y
                    h[b][h[b].index(y)] = x
                    try:
                        if _views(new, seat) == views:
                            return new
                    except Exception:  # an inconsistent swap (a card refused): try another
                        continue
    raise AssertionError("no consistent swap of hidden cards")


@pytest.mark.parametrize("game", GAMES)
def test_analysis_never_depends_on_hidden_cards(game: str) -> None:
    record, seat = _record(game)
    other = _swapped(record, seat)
    assert other["deals"][0]["hands"] != record["deals"][0]["hands"]
    assert analyse_deal(other, seat, worlds=12, seed=3) == analyse_deal(record, seat,
                                                                         worlds=12, seed=3)


def test_made_choice_with_a_signal_shares_its_card_value() -> None:
    from games.ai.analysis import _value_key

    assert _value_key(Action.play("AS", signal="strong")) == Action.play("AS")
