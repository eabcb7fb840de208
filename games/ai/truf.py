"""AI for Truf.

**What a player wants.** With the default ("difference") and ``zero_bid_bonus`` scoring a
player's score only grows with his tricks in main atas and only shrinks with them in main
bawah, so the card policy simply *takes* tricks in atas and *avoids* them in bawah. With
``exact`` scoring a player wants tricks while he has fewer than his bid and avoids them
once he has it.

**Bids** (rules): the hand is valued twice — tricks it would take if everybody plays high
(:func:`atas_tricks`) and tricks it cannot avoid if everybody plays low
(:func:`bawah_tricks`); the other players' total is modelled as the sum of as many random
cards' values (three: mean 12.7, deviation 5.9), which gives the chance of atas for each bid
value;
the bid with the best expected score is chosen (among equals, from the longest suit, the
trump it would name). Multi-card tables consider every legal combination. **Adjustment**
(bids total 13): by the smallest amount, up when the hand is worth more in atas, else
down.

**How the others bid** (search). The rule's bid model assumes the others bid like random
cards; `rules` players bid far lower (mostly court cards and aces). Search tells the two
apart from the public record of the game: every earlier deal's bid values by seat
(``earlier_bids`` in the view). Each other player is a mixture of a *rule-like* bidder
(the rule's bid) and a *random-like* one (a uniformly random legal bid); the chance that he
is rule-like starts at ½ and follows Bayes' rule over his earlier bid values, whose
likelihood under each kind is :func:`bid_value_odds` (the distribution of bid values each
kind gives over random hands). Search then compares the best bids for the others' total that
this mixture predicts (at most :data:`BID_CANDIDATES`) and the rule's own choice, and in
each world every other player bids as one kind or the other by that chance (a bid already
placed when the world is dealt, one still to come in its playout, the same for every
candidate). The adjustment is searched over the same worlds.

**Card play** (rules and rollouts): taking tricks — lead a card nobody still to play can
beat and nobody can trump, else lead low from the longest side suit; follow with the
cheapest card that wins for sure, last to play win as cheaply as possible, else play low;
void, trump with the cheapest winning trump. Avoiding tricks — lead the lowest card; follow
with the highest card that stays under the winning card (last to play with only winners:
the highest); void, throw the highest side card, never a trump while another card is left.

**Inference**: a player who did not follow is void in the led suit; a face-down card is a
trump, so a face-down card to a non-trump lead shows a void; a trump led before trumps were
broken shows a hand of trumps only; revealed bid cards stay with their owners until played.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from games.actions import Action
from games.ai.adapter import GameAI, WorldSampler
from games.ai.sampling import deal_constrained
from games.ai.world import new_deal
from games.base import HIDDEN, Deal
from games.cards import SUITS, card, name
from games.truf import CARD_VALUE, COURT, MIN_TOTAL, TrufDeal, random_bid, suits_in_play

BID_CANDIDATES = 6
"""Search compares at most this many of the bids best for the others' total it predicts
(plus the rule's own choice)."""

RULE_LIKE_PRIOR = 0.5
"""The chance that another player bids like the rule before any of his bids is seen."""

STYLE_SLACK = 0.1
"""A rule-like bidder's bid value is taken as random-like with this chance, so one odd bid
(a human's, a forced one) does not settle the question."""

STYLE_HANDS = 600
"""Random hands behind :func:`bid_value_odds` (a fifth of them with multi-card bids, whose
every bid is valued; a fixed seed: the tables are the same in every process)."""

CARD_MEAN, CARD_SD = 55 / 13, 3.42
"""Mean and deviation of one random card's bid value (a suit holds values 0-10 summing to
55): the other players' total is modelled as that many random cards (three of them: mean
12.7, deviation 5.9)."""


# -- valuing a hand --------------------------------------------------------------------------
def _by_suit(cards: Sequence[int]) -> list[list[int]]:
    out: list[list[int]] = [[], [], [], []]
    for c in cards:
        out[c // 13].append(c % 13)
    for lst in out:
        lst.sort()
    return out


def atas_tricks(cards: Sequence[int]) -> float:
    """Tricks a hand takes when everybody plays high: aces, guarded kings and queens, and
    length beyond four cards in a suit."""
    t = 0.0
    for lst in _by_suit(cards):
        n = len(lst)
        t += 1.0 * (12 in lst) + 0.7 * (11 in lst and n >= 2) + 0.35 * (10 in lst and n >= 3)
        t += 0.5 * max(0, n - 4)
    return t


def bawah_tricks(cards: Sequence[int]) -> float:
    """Tricks a hand cannot avoid when everybody plays low: high cards without low ones to
    hide under, worse in long suits."""
    t = 0.0
    for lst in _by_suit(cards):
        low = sum(1 for r in lst if r <= 5)
        high = sum(1 for r in lst if r >= 10)
        t += max(0.0, high - 0.6 * low) * 0.6 + 0.3 * max(0, len(lst) - 5)
    return t


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _score(diff: float) -> float:
    return 2.0 * diff if diff > 0 else diff


def random_cards_total(others: int) -> tuple[float, float]:
    """Mean and deviation of ``others`` random cards' bid values: the rule's model of the
    others' bid total."""
    return others * CARD_MEAN, math.sqrt(others) * CARD_SD


def bid_value(cards: Sequence[int], bid: Sequence[int], scoring: str,
              tricks: tuple[float, float] | None = None, others: int = 3,
              total: tuple[float, float] | None = None) -> float:
    """The expected score of bidding ``bid`` from ``cards`` under the bid-total model
    (``tricks``: the hand's ``(atas_tricks, bawah_tricks)`` when already known; ``total``:
    the mean and deviation of the others' bid total, by default
    :func:`random_cards_total`)."""
    v = sum(CARD_VALUE[c] for c in bid)
    mean, sd = total if total is not None else random_cards_total(others)
    p_atas = 1.0 - _phi((13.5 - v - mean) / max(sd, 0.5))
    ta, tb = tricks if tricks is not None else (atas_tricks(cards), bawah_tricks(cards))
    if scoring == "exact":
        atas = v if abs(ta - v) < 0.5 else -abs(ta - v) * (1 if ta > v else 2)
        bawah = v if abs(tb - v) < 0.5 else -abs(tb - v) * (2 if tb > v else 1)
    else:
        atas, bawah = _score(ta - v), _score(v - tb)
        if scoring == "zero_bid_bonus" and v == 0 and tb < 0.5:
            bawah = 5.0
    suit = bid[0] // 13
    length = sum(1 for c in cards if c // 13 == suit) if all(c // 13 == suit for c in bid) \
        else 0
    return p_atas * atas + (1 - p_atas) * bawah + 0.01 * length


def legal_bids(cards: Sequence[int], multi: bool) -> list[tuple[int, ...]]:
    """Every legal bid from ``cards``: one card, or with multi-card bids also two cards
    worth at least 5 and three worth at least 9."""
    bids: list[tuple[int, ...]] = [(c,) for c in cards]
    if multi:
        for size in (2, 3):
            bids += [b for b in combinations(cards, size)
                     if sum(CARD_VALUE[c] for c in b) >= MIN_TOTAL[size]]
    return bids


def ranked_bids(cards: Sequence[int], multi: bool, scoring: str,
                others: int = 3, total: tuple[float, float] | None = None
                ) -> list[tuple[int, ...]]:
    """Every legal bid from ``cards``, best first by :func:`bid_value`."""
    tricks = (atas_tricks(cards), bawah_tricks(cards))
    return sorted(legal_bids(cards, multi),
                  key=lambda b: (-bid_value(cards, b, scoring, tricks, others, total), b))


# -- how the others bid ---------------------------------------------------------------------------
BidOdds = tuple[tuple[float, ...], tuple[float, ...]]


@cache
def bid_value_odds(players: int, multi: bool, scoring: str) -> BidOdds:
    """``(rule_like, random_like)``: the probability of each bid value (index = value)
    from a player who bids by the rule and from one who picks a legal bid uniformly at
    random, over hands dealt at random (:data:`STYLE_HANDS`). The rule-like
    table keeps :data:`STYLE_SLACK` of the random-like one."""
    rng = random.Random(f"truf-bid-odds:{players}:{multi}:{scoring}")
    count = STYLE_HANDS // 5 if multi else STYLE_HANDS
    pack = [s * 13 + r for s in suits_in_play(players, "C") for r in range(13)]
    top = 31 if multi else 11  # values 0-10; three cards at most three tens
    rule = [0.0] * top
    rand = [0.0] * top
    for _ in range(count):
        hand = rng.sample(pack, 13)
        rule[sum(CARD_VALUE[c] for c in ranked_bids(hand, multi, scoring, players - 1)[0])] += 1
        bids = legal_bids(hand, multi)
        for b in bids:
            rand[sum(CARD_VALUE[c] for c in b)] += 1.0 / len(bids)
    rand_p = [x / count for x in rand]
    rule_p = [(1 - STYLE_SLACK) * x / count + STYLE_SLACK * r
              for x, r in zip(rule, rand_p, strict=True)]
    return tuple(rule_p), tuple(rand_p)


def rule_likeness(earlier: Sequence[Sequence[int]], players: int, multi: bool,
                  scoring: str) -> list[float]:
    """For each seat, the chance that he bids like the rule, given his bid values in the
    game's earlier deals (``earlier[deal][seat]``; Bayes' rule from
    :data:`RULE_LIKE_PRIOR` with the likelihoods of :func:`bid_value_odds`). Cached: every
    playout of a bid decision asks again with the same bids."""
    return list(_rule_likeness(tuple(tuple(v) for v in earlier), players, multi, scoring))


@lru_cache(maxsize=256)  # bounded: a long-lived worker sees many games
def _rule_likeness(earlier: tuple[tuple[int, ...], ...], players: int, multi: bool,
                   scoring: str) -> tuple[float, ...]:
    rule, rand = bid_value_odds(players, multi, scoring)
    out = []
    for seat in range(players):
        log_odds = math.log(RULE_LIKE_PRIOR / (1 - RULE_LIKE_PRIOR))
        for values in earlier:
            v = values[seat]
            if 0 <= v < len(rule) and rand[v] > 0:
                log_odds += math.log(rule[v] / rand[v])
        log_odds = max(-30.0, min(30.0, log_odds))
        out.append(1.0 / (1.0 + math.exp(-log_odds)))
    return tuple(out)


def _moments(p: Sequence[float]) -> tuple[float, float]:
    mean = sum(v * x for v, x in enumerate(p))
    return mean, sum((v - mean) ** 2 * x for v, x in enumerate(p))


def mixture_total(likeness: Sequence[float], me: int, multi: bool, scoring: str
                  ) -> tuple[float, float]:
    """Mean and deviation of the other players' bid total when each is rule-like with the
    chance ``likeness[seat]``, else random-like."""
    rule, rand = bid_value_odds(len(likeness), multi, scoring)
    (m1, v1), (m2, v2) = _moments(rule), _moments(rand)
    mean = var = 0.0
    for seat, p in enumerate(likeness):
        if seat == me:
            continue
        m = p * m1 + (1 - p) * m2
        mean += m
        var += p * (v1 + m1 * m1) + (1 - p) * (v2 + m2 * m2) - m * m
    return mean, math.sqrt(var)


def adjust_rule(cards: Sequence[int], bid: int, amounts: Sequence[int],
                scoring: str) -> tuple[str, int]:
    k = min(amounts)
    up = _score(atas_tricks(cards) - bid - k)
    down = _score(bid - k - bawah_tricks(cards))
    if scoring == "exact":
        up, down = -abs(atas_tricks(cards) - bid - k), -abs(bid - k - bawah_tricks(cards))
    return ("up", k) if up >= down else ("down", k)


def wants_tricks(mode: str | None, scoring: str, bid: int, taken: int) -> bool:
    if scoring == "exact":
        return taken < bid
    return mode == "atas"


# -- the card policy ---------------------------------------------------------------------------
def pick_card(
    legal: Sequence[int],
    h: Sequence[Sequence[int]],
    trump: int,
    trick: Sequence[tuple[int, int]],
    n_players: int,
    want: bool,
    top: Sequence[int],
    danger: Sequence[bool],
) -> int:
    """The policy's card among ``legal``. ``trick`` holds the cards played (a face-down card
    the player cannot see is written ``-1``: a trump of unknown rank). ``top[s]``: highest
    rank of suit ``s`` a player still to play (leading: anyone) may hold; ``danger[s]``:
    one of them may trump a lead of ``s``."""
    if len(legal) == 1:
        return legal[0]
    if not trick:
        if want:
            best = -1
            for c in legal:
                s, r = c // 13, c % 13
                if r >= top[s] and (s == trump or not danger[s]) and (
                        best < 0 or len(h[s]) > len(h[best // 13])):
                    best = c
            if best >= 0:
                return best
            side = [c for c in legal if c // 13 != trump] or list(legal)
            return min(side, key=lambda c: (-len(h[c // 13]), c % 13))
        side = [c for c in legal if c // 13 != trump] or list(legal)
        return min(side, key=lambda c: (c % 13, len(h[c // 13])))
    first = trick[0][1]
    led = trump if first < 0 else first // 13
    best_key = -1
    for _, c in trick:
        key = 113 if c < 0 else (100 + c % 13 if c // 13 == trump else
                                 (c % 13 if c // 13 == led else -1))
        best_key = max(best_key, key)
    last = len(trick) == n_players - 1

    def key_of(c: int) -> int:
        s = c // 13
        return 100 + c % 13 if s == trump else (c % 13 if s == led else -1)

    winners = sorted((c for c in legal if key_of(c) > best_key), key=key_of)
    losers = sorted((c for c in legal if key_of(c) <= best_key), key=lambda c: c % 13)
    if want:
        if winners:
            if last:
                return winners[0]
            for c in winners:
                s = c // 13
                if c % 13 >= top[s] and (s == trump or not danger[s]):
                    return c
            if legal[0] // 13 == led and all(c // 13 == led for c in legal):
                return winners[-1] if len(trick) >= n_players - 2 else losers[0] \
                    if losers else winners[0]
            return winners[0]
        side = [c for c in losers if c // 13 != trump] or losers
        return min(side, key=lambda c: (c % 13, len(h[c // 13])))
    # avoiding tricks
    if losers:
        same = [c for c in losers if c // 13 == led]
        if same:
            return same[-1]
        side = [c for c in losers if c // 13 != trump] or losers
        return max(side, key=lambda c: (c % 13, -len(h[c // 13])))
    if last:
        return max(winners, key=lambda c: c % 13)
    return winners[0]


def world_top_and_danger(d: TrufDeal, seat: int) -> tuple[list[int], list[bool]]:
    n = d.players
    if d.trick:
        later = [(d.leader + d.direction * i) % n for i in range(len(d.trick) + 1, n)]
    else:
        later = [(seat + d.direction * i) % n for i in range(1, n)]
    trump = d.trump
    top = [-1, -1, -1, -1]
    danger = [False, False, False, False]
    for o in later:
        h = d.hands[o]
        for s in range(4):
            lst = h[s]
            if lst:
                if lst[-1] % 13 > top[s]:
                    top[s] = lst[-1] % 13
            elif trump >= 0 and h[trump]:
                danger[s] = True
    return top, danger


def world_card(d: TrufDeal) -> int:
    seat = d.turn
    legal = d.fast_legal(seat)
    if len(legal) == 1:
        return legal[0]
    assert d.final_bids is not None
    want = wants_tricks(d.mode, d.options.scoring, d.final_bids[seat], d.tricks_by_seat[seat])
    top, danger = world_top_and_danger(d, seat)
    return pick_card(legal, d.hands[seat], d.trump, d.trick, d.players, want, top, danger)


def held(d: TrufDeal, seat: int) -> list[int]:
    """The card ints ``seat`` holds in a world (whatever the fast state stores per suit:
    ranks or card ints, both give the card as ``suit * 13 + x % 13``)."""
    return [s * 13 + x % 13 for s in range(4) for x in d.hands[seat][s]]


def bid_action(cards: Sequence[int], multi: bool) -> Action:
    if multi:
        return Action.bid_cards(tuple(name(c) for c in cards))
    return Action.bid(name(cards[0]))


def drawn_bid(d: TrufDeal, seat: int, likeness: float, rng: random.Random
              ) -> tuple[int, ...]:
    """Another player's bid in a world: the rule's with the chance ``likeness`` (his
    :func:`rule_likeness`), else a uniformly random legal one."""
    if rng.random() < likeness:
        opts = d.options
        return ranked_bids(held(d, seat), opts.multi_card_bids, opts.scoring,
                           d.players - 1)[0]
    return random_bid(d, seat, rng)


def world_finish(d: TrufDeal, rng: random.Random) -> None:
    """Finish a world with the policies: the missing bids (:func:`drawn_bid`, by the
    world's ``earlier_bids``), the adjustment, the cards."""
    opts = d.options
    if d.phase == "bid":
        likeness = rule_likeness(d.earlier_bids, d.players, opts.multi_card_bids,
                                 opts.scoring)
        for seat in range(d.players):
            if d.bids[seat] is None:
                d.bids[seat] = drawn_bid(d, seat, likeness[seat], rng)
        d.resolve_bids()
    if d.phase == "adjust":
        assert d.bid_values is not None
        h = held(d, d.high)
        direction, k = adjust_rule(h, d.bid_values[d.high], opts.adjust_amounts, opts.scoring)
        d.set_adjust(direction, k)
    while d.phase == "play":
        d.fast_play(world_card(d))


# -- what a view tells ---------------------------------------------------------------------------
class TrufKnowledge:
    """What a seat knows from a Truf view (module docstring)."""

    def __init__(self, view: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.n: int = view["players"]
        self.trump = SUITS.index(view["trump"]) if view.get("trump") else -1
        self.direction = 1 if view["direction"] == "clockwise" else -1
        self.hand = [card(c) for c in view["hand"]]
        self.sizes = list(view["hand_sizes"])
        removed = options.get("removed_suit", "C") if self.n == 3 else None
        self.suits = [s for s in range(4) if SUITS[s] != removed]
        self.tricks = [[(s, card(c)) for s, c in t["cards"]] for t in view["tricks"]]
        self.trick = [(s, -1 if c == HIDDEN else card(c)) for s, c in view["trick"]["cards"]]
        self.leader: int = view["trick"]["leader"]
        self.voids = [0] * self.n
        self.played_by: list[list[int]] = [[] for _ in range(self.n)]
        self.hidden: list[int] = []  # seats whose face-down card in this trick is unseen
        seen = set(self.hand)
        trump = self.trump
        broken = False
        for plays in [*self.tricks, self.trick]:
            if not plays:
                continue
            lead = plays[0][1]
            led = trump if lead < 0 else lead // 13
            if led == trump and trump >= 0 and not broken:
                others = [s for s in self.suits if s != trump]
                for s in others:
                    self.voids[plays[0][0]] |= 1 << s
            for i, (seat, c) in enumerate(plays):
                if c < 0:
                    self.hidden.append(seat)
                    broken = True
                    if i and led != trump:
                        self.voids[seat] |= 1 << led
                    continue
                seen.add(c)
                self.played_by[seat].append(c)
                if c // 13 == trump:
                    broken = True
                if i and c // 13 != led:
                    self.voids[seat] |= 1 << led
        self.bids: list[list[int]] = [[] for _ in range(self.n)]
        self.revealed = view.get("bid_values") is not None
        raw_bids = view.get("bids") or []
        for seat, cards in enumerate(raw_bids):
            if cards:
                self.bids[seat] = [card(c) for c in cards]
        self.pinned: dict[int, set[int]] = {}
        if self.revealed:
            for seat, cards in enumerate(self.bids):
                if seat != self.me:
                    left = {c for c in cards if c not in seen}
                    if left:
                        self.pinned[seat] = left
        pinned = {c for cs in self.pinned.values() for c in cs}
        self.unseen = [s * 13 + r for s in self.suits for r in range(13)
                       if s * 13 + r not in seen and s * 13 + r not in pinned]
        self.final_bids: list[int] | None = view.get("final_bids")
        self.tricks_by_seat: list[int] = list(view.get("tricks_by_seat") or [0] * self.n)
        self.mode: str | None = view.get("mode")

    def may_hold(self, seat: int, c: int) -> bool:
        return not self.voids[seat] >> (c // 13) & 1

    def later(self) -> list[int]:
        n = self.n
        if self.trick:
            return [(self.leader + self.direction * i) % n for i in range(len(self.trick) + 1, n)]
        return [(self.me + self.direction * i) % n for i in range(1, n)]

    def top_and_danger(self) -> tuple[list[int], list[bool]]:
        later = self.later()
        pool = list(self.unseen) + [c for s, cs in self.pinned.items() if s in later for c in cs]
        top = [-1, -1, -1, -1]
        danger = [False, False, False, False]
        trumps_out = [c for c in pool if c // 13 == self.trump]
        for c in pool:
            if any(self.may_hold(o, c) for o in later) and c % 13 > top[c // 13]:
                top[c // 13] = c % 13
        for o in later:
            if any(self.may_hold(o, c) for c in trumps_out):
                for s in range(4):
                    if self.voids[o] >> s & 1:
                        danger[s] = True
        return top, danger


# -- the adapter ---------------------------------------------------------------------------------
class TrufAI(GameAI):
    game = "truf"

    @staticmethod
    def _scoring(options: Mapping[str, Any]) -> str:
        return str(options.get("scoring", "difference"))

    @staticmethod
    def _multi(legal: Sequence[Action]) -> bool:
        return any(a.type == "bid" and a.cards is not None for a in legal)

    def warm_up(self) -> None:
        """The bid-value tables of the default table (four players, one-card bids,
        difference scoring); other tables compute theirs on their first bid."""
        bid_value_odds(4, False, "difference")

    def rules_choose(self, view: Mapping[str, Any], legal: Sequence[Action],
                     rng: random.Random, options: Mapping[str, Any]) -> Action:
        kind = legal[0].type
        hand = [card(c) for c in view["hand"]]
        scoring = self._scoring(options)
        if kind == "bid":
            return self._bid_choices(view, legal, options)[0]
        if kind == "adjust":
            me = view["seat"]
            amounts = sorted({a.amount for a in legal if a.amount is not None})
            direction, k = adjust_rule(hand, view["bid_values"][me], amounts, scoring)
            return Action.adjust(direction, k)
        k_ = TrufKnowledge(view, options)
        return Action.play(name(self.rules_card(k_, legal, scoring)))

    def _bid_choices(self, view: Mapping[str, Any], legal: Sequence[Action],
                     options: Mapping[str, Any]) -> list[Action]:
        hand = [card(c) for c in view["hand"]]
        multi = self._multi(legal)
        out = [bid_action(b, multi) for b in
               ranked_bids(hand, multi, self._scoring(options), view["players"] - 1)]
        legal_set = set(legal)
        ranked = [a for a in out if a in legal_set]
        return ranked or list(legal)

    def _searched_bids(self, view: Mapping[str, Any], legal: Sequence[Action],
                       options: Mapping[str, Any]) -> list[Action]:
        """The best bids for the others' total that their earlier bids predict
        (:func:`mixture_total`; at most :data:`BID_CANDIDATES`), and the rule's own choice
        when it is not among them."""
        hand = [card(c) for c in view["hand"]]
        multi = self._multi(legal)
        scoring = self._scoring(options)
        likeness = rule_likeness(view.get("earlier_bids") or [], view["players"], multi,
                                 scoring)
        total = mixture_total(likeness, view["seat"], multi, scoring)
        fitted = [bid_action(b, multi) for b in ranked_bids(hand, multi, scoring, total=total)]
        legal_set = set(legal)
        out: list[Action] = []
        for a in [*[a for a in fitted if a in legal_set][:BID_CANDIDATES],
                  self._bid_choices(view, legal, options)[0]]:
            if a not in out:
                out.append(a)
        return out

    def rules_card(self, k: TrufKnowledge, legal: Sequence[Action], scoring: str) -> int:
        cards = [card(a.card) for a in legal if a.card]
        assert k.final_bids is not None
        me = k.me
        want = wants_tricks(k.mode, scoring, k.final_bids[me], k.tricks_by_seat[me])
        top, danger = k.top_and_danger()
        h = _by_suit(k.hand)
        return pick_card(cards, h, k.trump, k.trick, k.n, want, top, danger)

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action],
                   options: Mapping[str, Any]) -> list[Action]:
        kind = legal[0].type
        if kind == "bid":
            return self._searched_bids(view, legal, options)
        first = self.rules_choose(view, legal, random.Random(0), options)
        if kind == "adjust":
            amounts = sorted({a.amount for a in legal if a.amount is not None})
            extra = [Action.adjust(d, k) for d in ("up", "down")
                     for k in {amounts[0], amounts[-1]}]
            return [first, *[a for a in extra if a != first and a in legal]]
        return [first, *[a for a in legal if a != first]]

    def sampler(self, view: Mapping[str, Any], legal: Sequence[Action],
                options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        return TrufSampler(view, legal, options, rng)

    def clone(self, world: Deal) -> Deal:
        return world.copy()

    def step(self, world: Deal, seat: int, action: Action) -> None:
        assert isinstance(world, TrufDeal)
        if action.type == "play" and action.card and world.phase == "play":
            world.fast_play(card(action.card))
        else:
            world.apply(seat, action)

    def rollout(self, world: Deal, seat: int, rng: random.Random) -> float:
        assert isinstance(world, TrufDeal)
        world_finish(world, rng)
        assert world.points is not None
        return float(world.points[seat])


class TrufSampler(WorldSampler):
    """Worlds for a Truf decision: unseen cards dealt to the other hands and to the
    face-down cards of the trick in progress (trumps only), respecting voids and revealed
    bid cards; a world that would be a misdeal is drawn again."""

    def __init__(self, view: Mapping[str, Any], legal: Sequence[Action],
                 options: Mapping[str, Any], rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        opts = dict(options)
        opts["adjust_amounts"] = list(view.get("adjust_amounts") or
                                      options.get("adjust_amounts") or range(1, 14))
        opts["deals"] = view.get("deals", options.get("deals", 13))
        if any(a.type == "bid" and a.cards is not None for a in legal):
            opts["multi_card_bids"] = True
        self.options = opts
        self.multi = bool(opts.get("multi_card_bids"))
        k = TrufKnowledge(view, opts)
        self.k = k
        self.likeness = rule_likeness(view.get("earlier_bids") or [], k.n, self.multi,
                                      str(opts.get("scoring", "difference")))
        self.template: TrufDeal | None = None
        self.reusable = view["phase"] == "play" and all(c >= 0 for _, c in k.trick)
        self.places: list[tuple[str, int]] = [("hand", s) for s in range(k.n) if s != k.me]
        self.sizes = [k.sizes[s] for _, s in self.places]
        for s in k.hidden:
            self.places.append(("hidden", s))
            self.sizes.append(1)
        # revealed bid cards are the owner's: in his hand, or his face-down card
        self.pool = list(k.unseen)
        owner = {}
        for seat, cards in k.pinned.items():
            for c in cards:
                self.pool.append(c)
                owner[c] = seat
        self.allowed = []
        for c in self.pool:
            m = 0
            for i, (kind, s) in enumerate(self.places):
                if c in owner and s != owner[c]:
                    continue
                if (kind == "hand" and k.may_hold(s, c)) or (kind == "hidden"
                                                             and c // 13 == k.trump):
                    m |= 1 << i
            self.allowed.append(m)

    def _draw(self) -> list[list[int]]:
        k = self.k
        for _ in range(50):
            hands = deal_constrained(self.pool, self.sizes, self.allowed, self.rng)
            held: list[list[int]] = [[] for _ in range(k.n)]
            face_down: dict[int, int] = {}
            for i, (kind, s) in enumerate(self.places):
                if kind == "hand":
                    held[s] = hands[i]
                else:
                    face_down[s] = hands[i][0]
            held[k.me] = list(k.hand)
            dealt = []
            for s in range(k.n):
                played = list(k.played_by[s])
                if s in face_down:
                    played.append(face_down[s])
                dealt.append(played + held[s])
            if all(0 < sum(1 for c in h if c % 13 >= COURT) < len(h) for h in dealt):
                self.face_down = face_down
                return dealt
        self.face_down = face_down
        return dealt

    def sample(self) -> Deal:
        """A world. In the play phase with no face-down card in the trick in progress,
        the first world, replayed through the public history, is kept as a template and
        later worlds are copies of it with the other hands redealt in place (all that
        differs between two worlds of one view then; their record keeps the template's
        hands, which search never reads). Otherwise every world is replayed."""
        dealt = self._draw()
        if not self.reusable:
            return self._replay(dealt)
        if self.template is None:
            self.template = self._replay(dealt)
            dealt = self._draw()
        world = self.template.copy()
        k = self.k
        for s in range(k.n):
            if s != k.me:
                hand: list[list[int]] = [[], [], [], []]  # the engine's fast form
                for c in sorted(dealt[s][len(k.played_by[s]):]):
                    hand[c // 13].append(c)
                world.hands[s] = hand
        return world

    def _replay(self, dealt: list[list[int]]) -> TrufDeal:
        """A new deal of ``dealt`` taken through the view's history."""
        view = self.view
        k = self.k
        deal = new_deal(view, self.options, [[name(c) for c in h] for h in dealt],
                        {"hand_number": view["hand_number"]})
        assert isinstance(deal, TrufDeal)
        deal.redeals = view.get("redeals", 0)
        deal.earlier_bids = [list(b) for b in view.get("earlier_bids") or []]
        placed = view.get("bid_placed") or []
        for seat in range(k.n):
            if k.bids[seat]:
                deal.apply(seat, bid_action(k.bids[seat], self.multi))
            elif seat < len(placed) and placed[seat]:
                bid = drawn_bid(deal, seat, self.likeness[seat], self.rng)
                deal.apply(seat, bid_action(bid, self.multi))
        adj = view.get("adjust")
        if adj:
            deal.apply(deal.high, Action.adjust(adj["direction"], adj["amount"]))
        plays = [p for t in view["tricks"] for p in t["cards"]] + view["trick"]["cards"]
        for seat, text in plays:
            c = self.face_down[seat] if text == HIDDEN else card(text)
            deal.apply(seat, Action.play(name(c)))
        return deal
