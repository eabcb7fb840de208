"""Sampled worlds are consistent with everything the deciding seat has seen.

For random positions of every game with an AI, every world the search player samples:

* shows the deciding seat exactly its view (``world.view(seat) == view``: its own hand,
  the cards played, the bids and calls, hand sizes, the trick in progress, …);
* holds the whole pack exactly once (four times in Arba'a Turub) — so no played or seen
  card is dealt again;
* respects every void the view reveals, computed here independently from the tricks: a
  seat that failed to follow suit holds none of that suit (Tarabish: and none of the trump
  suit when it also failed to trump, and no trump above one it failed to beat);
* places every card the view pins down (bid cards in their bidders' hands, the turned
  Albastini card with its exchanger, shown Tarabish runs with their holder, …).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import has_ai, make_player
from games.ai.registry import adapter_for
from games.base import Deal
from games.registry import GAMES

AI_GAMES = [g for g in GAMES if has_ai(g)]
PLAYER_COUNTS = {"albastini": [2, 3, 4, 5, 6], "truf": [3, 4]}
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "turup": [{}, {"kort_declared_before_play": True}],
    "tarabish": [{}, {"bella_call_on_first": True, "must_head_plain": True},
                 {"auto_declare_runs": True, "partner_exception": True}],
    "truf": [{}, {"multi_card_bids": True}],
    "albastini": [{}, {"teams": "2x3"}],
}


def position(game: str, seed: int, steps: int, options: dict[str, Any],
             players: int | None) -> Deal:
    """A deal after ``steps`` actions by a mix of random and rules players."""
    m = GAMES[game].match_type(options, players, seed % 2, seed=seed)
    deal = m.start_deal()
    rng = random.Random(seed)
    movers = [make_player("random" if rng.random() < 0.5 else "rules", seed=seed + s,
                          options=options) for s in range(m.players)]
    for _ in range(steps):
        if deal.is_over:
            break
        seat = rng.choice(deal.to_act)
        action = movers[seat].choose(deal.view(seat), deal.legal_actions(seat))
        deal.apply(seat, action)
    return deal


def full_pack(game: str, players: int, options: dict[str, Any]) -> Counter[str]:
    deal = GAMES[game].match_type(options, players, 0, seed=0).start_deal()
    out = Counter(c for h in deal.dealt_hands() for c in h)
    extra = deal.record_extra()
    out.update(extra.get("stock", []))
    if "trump_card" in extra:
        out[extra["trump_card"]] += 1
    return out


def world_cards(world: Deal) -> Counter[str]:
    """Every card of a world, wherever it is (hands, tricks, stock, turned card)."""
    out = Counter(c for h in world.dealt_hands() for c in h)
    extra = world.record_extra()
    out.update(extra.get("stock", []))
    if "trump_card" in extra:
        out[extra["trump_card"]] += 1
    return out


def revealed_voids(view: dict[str, Any], options: dict[str, Any]) -> dict[int, set[str]]:
    """Suits each seat is known to lack: it did not follow the led suit (games with a duty
    to follow), computed from the public tricks only."""
    out: dict[int, set[str]] = {}
    if view["game"] == "albastini":
        return out
    tricks = [t["cards"] for t in view["tricks"]] + [view["trick"]["cards"]]
    trump = view.get("trump")
    for plays in tricks:
        if not plays or plays[0][1] == "??":
            continue
        led = plays[0][1][1]
        for seat, c in plays[1:]:
            if c == "??":  # a face-down Truf trump: not the led suit unless trumps led
                if led != trump:
                    out.setdefault(seat, set()).add(led)
                continue
            if c[1] != led:
                out.setdefault(seat, set()).add(led)
                if (view["game"] == "tarabish" and c[1] != trump and trump
                        and not options.get("partner_exception")):
                    out[seat].add(trump)
    return out


def pinned_cards(view: dict[str, Any]) -> dict[int, set[str]]:
    """Cards the view places in a seat's hand (and not yet played)."""
    played = {c for t in view["tricks"] for _, c in t["cards"]}
    played |= {c for _, c in view["trick"]["cards"]}
    out: dict[int, set[str]] = {}
    if view["game"] == "albastini":
        for seat, c in view.get("bids", []):
            if c and c not in played and c != view.get("bottom_card"):
                out.setdefault(seat, set()).add(c)
        ex = view.get("exchanged_by")
        if ex is not None and view["trump_card"] not in played:
            out.setdefault(ex, set()).add(view["trump_card"])
        drawer = view.get("bottom_drawn_by")
        if drawer is not None and view["bottom_card"] not in played:
            out.setdefault(drawer, set()).add(view["bottom_card"])
    if view["game"] == "truf" and view.get("bid_values") is not None:
        for seat, cards in enumerate(view["bids"]):
            for c in cards or []:
                if c not in played:
                    out.setdefault(seat, set()).add(c)
    if view["game"] == "tarabish":
        runs = view.get("runs") or {}
        if runs.get("winner") is not None:
            for run in runs.get("shown", []):
                for c in run:
                    if c not in played:
                        out.setdefault(runs["winner"], set()).add(c)
    return out


@settings(max_examples=45, deadline=None)
@given(data=st.data(), seed=st.integers(0, 10**6))
def test_sampled_worlds_are_consistent_with_the_view(data: st.DataObject, seed: int) -> None:
    game = data.draw(st.sampled_from(AI_GAMES))
    options = data.draw(st.sampled_from(OPTIONS.get(game, [{}])))
    players = data.draw(st.sampled_from(PLAYER_COUNTS.get(game, [4])))
    if game == "albastini" and options and players != 6:
        options = {}
    longest = {"arbaa_turub": 150}.get(game, 60)
    steps = data.draw(st.integers(0, longest))
    deal = position(game, seed, steps, options, players)
    if deal.is_over:
        return
    me = deal.to_act[0]
    view = deal.view(me)
    legal = deal.legal_actions(me)
    ai = adapter_for(game)
    sampler = ai.sampler(view, legal, options, random.Random(seed))
    pack = full_pack(game, deal.players, options)
    voids = revealed_voids(view, options)
    pinned = pinned_cards(view)
    base = json.dumps(view, sort_keys=True)
    for _ in range(3):
        world = sampler.sample()
        assert json.dumps(world.view(me), sort_keys=True) == base
        assert world_cards(world) == pack
        assert world.legal_actions(me) == legal
        for seat in range(deal.players):
            if seat == me:
                continue
            seen_by_seat = world.view(seat)
            hand = seen_by_seat["hand"]
            assert len(hand) == view["hand_sizes"][seat] or view.get("kitty_hidden")
            for suit in voids.get(seat, ()):
                assert not any(c[1] == suit for c in hand), (seat, suit, hand)
            # a pinned card is held, or is this seat's own face-down card (Truf trump)
            face_down = {c for s, c in seen_by_seat["trick"]["cards"] if s == seat}
            assert pinned.get(seat, set()) <= set(hand) | face_down, (seat, pinned[seat], hand)


def test_tarabish_worlds_are_weighted_by_how_well_they_explain_the_rule_players() -> None:
    """Likelihood weighting: between rule-based players, the real deal explains their bids
    and cards (a world's surprises are the others' bids and cards :func:`auction_rule` and
    :func:`rule_card` would not have made in it, and the real deal has almost none), while
    sampled worlds, which know only the constraints, are surprised far more often; the
    sampler's weight is :data:`SURPRISE` to the number of surprises."""
    from games.ai.tarabish import SURPRISE, TarabishSampler

    real_surprises = sampled_surprises = views = 0
    for game in range(12):
        m = GAMES["tarabish"].match_type({}, None, game % 4, seed=game)
        deal = m.start_deal()
        players = [make_player("rules", seed=s) for s in range(4)]
        step = 0
        while not deal.is_over:
            seat = deal.to_act[0]
            view, legal = deal.view(seat), deal.legal_actions(seat)
            if deal.phase == "play" and step % 6 == 5:
                sampler = TarabishSampler(view, {}, random.Random(step))
                dealt = [list(h) for h in deal.dealt]  # type: ignore[attr-defined]
                real_surprises += sampler._replay(dealt)[1]
                world = sampler.sample()
                surprises = sampler._replay([list(h) for h in world.dealt])[1]  # type: ignore[attr-defined]
                sampled_surprises += surprises
                assert 0.0 < sampler.weight <= 1.0
                views += 1
            deal.apply(seat, players[seat].choose(view, legal))
            step += 1
    assert views >= 40
    assert real_surprises <= views // 10
    assert sampled_surprises >= 3 * max(1, real_surprises)
    assert SURPRISE < 1.0
