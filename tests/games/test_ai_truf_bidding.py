"""Truf search learns from the game's earlier bids how the others bid (games/ai/truf.py)."""

from __future__ import annotations

import random
from typing import Any

from games.actions import Action
from games.ai import Budget, make_player
from games.ai.truf import (
    TrufAI,
    TrufSampler,
    bid_value_odds,
    mixture_total,
    random_cards_total,
    ranked_bids,
    rule_likeness,
    world_finish,
)
from games.cards import card, name
from games.registry import GAMES
from games.truf import CARD_VALUE, TrufDeal


def _game(seed: str) -> Any:
    return GAMES["truf"].match_type({}, 4, 0, seed=seed)


def _play_out(deal: TrufDeal, levels: list[str]) -> None:
    players = [make_player(level, seed=i) for i, level in enumerate(levels)]
    while not deal.is_over:
        for seat in deal.to_act:
            legal = deal.legal_actions(seat)
            deal.apply(seat, players[seat].choose(deal.view(seat), legal, Budget.samples(2)))


def test_the_view_shows_every_earlier_deals_bid_values_by_seat() -> None:
    game = _game("earlier-bids")
    seen: list[list[int]] = []
    for _ in range(3):
        deal = game.start_deal()
        assert deal.view(1)["earlier_bids"] == seen  # none on the game's first deal
        _play_out(deal, ["rules"] * 4)
        summary = game.finish_deal()
        seen.append(summary["bids"])
    assert game.start_deal().view(3)["earlier_bids"] == seen
    assert len(seen) == 3 and all(len(b) == 4 for b in seen)


def test_bid_value_tables_tell_rule_bidders_from_random_ones() -> None:
    rule, rand = bid_value_odds(4, False, "difference")
    assert abs(sum(rule) - 1) < 1e-9 and abs(sum(rand) - 1) < 1e-9
    # the rule bids court cards and aces far more often than a random card does
    assert rule[0] + rule[1] > 0.6 > 0.4 > rand[0] + rand[1]
    assert abs(rand[0] - 3 / 13) < 0.02  # J, Q and K are worth 0
    assert all(x > 0 for x in rule)  # one odd bid never rules a player out
    assert bid_value_odds(4, False, "difference") is bid_value_odds(4, False, "difference")


def test_rule_likeness_follows_the_bids_seen() -> None:
    assert rule_likeness([], 4, False, "difference") == [0.5] * 4
    earlier = [[0, 7, 1, 10], [1, 9, 0, 0], [0, 6, 2, 8]]
    p = rule_likeness(earlier, 4, False, "difference")
    assert p[0] > 0.9 and p[2] > 0.85
    assert p[1] < 0.01 and p[3] < 0.2
    # one more rule-like bid never makes a player look less rule-like
    more = rule_likeness([*earlier, [0, 0, 0, 0]], 4, False, "difference")
    assert all(b >= a for a, b in zip(p, more, strict=True))


def test_the_others_total_is_lower_for_rule_like_players() -> None:
    low = mixture_total([1.0] * 4, 0, False, "difference")
    high = mixture_total([0.0] * 4, 0, False, "difference")
    assert low[0] < 4 < 11 < high[0]
    # random-like players total what three random cards total
    mean, sd = random_cards_total(3)
    assert abs(high[0] - mean) < 0.5 and abs(high[1] - sd) < 0.5


def _deal_with(hand: list[int], seed: int) -> TrufDeal:
    rng = random.Random(seed)
    while True:
        rest = [c for c in range(52) if c not in hand]
        rng.shuffle(rest)
        hands = [hand, rest[:13], rest[13:26], rest[26:39]]
        deal = TrufDeal(4, 3, hands, hand_number=1, options=GAMES["truf"].options_type())
        if not deal.misdeal:
            return deal


STRONG = [card(c) for c in ("AS", "KS", "QS", "JS", "TS", "9S", "AH", "KH", "QH",
                            "AD", "KD", "2C", "3C")]


def test_search_tries_the_bids_best_against_rule_like_bidders_first() -> None:
    ai = TrufAI()
    deal = _deal_with(STRONG, 1)
    legal = deal.legal_actions(0)
    view = deal.view(0)
    plain = ai.candidates(view, legal, {})
    rule_best = ranked_bids(STRONG, False, "difference", 3)[0]
    assert Action.bid(name(rule_best[0])) in plain
    view["earlier_bids"] = [[9, 0, 1, 0], [7, 1, 0, 0], [8, 0, 0, 1]]
    fitted = ai.candidates(view, legal, {})
    # against three players who bid almost nothing, a strong hand bids high for main atas
    first = fitted[0].card
    assert first is not None and CARD_VALUE[card(first)] > CARD_VALUE[rule_best[0]]
    assert Action.bid(name(rule_best[0])) in fitted  # the rule's own best is still compared
    assert len(set(fitted)) == len(fitted)


def _world_bid_values(earlier: list[list[int]], placed: bool) -> list[int]:
    """The other players' bid values in 60 worlds of seat 0's bid decision: bids already
    placed (hidden from seat 0) are dealt with the world, bids still to come are drawn when
    a playout finishes the world."""
    deal = _deal_with(STRONG, 2)
    if placed:
        for seat in (1, 2, 3):
            deal.apply(seat, deal.legal_actions(seat)[0])
    view = deal.view(0)
    view["earlier_bids"] = earlier
    sampler = TrufSampler(view, deal.legal_actions(0), {}, random.Random(5))
    values = []
    for i in range(60):
        world = sampler.sample()
        assert isinstance(world, TrufDeal)
        assert world.view(0) == view  # a world shows seat 0 exactly what it saw
        assert world.bids[0] is None  # the bid being chosen is the candidate's
        if not placed:
            twin = world.copy()
            world_finish(world, random.Random(i))
            world_finish(twin, random.Random(i))
            assert world.bids == twin.bids  # every candidate meets the same bids
        for seat in (1, 2, 3):
            bid = world.bids[seat]
            assert bid is not None and all(c in world.dealt[seat] for c in bid)
            values.append(sum(CARD_VALUE[c] for c in bid))
    return values


RULE_LIKE = [[5, 0, 1, 0], [5, 1, 0, 0], [5, 0, 0, 1], [5, 1, 1, 0]]
RANDOM_LIKE = [[5, 9, 7, 10], [5, 6, 10, 8], [5, 8, 9, 7], [5, 10, 6, 9]]


def test_worlds_make_the_others_bid_as_their_earlier_bids_suggest() -> None:
    for placed in (True, False):
        rule_like = _world_bid_values(RULE_LIKE, placed)
        random_like = _world_bid_values(RANDOM_LIKE, placed)
        assert sum(rule_like) / len(rule_like) < 1.5
        assert sum(random_like) / len(random_like) > 3.0


def test_warm_up_computes_the_default_tables_before_the_first_bid() -> None:
    from games.ai import warm_up

    bid_value_odds.cache_clear()
    warm_up()  # what an AI worker process runs when it starts
    assert bid_value_odds.cache_info().currsize == 1
    bid_value_odds(4, False, "difference")
    assert bid_value_odds.cache_info().hits == 1
