"""AI for Albastini (2 to 6 players, individuals or teams).

**Bidding** (rules): a bid is a bet that the turned card's suit is the bid card's suit, in
which case the bidder swaps his bid card for the turned card. The rule bids the weakest
pointless card (3, 4 or 5) of a suit nobody has bid, from the suit in which the player
holds most cards; otherwise it passes. Search compares passing and every biddable card over
sampled worlds (the turned card among them), the later bidders bidding by the rule.

**Card play** (rules and rollouts; any card may be played): leading, throw the cheapest
pointless side card (keeping trumps and point cards); following, when a partner wins and
cannot be beaten any more, add the richest side card; against an opponent, take a trick
worth at least :data:`WORTH_TRUMPING` points, or any trick when last to play, with the
cheapest winning card (a side card if one wins, else the lowest winning trump); otherwise
throw the cheapest card, never a point card or a trump when a pointless side card is left.

**Inference** (search sampling; there is no duty to follow, so no voids): the cards the
view pins are placed where they are — bid cards with their bidders, the turned card with
its exchanger, the face-up card at the bottom of the stock or with whoever drew it — and
every other unseen card is dealt to the other hands and the stock at random. Each world is
rebuilt as a full deal (dealt hands, stock order and turned card) that reproduces the
public draws, and replayed through the game's own ``apply``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.ai.adapter import GameAI, WorldSampler
from games.ai.sampling import deal_constrained
from games.ai.world import new_deal
from games.albastini import (
    KEYS,
    ORDERS,
    PACK,
    POINTS,
    STRENGTH,
    AlbastiniDeal,
)
from games.base import HIDDEN, Deal
from games.cards import SUITS, card, name

WORTH_TRUMPING = 10
"""A player not last to play spends a trump (or a winning card) on a trick worth this."""


def pick_card(hand: Sequence[int], trump: int, trick: Sequence[tuple[int, int]],
              me: int, side_of: Sequence[int], safe_partner: bool, last: bool) -> int:
    """The policy's card (module docstring). ``safe_partner``: a partner is winning and
    nobody still to play can beat his card."""
    if len(hand) == 1:
        return hand[0]

    def cheap(c: int) -> tuple[int, int, int]:
        return (c // 13 == trump, POINTS[c], STRENGTH[c])

    if not trick:
        return min(hand, key=cheap)
    keys = KEYS[trump][trick[0][1] // 13]
    best_key, best_seat = -1, -1
    for seat, c in trick:
        if keys[c] > best_key:
            best_key, best_seat = keys[c], seat
    if side_of[best_seat] == side_of[me]:
        if safe_partner or last:
            side = [c for c in hand if c // 13 != trump]
            if side:
                return max(side, key=lambda c: (POINTS[c], -STRENGTH[c]))
        return min(hand, key=cheap)
    worth = sum(POINTS[c] for _, c in trick)
    winners = [c for c in hand if keys[c] > best_key]
    if winners and (last or worth >= WORTH_TRUMPING):
        return min(winners, key=lambda c: (c // 13 == trump, STRENGTH[c], POINTS[c]))
    return min(hand, key=cheap)


def bid_rule(hand: Sequence[int], bid_suits: int) -> int:
    """The card to bid from ``hand`` (``-1``: pass), given the suits already bid."""
    best, best_key = -1, (99, 99)
    for c in hand:
        s = c // 13
        if bid_suits >> s & 1 or POINTS[c] or STRENGTH[c] > 2:
            continue
        key = (-sum(1 for x in hand if x // 13 == s), STRENGTH[c])
        if key < best_key:
            best, best_key = c, key
    return best


def world_step(d: AlbastiniDeal) -> None:
    if d.phase == "bidding":
        seat = d.bidders[len(d.bids)]
        d.fast_bid(bid_rule(d.hands[seat], d.bid_suits))
        return
    seat = d.turn
    hand = d.hands[seat]
    n = d.players
    trick = d.trick
    last = len(trick) == n - 1
    safe = False
    if trick and not last:
        keys = KEYS[d.trump][trick[0][1] // 13]
        best_key, best_seat = max((keys[c], s) for s, c in trick)
        if d.side_of[best_seat] == d.side_of[seat]:
            later = ORDERS[n][d.leader][len(trick) + 1:]
            safe = all(d.side_of[o] == d.side_of[seat]
                       or all(keys[c] <= best_key for c in d.hands[o]) for o in later)
    d.fast_play(pick_card(hand, d.trump, trick, seat, d.side_of, safe, last))


class AlbastiniKnowledge:
    """What a seat knows from an Albastini view (module docstring)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.n: int = view["players"]
        self.sides = [tuple(t) for t in view["teams"]]
        self.side_of = [0] * self.n
        for i, side in enumerate(self.sides):
            for s in side:
                self.side_of[s] = i
        self.phase: str = view["phase"]
        self.trump = SUITS.index(view["trump"]) if view.get("trump") else -1
        self.hand = [card(c) for c in view["hand"]]
        self.sizes = list(view["hand_sizes"])
        self.tricks = [(t["leader"], [(s, card(c)) for s, c in t["cards"]], t["winner"])
                       for t in view["tricks"]]
        self.trick = [(s, card(c)) for s, c in view["trick"]["cards"]]
        self.played_by: list[list[int]] = [[] for _ in range(self.n)]
        for _, plays, _ in self.tricks:
            for s, c in plays:
                self.played_by[s].append(c)
        for s, c in self.trick:
            self.played_by[s].append(c)
        self.bids = [(s, card(c) if c else -1) for s, c in view.get("bids", [])]
        self.turned = card(view["trump_card"]) if view.get("trump_card") else -1
        self.bottom = card(view["bottom_card"]) if view.get("bottom_card") else -1
        self.exchanged_by: int | None = view.get("exchanged_by")
        self.bottom_drawn_by: int | None = view.get("bottom_drawn_by")
        self.draws = [[(s, -1 if c == HIDDEN else card(c)) for s, c in rnd]
                      for rnd in view.get("draws", [])]
        played = {c for cs in self.played_by for c in cs}
        self.played = played
        self.pinned: dict[int, set[int]] = {}
        for seat, c in self.bids:
            if c >= 0 and c not in played and c != self.bottom and seat != self.me:
                self.pinned.setdefault(seat, set()).add(c)
        if self.exchanged_by is not None and self.exchanged_by != self.me \
                and self.turned not in played:
            self.pinned.setdefault(self.exchanged_by, set()).add(self.turned)
        if self.bottom_drawn_by is not None and self.bottom_drawn_by != self.me \
                and self.bottom not in played:
            self.pinned.setdefault(self.bottom_drawn_by, set()).add(self.bottom)
        known = set(self.hand) | played | {c for cs in self.pinned.values() for c in cs}
        if self.bottom >= 0:
            known.add(self.bottom)
        if self.turned >= 0:
            known.add(self.turned)
        self.unseen = [c for c in PACK if c not in known]
        self.bottom_in_stock = self.bottom >= 0 and self.bottom_drawn_by is None

    def later(self) -> list[int]:
        if not self.trick:
            return []
        leader = self.trick[0][0]
        return list(ORDERS[self.n][leader][len(self.trick) + 1:])


class AlbastiniAI(GameAI):
    game = "albastini"

    def rules_choose(self, view: Mapping[str, Any], legal: Sequence[Action],
                     rng: random.Random, options: Mapping[str, Any]) -> Action:
        k = AlbastiniKnowledge(view)
        if view["phase"] == "bidding":
            used = 0
            for _, c in k.bids:
                if c >= 0:
                    used |= 1 << (c // 13)
            c = bid_rule(k.hand, used)
            choice = Action.pass_() if c < 0 else Action.bid(name(c))
            return choice if choice in legal else Action.pass_()
        return Action.play(name(self.rules_card(k)))

    def rules_card(self, k: AlbastiniKnowledge) -> int:
        last = len(k.trick) == k.n - 1
        safe = False
        if k.trick and not last:
            keys = KEYS[k.trump][k.trick[0][1] // 13]
            best_key, best_seat = max((keys[c], s) for s, c in k.trick)
            if k.side_of[best_seat] == k.side_of[k.me]:
                opps = [o for o in k.later() if k.side_of[o] != k.side_of[k.me]]
                pool = k.unseen + [c for o in opps for c in k.pinned.get(o, ())]
                safe = not opps or all(keys[c] <= best_key for c in pool)
        return pick_card(k.hand, k.trump, k.trick, k.me, k.side_of, safe, last)

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action],
                   options: Mapping[str, Any]) -> list[Action]:
        first = self.rules_choose(view, legal, random.Random(0), options)
        return [first, *[a for a in legal if a != first]]

    def sampler(self, view: Mapping[str, Any], legal: Sequence[Action],
                options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        return AlbastiniSampler(view, options, rng)

    def clone(self, world: Deal) -> Deal:
        return world.copy()

    def step(self, world: Deal, seat: int, action: Action) -> None:
        assert isinstance(world, AlbastiniDeal)
        if action.type == "play" and action.card:
            world.fast_play(card(action.card))
        elif action.type == "bid" and action.card:
            world.fast_bid(card(action.card))
        elif action.type == "pass":
            world.fast_bid(-1)
        else:  # pragma: no cover - every Albastini action is handled above
            world.apply(seat, action)

    def rollout(self, world: Deal, seat: int, rng: random.Random) -> float:
        assert isinstance(world, AlbastiniDeal)
        while world.phase != "over":
            world_step(world)
        pts = world.points_by_side
        mine = world.side_of[seat]
        other = max(p for i, p in enumerate(pts) if i != mine)
        diff = pts[mine] - other
        return diff + (10.0 if diff > 0 else -10.0 if diff < 0 else 0.0)


class AlbastiniSampler(WorldSampler):
    """Worlds for an Albastini decision (module docstring)."""

    def __init__(self, view: Mapping[str, Any], options: Mapping[str, Any],
                 rng: random.Random) -> None:
        self.view = view
        self.options = dict(options)
        self.rng = rng
        k = AlbastiniKnowledge(view)
        self.k = k
        n = k.n
        self.places: list[tuple[str, int]] = [("hand", s) for s in range(n) if s != k.me]
        self.sizes = [k.sizes[s] for s in range(n) if s != k.me]
        stock_unknown = view["stock_size"] - (1 if k.bottom_in_stock else 0)
        if k.phase == "bidding":
            self.places.append(("turned", -1))
            self.sizes.append(1)
            stock_unknown = view["stock_size"] - 1
        self.places.append(("stock", -1))
        self.sizes.append(stock_unknown)
        self.pool = list(k.unseen)
        owner: dict[int, int] = {}
        for seat, cards in k.pinned.items():
            for c in cards:
                self.pool.append(c)
                owner[c] = seat
        self.template: AlbastiniDeal | None = None
        self.allowed = []
        for c in self.pool:
            if c in owner:
                self.allowed.append(1 << self.places.index(("hand", owner[c])))
            else:
                self.allowed.append((1 << len(self.places)) - 1)

    def sample(self) -> Deal:
        """A world. In the play phase the first world, replayed through the public
        history, is kept as a template and later worlds are copies of it with the hidden
        cards redealt in place — the other hands and the unknown rest of the stock (above
        the face-up bottom card) — which is all that differs between two worlds of one
        view; their record (the hands as dealt) stays the template's, which search never
        reads. During the bidding the turned card differs too: every world is replayed."""
        got = deal_constrained(self.pool, self.sizes, self.allowed, self.rng)
        if self.k.phase == "bidding":
            return self._replay(got)
        if self.template is None:
            self.template = self._replay(got)
            got = deal_constrained(self.pool, self.sizes, self.allowed, self.rng)
        world = self.template.copy()
        assert isinstance(world, AlbastiniDeal)
        rest: list[int] = []
        for i, (kind, s) in enumerate(self.places):
            if kind == "hand":
                world.hands[s] = got[i]
            else:
                rest = got[i]
        bottom = [self.k.bottom] if self.k.bottom_in_stock else []
        world.stock = world.stock[:world.stock_pos] + rest + bottom
        return world

    def _replay(self, got: list[list[int]]) -> AlbastiniDeal:
        """A new deal of the dealt cards ``got`` taken through the view's history."""
        k = self.k
        n = k.n
        current: dict[int, list[int]] = {k.me: list(k.hand)}
        turned = k.turned
        stock_rest: list[int] = []
        for i, (kind, s) in enumerate(self.places):
            if kind == "hand":
                current[s] = got[i]
            elif kind == "turned":
                turned = got[i][0]
            else:
                stock_rest = got[i]
        # each seat's cards in the order it came to play them: played, then held
        drawn_round: dict[int, list[int]] = {}
        dealt: list[list[int]] = []
        for s in range(n):
            timeline = list(k.played_by[s]) + current[s]
            if s == k.me:
                mine_drawn = [c for rnd in k.draws for seat, c in rnd if seat == s]
                rest = [c for c in timeline if c not in mine_drawn]
                draws = mine_drawn
            else:
                rest = list(timeline)
                draws = []
            bid = next((c for seat, c in k.bids if seat == s and c >= 0), -1)
            if k.exchanged_by == s:
                rest.remove(k.turned)
                rest.append(k.bottom)  # his bid card, now the face-up card
            last_draw = -1
            if k.bottom_drawn_by == s and s != k.me:
                rest.remove(k.bottom)
                last_draw = k.bottom
            if bid >= 0 and bid in rest:
                rest.remove(bid)
                rest.insert(0, bid)
            if s == k.me:
                hand5 = rest
            else:
                hand5, draws = rest[:5], rest[5:]
                if last_draw >= 0:
                    draws.append(last_draw)
            dealt.append(hand5)
            drawn_round[s] = draws
        stock: list[int] = []
        for r, rnd in enumerate(k.draws):
            for seat, _ in rnd:
                c = drawn_round[seat][r]
                if c != k.bottom or k.bottom_drawn_by is None:
                    stock.append(c)
        stock = [c for c in stock if c != k.bottom] + stock_rest
        deal = new_deal(self.view, self.options, [[name(c) for c in h] for h in dealt],
                        {"stock": [name(c) for c in stock], "trump_card": name(turned)})
        assert isinstance(deal, AlbastiniDeal)
        for seat, c in k.bids:
            deal.apply(seat, Action.bid(name(c)) if c >= 0 else Action.pass_())
        for _, plays, _ in k.tricks:
            for seat, c in plays:
                deal.apply(seat, Action.play(name(c)))
        for seat, c in k.trick:
            deal.apply(seat, Action.play(name(c)))
        return deal
