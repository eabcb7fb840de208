"""AI for the plain-trick games: Arba'a Turub and Turup.

Both games share one card policy (:func:`pick_card`), used twice:

* by the **rules** player, fed with what the view lets it infer (unseen cards, voids shown
  by failures to follow, the partner's signals);
* by the **search** player's rollouts, fed with the sampled world's actual hands.

The policy: lead a side-suit card that nobody can beat when no opponent can ruff it, else
draw trumps with a top trump, else lead the partner's signalled strong suit, else lead low
from the longest side suit (avoiding the partner's weak suit). Following: play low when the
partner is winning or the trick cannot be won; take the trick with the cheapest card that
cannot be beaten later; last to play, win as cheaply as possible; third hand high, second
hand low. Void: never trump the partner's winning trick; ruff (and overruff) with the
cheapest trump that wins, using a top trump when a later opponent may overruff; otherwise
discard the lowest side card (from the shorter suit on ties, to make a void).

Signals (rules and search players): a lead carries ``strong`` when the led side suit is
long (at least a quarter more than an even share) and ``weak`` when it is short (at most
half an even share), so partners read them honestly.

Other decisions (rules): trump from the first packet is the suit with most cards in it,
then the highest; Turup's 5-0 winner asks his partner, then continues when his own sure
tricks (top trumps in sequence, side masters once the trumps are out) and the partner's
answer cover the tricks left; the partner answers with his sure tricks; kort is declared
before play with eight sure tricks.

Search (PIMC): each sampled world deals the unseen cards respecting voids (signals bias
the deal softly: strong suits ×1.5, weak ×0.6); every candidate is tried in the world and
the deal is finished with the policy above. Rollouts play to the end of the deal (Turup's
trump call and kort decision are searched too; Arba'a Turub's trump call is the rule's):
in Arba'a Turub this was measured far stronger than stopping nine tricks ahead with a
static evaluation of the hands left (98% against 88.5% duplicate score against ``rules``
on the same 100 deals) and still fits the move budget. Candidates are the distinct legal
cards (identical copies are one); with more than :data:`MAX_CANDIDATES` of them,
representatives per suit (:func:`representative_cards`). Signals are added to the chosen
lead afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.ai.adapter import GameAI, WorldSampler
from games.ai.sampling import deal_constrained
from games.ai.world import new_deal
from games.base import Deal
from games.cards import RANKS_36, SUITS, card, deck, name
from games.plain_tricks import ORDERS, PlainTrickDeal, follow_suit
from games.trick import rebased_key

TURUP_TRICK_WEIGHT = 0.6
"""Turup rollouts score the game points plus this much per trick of margin: the points
decide, the margin separates a close race from a safe one. Turup deals mostly go to the
side dealt the cards whoever plays them, so between two players on the same cards the
tricks the losing side still takes often decide; measured with ``bench/ai.py`` (500
duplicate deals against ``rules``, 64 worlds) 0.6 scored 68.4% against 64.5% at 0.1, with
0.3–2.0 all alike."""

STRONG_WEIGHT = 1.5
"""Sampling weight of a suit a seat signalled strong (cards of it go to him more often)."""

WEAK_WEIGHT = 0.6
"""Sampling weight of a suit a seat signalled weak."""

MAX_CANDIDATES = 6
"""With more distinct legal cards than this, search compares representatives only
(:func:`representative_cards`)."""


def representative_cards(cards: Sequence[int], trick: Sequence[tuple[int, int]],
                         trump: int) -> list[int]:
    """The cards worth comparing among ``cards``: in every suit the lowest, the highest,
    the second highest, and (following) the lowest card that would take the lead. Cards
    in between behave like one of these in almost every line of play."""
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c // 13, []).append(c % 13)
    best_key = trick_state(trick, trump)[0] if trick else -1
    led = trick[0][1] // 13 if trick else -1
    out: set[int] = set()
    for s, ranks in by_suit.items():
        ranks.sort()
        out.update(s * 13 + r for r in (ranks[0], ranks[-1], ranks[max(0, len(ranks) - 2)]))
        if trick:
            base = 100 if s == trump else (0 if s == led else None)
            if base is not None:
                win = [r for r in ranks if base + r > best_key]
                if win:
                    out.add(s * 13 + win[0])
    return sorted(out)


def fast_hand(cards: Sequence[str]) -> list[list[int]]:
    """Cards as four ascending lists of rank ints (one per suit)."""
    out: list[list[int]] = [[], [], [], []]
    for text in cards:
        c = card(text)
        out[c // 13].append(c % 13)
    for lst in out:
        lst.sort()
    return out


def trick_state(trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """``(best_key, best_seat)`` of a trick in progress (key: 100 + rank for a trump, the
    rank for a card of the led suit)."""
    led = trick[0][1] // 13
    best_key, best_seat = -1, -1
    for seat, c in trick:
        s = c // 13
        key = 100 + c % 13 if s == trump else (c % 13 if s == led else -1)
        if key > best_key:
            best_key, best_seat = key, seat
    return best_key, best_seat


def pick_card(
    h: list[list[int]],
    trump: int,
    trick: Sequence[tuple[int, int]],
    me: int,
    top: Sequence[int],
    danger: Sequence[bool],
    prefer: Sequence[int] = (),
    avoid: Sequence[int] = (),
) -> int:
    """The policy's card for ``me`` holding ``h`` (four ascending rank lists).

    ``top[s]``: the highest rank of suit ``s`` that a player still to play to this trick
    (when leading: any other player) may hold, ``-1`` if none. ``danger[s]``: an opponent
    still to play (when leading: either opponent) may ruff suit ``s``. ``prefer`` /
    ``avoid``: suits the partner signalled strong / weak (leading only).
    """
    if not trick:
        return _lead(h, trump, top, danger, prefer, avoid)
    best = trick_state(trick, trump)
    c = obvious_card(h, trump, trick, me, best)
    return c if c is not None else _contest(h, trump, trick, best, top, danger)


def obvious_card(h: list[list[int]], trump: int, trick: Sequence[tuple[int, int]], me: int,
                 best: tuple[int, int]) -> int | None:
    """:func:`pick_card`'s card when following to ``trick`` leaves a choice that does not
    depend on the cards still out (``None`` otherwise). Following suit: the lowest card
    when the partner wins, the trick is ruffed or out of reach, the cheapest winner as the
    last hand. Void: a discard when the partner wins or no trump can win, the lowest
    winning trump as the last hand. ``best``: the trick's ``(best_key, best_seat)``
    (:func:`trick_state`)."""
    led = trick[0][1] // 13
    best_key, best_seat = best
    partner_wins = best_seat == (me + 2) % 4
    if follow_suit(h, led) >= 0:
        lst = h[led]
        if partner_wins or (led != trump and best_key >= 100):
            return led * 13 + lst[0]
        need = best_key - 100 if led == trump else best_key
        if lst[-1] <= need:
            return led * 13 + lst[0]
        if len(trick) == 3:
            return led * 13 + next(r for r in lst if r > need)
        return None
    trumps = h[trump] if trump >= 0 else []
    if partner_wins or not trumps:
        return _discard(h, trump)
    higher = _higher_trumps(trumps, best_key)
    if not higher:
        return _discard(h, trump)
    if len(trick) == 3:
        return trump * 13 + higher[0]
    return None


def _higher_trumps(trumps: list[int], best_key: int) -> list[int]:
    """The trump ranks that beat a trick's best key."""
    return [r for r in trumps if r > best_key - 100] if best_key >= 100 else trumps


def _contest(h: list[list[int]], trump: int, trick: Sequence[tuple[int, int]],
             best: tuple[int, int], top: Sequence[int], danger: Sequence[bool]) -> int:
    """:func:`pick_card`'s card where :func:`obvious_card` has none: following, win with a
    card no later player can beat unless an opponent may ruff (then low), else third hand
    high and second hand low; void, ruff with a trump no later player can beat when an
    opponent may overruff, else with the lowest winning trump."""
    led = trick[0][1] // 13
    best_key = best[0]
    if follow_suit(h, led) >= 0:
        lst = h[led]
        if danger[led]:
            return led * 13 + lst[0]
        need = best_key - 100 if led == trump else best_key
        for r in lst:
            if r > need and r >= top[led]:
                return led * 13 + r
        if len(trick) == 2:  # third hand high
            return led * 13 + lst[-1]
        return led * 13 + lst[0]  # second hand low
    higher = _higher_trumps(h[trump], best_key)
    if danger[led]:
        for r in higher:
            if r >= top[trump]:
                return trump * 13 + r
    return trump * 13 + higher[0]


def _lead(h: list[list[int]], trump: int, top: Sequence[int], danger: Sequence[bool],
          prefer: Sequence[int], avoid: Sequence[int]) -> int:
    best_s, best_len = -1, -1
    for s in range(4):
        lst = h[s]
        if s != trump and lst and lst[-1] >= top[s] and not danger[s] and len(lst) > best_len:
            best_s, best_len = s, len(lst)
    if best_s >= 0:
        return best_s * 13 + h[best_s][-1]
    if trump >= 0:
        tl = h[trump]
        if tl and top[trump] >= 0 and tl[-1] >= top[trump]:
            return trump * 13 + tl[-1]
    for s in prefer:
        if s != trump and h[s]:
            return s * 13 + h[s][0]
    best_s, best_len = -1, -99
    for s in range(4):
        n = len(h[s])
        if s != trump and n:
            if s in avoid:
                n -= 20
            if n > best_len:
                best_s, best_len = s, n
    if best_s < 0:
        best_s = trump
    return best_s * 13 + h[best_s][0]


def _discard(h: list[list[int]], trump: int) -> int:
    best_s, best_key = -1, (99, 99)
    for s in range(4):
        lst = h[s]
        if s != trump and lst:
            key = (lst[0], len(lst))
            if key < best_key:
                best_s, best_key = s, key
    if best_s < 0:
        best_s = trump
    return best_s * 13 + h[best_s][0]


def signal_for(h: list[list[int]], suit: int, trump: int, tokens: Sequence[str]) -> str | None:
    """The honest signal for leading ``suit`` from ``h`` (see the module docstring)."""
    if suit == trump:
        return None
    size = sum(len(x) for x in h)
    n = len(h[suit])
    if "strong" in tokens and 4 * n >= 5 * size / 4 and n >= 3:
        return "strong"
    if "weak" in tokens and 2 * n <= size / 4:
        return "weak"
    return None


def sure_tricks(h: list[list[int]], trump: int, unseen: list[list[int]]) -> int:
    """Cards in ``h`` that win whatever the unseen cards are, counting top trumps in
    sequence and side-suit masters only while the unseen trumps are gone."""
    sure = 0
    out_trumps = sorted(unseen[trump], reverse=True) if trump >= 0 else []
    if trump >= 0:
        for r in sorted(h[trump], reverse=True):
            if out_trumps and r < out_trumps[0]:
                break
            sure += 1
            if out_trumps:
                out_trumps.pop(0)
    if trump < 0 or not out_trumps:
        for s in range(4):
            if s == trump:
                continue
            out = sorted(unseen[s], reverse=True)
            for r in sorted(h[s], reverse=True):
                if out and r < out[0]:
                    break
                sure += 1
                if out:
                    out.pop(0)
    return sure


# -- what a view lets a seat know ----------------------------------------------------------
class PlainKnowledge:
    """The facts a seat can infer from a plain-trick view."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.trump = SUITS.index(view["trump"]) if view.get("trump") else -1
        self.direction = 1 if view.get("direction", "clockwise") == "clockwise" else -1
        self.hand = fast_hand(view["hand"])
        self.sizes: list[int] = list(view["hand_sizes"])
        copies = 4 if view["game"] == "arbaa_turub" else 1
        self.tricks: list[tuple[int, list[tuple[int, int]]]] = [
            (t["leader"], [(s, card(c)) for s, c in t["cards"]]) for t in view["tricks"]]
        cur = view["trick"]
        self.trick: list[tuple[int, int]] = [(s, card(c)) for s, c in cur["cards"]]
        self.leader: int = cur["leader"]
        counts = dict.fromkeys(deck(RANKS_36), copies)
        self.voids = [0, 0, 0, 0]
        for _, plays in [*self.tricks, (self.leader, self.trick)]:
            if not plays:
                continue
            led = plays[0][1] // 13
            for s, c in plays:
                counts[c] -= 1
                if c // 13 != led:
                    self.voids[s] |= 1 << led
        for s in range(4):
            for r in self.hand[s]:
                counts[s * 13 + r] -= 1
        self.unseen: list[int] = [c for c, n in counts.items() for _ in range(n)]
        self.unseen_by_suit: list[list[int]] = [[], [], [], []]
        for c in self.unseen:
            self.unseen_by_suit[c // 13].append(c % 13)
        for lst in self.unseen_by_suit:
            lst.sort()
        self.signals: list[tuple[int, int, int, bool]] = []  # (trick, seat, suit, strong)
        for sig in view.get("signals", []):
            n = sig["trick"]
            plays = self.tricks[n - 1][1] if n <= len(self.tricks) else self.trick
            if plays and sig["signal"] in ("strong", "weak"):
                self.signals.append((n, sig["seat"], plays[0][1] // 13,
                                     sig["signal"] == "strong"))
        self.strong = self.signals_before(len(self.tricks) + 2, True)
        self.weak = self.signals_before(len(self.tricks) + 2, False)

    def signals_before(self, trick: int, strong: bool) -> list[set[int]]:
        """Suits each seat signalled strong (or weak) on tricks before ``trick``."""
        out: list[set[int]] = [set(), set(), set(), set()]
        for n, seat, suit, is_strong in self.signals:
            if n < trick and is_strong == strong:
                out[seat].add(suit)
        return out

    def may_hold(self, seat: int, suit: int) -> bool:
        return not self.voids[seat] >> suit & 1 and self.sizes[seat] > 0

    def later_seats(self) -> list[int]:
        """Seats still to play to the current trick after ``me`` (all three when leading)."""
        order = ORDERS[self.direction][self.leader if self.trick else self.me]
        return order[len(self.trick) + 1:] if self.trick else order[1:]

    def top_and_danger(self) -> tuple[list[int], list[bool]]:
        later = self.later_seats()
        opps = [s for s in later if (s - self.me) % 2]
        top = [-1, -1, -1, -1]
        danger = [False, False, False, False]
        for s in range(4):
            if self.unseen_by_suit[s] and any(self.may_hold(o, s) for o in later):
                top[s] = self.unseen_by_suit[s][-1]
            if self.trump >= 0 and self.unseen_by_suit[self.trump]:
                danger[s] = any(self.voids[o] >> s & 1 and self.may_hold(o, self.trump)
                                for o in opps)
        return top, danger


def world_top_and_danger(d: PlainTrickDeal, seat: int, trump: int
                         ) -> tuple[list[int], list[bool]]:
    """``top`` and ``danger`` for :func:`pick_card` from a world's real hands (``trump``:
    the world's trump suit).

    Following, :func:`pick_card` reads only the led suit's ``top`` and ``danger`` and the
    trump's ``top`` (a trump can never be in ``danger``), so only those are computed then
    (the others stay ``-1`` / ``False``): the rollouts' hottest function does a fraction
    of the work on three plays out of four."""
    hands = d.hands
    trick = d.trick
    top = [-1, -1, -1, -1]
    danger = [False, False, False, False]
    if trick:
        led = trick[0][1] // 13
        side_trump = trump >= 0 and trump != led
        top_led = top_trump = -1
        ruffed = False
        for o in _AFTER[d.direction][d.leader][len(trick) + 1]:
            h = hands[o]
            lst = h[led]
            if lst:
                if lst[-1] > top_led:
                    top_led = lst[-1]
            elif side_trump and (o - seat) & 1 and h[trump]:
                ruffed = True
            if side_trump:
                lst = h[trump]
                if lst and lst[-1] > top_trump:
                    top_trump = lst[-1]
        top[led] = top_led
        danger[led] = ruffed
        if side_trump:
            top[trump] = top_trump
        return top, danger
    for o in _AFTER[d.direction][seat][1]:
        h = hands[o]
        ruffs = (o - seat) & 1 and trump >= 0 and h[trump]
        for s in ALL_SUITS:
            lst = h[s]
            if lst:
                if lst[-1] > top[s]:
                    top[s] = lst[-1]
            elif ruffs:
                danger[s] = True
    return top, danger


ALL_SUITS = (0, 1, 2, 3)

_AFTER = {d: [[tuple(order[n:]) for n in range(5)] for order in ORDERS[d]] for d in ORDERS}
"""``_AFTER[direction][leader][n]``: the seats of a trick led by ``leader`` from its
``n``-th card on (:data:`~games.plain_tricks.ORDERS` sliced once)."""


def world_card(d: PlainTrickDeal, trump: int) -> int:
    """:func:`pick_card`'s card for the seat to play in world ``d`` (``trump``: its trump
    suit), with every hand in view: the trick's best card as the deal keeps it, and
    ``top`` and ``danger`` computed only when the choice depends on them."""
    seat = d.turn
    h = d.hands[seat]
    trick = d.trick
    if not trick:
        top, danger = world_top_and_danger(d, seat, trump)
        return _lead(h, trump, top, danger, (), ())
    best = (rebased_key(d.best_key, 100), d.best_seat)  # trick_state's scale
    c = obvious_card(h, trump, trick, seat, best)
    if c is not None:
        return c
    top, danger = world_top_and_danger(d, seat, trump)
    return _contest(h, trump, trick, best, top, danger)


# -- the adapter ---------------------------------------------------------------------------
class PlainAI(GameAI):
    """Arba'a Turub and Turup."""

    def __init__(self, game: str) -> None:
        self.game_name = game

    # -- rules ----------------------------------------------------------------------------
    def rules_choose(self, view: Mapping[str, Any], legal: Sequence[Action],
                     rng: random.Random, options: Mapping[str, Any]) -> Action:
        types = {a.type for a in legal}
        if "call_trump" in types:
            return Action.call_trump(SUITS[trump_from_packet(view["hand"])])
        if "answer" in types:
            k = PlainKnowledge(view)
            return Action.answer(min(4, sure_tricks(k.hand, k.trump, k.unseen_by_suit)))
        if "kort" in types:
            return self._kort_rule(view, legal)
        k = PlainKnowledge(view)
        if "declare_kort" in types and sure_tricks(k.hand, k.trump, k.unseen_by_suit) >= 8:
            return Action("declare_kort")
        c = self.rules_card(k)
        return self._with_signal(view, legal, c, k)

    def rules_card(self, k: PlainKnowledge) -> int:
        top, danger = k.top_and_danger()
        partner = (k.me + 2) % 4
        prefer = sorted(k.strong[partner])
        avoid = sorted(k.weak[partner])
        return pick_card(k.hand, k.trump, k.trick, k.me, top, danger, prefer, avoid)

    def _kort_rule(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if Action("ask_partner") in legal:
            return Action("ask_partner")
        k = PlainKnowledge(view)
        mine = sure_tricks(k.hand, k.trump, k.unseen_by_suit)
        answer = view.get("partner_answer") or 0
        return Action.kort(mine + answer >= 4)

    def _with_signal(self, view: Mapping[str, Any], legal: Sequence[Action], c: int,
                     k: PlainKnowledge) -> Action:
        text = name(c)
        if not k.trick:
            tokens = view.get("signal_tokens") or []
            sig = signal_for(k.hand, c // 13, k.trump, tokens)
            choice = Action.play(text, signal=sig)
            if choice in legal:
                return choice
        return Action.play(text)

    # -- search ---------------------------------------------------------------------------
    def search_shortcut(self, view: Mapping[str, Any], legal: Sequence[Action],
                        rng: random.Random, options: Mapping[str, Any]) -> Action | None:
        types = {a.type for a in legal}
        if types & {"answer", "ask_partner"} or (
                "call_trump" in types and self.game_name == "arbaa_turub"):
            return self.rules_choose(view, legal, rng, options)
        if "declare_kort" in types:
            rule = self.rules_choose(view, legal, rng, options)
            if rule.type == "declare_kort":
                return rule
        return None

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action],
                   options: Mapping[str, Any]) -> list[Action]:
        out: list[Action] = []
        if any(a.type in ("answer", "ask_partner", "declare_kort") for a in legal) and not any(
                a.type == "play" for a in legal):
            return [self.rules_choose(view, legal, random.Random(0), options)]
        if any(a.type == "call_trump" for a in legal):
            first = self.rules_choose(view, legal, random.Random(0), options)
            return [first, *[a for a in legal if a != first]]
        if any(a.type == "kort" for a in legal):
            first = self._kort_rule(view, legal)
            return [first, *[a for a in legal if a.type == "kort" and a != first]]
        k = PlainKnowledge(view)
        rule = self.rules_card(k)
        cards = sorted({card(a.card) for a in legal if a.type == "play" and a.card})
        if len(cards) > MAX_CANDIDATES:
            cards = representative_cards(cards, k.trick, k.trump)
        out.append(Action.play(name(rule)))
        out.extend(Action.play(name(c)) for c in cards if c != rule)
        return out

    def decorate(self, view: Mapping[str, Any], legal: Sequence[Action], chosen: Action,
                 rng: random.Random, options: Mapping[str, Any]) -> Action:
        if chosen.type != "play" or chosen.card is None:
            return chosen
        return self._with_signal(view, legal, card(chosen.card), PlainKnowledge(view))

    def sampler(self, view: Mapping[str, Any], legal: Sequence[Action],
                options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        return PlainSampler(self, view, legal, options, rng)

    def step(self, world: Deal, seat: int, action: Action) -> None:
        assert isinstance(world, PlainTrickDeal)
        if action.type == "play" and world.phase == "play" and action.card is not None:
            world.fast_play(card(action.card))
        else:
            world.apply(seat, action)

    def rollout(self, world: Deal, seat: int, rng: random.Random) -> float:
        assert isinstance(world, PlainTrickDeal)
        team = seat & 1
        trump = world.trump
        while world.phase != "over":
            if world.phase == "play":
                world.fast_play(world_card(world, trump))
            elif world.phase == "answer":  # the partner asked at 5-0 answers
                seat_ = world.to_act[0]
                world.apply(seat_, Action.answer(0))
                trump = world.trump
            else:  # the 5-0 kort decision inside a rollout
                decider = getattr(world, "decider", None)
                assert isinstance(decider, int)
                world.apply(decider, Action.kort(_world_kort(world, decider)))
                trump = world.trump
        if self.game_name == "arbaa_turub":
            t = world.tricks_by_team()
            margin = t[team] - t[1 - team]
            return margin + (3.0 if margin > 0 else -3.0 if margin < 0 else 0.0)
        gp = getattr(world, "game_points", [0, 0])
        t = world.tricks_by_team()
        return float(gp[team] - gp[1 - team]) + TURUP_TRICK_WEIGHT * (t[team] - t[1 - team])


def _world_kort(d: PlainTrickDeal, decider: int) -> bool:
    """Rollout kort decision: continue when the side's sure tricks cover the rest."""
    mine = [d.hands[decider], d.hands[(decider + 2) % 4]]
    theirs: list[list[int]] = [[], [], [], []]
    for o in ((decider + 1) % 4, (decider + 3) % 4):
        for s in range(4):
            theirs[s].extend(d.hands[o][s])
    left = sum(len(x) for x in d.hands[decider])
    sure = sum(sure_tricks(h, d.trump, theirs) for h in mine)
    return sure >= left


def trump_from_packet(cards: Sequence[str]) -> int:
    """The suit to name from the first packet: the most cards, then the highest ranks."""
    hand = fast_hand(cards)
    return max(range(4), key=lambda s: (len(hand[s]), sum(hand[s]), -s))


class PlainSampler(WorldSampler):
    """Worlds for a plain-trick decision: unseen cards dealt to the other seats, no seat
    given a suit it showed void in; partners' and opponents' signals weight the deal
    (:data:`STRONG_WEIGHT`, :data:`WEAK_WEIGHT`)."""

    def __init__(self, ai: PlainAI, view: Mapping[str, Any], legal: Sequence[Action],
                 options: Mapping[str, Any], rng: random.Random) -> None:
        self.ai = ai
        self.rng = rng
        self.view, self.legal, self.options = view, legal, options
        k = PlainKnowledge(view)
        self.k = k
        self.places = [s for s in range(4) if s != k.me]
        self.sizes = [k.sizes[s] for s in self.places]
        if view["phase"] == "trump":  # eldest has seen his first packet only
            full = 36 if view["game"] == "arbaa_turub" else 9
            self.places.append(k.me)
            self.sizes = [full] * 3 + [full - 3]
        self.allowed = [sum(1 << i for i, s in enumerate(self.places)
                            if not k.voids[s] >> (c // 13) & 1) for c in k.unseen]
        weights = [[STRONG_WEIGHT if u in k.strong[s] else WEAK_WEIGHT if u in k.weak[s]
                    else 1.0 for u in range(4)] for s in self.places]
        self.weights = weights if any(k.strong[s] or k.weak[s] for s in self.places) else None
        self.packet = list(view["hand"])
        hands = self._draw()
        self.template = replay_public(view, legal, options, self._dealt(hands))

    def _draw(self) -> list[list[int]]:
        return deal_constrained(self.k.unseen, self.sizes, self.allowed, self.rng,
                                self.weights)

    def _dealt(self, hands: list[list[int]]) -> list[list[str]]:
        """Full dealt hands: the cards each seat played plus what it holds now."""
        k = self.k
        dealt: list[list[str]] = [[] for _ in range(4)]
        for _, plays in [*k.tricks, (k.leader, k.trick)]:
            for s, c in plays:
                dealt[s].append(name(c))
        if len(self.places) == 4:  # the trump call: the packet comes first
            dealt[k.me].extend(self.packet)
        else:
            dealt[k.me].extend(name(x * 13 + r) for x in range(4) for r in k.hand[x])
        for i, s in enumerate(self.places):
            dealt[s].extend(name(c) for c in hands[i])
        return dealt

    def sample(self) -> Deal:
        hands = self._draw()
        world = self.template.copy()
        assert isinstance(world, PlainTrickDeal)
        if len(self.places) == 4:  # before the trump call: a fresh deal every time
            return replay_public(self.view, self.legal, self.options, self._dealt(hands))
        for i, s in enumerate(self.places):
            fh: list[list[int]] = [[], [], [], []]
            for c in hands[i]:
                fh[c // 13].append(c % 13)
            for lst in fh:
                lst.sort()
            world.hands[s] = fh
        return world


def replay_public(view: Mapping[str, Any], legal: Sequence[Action],
                  options: Mapping[str, Any], dealt: list[list[str]]) -> PlainTrickDeal:
    """A deal dealt ``dealt`` that has gone through the view's public history: the trump
    call, a kort declared before play, every trick (with its signals) and Turup's 5-0
    decision, so that its ``view(seat)`` is the given view."""
    opts = dict(options)
    tokens = list(view.get("signal_tokens") or [])
    opts["signals_enabled"] = bool(tokens)
    opts["extra_signals"] = [t for t in tokens if t not in ("strong", "weak")]
    if view["game"] == "turup" and (view.get("kort_declared")
                                    or any(a.type == "declare_kort" for a in legal)):
        opts["kort_declared_before_play"] = True
    deal = new_deal(view, opts, dealt)
    assert isinstance(deal, PlainTrickDeal)
    if view.get("trump"):
        deal.apply(deal.eldest, Action.call_trump(view["trump"]))
    if view.get("kort_declared"):
        side = view["kort_side"]
        deal.apply(side, Action("declare_kort"))
    signals = {(x["trick"], x["seat"]): x["signal"] for x in view.get("signals", [])}
    tricks = [t["cards"] for t in view["tricks"]] + [view["trick"]["cards"]]
    for number, plays in enumerate(tricks, 1):
        for i, (seat, text) in enumerate(plays):
            sig = signals.get((number, seat)) if i == 0 else None
            deal.apply(seat, Action.play(text, signal=sig))
            if deal.phase in ("kort", "answer"):
                _replay_kort(deal, view)
    if deal.phase == "kort" and view.get("phase") == "answer":
        deal.apply(deal.to_act[0], Action("ask_partner"))
    return deal


def _replay_kort(deal: PlainTrickDeal, view: Mapping[str, Any]) -> None:
    """Re-apply the public 5-0 decision (ask, answer, continue) where the view shows it."""
    decider = view.get("decider")
    if decider is None:
        return
    if view.get("partner_answer") is not None:
        deal.apply(decider, Action("ask_partner"))
        deal.apply((decider + 2) % 4, Action.answer(view["partner_answer"]))
    if view.get("kort_side") is not None:
        deal.apply(decider, Action.kort(True))
