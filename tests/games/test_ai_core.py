"""The AI package's shared parts: budgets, levels, constrained dealing, world copies."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.ai import LEVELS, Budget, adapter_for, make_player
from games.ai.results import deal_winner, side_scores
from games.ai.sampling import ImpossibleDeal, deal_constrained
from games.registry import GAMES


def test_budget_needs_a_limit_and_positive_values() -> None:
    with pytest.raises(ValueError):
        Budget(ms=None, max_samples=None)
    with pytest.raises(ValueError):
        Budget(ms=0)
    with pytest.raises(ValueError):
        Budget(ms=None, max_samples=0)
    b = Budget.samples(3)
    assert b.deterministic and b.cap() == 3 and b.deadline() == float("inf")
    assert not Budget().deterministic and Budget().ms == 50.0
    assert Budget().cap(24) == 24 and Budget(ms=5, max_samples=3).cap(24) == 3


def test_levels_and_unknown_level() -> None:
    assert set(LEVELS) == {"random", "rules", "search"}
    for level in LEVELS:
        assert make_player(level, seed=1).level == level
    with pytest.raises(ValueError, match="unknown AI level"):
        make_player("genius")


def test_random_player_never_concedes_and_stays_legal() -> None:
    p = make_player("random", seed=3)
    legal = [Action("concede"), Action.play("AS"), Action.play("KS")]
    picks = {p.choose({"game": "tarabish"}, legal) for _ in range(50)}
    assert picks == {Action.play("AS"), Action.play("KS")}
    assert p.choose({"game": "tarabish"}, [Action("concede")]) == Action("concede")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), places=st.integers(2, 6), data=st.data())
def test_constrained_deal_respects_sizes_and_masks(seed: int, places: int,
                                                   data: st.DataObject) -> None:
    """Every card lands in an allowed place and every place gets exactly its size; a
    feasible instance is built by first dealing the cards, then allowing each card its own
    place plus random others."""
    rng = random.Random(seed)
    n = data.draw(st.integers(places, 40))
    cards = list(range(n))
    truth = [rng.randrange(places) for _ in cards]
    sizes = [truth.count(p) for p in range(places)]
    allowed = [(1 << truth[i]) | data.draw(st.integers(0, (1 << places) - 1))
               for i in range(n)]
    weights = None
    if data.draw(st.booleans()):
        weights = [[rng.uniform(0.2, 3.0) for _ in range(4)] for _ in range(places)]
    out = deal_constrained([c % 52 for c in cards], sizes, allowed, rng, weights)
    assert [len(x) for x in out] == sizes
    assert Counter(c for x in out for c in x) == Counter(c % 52 for c in cards)
    # allowed places: re-derive each card's mask by value (values may repeat: any copy)
    for p, got in enumerate(out):
        for c in got:
            assert any(cards[i] % 52 == c and allowed[i] >> p & 1 for i in range(n))


def test_constrained_deal_finds_the_only_solution_and_reports_impossible() -> None:
    rng = random.Random(0)
    # card 0 only in place 1, card 1 only in place 0: greedy order cannot go wrong, but
    # card 2 may go anywhere and must take the one slot left
    cards, sizes, allowed = [0, 1, 2], [2, 1], [0b10, 0b01, 0b11]
    for _ in range(20):
        out = deal_constrained(cards, sizes, allowed, rng)
        assert sorted(out[0]) == [1, 2] and out[1] == [0]
    with pytest.raises(ImpossibleDeal):
        deal_constrained([0, 1], [1, 1], [0b01, 0b01], rng)
    with pytest.raises(ImpossibleDeal):
        deal_constrained([0, 1], [1], [1, 1], rng)


def test_world_clone_is_independent() -> None:
    """Playing an AI's clone of a world to the end leaves the original exactly as it was,
    for every game."""
    for game, info in GAMES.items():
        d = info.match_type(None, None, 0, seed=5).start_deal()
        rng = random.Random(1)
        for _ in range(6):  # a few actions in, so tricks and auctions hold state
            if d.is_over:
                break
            seat = d.to_act[0]
            d.apply(seat, rng.choice([a for a in d.legal_actions(seat) if a.type != "concede"]))
        before = json.dumps([d.view(s) for s in range(d.players)] + [d.summary()],
                            sort_keys=True)
        c = adapter_for(game).clone(d)
        while not c.is_over:
            seat = c.to_act[0]
            c.apply(seat, rng.choice([a for a in c.legal_actions(seat) if a.type != "concede"]))
        after = json.dumps([d.view(s) for s in range(d.players)] + [d.summary()],
                           sort_keys=True)
        assert before == after, game


def test_side_scores_and_winner() -> None:
    assert side_scores("arbaa_turub", {"tricks_by_team": [20, 16]}, [(0, 2), (1, 3)]) == [20, 16]
    assert side_scores("turup", {"game_points": [0, 3]}, [(0, 2), (1, 3)]) == [0, 3]
    assert side_scores("truf", {"points": [2, -1, 0, 4]}, [(0,), (1,), (2,), (3,)]) == [
        2, -1, 0, 4]
    assert deal_winner([18, 18]) is None
    assert deal_winner([1, 3]) == 1
    assert deal_winner([5, 5, 2]) is None
