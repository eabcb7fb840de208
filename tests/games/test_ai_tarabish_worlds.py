"""Tarabish search worlds: the view's history replayed on the engine's fast paths
(TarabishSampler._replay) leaves the world exactly where the engine's own play left it;
the likelihood explains real ``rules`` players; hands shown to the sampler for measurement
are dealt exactly."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.ai import make_player
from games.ai.tarabish import SURPRISE, TarabishSampler
from games.cards import card
from games.errors import IllegalAction
from games.registry import GAMES
from games.tarabish import TarabishDeal

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"dealer_may_pass": True, "must_head_plain": True, "auto_bella": True,
     "auto_declare_runs": True},
    {"partner_exception": True, "bella_call_on_first": True, "split_long_runs": True,
     "run_tie": "none_score"},
]


def rules_decisions(options: dict[str, Any], prefix: str, deals: int
                    ) -> Iterator[tuple[int, TarabishDeal, int, dict[str, Any]]]:
    """Every decision of ``deals`` deals of four ``rules`` players, before it is made:
    the deal's number, the deal, the seat to act and its view."""
    for k in range(deals):
        deal = GAMES["tarabish"].match_type(options, 4, k % 4, seed=f"{prefix}:{k}").start_deal()
        assert isinstance(deal, TarabishDeal)
        players = [make_player("rules", seed=s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_act[0]
            view = deal.view(seat)
            yield k, deal, seat, view
            deal.apply(seat, players[seat].choose(view, deal.legal_actions(seat)))


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_real_hands_replay_to_the_real_position(options: dict[str, Any]) -> None:
    checked = 0
    for k, deal, _, view in rules_decisions(options, "replay", 12):
        if deal.phase == "play":
            sampler = TarabishSampler(view, options, random.Random(k))
            world, _ = sampler._replay([list(h) for h in deal.dealt])
            for s in range(4):
                assert world.view(s) == deal.view(s)
            assert world.declared == deal.declared
            assert world.bella_seat == deal.bella_seat
            checked += 1
    assert checked > 100


def test_a_world_whose_hands_cannot_explain_the_plays_is_refused() -> None:
    deal = GAMES["tarabish"].match_type({}, 4, 0, seed="replay:refuse").start_deal()
    assert isinstance(deal, TarabishDeal)
    players = [make_player("rules", seed=s) for s in range(4)]
    while len(deal.completed) < 2:
        seat = deal.to_act[0]
        deal.apply(seat, players[seat].choose(deal.view(seat), deal.legal_actions(seat)))
    seat = deal.to_act[0]
    view = deal.view(seat)
    dealt = [list(h) for h in deal.dealt]
    # Swap a card one player followed suit with for another player's card of another
    # suit: in that world the follower revoked, which the replay must not accept.
    first = deal.completed[0][1]
    led = first[0][1] // 13
    follower, card_played = next((s, c) for s, c in first[1:] if c // 13 == led and s != seat)
    other = next(s for s in range(4) if s not in (seat, follower))
    swap = next(c for c in dealt[other] if c // 13 != led
                and c not in [x for t in deal.completed for _, x in t[1]])
    dealt[follower][dealt[follower].index(card_played)] = swap
    dealt[other][dealt[other].index(swap)] = card_played
    sampler = TarabishSampler(view, {}, random.Random(0))
    with pytest.raises(IllegalAction):
        sampler._replay(dealt)


def test_the_likelihood_explains_real_rules_players_better_than_drawn_worlds() -> None:
    """The likelihood's model of the other players is the rule-based player: in the real
    deal of four ``rules`` players it finds (almost) every bid and card of theirs explained, while
    worlds drawn from one player's view often leave some unexplained; the count it
    reports is the power of the world's weight."""
    explained = decisions = drawn_surprised = 0
    for k, deal, _, view in rules_decisions({}, "likely", 8):
        if deal.phase == "play" and deal.completed:
            sampler = TarabishSampler(view, {}, random.Random(k))
            explained += sampler.unexplained([list(h) for h in deal.dealt]) == 0
            decisions += 1
            sampler.sample()
            drawn_surprised += sampler.surprises > 0
            assert sampler.weight == pytest.approx(SURPRISE ** sampler.surprises)
    assert decisions > 200
    assert explained >= 0.95 * decisions
    assert drawn_surprised >= 0.3 * decisions


@pytest.mark.parametrize("options", OPTION_SETS)
def test_revealed_hands_are_dealt_exactly_and_the_rest_stays_consistent(
        options: dict[str, Any]) -> None:
    """For the knowledge bench: a hand shown to the sampler is in every world as it
    really is, the other hidden cards still go to the other players (runs and bella
    planted as the view says), and with every hand shown the world is the real deal."""
    checked = 0
    for k, deal, seat, view in rules_decisions(options, "shown", 6):
        if deal.phase == "play":
            held = {s: sorted(card(c) for c in deal.view(s)["hand"]) for s in range(4)}
            partner = seat ^ 2
            sampler = TarabishSampler(view, options, random.Random(k),
                                      {partner: held[partner]})
            for _ in range(3):
                world = sampler.sample()
                assert isinstance(world, TarabishDeal)
                assert sorted(card(c) for c in world.view(partner)["hand"]) == held[partner]
                assert sorted(card(c) for c in world.view(seat)["hand"]) == held[seat]
                others = sorted(c for s in (seat ^ 1, seat ^ 3)
                                for c in (card(x) for x in world.view(s)["hand"]))
                assert others == sorted(held[seat ^ 1] + held[seat ^ 3])
                assert world.view(seat) == view
            everyone = TarabishSampler(view, options, random.Random(k),
                                       {s: held[s] for s in range(4) if s != seat})
            world = everyone.sample()
            for s in range(4):
                assert sorted(card(c) for c in world.view(s)["hand"]) == held[s]
            checked += 1
    assert checked > 100
