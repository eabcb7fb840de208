"""AI for Tarabish.

**Auction** (rules; also the model of the other bidders inside search rollouts): each suit
is rated as trump from the six cards a bidder sees — trumps J 4.5, 9 3.5, A 2.5, T 2,
K and Q 1.5, others 1; side aces 1.5, a ten with its ace 1, a bare ten 0.3, a king 0.2 —
and the best suit is called when its rating reaches :data:`CALL_AT` (the dealer, when
forced, calls his best suit). ``search`` calls with the evaluator of
:mod:`games.ai.tarabish_bids`, fitted beforehand on playouts of many auctions (searching
the call over a decision's few sampled worlds did no better than the rule); the
``oracle`` searches it in the real deal.

**Runs and bella**: always declared / announced when allowed (the points are free).

**Card play** (rules and rollouts, :func:`pick_card`), among the cards the duty to follow,
trump and overtrump leaves: a calling-side player draws trumps with a master trump; anyone
cashes a side-suit master that cannot be ruffed; otherwise leads the cheapest card of a
side suit (not a bare ten). Following: with the partner winning safely, the last player
smears his richest card (never the J or 9 of trumps), others play cheap; against the
opponents, the last player wins as cheaply as possible, others win with a card that cannot
be beaten later or else duck with their cheapest card.

**Endgame** (search rollouts): the last :data:`~games.ai.tarabish_endgame.ENDGAME_TRICKS`
tricks of every rollout are solved exactly, both sides seeing all the world's hands
(:mod:`games.ai.tarabish_endgame`), instead of being played by the policy.

**Inference** (rules knowledge and search sampling): a player who did not follow is void
in that suit; one who neither followed nor trumped is void in trumps too (unless the
partner exception freed him); one who played a trump that did not beat the best trump
when he had to head it holds no higher trump; with ``must_head_plain`` the same for the
led suit. Declared runs are dealt to their declarers (the winner's shown runs exactly),
a bella announced with the first card pins the other card, and the caller's hand is
weighted towards the trump suit.

**Likelihood** (search): each sampled world is weighted by how well it explains the other
players' bids and cards — ×:data:`SURPRISE` for each one the rule-based player would not
have made holding that world's cards, with that player's knowledge at the time
(:func:`rule_card`; for a bid, six of the bidder's nine cards, the kitty being three random
ones). A partner's or opponent's choice of card thus moves the worlds towards the hands
that would choose it; no world is ruled out, as people do not play by the rule.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.ai.adapter import GameAI, WorldSampler
from games.ai.sampling import ImpossibleDeal, deal_constrained
from games.ai.tarabish_bids import auction_context, learned_call
from games.ai.tarabish_endgame import finish_exactly, in_endgame
from games.ai.world import new_deal
from games.base import Deal
from games.cards import RANKS_36, SUITS, card, deck, name
from games.errors import GameError, IllegalAction
from games.tarabish import (
    BIT_OF,
    CARD_OF,
    KING,
    POINTS,
    QUEEN,
    RUN_3,
    RUN_4,
    TarabishDeal,
    sequences,
)

WIN_BONUS = 20.0
"""Rollouts add this to the side that scores more in the deal."""

CALL_AT = 8.0
"""A bidder calls his best suit when its rating (module docstring) reaches this."""

SURPRISE = 0.5
"""Likelihood weighting of sampled worlds: a world's weight is multiplied by this for every
bid and card of another player that the rule-based player (:func:`auction_rule`,
:func:`pick_card` with that player's knowledge at the time) would not have made holding
that world's cards. Worlds that explain what the others did count more; none is ruled
out (people do not play by the rule)."""

SAMPLE_TRIES = 300
"""Draws a sampler may make for one world before giving up (declared runs of several
players can leave few deals that plant them all; most worlds take one draw)."""

_TRUMP_RATING = {"J": 4.5, "9": 3.5, "A": 2.5, "T": 2.0, "K": 1.5, "Q": 1.5}
_FULL = deck(RANKS_36)


def suit_rating(cards: Sequence[int], suit: int) -> float:
    """How good ``suit`` is as trump for a bidder seeing ``cards`` (card ints)."""
    score = 0.0
    ranks = [{"23456789TJQKA"[c % 13] for c in cards if c // 13 == s} for s in range(4)]
    for s in range(4):
        if s == suit:
            score += sum(_TRUMP_RATING.get(r, 1.0) for r in ranks[s])
        else:
            r = ranks[s]
            score += 1.5 * ("A" in r) + (1.0 if "A" in r else 0.3) * ("T" in r) + 0.2 * ("K" in r)
    return score


def auction_rule(cards: Sequence[int], forced: bool) -> int:
    """The suit to call from the six visible ``cards`` (``-1``: pass)."""
    best = max(range(4), key=lambda s: (suit_rating(cards, s), -s))
    if forced or suit_rating(cards, best) >= CALL_AT:
        return best
    return -1


# -- the card policy ---------------------------------------------------------------------------
def _points(c: int, trump: int) -> int:
    t = c // 13 == trump
    return POINTS[t][BIT_OF[t][c]]


def _strength(c: int, trump: int) -> int:
    t = c // 13 == trump
    return BIT_OF[t][c] + (100 if t else 0)


def pick_card(
    legal: Sequence[int],
    h: Sequence[int],
    trump: int,
    trick: Sequence[tuple[int, int]],
    me: int,
    calling: bool,
    top: Sequence[int],
    danger: Sequence[bool],
) -> int:
    """The policy's card among ``legal`` (module docstring).

    ``h[s]``: my suit masks (bit = strength in the suit's order). ``top[s]``: the highest
    strength bit of suit ``s`` a player still to play (leading: any other player) may hold,
    ``-1`` if none. ``danger[s]``: an opponent still to play may ruff ``s``.
    """
    if len(legal) == 1:
        return legal[0]
    if not trick:
        return _lead(legal, h, trump, calling, top, danger)
    led = trick[0][1] // 13
    best_key, best_seat = -1, -1
    for seat, c in trick:
        s = c // 13
        t = s == trump
        key = (100 + BIT_OF[1][c]) if t else (BIT_OF[0][c] if s == led else -1)
        if key > best_key:
            best_key, best_seat = key, seat
    last = len(trick) == 3
    by_points = sorted(legal, key=lambda c: (_points(c, trump), _strength(c, trump)))
    if best_seat == me ^ 2:
        safe = last
        if not safe and best_key < 100:
            safe = best_key >= top[led] and not danger[led]
        elif not safe:
            safe = best_key - 100 >= top[trump]
        if safe and last:
            rich = [c for c in legal if not (c // 13 == trump and BIT_OF[1][c] >= 7)]
            if rich:
                return max(rich, key=lambda c: (_points(c, trump), -_strength(c, trump)))
        return by_points[0]
    winners = []
    for c in legal:
        s = c // 13
        if s == trump:
            key = 100 + BIT_OF[1][c]
        elif s == led:
            key = BIT_OF[0][c]
        else:
            continue
        if key > best_key:
            winners.append(c)
    if not winners:
        return by_points[0]
    winners.sort(key=lambda c: _strength(c, trump))
    if last:
        return winners[0]
    for c in winners:
        s = c // 13
        bit = BIT_OF[s == trump][c]
        if s == trump:
            if bit >= top[trump]:
                return c
        elif bit >= top[s] and not danger[s]:
            return c
    trick_points = sum(_points(c, trump) for _, c in trick)
    if trick_points >= 10:
        return winners[-1]
    return by_points[0]


def _lead(legal: Sequence[int], h: Sequence[int], trump: int, calling: bool,
          top: Sequence[int], danger: Sequence[bool]) -> int:
    mine = h[trump] if trump >= 0 else 0
    if calling and mine and top[trump] >= 0:
        bit = mine.bit_length() - 1
        if bit >= top[trump]:
            return _card_at(trump, bit, trump)
    best = -1
    for c in legal:
        s = c // 13
        if s == trump or danger[s]:
            continue
        bit = BIT_OF[0][c]
        if bit == h[s].bit_length() - 1 and bit >= top[s] and (
                best < 0 or _points(c, trump) > _points(best, trump)):
            best = c
    if best >= 0:
        return best

    def key(c: int) -> tuple[int, int, int]:
        s = c // 13
        bare_ten = s != trump and BIT_OF[0][c] == 7 and not h[s] >> 8 & 1
        return (s == trump, _points(c, trump) + 20 * bare_ten, _strength(c, trump))

    return min(legal, key=key)


def _card_at(suit: int, bit: int, trump: int) -> int:
    return CARD_OF[suit == trump][suit][bit]


def later_seats(seat: int, leader: int, in_trick: int) -> list[int]:
    """The players still to play to the trick after ``seat`` (``in_trick`` cards already
    in it, led by ``leader``); when ``seat`` leads, the other three."""
    if in_trick:
        return [(leader + i) % 4 for i in range(in_trick + 1, 4)]
    return [(seat + i) % 4 for i in (1, 2, 3)]


def world_top_and_danger(d: TarabishDeal, seat: int) -> tuple[list[int], list[bool]]:
    hands = d.hands
    later = later_seats(seat, d.leader, len(d.trick))
    trump = d.trump
    top = [-1, -1, -1, -1]
    danger = [False, False, False, False]
    for o in later:
        h = hands[o]
        opp = (o - seat) & 1
        for s in range(4):
            m = h[s]
            if m:
                b = m.bit_length() - 1
                if b > top[s]:
                    top[s] = b
            elif opp and h[trump]:
                danger[s] = True
    return top, danger


def world_step(d: TarabishDeal) -> None:
    """One policy decision in a world (auction or card), with runs and bella claimed."""
    if d.phase == "auction":
        seat = d.bidder
        forced = seat == d.dealer and not d.opts.dealer_may_pass
        d.fast_bid(auction_rule(d.dealt[seat][:6], forced))
        return
    seat = d.turn
    if not d.completed and d.may_declare(seat):
        d.declared.append(seat)
    legal = d.fast_legal(seat)
    if len(legal) == 1:
        c = legal[0]
    else:
        top, danger = world_top_and_danger(d, seat)
        assert d.caller is not None
        c = pick_card(legal, d.hands[seat], d.trump, d.trick, seat,
                      (seat ^ d.caller) & 1 == 0, top, danger)
    if d.bella_seat is None and d.completes_bella(seat, c):
        d.bella_seat = seat
    d.fast_play(c)


_BY_STRENGTH = [[[c for c in reversed(_row)] for _row in _rows] for _rows in CARD_OF]
"""Per trump flag and suit: the suit's cards from the strongest down."""

_SUIT_MASK = [sum(1 << c for c in _FULL if c // 13 == s) for s in range(4)]
"""Per suit: the bitmask of its card ints."""

_ALL_MASK = sum(_SUIT_MASK)
"""The bitmask of every card int of the pack."""


def seen_top_and_danger(seat: int, later: Sequence[int], trump: int, pool: int,
                        forbidden: Sequence[int], voids: Sequence[int]
                        ) -> tuple[list[int], list[bool]]:
    """:func:`pick_card`'s ``top`` and ``danger`` as ``seat`` sees them: ``pool`` is the
    mask of the card ints a player in ``later`` may still hold, ``forbidden[o]`` the cards
    seat ``o`` has shown he cannot hold and ``voids[o]`` the suits he has shown void in
    (bits). A suit's top is its strongest pool card some later player may hold; a side
    suit is in danger when a later opponent void in it may still hold a pool trump."""
    top = [-1, -1, -1, -1]
    for s in range(4):
        t = s == trump
        for c in _BY_STRENGTH[t][s]:
            if pool >> c & 1 and any(not forbidden[o] >> c & 1 for o in later):
                top[s] = BIT_OF[t][c]
                break
    danger = [False, False, False, False]
    trumps_out = _SUIT_MASK[trump] & pool if trump >= 0 else 0
    for o in later:
        if (o - seat) & 1 and trumps_out & ~forbidden[o]:
            for s in range(4):
                if s != trump and voids[o] >> s & 1:
                    danger[s] = True
    return top, danger


def rule_card(d: TarabishDeal, seat: int, known: int,
              before: tuple[tuple[int, ...], tuple[int, ...]],
              legal: Sequence[int] | None = None) -> int:
    """The card the rule-based player in ``seat`` plays now in world ``d``, knowing the
    cards of the mask ``known`` (his hand and every card played) and the public facts
    ``before`` (:attr:`TarabishKnowledge.before`): :func:`pick_card` with the ``top`` and
    ``danger`` his own view gives (:func:`seen_top_and_danger`). ``legal``: his legal
    cards, when the caller has them already."""
    if legal is None:
        legal = d.fast_legal(seat)
    if len(legal) == 1:
        return legal[0]
    forbidden, voids = before
    later = later_seats(seat, d.leader, len(d.trick))
    top, danger = seen_top_and_danger(seat, later, d.trump, _ALL_MASK & ~known, forbidden,
                                      voids)
    assert d.caller is not None
    return pick_card(legal, d.hands[seat], d.trump, d.trick, seat,
                     (seat ^ d.caller) & 1 == 0, top, danger)


# -- what a view tells ---------------------------------------------------------------------------
class TarabishKnowledge:
    """What a seat knows from a Tarabish view (see the module docstring)."""

    def __init__(self, view: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.trump = SUITS.index(view["trump"]) if view.get("trump") else -1
        self.caller: int | None = view.get("caller")
        self.hand = [card(c) for c in view["hand"]]
        self.sizes = list(view["hand_sizes"])
        self.tricks = [[(s, card(c)) for s, c in t["cards"]] for t in view["tricks"]]
        self.trick = [(s, card(c)) for s, c in view["trick"]["cards"]]
        self.leader: int = view["trick"]["leader"]
        px = bool(options.get("partner_exception"))
        head_plain = bool(options.get("must_head_plain"))
        self.forbidden = [0, 0, 0, 0]  # bitmask over card ints each seat cannot hold
        self.voids = [0, 0, 0, 0]  # suits each seat has shown it lacks
        self.played_by: list[list[int]] = [[], [], [], []]
        self.before: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        """Per card played, in order: what the public knew of the player's holdings just
        before it (each seat's forbidden-card mask and void-suit bits)."""
        seen = set(self.hand)
        trump = self.trump
        for plays in [*self.tricks, self.trick]:
            if not plays:
                continue
            led = plays[0][1] // 13
            best_key, best_seat, best_trump = -1, -1, -1
            for i, (seat, c) in enumerate(plays):
                self.before.append((tuple(self.forbidden), tuple(self.voids)))
                seen.add(c)
                self.played_by[seat].append(c)
                s = c // 13
                t = s == trump
                bit = BIT_OF[t][c]
                if i:
                    free = px and best_seat == seat ^ 2
                    if s != led:
                        self._forbid_suit(seat, led)
                        if not t and trump >= 0 and not free:
                            self._forbid_suit(seat, trump)
                    if t and best_trump >= 0 and bit < best_trump and not free:
                        self._forbid_above(seat, trump, best_trump, True)
                    if (not t and s == led and head_plain and best_trump < 0 and not free
                            and bit < best_key):
                        self._forbid_above(seat, led, best_key, False)
                key = (100 + bit) if t else (bit if s == led else -1)
                if key > best_key:
                    best_key, best_seat = key, seat
                    if t:
                        best_trump = bit
        runs = view.get("runs") or {}
        self.shown: list[int] = [card(c) for run in runs.get("shown", []) for c in run]
        self.run_winner: int | None = runs.get("winner")
        self.declared: dict[int, int] = {d["seat"]: d["value"] for d in runs.get("declared", [])}
        self.bella: int | None = view.get("bella")
        self.pinned: dict[int, set[int]] = {}
        if self.run_winner is not None:
            for c in self.shown:
                if c not in seen:
                    self.pinned.setdefault(self.run_winner, set()).add(c)
            for run in runs.get("shown", []):  # shown runs are whole sequences
                ends = [card(run[0]), card(run[-1])]
                hi, lo = max(ends), min(ends)
                for c in (lo - 1, hi + 1):
                    if c // 13 == lo // 13 and 4 <= c % 13 <= 12:
                        self.forbidden[self.run_winner] |= 1 << c
        if self.bella is not None and trump >= 0:
            for r in (KING, QUEEN):
                c = trump * 13 + r
                if c not in seen:
                    self.pinned.setdefault(self.bella, set()).add(c)
        pinned_all = {c for cs in self.pinned.values() for c in cs}
        self.unseen = [c for c in _FULL if c not in seen and c not in pinned_all]

    def _forbid_suit(self, seat: int, suit: int) -> None:
        self.voids[seat] |= 1 << suit
        for c in range(suit * 13, suit * 13 + 13):
            self.forbidden[seat] |= 1 << c

    def _forbid_above(self, seat: int, suit: int, bit: int, trump: bool) -> None:
        for b in range(bit + 1, 9):
            self.forbidden[seat] |= 1 << CARD_OF[trump][suit][b]

    def may_hold(self, seat: int, c: int) -> bool:
        return not self.forbidden[seat] >> c & 1

    def top_and_danger(self) -> tuple[list[int], list[bool]]:
        """:func:`seen_top_and_danger` for this seat: the pool is every unseen card and
        the pinned cards of the players still to play."""
        later = later_seats(self.me, self.leader, len(self.trick))
        pool = 0
        for c in self.unseen:
            pool |= 1 << c
        for s, cs in self.pinned.items():
            if s in later:
                for c in cs:
                    pool |= 1 << c
        return seen_top_and_danger(self.me, later, self.trump, pool, self.forbidden,
                                   self.voids)

    def masks(self) -> list[int]:
        h = [0, 0, 0, 0]
        for c in self.hand:
            s = c // 13
            h[s] |= 1 << BIT_OF[s == self.trump][c]
        return h


# -- the adapter ---------------------------------------------------------------------------------
class TarabishAI(GameAI):
    game = "tarabish"

    def rules_choose(self, view: Mapping[str, Any], legal: Sequence[Action],
                     rng: random.Random, options: Mapping[str, Any]) -> Action:
        types = {a.type for a in legal}
        if "declare_runs" in types:
            return Action("declare_runs")
        if "call_trump" in types:
            forced = Action.pass_() not in legal
            suit = auction_rule([card(c) for c in view["hand"]], forced)
            return Action.pass_() if suit < 0 else Action.call_trump(SUITS[suit])
        k = TarabishKnowledge(view, options)
        return self._with_bella(legal, self.rules_card(k, legal))

    def rules_card(self, k: TarabishKnowledge, legal: Sequence[Action]) -> int:
        cards = sorted({card(a.card) for a in legal if a.type == "play" and a.card})
        top, danger = k.top_and_danger()
        calling = k.caller is not None and (k.caller ^ k.me) & 1 == 0
        return pick_card(cards, k.masks(), k.trump, k.trick, k.me, calling, top, danger)

    @staticmethod
    def _with_bella(legal: Sequence[Action], c: int) -> Action:
        announced = Action.play(name(c), bella=True)
        return announced if announced in legal else Action.play(name(c))

    def search_shortcut(self, view: Mapping[str, Any], legal: Sequence[Action],
                        rng: random.Random, options: Mapping[str, Any]) -> Action | None:
        if any(a.type == "declare_runs" for a in legal):
            return Action("declare_runs")
        return None

    def fitted_choice(self, view: Mapping[str, Any], legal: Sequence[Action],
                      options: Mapping[str, Any]) -> Action | None:
        """The trump call is the fitted evaluator's (:mod:`games.ai.tarabish_bids`:
        measured better than searching it over 32 sampled worlds, and it costs nothing)."""
        if any(a.type == "call_trump" for a in legal):
            return self.fitted_call(view, legal, options)
        return None

    @staticmethod
    def fitted_call(view: Mapping[str, Any], legal: Sequence[Action],
                    options: Mapping[str, Any]) -> Action:
        """The call :func:`~games.ai.tarabish_bids.learned_call` makes from the view."""
        place = (view["seat"] - view["eldest"]) % 4
        context = auction_context(place, bool(options.get("dealer_may_pass")))
        forced = Action.pass_() not in legal
        suit = learned_call([card(c) for c in view["hand"]], context, forced)
        return Action.pass_() if suit < 0 else Action.call_trump(SUITS[suit])

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action],
                   options: Mapping[str, Any]) -> list[Action]:
        if view["phase"] == "auction":
            first = self.rules_choose(view, legal, random.Random(0), options)
            return [first, *[a for a in legal if a != first]]
        k = TarabishKnowledge(view, options)
        first = Action.play(name(self.rules_card(k, legal)))
        out = [first]
        for a in legal:
            if a.type == "play" and not a.bella and a != first:
                out.append(a)
        return out

    def decorate(self, view: Mapping[str, Any], legal: Sequence[Action], chosen: Action,
                 rng: random.Random, options: Mapping[str, Any]) -> Action:
        if chosen.type == "play" and chosen.card:
            return self._with_bella(legal, card(chosen.card))
        return chosen

    def sampler(self, view: Mapping[str, Any], legal: Sequence[Action],
                options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        return TarabishSampler(view, options, rng)

    def step(self, world: Deal, seat: int, action: Action) -> None:
        assert isinstance(world, TarabishDeal)
        if action.type == "play" and action.card:
            c = card(action.card)
            if world.bella_seat is None and world.completes_bella(seat, c):
                world.bella_seat = seat
            world.fast_play(c)
        elif action.type == "pass":
            world.fast_bid(-1)
        elif action.type == "call_trump" and action.suit:
            world.fast_bid(SUITS.index(action.suit))
        else:
            world.apply(seat, action)

    def rollout(self, world: Deal, seat: int, rng: random.Random) -> float:
        assert isinstance(world, TarabishDeal)
        while world.phase != "over":
            if in_endgame(world):
                finish_exactly(world, seat & 1)
                break
            world_step(world)
        score = world.outcome()[1] or [0, 0]
        diff = score[seat & 1] - score[1 - (seat & 1)]
        return diff + (WIN_BONUS if diff > 0 else -WIN_BONUS if diff < 0 else 0.0)


class TarabishSampler(WorldSampler):
    """Worlds for a Tarabish decision (constraints in the module docstring)."""

    def __init__(self, view: Mapping[str, Any], options: Mapping[str, Any],
                 rng: random.Random, revealed: Mapping[int, Sequence[int]] | None = None
                 ) -> None:
        """``revealed``: for measurement only (``bench/tarabish_knowledge.py``), other
        seats' hands shown to the sampler — seat → the card ints he holds now — which
        every world of the card play then deals exactly; a player never has them."""
        self.view = view
        self.options = dict(options)
        self.rng = rng
        k = TarabishKnowledge(view, options)
        self.k = k
        auction = view["phase"] == "auction"
        self.revealed = {} if auction else {s: list(h) for s, h in (revealed or {}).items()
                                            if s != k.me}
        shown = {c for h in self.revealed.values() for c in h}
        self.pool = [c for c in k.unseen if c not in shown]
        """The unseen cards the worlds deal at random (the revealed hands left out)."""
        self.places = [s for s in range(4) if s != k.me and s not in self.revealed]
        self.sizes = [9 if auction else k.sizes[s] - len(k.pinned.get(s, ())) for s in
                      self.places]
        if auction:  # my own kitty is unknown to me
            self.places.append(k.me)
            self.sizes.append(3)
        self.allowed = [sum(1 << i for i, s in enumerate(self.places) if k.may_hold(s, c))
                        for c in self.pool]
        self.weights: list[list[float]] | None = None
        if k.caller is not None and k.caller != k.me and k.trump >= 0:
            self.weights = [[2.0 if (s == k.caller and u == k.trump) else 1.0
                             for u in range(4)] for s in self.places]
        self.auto_declare = bool(options.get("auto_declare_runs"))
        dealer = view["dealer"]
        may_pass = bool(options.get("dealer_may_pass"))
        self.bids = [(seat, -1 if bid == "pass" else SUITS.index(bid),
                      seat == dealer and not may_pass)
                     for seat, bid in view["auction"] if seat != k.me]
        self.first_turn_done = {s for s, _ in (k.tricks[0] if k.tricks else k.trick)}
        self.surprises = 0
        """How many of the other players' bids and cards the world last drawn does not
        explain (its :attr:`weight` is :data:`SURPRISE` to this power)."""

    def _runs_ok(self, dealt: list[list[int]]) -> bool:
        """The dealt hands agree with the public run facts (declared values, and with
        automatic declaration: no run for a player whose first turn passed silently)."""
        k = self.k
        for seat in range(4):
            if seat == k.me:
                continue
            seqs = sequences(dealt[seat])
            best = max((RUN_4 if hi - lo >= 3 else RUN_3 for _, lo, hi in seqs), default=0)
            if seat in k.declared:
                if best != k.declared[seat]:
                    return False
            elif self.auto_declare and seat in self.first_turn_done and seqs:
                return False
        return True

    def _bid_surprises(self, dealt: list[list[int]], seen_first: bool = False) -> int:
        """How many other bidders' bids :func:`auction_rule` would not have made from six
        of their dealt cards: a random six, put first as dealt (the kitty was three random
        cards of the nine), or with ``seen_first`` the first six as dealt (the real
        deal's record order)."""
        rng = self.rng
        count = 0
        for seat, bid, forced in self.bids:
            hand = dealt[seat]
            if not seen_first:
                rng.shuffle(hand)
            count += auction_rule(hand[:6], forced) != bid
        return count

    def _draw(self) -> list[list[int]]:
        """Full dealt hands (record order: for me, the six seen cards first)."""
        k = self.k
        hands = deal_constrained(self.pool, self.sizes, self.allowed, self.rng, self.weights)
        dealt: list[list[int]] = [[] for _ in range(4)]
        for s, held in self.revealed.items():
            dealt[s] = list(k.played_by[s]) + held
        for i, s in enumerate(self.places):
            if s != k.me:
                dealt[s] = list(k.played_by[s]) + sorted(k.pinned.get(s, ())) + hands[i]
        mine = list(k.played_by[k.me]) + k.hand
        if k.me in self.places:  # the auction: my kitty is drawn too
            mine = k.hand + hands[3]
        dealt[k.me] = mine
        return dealt

    def sample(self) -> Deal:
        """A world; declared runs are planted and the run facts checked, redrawing (up to
        a limit) until the world's public runs are the view's. Its :attr:`weight` is
        :data:`SURPRISE` to the number of the other players' bids and cards the
        rule-based player would not have made in it."""
        k = self.k
        want = self.view.get("runs")
        fallback: TarabishDeal | None = None
        for _ in range(SAMPLE_TRIES):
            dealt = self._draw()
            if k.declared:
                try:
                    dealt = self._plant_runs(dealt)
                except ImpossibleDeal:  # this planting blocks a forced card: plant again
                    continue
            ok = not (k.declared or self.auto_declare) or self._runs_ok(dealt)
            if not ok and fallback is not None:
                continue
            surprises = self._bid_surprises(dealt)
            try:
                world, card_surprises = self._replay(dealt)
            except GameError:  # a declared run missing from this draw
                continue
            self.surprises = surprises + card_surprises
            self.weight = SURPRISE ** self.surprises
            if ok and world.runs_public() == want:
                return world
            fallback = world
        if fallback is None:  # pragma: no cover - the run facts admit no deal we can find
            raise ImpossibleDeal("no world agrees with the declared runs")
        return fallback

    def _winner_key(self) -> tuple[int, int] | None:
        """The run winner's best-run key (as the engine compares runs) and his place in
        the playing order, once runs are settled and shown."""
        k = self.k
        if k.run_winner is None or not k.shown:
            return None
        runs = (self.view.get("runs") or {}).get("shown", [])
        best = -1
        for run in runs:
            cards = [card(c) for c in run]
            hi = max(c % 13 for c in cards)
            best = max(best, (len(cards) >= 4) * 100 + hi * 2 + (cards[0] // 13 == k.trump))
        eldest = self.view["eldest"]
        return best, (k.run_winner - eldest) % 4

    def _plant_runs(self, dealt: list[list[int]]) -> list[list[int]]:
        """Redraw with a run of the declared value planted in each declarer's hand (cards
        he played or that are still unseen and allowed to him), chosen so that it does not
        beat the winner's shown run, and not extended by the cards dealt around it."""
        k = self.k
        pins: dict[int, set[int]] = {}
        barred: dict[int, set[int]] = {}
        taken: set[int] = set()
        unseen = set(self.pool)
        winner = self._winner_key()
        eldest = self.view["eldest"]
        tie_none = self.options.get("run_tie") == "none_score"
        for seat, value in k.declared.items():
            if seat == k.me or seat == k.run_winner or seat in self.revealed:
                continue
            length = 3 if value == RUN_3 else 4
            played = set(k.played_by[seat])
            options = []
            for s in range(4):
                for low in range(4, 13 - length + 1):
                    high = low + length - 1
                    cards = [s * 13 + r for r in range(low, high + 1)]
                    if not all(c in played or (c in unseen and c not in taken
                                               and k.may_hold(seat, c)) for c in cards):
                        continue
                    below, above = s * 13 + low - 1, s * 13 + high + 1
                    if (length == 3 and low > 4 and below in played) or (
                            high < 12 and above in played):
                        continue  # the seat's run would be longer than declared
                    if winner is not None:
                        key = (length >= 4) * 100 + high * 2 + (s == k.trump)
                        later = (seat - eldest) % 4 > winner[1]
                        if key > winner[0] or (key == winner[0] and (tie_none or not later)):
                            continue
                    bar = {above} if high < 12 else set()
                    if length == 3 and low > 4:
                        bar.add(below)
                    options.append((cards, bar))
            if not options:
                continue
            chosen, bar = self.rng.choice(options)
            need = {c for c in chosen if c in unseen}
            if len(need) > self.sizes[self.places.index(seat)]:
                continue
            pins[seat] = need
            barred[seat] = bar
            taken |= need
        cards = [c for c in self.pool if c not in taken]
        sizes = [self.sizes[i] - len(pins.get(s, ())) for i, s in enumerate(self.places)]
        allowed = [sum(1 << i for i, s in enumerate(self.places)
                       if k.may_hold(s, c) and c not in barred.get(s, ())) for c in cards]
        hands = deal_constrained(cards, sizes, allowed, self.rng, self.weights)
        dealt = [list(h) for h in dealt]
        for i, s in enumerate(self.places):
            if s != k.me:
                dealt[s] = (list(k.played_by[s]) + sorted(k.pinned.get(s, ()))
                            + sorted(pins.get(s, ())) + hands[i])
        if k.me in self.places:  # the auction: my kitty is drawn too
            dealt[k.me] = k.hand + hands[3]
        return dealt

    def unexplained(self, dealt: list[list[int]]) -> int:
        """How many of the other players' bids and cards the rule-based player would not
        have made had the hands been ``dealt`` in this order (each bidder seeing his
        first six) — for a bench and a test that check the likelihood against the real
        deal."""
        return self._bid_surprises(dealt, seen_first=True) + self._replay(dealt)[1]

    def _replay(self, dealt: list[list[int]]) -> tuple[TarabishDeal, int]:
        """The world dealt ``dealt`` taken through the view's history, and how many of the
        other players' cards in it the rule-based player would not have played.

        The history is replayed on the engine's fast paths (as rollouts play), each card
        checked against the world's legal cards and each declaration against the world's
        runs: a world in which the view's history is not legal raises
        :class:`~games.errors.IllegalAction`, as the engine itself would."""
        view = self.view
        me = self.k.me
        held = [0, 0, 0, 0]
        for seat, cards in enumerate(dealt):
            for c in cards:
                held[seat] |= 1 << c
        played = 0
        surprises = 0
        deal = new_deal(view, self.options, [[name(c) for c in h] for h in dealt])
        assert isinstance(deal, TarabishDeal)
        for _, bid in view["auction"]:
            deal.fast_bid(-1 if bid == "pass" else SUITS.index(bid))
        declared = [d["seat"] for d in (view.get("runs") or {}).get("declared", [])]
        bella = view.get("bella")
        auto_bella = bool(self.options.get("auto_bella"))
        plays = [p for t in view["tricks"] for p in t["cards"]] + view["trick"]["cards"]
        for j, (seat, text) in enumerate(plays):
            self._declare(deal, seat, declared)
            c = card(text)
            legal = deal.fast_legal(seat)
            if c not in legal:
                raise IllegalAction(f"{text} is not legal in this world")
            if seat != me and rule_card(deal, seat, held[seat] | played,
                                        self.k.before[j], legal) != c:
                surprises += 1
            held[seat] &= ~(1 << c)
            played |= 1 << c
            if deal.bella_seat is None and (
                    (seat == bella and not auto_bella and deal.bella_refusal(seat, c) is None)
                    or (auto_bella and deal.completes_bella(seat, c))):
                deal.bella_seat = seat
            deal.fast_play(c)
        if deal.phase == "play":
            self._declare(deal, deal.turn, declared)
        return deal, surprises

    @staticmethod
    def _declare(deal: TarabishDeal, seat: int, declared: Sequence[int]) -> None:
        """``seat`` declares his runs now if the view says he did and he has not yet."""
        if deal.completed or seat not in declared or seat in deal.declared:
            return
        if not deal.may_declare(seat):
            raise IllegalAction("a declared run is missing from this world")
        deal.declared.append(seat)
