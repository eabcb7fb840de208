"""The search player's fitted Tarabish trump call (games/ai/tarabish_bids.py) and the
script that fits it (bench/fit_tarabish_bids.py)."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from games.actions import Action
from games.ai import Budget, make_player
from games.ai.tarabish import TarabishAI, auction_rule
from games.ai.tarabish_bids import (
    FEATURE_NAMES,
    WEIGHTS,
    auction_context,
    call_advantage,
    features,
    learned_call,
)
from games.cards import SUITS, card
from games.registry import GAMES
from games.tarabish import TarabishDeal


def _cards(*names: str) -> list[int]:
    return [card(n) for n in names]


def _fit_script() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "fit_tarabish_bids.py"
    spec = importlib.util.spec_from_file_location("fit_tarabish_bids", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_feature_has_a_fitted_weight() -> None:
    assert len(WEIGHTS) == len(FEATURE_NAMES)
    x = features(_cards("JH", "9H", "AH", "AS", "TS", "6D"), 1, 1)
    assert len(x) == len(FEATURE_NAMES)
    named = dict(zip(FEATURE_NAMES, x, strict=True))
    assert named["trump J"] == named["trump 9"] == named["trump A"] == 1.0
    assert named["3 trumps"] == 1.0 and named["trump J and 9"] == 1.0
    assert named["side aces"] == 1.0 and named["side tens with their ace"] == 1.0
    assert named["void side suits"] == 1.0 and named["singleton side suits"] == 1.0
    assert named["context 1"] == 1.0 and named["context 1 × trumps"] == 3.0


def test_strong_trumps_are_called_and_a_weak_hand_passes() -> None:
    strong = _cards("JH", "9H", "AH", "TH", "AS", "7D")
    assert learned_call(strong, auction_context(0, False), forced=False) == 1  # hearts
    weak = _cards("6C", "7D", "8H", "6S", "7S", "KD")
    assert learned_call(weak, auction_context(0, False), forced=False) == -1
    forced = learned_call(weak, auction_context(3, False), forced=True)
    assert forced in range(4)
    assert call_advantage(strong, 1, 0) > call_advantage(strong, 0, 0)


def _first_bids(tag: str, count: int) -> Iterator[tuple[int, TarabishDeal, Any, list[Action]]]:
    """The eldest hand's first auction decision in ``count`` new deals."""
    for k in range(count):
        deal = GAMES["tarabish"].match_type({}, 4, k % 4, seed=f"{tag}:{k}").start_deal()
        assert isinstance(deal, TarabishDeal)
        seat = deal.bidder
        yield k, deal, deal.view(seat), deal.legal_actions(seat)


def test_the_search_player_calls_as_the_fitted_evaluator_says() -> None:
    differs = 0
    for k, _, view, legal in _first_bids("bids", 40):
        chosen = make_player("search", seed=k).choose(view, legal, Budget.samples(8))
        cards = [card(c) for c in view["hand"]]
        suit = learned_call(cards, auction_context(0, False), forced=False)
        assert chosen == TarabishAI.fitted_call(view, legal, {})
        assert chosen == (Action.pass_() if suit < 0 else Action.call_trump(SUITS[suit]))
        differs += suit != auction_rule(cards, False)
    assert differs  # not the rule under another name


def test_the_fit_solves_its_normal_equations() -> None:
    fit = _fit_script()
    a = [[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]
    x = [1.5, -2.0, 0.25]
    b = [sum(r * v for r, v in zip(row, x, strict=True)) for row in a]
    assert fit.solve(a, b) == pytest.approx(x)


def test_the_fit_recovers_weights_that_made_the_values() -> None:
    fit = _fit_script()
    rng = random.Random(5)
    truth = [rng.uniform(-20, 20) for _ in FEATURE_NAMES]
    rows = []
    for _ in range(3000):
        cards = rng.sample([s * 13 + r for s in range(4) for r in range(4, 13)], 6)
        context = rng.choice([0, 1, 2, 4, 5, 6, 7])
        passed = rng.uniform(-50, 50)
        values = [passed] + [passed + sum(w * v for w, v in zip(
            truth, features(cards, s, context), strict=True)) for s in range(4)]
        rows.append((cards, context, False, values))
    got = fit.fit(rows)
    # Some features are sums of others (the trump ranks held add up to the trump count),
    # so the weights themselves are not unique; what they predict is.
    for cards, context, _, values in rows[:300]:
        for s in range(4):
            assert call_advantage(cards, s, context, got) == pytest.approx(
                values[s + 1] - values[0], abs=0.5)


def test_the_fitted_call_is_valued_against_the_rule_in_the_same_deal() -> None:
    fit = _fit_script()
    rows = fit.decisions("unit", 0, 30)
    assert rows and all(len(r[3]) == 5 for r in rows)
    assert all((r[3][0] is None) == r[2] for r in rows)  # no pass value when forced
    assert any(len({v for v in r[3] if v is not None}) > 1 for r in rows)
    mean, half, changed = fit.test(rows, list(WEIGHTS))
    differ = [r for r in rows if learned_call(r[0], r[1], r[2]) != auction_rule(r[0], r[2])]
    assert differ  # the fitted call is not the rule
    assert changed >= 0.0 and half > 0.0
    gains = [r[3][learned_call(r[0], r[1], r[2]) + 1] - r[3][auction_rule(r[0], r[2]) + 1]
             for r in differ]
    assert mean == pytest.approx(sum(gains) / len(rows))


def test_the_oracle_searches_the_call_in_the_real_deal() -> None:
    """The oracle sees every hand, so it does not take the fitted call: it plays each call
    out in the real deal, and somewhere that makes it call otherwise."""
    differs = 0
    for k, deal, view, legal in _first_bids("oracle", 30):
        oracle = make_player("oracle", seed=k)
        oracle.see(deal)  # type: ignore[attr-defined]
        differs += oracle.choose(view, legal) != TarabishAI.fitted_call(view, legal, {})
    assert differs
