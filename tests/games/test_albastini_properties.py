"""Albastini: properties over random games of every player count (hypothesis)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.actions import Action
from games.albastini import (
    PACK,
    POINTS,
    STRENGTH,
    AlbastiniDeal,
    AlbastiniMatch,
    random_playout,
)
from games.base import Event
from games.cards import name
from games.errors import IllegalAction
from games.records import replay
from games.trick import trick_winner

CARD = re.compile(r"^[2-9TJQKA][SHDC]$")
ALL_NAMES = [name(c) for c in PACK]


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, dict[str, Any], int, int]:
    players = draw(st.integers(2, 6))
    options: dict[str, Any] = {}
    if players == 6 and draw(st.booleans()):
        options["teams"] = "2x3"
    dealer = draw(st.integers(0, players - 1))
    seed = draw(st.integers(0, 10**6))
    return players, options, dealer, seed


def new_deal(players: int, options: dict[str, Any], dealer: int,
             seed: int) -> tuple[AlbastiniMatch, AlbastiniDeal]:
    match = AlbastiniMatch(options, players, dealer, seed=seed)
    deal = match.start_deal()
    assert isinstance(deal, AlbastiniDeal)
    return match, deal


def cards_in(obj: Any) -> set[str]:
    """Every card name anywhere in a JSON-able object."""
    if isinstance(obj, str):
        return {obj} if CARD.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, (list, tuple)):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


def places(deal: AlbastiniDeal) -> list[int]:
    """Every card where it is: hands, stock, current trick, the sides' won piles."""
    out = [c for h in deal.hands for c in h] + deal.stock_left()
    out += [c for _, c in deal.trick] + [c for pile in deal.won for c in pile]
    return out


def exposed(deal: AlbastiniDeal) -> set[str]:
    """Cards every player has seen face up: bids, the turned card, the face-up bottom card
    and every card played."""
    out = {name(c) for _, c in deal.bids if c >= 0}
    if deal.phase != "bidding":
        out |= {name(deal.trump_card), name(deal.bottom)}
    out |= {name(c) for _, c in deal.trick}
    out |= {name(c) for _, cards, _ in deal.completed for _, c in cards}
    return out


def may_know(deal: AlbastiniDeal, seat: int | None) -> set[str]:
    own: set[str] = set()
    if seat is not None:
        own = {name(c) for c in deal.hands[seat]}
        own |= {name(c) for rnd in deal.draws for s, c in rnd if s == seat}
    return exposed(deal) | own


def check_views(deal: AlbastiniDeal) -> None:
    stock_hidden = {name(c) for c in deal.stock_left()} - exposed(deal)
    for seat in (None, *range(deal.players)):
        view = deal.view(seat)
        seen = cards_in(view)
        assert seen <= may_know(deal, seat), (seat, seen - may_know(deal, seat))
        assert not seen & stock_hidden  # nothing of the stock's order is shown
        for other in range(deal.players):
            if other != seat:
                held = {name(c) for c in deal.hands[other]}
                assert not (seen & held) - exposed(deal)
        assert view["hand_sizes"] == [len(h) for h in deal.hands]
        assert view["stock_size"] == len(deal.stock_left())
        for key in ("game", "seat", "players", "teams", "dealer", "phase", "to_act", "trump",
                    "hand", "trick", "tricks", "facts"):
            assert key in view
        json.dumps(view)


def check_events(deal: AlbastiniDeal, events: list[Event]) -> None:
    for event in events:
        if event.to is None:
            assert cards_in(event.data) <= exposed(deal), event
        else:
            assert len(event.to) == 1
            (seat,) = event.to
            assert cards_in(event.data) <= may_know(deal, seat), event


def snapshot(deal: AlbastiniDeal) -> str:
    return json.dumps([[deal.view(s) for s in (None, *range(deal.players))], deal.summary(),
                       deal.version, sorted(places(deal))])


def wrong_actions(deal: AlbastiniDeal, seat: int, rng: random.Random) -> list[tuple[int, Action]]:
    """A sample of actions that are not legal now."""
    others = [s for s in range(deal.players) if s != seat]
    legal = deal.legal_actions(seat)
    not_held = [c for c in ALL_NAMES if c not in {name(x) for x in deal.hands[seat]}]
    out: list[tuple[int, Action]] = [
        (rng.choice(others), rng.choice(legal)),
        (seat, Action.play(rng.choice(not_held))),
        (seat, Action.bid(rng.choice(not_held))),
        (seat, Action.call_trump("S")),
        (seat, Action("concede")),
        (seat, Action.play("TS")),
    ]
    if deal.phase == "bidding":
        out.append((seat, Action.play(name(deal.hands[seat][0]))))
        used = [c for c in deal.hands[seat] if deal.bid_suits >> (c // 13) & 1]
        if used:
            out.append((seat, Action.bid(name(rng.choice(used)))))
        out.append((seat, Action.bid_cards(tuple(name(c) for c in deal.hands[seat][:2]))))
    else:
        out.append((seat, Action.pass_()))
        out.append((seat, Action.bid(name(deal.hands[seat][0]))))
        out.append((seat, Action.play(name(deal.hands[seat][0]), signal="weak")))
    return [(s, a) for s, a in out if s != seat or a not in legal]


def expected_rounds_and_tricks(players: int) -> tuple[int, int]:
    rounds = (36 - 5 * players) // players
    return rounds, 5 + rounds


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_random_games_keep_every_invariant(table: tuple[int, dict[str, Any], int, int],
                                           play_seed: int) -> None:
    players, options, dealer, seed = table
    match, deal = new_deal(players, options, dealer, seed)
    rng = random.Random(play_seed)
    dealt = [c for h in deal.dealt for c in h] + deal.stock_init + [deal.trump_card]
    assert sorted(dealt) == sorted(PACK)
    assert all(len(h) == 5 for h in deal.dealt)
    while not deal.is_over:
        assert sorted(places(deal)) == sorted(PACK)
        check_views(deal)
        (seat,) = deal.to_act
        legal = deal.legal_actions(seat)
        assert legal
        if deal.phase == "play":
            assert {a.card for a in legal} == {name(c) for c in deal.hands[seat]}
        for other in range(players):
            if other != seat:
                assert deal.legal_actions(other) == []
        if rng.random() < 0.3:
            before = snapshot(deal)
            wrong = wrong_actions(deal, seat, rng)
            for s, bad in rng.sample(wrong, min(3, len(wrong))):
                try:
                    deal.apply(s, bad)
                except IllegalAction as exc:
                    assert exc.reason
                else:
                    raise AssertionError(f"accepted {bad} from seat {s}")
                assert snapshot(deal) == before
        if rng.random() < 0.1:  # every legal action is accepted (on copies)
            for action in legal:
                deal.copy().apply(seat, action)
        trick_before = list(deal.trick)
        events = deal.apply(seat, rng.choice(legal))
        check_events(deal, events)
        if deal.completed and len(deal.completed[-1][1]) == players and not deal.trick:
            cards = deal.completed[-1][1]
            if cards[:-1] == trick_before:
                assert deal.completed[-1][2] == trick_winner(cards, deal.trump, STRENGTH)
    # the end: consistent counts
    check_views(deal)
    assert sorted(places(deal)) == sorted(PACK)
    rounds, tricks = expected_rounds_and_tricks(players)
    assert len(deal.draws) == rounds and len(deal.completed) == tricks
    assert all(not h for h in deal.hands)
    total = 120 - (POINTS[deal.bottom] if players == 5 else 0)
    assert sum(deal.points_by_side) == total
    for side, pile in enumerate(deal.won):
        assert sum(POINTS[c] for c in pile) == deal.points_by_side[side]
    assert sum(deal.tricks_by_seat) == tricks
    match.finish_deal()
    record = match.record()
    out, status = replay(json.loads(json.dumps(record)))
    assert status == 0, out
    assert out["deals"] == match.deal_summaries
    assert out["match"] == match.summary()


def mirror_playout(deal: AlbastiniDeal, rng: random.Random) -> list[int]:
    """The random playout's policy, played through the readable API."""
    rnd = rng.random
    while not deal.is_over:
        (seat,) = deal.to_act
        if deal.phase == "bidding":
            opts = [c for c in deal.hands[seat] if not deal.bid_suits >> (c // 13) & 1]
            i = int(rnd() * (len(opts) + 1))
            deal.apply(seat, Action.bid(name(opts[i - 1])) if i else Action.pass_())
        else:
            hand = deal.hands[seat]
            deal.apply(seat, Action.play(name(hand[int(rnd() * len(hand))])))
    return list(deal.points_by_side)


@settings(max_examples=60, deadline=None)
@given(tables(), st.integers(0, 10**6), st.integers(0, 40))
def test_fast_playout_agrees_with_the_readable_api(
        table: tuple[int, dict[str, Any], int, int], play_seed: int, steps: int) -> None:
    players, options, dealer, seed = table
    _, deal = new_deal(players, options, dealer, seed)
    rng = random.Random(play_seed)
    for _ in range(steps):  # start from a random point: bidding, mid-trick, after draws
        if deal.is_over:
            break
        (seat,) = deal.to_act
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    original = snapshot(deal)
    fast = random_playout(deal.copy(), random.Random(play_seed + 1))
    assert snapshot(deal) == original  # the copy was consumed, not the deal
    slow = mirror_playout(deal, random.Random(play_seed + 1))
    assert fast == slow


@settings(max_examples=40, deadline=None)
@given(tables(), st.integers(0, 10**6))
def test_sessions_replay_identically(table: tuple[int, dict[str, Any], int, int],
                                     play_seed: int) -> None:
    players, options, dealer, seed = table
    rng = random.Random(play_seed)
    options = {**options, "target_vp": rng.randint(1, 3)}
    if rng.random() < 0.5:
        options["dealer_choice"] = "winners_choose"
    match = AlbastiniMatch(options, players, dealer, seed=seed)
    while not match.over:
        if options.get("dealer_choice") == "winners_choose":
            match.choose_dealer(rng.choice(match.dealer_choices()))
        deal = match.start_deal()
        assert isinstance(deal, AlbastiniDeal)
        mirror_playout(deal, rng)
        match.finish_deal()
        if len(match.deal_summaries) > 40:
            break
    assert match.over
    totals = match.totals
    assert max(totals) >= options["target_vp"] and match.winner == totals.index(max(totals))
    assert totals.count(max(totals)) == 1
    out, status = replay(match.record())
    assert status == 0 and out["deals"] == match.deal_summaries
    assert out["match"] == match.summary()
