"""The plain-trick core shared by Arba'a Turub and its parent Turup.

Both games: four players in partnerships (A = {0, 2}, B = {1, 3}), no card points, eldest
names trump after seeing only his first packet of three, the leader may play anything, a
follower must follow suit if able and may otherwise play anything (no duty to trump or to
beat), the standard trick winner with ties to the copy played first, and leader-only
signals (``strong`` / ``weak`` plus the group's ``extra_signals``).

The state is kept in the fast form that search players use: a hand is four lists (one per
suit) of natural rank ints, duplicates allowed. The readable API (``apply`` with
:class:`~games.actions.Action` objects, views, summaries) checks an action and then takes
the same fast step as :meth:`PlainTrickDeal.fast_play` (the card leaves its suit list, then
the trick core's ``trick_step``), that search and playouts use. The hot path of the readable
API (``legal_actions`` + ``apply``) shares prebuilt :class:`~games.actions.Action` tuples
and skips the generic dispatch for a card play and the trump call: the same checks, the same
events, fewer steps.
"""

from __future__ import annotations

import random
from collections import Counter
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any

from games.actions import PLAYS, Action
from games.base import Event, TrickDeal, private, public, trick_data
from games.cards import (
    CARD_INTS,
    DISPLAY_SUIT_ORDER,
    NAMES,
    RANKS_36,
    SUIT_NAMES,
    SUITS,
    card_int,
    deal_packets,
    deck,
    describe,
    name,
    parse_suit,
    shuffled,
    sort_for_display,
)
from games.errors import IllegalAction, RecordError, quote
from games.event_types import DealSummary
from games.trick import NATURAL_KEYS, follow_reason, trick_json
from games.view_types import PlainView, SignalJSON
from games.views import common_view

TEAMS_4: list[tuple[int, ...]] = [(0, 2), (1, 3)]
BASE_SIGNALS = ("strong", "weak")
ORDERS = {d: [[(s + d * i) % 4 for i in range(4)] for s in range(4)] for d in (1, -1)}
"""``ORDERS[direction][leader]``: the four seats of a trick in playing order."""
FOLLOWERS = {d: [order[1:] for order in ORDERS[d]] for d in ORDERS}
"""``FOLLOWERS[direction][leader]``: the other three seats of a trick ``leader`` leads, in
playing order."""


SEAT_TUPLES = ((0,), (1,), (2,), (3,))
"""``SEAT_TUPLES[s]``: the ``to_act`` of a deal waiting for seat ``s`` (built once)."""


@lru_cache(maxsize=64)
def signal_tokens(enabled: bool, extra: tuple[str, ...]) -> tuple[str, ...] | None:
    """The signals a leader may give at a table: ``strong``, ``weak`` and the group's
    ``extra_signals`` (``None``: signals are off). Worked out once per set of options."""
    if not enabled:
        return None
    return BASE_SIGNALS + tuple(t for t in extra if t not in BASE_SIGNALS)


def team_of(seat: int) -> int:
    return seat % 2


class PlainPhase(StrEnum):
    """The phases of a plain-trick deal (Turup adds its kort decision)."""

    TRUMP = "trump"
    """Eldest names trump from his first packet."""
    PLAY = "play"
    KORT = "kort"
    """Turup: the winner of trick five at 5–0 decides to stop or continue."""
    ANSWER = "answer"
    """Turup: the partner asked at 5–0 answers."""
    OVER = "over"


# The phases as plain module names: comparing with them is several times faster than
# looking a member up on the enum class (the hot paths compare phases on every action).
TRUMP_PHASE, PLAY_PHASE, KORT_PHASE, ANSWER_PHASE, OVER_PHASE = (
    PlainPhase.TRUMP, PlainPhase.PLAY, PlainPhase.KORT, PlainPhase.ANSWER, PlainPhase.OVER)

PLAY_ACTIONS = PLAYS
SUIT_PLAYS: tuple[tuple[Action, ...], ...] = tuple(PLAY_ACTIONS[s * 13: s * 13 + 13]
                                                  for s in range(4))
"""``SUIT_PLAYS[suit][rank]``: the same actions by suit and natural rank."""
_DISPLAY_NAMES = tuple((s, NAMES[s * 13: s * 13 + 13]) for s in DISPLAY_SUIT_ORDER)
"""The suits in display order, each with its card names by natural rank."""
TRUMP_CALLS: tuple[Action, ...] = tuple(Action.call_trump(s) for s in SUITS)


def follow_suit(h: list[list[int]], led: int) -> int:
    """The legality rule of the plain games' card play, the one that ``apply`` (refusing
    with a reason), ``legal_actions``/``fast_legal`` and the random playouts all play by:
    the suit whose cards the player must play — ``led``, the suit led to the trick, when he
    holds a card of it — or ``-1``: any card he holds (he leads, or he is void in the led
    suit; no duty to trump or to beat). ``h`` is his hand in the fast form."""
    return led if led >= 0 and h[led] else -1


class PlainTrickDeal(TrickDeal):
    """A deal of a plain-trick partnership game. Subclasses set the deal shape and decide
    when the deal ends (:meth:`_after_trick`).

    Phases (:class:`PlainPhase`): ``trump`` (eldest names trump from his first packet),
    ``play``, then the subclass's own (Turup's ``kort``), and ``over``.
    """

    direction: int = 1
    hand_size: int = 36
    deck_copies: int = 4

    def __init__(
        self,
        dealer: int,
        hands: list[list[int]],
        *,
        signals: tuple[str, ...] | None,
        trusted: bool = False,
    ) -> None:
        super().__init__(4, dealer)
        if not trusted:
            self._check_hands(hands)
        self.eldest = (dealer + self.direction) % 4
        self.order = ORDERS[self.direction][self.eldest]
        self.dealt = hands
        self.signal_tokens = signals  # None: signals disabled
        self.hands: list[list[list[int]]] = [_by_suit(hand) for hand in hands]
        self.phase = TRUMP_PHASE
        self.init_tricks(4, self.eldest, self.direction, NATURAL_KEYS)
        self.signals: list[SignalJSON] = []
        self._signal_plays = _signal_plays(signals)

    # -- construction helpers -----------------------------------------------------------------
    def _check_hands(self, hands: list[list[int]]) -> None:
        for seat, hand in enumerate(hands):
            if len(hand) != self.hand_size:
                raise RecordError(
                    f"field 'hands', seat {seat}: holds {len(hand)} cards, not {self.hand_size}"
                )
        want = Counter(_pack(self.deck_copies))
        got = Counter(c for h in hands for c in h)
        if got != want:
            wrong = sorted((got - want) or (want - got))
            word = "too many" if got - want else "missing"
            raise RecordError(f"field 'hands': the hands are not the pack ({word}: "
                              f"{describe(wrong[:6])})")

    # -- fast core --------------------------------------------------------------------------
    def set_trump(self, suit: int) -> None:
        """Trump is named: play begins (unchecked)."""
        self.trump = suit
        self.phase = PLAY_PHASE

    def fast_legal(self, seat: int) -> list[int]:
        """Distinct card ints ``seat`` may play now (assumes it is his turn to play):
        :func:`follow_suit`."""
        h = self.hands[seat]
        distinct = _distinct if self.deck_copies > 1 else _same
        suit = follow_suit(h, self.led_suit)
        if suit >= 0:
            base = suit * 13
            return [base + r for r in distinct(h[suit])]
        return [s * 13 + r for s in range(4) for r in distinct(h[s])]

    def fast_play(self, c: int) -> None:
        """Play card ``c`` for the seat to move, without checks, events or messages."""
        seat = self.turn
        self.hands[seat][c // 13].remove(c % 13)
        if self.trick_step(seat, c):
            self._after_trick(self.leader)

    def _after_trick(self, winner: int) -> None:
        """Decide whether the deal goes on after a completed trick (subclass hook)."""
        if len(self.completed) == self.hand_size:
            self.phase = OVER_PHASE

    def tricks_by_team(self) -> list[int]:
        t = self.tricks_by_seat
        return [t[0] + t[2], t[1] + t[3]]

    # -- readable surface -------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == OVER_PHASE:
            return ()
        return SEAT_TUPLES[self.turn]

    @property
    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    def signal_choices(self) -> tuple[str, ...]:
        return self.signal_tokens or ()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == TRUMP_PHASE:
            return list(TRUMP_CALLS) if seat == self.eldest else []
        if self.phase != PLAY_PHASE or seat != self.turn:
            return []
        trick = self.trick
        h = self.hands[seat]
        if trick and self.deck_copies == 1:  # one pack: the suit list is already distinct
            suit = follow_suit(h, trick[0][1] // 13)
            if suit >= 0:
                actions = SUIT_PLAYS[suit]
                return [actions[r] for r in h[suit]]
        plays = self._signal_plays
        if trick or plays is None:  # any card held (void in the led suit, or no signals)
            if self.deck_copies == 1:
                return [actions[r] for actions, lst in zip(SUIT_PLAYS, h, strict=True)
                        for r in lst]
            return [PLAY_ACTIONS[c] for c in self.fast_legal(seat)]
        distinct = _same if self.deck_copies == 1 else _distinct
        out: list[Action] = []  # leading: every distinct card held, with each signal
        for suit_plays, lst in zip(plays, h, strict=True):
            for r in distinct(lst):
                out += suit_plays[r]
        return out

    def apply(self, seat: int, action: Action) -> list[Event]:
        """:meth:`Deal.apply`, with the common cases (the seat to play plays a card, eldest
        names trump) taken straight to :meth:`_play_card` and :meth:`_call_trump`: the same
        checks, fewer steps."""
        kind = action.type
        if kind == "play":
            if self.phase == PLAY_PHASE and seat == self.turn:
                events = self._play_card(seat, action)
                self.history.append((seat, action))
                return events
        elif kind == "call_trump" and self.phase == TRUMP_PHASE and seat == self.eldest:
            events = self._call_trump(seat, action)
            self.history.append((seat, action))
            return events
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.type == "play":
            return self._play(seat, action)
        if action.type == "call_trump":
            return self._call_trump(seat, action)
        raise self._phase_refusal(action)

    def _phase_refusal(self, action: Action) -> IllegalAction:
        if self.phase == TRUMP_PHASE:
            return IllegalAction("trump has not been named yet: {seat} names it first",
                                 seat=self.eldest)
        return IllegalAction("{action} is not possible now", action=action.type)

    def _call_trump(self, seat: int, action: Action) -> list[Event]:
        if self.phase != TRUMP_PHASE:
            raise IllegalAction("trump has already been named")
        if seat != self.eldest:
            raise IllegalAction("only {seat}, eldest, names trump", seat=self.eldest)
        assert action.suit is not None
        self.set_trump(parse_suit(action.suit))
        events = [public("trump", {"seat": seat, "suit": action.suit})]
        for s in range(4):
            events.append(private(s, "hand", {"cards": self.hand_names(s)}))
        return events

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase != PLAY_PHASE:
            raise self._phase_refusal(action)
        if seat != self.turn:
            raise self.not_your_turn(seat)
        return self._play_card(seat, action)

    def _play_card(self, seat: int, action: Action) -> list[Event]:
        """``seat``, the seat to play, plays ``action``'s card: check it and apply it."""
        c = CARD_INTS.get(action.card)  # type: ignore[arg-type]  # None: not a card
        if c is None:
            c = card_int(action.card)  # raises the refusal
        h = self.hands[seat]
        trick = self.trick
        suit, r = _SUIT_RANK[c]
        held = h[suit]
        if r not in held:
            raise IllegalAction("you do not hold {card}", card=str(action.card))
        if trick:
            must = follow_suit(h, trick[0][1] // 13)
            if must >= 0 and suit != must:  # refused: only now the reason
                raise follow_reason(must, [must * 13 + r for r in reversed(h[must])])
        signal = action.signal
        if signal is not None:
            if self.signal_tokens is None:
                raise IllegalAction("signals are not used at this table")
            if trick:
                raise IllegalAction("only the player leading to a trick may signal")
            if signal not in self.signal_tokens:
                raise IllegalAction("{text} is not a signal here ({signals})",
                                    text=quote(signal), signals=list(self.signal_tokens))
        if action.bella:
            raise IllegalAction("there is no bella in this game")
        trick_no = len(self.completed) + 1
        if signal is not None:
            self.signals.append({"trick": trick_no, "seat": seat, "signal": signal})
        events = [public("play", {"seat": seat, "card": NAMES[c], "signal": signal,
                                  "trick": trick_no})]
        held.remove(r)  # :meth:`fast_play`, with the suit list already at hand
        if self.trick_step(seat, c):
            self._after_trick(self.leader)
            events.append(public("trick", trick_data(trick_no, trick_json(self.completed[-1]))))
            if self.phase == OVER_PHASE:
                events.append(public("deal_over", {"summary": self.summary()}))
        return events

    def hand_names(self, seat: int) -> list[str]:
        """``seat``'s current hand, sorted for display (suits alternate black and red)."""
        h = self.hands[seat]  # suit lists are kept sorted: no sort needed
        return [names[r] for s, names in _DISPLAY_NAMES for r in reversed(h[s])]

    def _visible_hand(self, seat: int) -> list[str]:
        if self.phase == TRUMP_PHASE:
            if seat != self.eldest:
                return []
            return [name(c) for c in sort_for_display(self.dealt[seat][:3])]
        return self.hand_names(seat)

    def hand_sizes(self) -> list[int]:
        if self.phase == TRUMP_PHASE:
            return [3 if s == self.eldest else 0 for s in range(4)]
        return [sum(len(x) for x in self.hands[s]) for s in range(4)]

    def view(self, seat: int | None) -> PlainView:
        trump = SUITS[self.trump] if self.trump >= 0 else None
        out = common_view(
            self, seat, teams=TEAMS_4, trump=self.trump,
            hand=[] if seat is None else self._visible_hand(seat),
            hand_sizes=self.hand_sizes(),
            facts=[["Trump", SUIT_NAMES[self.trump] if trump else "not named yet"],
                   ["Tricks A–B", "{}–{}".format(*self.tricks_by_team())]])
        return {
            **out,
            "eldest": self.eldest,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "signals": [SignalJSON(trick=x["trick"], seat=x["seat"], signal=x["signal"])
                        for x in self.signals],
            "signal_tokens": list(self.signal_choices()),
        }

    def summary(self) -> DealSummary:
        return {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trick_winners": self.trick_winners(),
            "tricks": self.tricks_json(),
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "hand_over": self.is_over,
            "signals": [x.copy() for x in self.signals],
        }

    def dealt_hands(self) -> list[list[str]]:
        return [[name(c) for c in h] for h in self.dealt]

    def sort_key_suits(self) -> tuple[int, ...]:
        return DISPLAY_SUIT_ORDER


def _by_suit(hand: list[int]) -> list[list[int]]:
    """A hand in the fast form: for each suit, the sorted natural ranks held."""
    out: tuple[list[int], ...] = ([], [], [], [])
    for c in sorted(hand):
        s, r = _SUIT_RANK[c]
        out[s].append(r)
    return list(out)


_SUIT_RANK = tuple(divmod(c, 13) for c in range(52))
"""``_SUIT_RANK[c]``: card ``c``'s (suit, natural rank)."""


def _same(ranks: list[int]) -> list[int]:
    """A single pack's suit list is already distinct."""
    return ranks


def _distinct(ranks: list[int]) -> list[int]:
    """The distinct values of a sorted list, in order (duplicates: Arba'a Turub's copies)."""
    if len(ranks) < 2:
        return ranks
    out = [ranks[0]]
    for r in ranks:
        if r != out[-1]:
            out.append(r)
    return out


@lru_cache(maxsize=64)
def _signal_plays(signals: tuple[str, ...] | None
                  ) -> tuple[tuple[tuple[Action, ...], ...], ...] | None:
    """``[suit][rank]``: the plays of that card a leader may make, plain then with each
    signal (built once per set of signal tokens)."""
    if not signals:
        return None
    return tuple(tuple((PLAY_ACTIONS[c], *(Action.play(name(c), signal=t) for t in signals))
                       for c in range(s * 13, s * 13 + 13)) for s in range(4))


@cache
def _pack(copies: int) -> tuple[int, ...]:
    """The 36-card pack ``copies`` times (built once)."""
    return tuple(deck(RANKS_36, copies=copies))


def deal_hands(
    dealer: int, direction: int, per_seat: int, copies: int, rng: random.Random
) -> list[list[int]]:
    """Shuffle the pack and deal it in packets of three from eldest in ``direction``."""
    cards = shuffled(_pack(copies), rng)
    return deal_packets(cards, ORDERS[direction][(dealer + direction) % 4], 3, per_seat, 4)




def playout_tricks(
    hands: list[list[list[int]]],
    trump: int,
    leader: int,
    direction: int,
    rnd: Any,
    tally: list[int],
    stop: tuple[int, int],
) -> int:
    """Play whole tricks with uniformly random legal cards (:func:`follow_suit`, the one
    rule) until a team's trick count (the seats' counts in ``tally`` added up) reaches its
    threshold in ``stop`` (``[A, B]``) or the hands run out; add each trick to
    ``tally[winner]`` and return the next leader.

    ``hands`` is the fast form (``[seat][suit]`` lists of rank ints) and is consumed.
    ``rnd`` is a ``random.Random().random`` bound method. This tight loop is the hot path
    of search playouts and of ``bench/engine.py``: the lead is drawn before the followers'
    loop, so that no follower's card pays for the leader's branches (with the rule's call
    per follower, that keeps the playout within issue 37's 15%: ``bench/engine.py
    --instructions``).
    """
    followers = FOLLOWERS[direction]
    keys = NATURAL_KEYS[trump + 1]  # the readable path's card keys
    n = sum(len(x) for x in hands[leader])
    team = [tally[0] + tally[2], tally[1] + tally[3]]
    stop_a, stop_b = stop
    while n and team[0] < stop_a and team[1] < stop_b:
        h = hands[leader]
        i = int(rnd() * n)
        led = 0
        lst = h[0]
        while i >= len(lst):
            i -= len(lst)
            led += 1
            lst = h[led]
        base, row = led * 13, keys[led]
        best = row[base + lst.pop(i)]
        winner = leader
        for seat in followers[leader]:
            h = hands[seat]
            if follow_suit(h, led) >= 0:
                lst = h[led]
                key = row[base + lst.pop(int(rnd() * len(lst)))]
            else:  # void in the led suit: any card, as at the lead
                i = int(rnd() * n)
                s = 0
                lst = h[0]
                while i >= len(lst):
                    i -= len(lst)
                    s += 1
                    lst = h[s]
                key = row[s * 13 + lst.pop(i)]
            if key > best:
                best, winner = key, seat
        tally[winner] += 1
        team[winner & 1] += 1
        leader = winner
        n -= 1
    return leader
