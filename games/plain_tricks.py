"""The plain-trick core shared by Arba'a Turub and its parent Turup.

Both games: four players in partnerships (A = {0, 2}, B = {1, 3}), no card points, eldest
names trump after seeing only his first packet of three, the leader may play anything, a
follower must follow suit if able and may otherwise play anything (no duty to trump or to
beat), the standard trick winner with ties to the copy played first, and leader-only
signals (``strong`` / ``weak`` plus the group's ``extra_signals``).

The state is kept in the fast form that search players use: a hand is four lists (one per
suit) of natural rank ints, duplicates allowed. The readable API (``apply`` with
:class:`~games.actions.Action` objects, views, summaries) checks an action and then calls
the same fast step, :meth:`PlainTrickDeal.fast_play`, that search and playouts use.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.actions import Action
from games.base import Deal, Event, private, public
from games.cards import (
    DISPLAY_SUIT_ORDER,
    SUIT_NAMES,
    SUITS,
    describe,
    name,
    parse_suit,
    sort_for_display,
)
from games.errors import IllegalAction, RecordError
from games.trick import follow_reason

TEAMS_4: list[tuple[int, ...]] = [(0, 2), (1, 3)]
BASE_SIGNALS = ("strong", "weak")


def team_of(seat: int) -> int:
    return seat % 2


class PlainTrickDeal(Deal):
    """A deal of a plain-trick partnership game. Subclasses set the deal shape and decide
    when the deal ends (:meth:`_after_trick`).

    Phases: ``"trump"`` (eldest names trump from his first packet), ``"play"``, then the
    subclass's own (Turup's ``"kort"``), and ``"over"``.
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
    ) -> None:
        super().__init__(4, dealer)
        self._check_hands(hands)
        self.eldest = (dealer + self.direction) % 4
        self.order = [(self.eldest + self.direction * i) % 4 for i in range(4)]
        self.dealt = [list(h) for h in hands]
        self.signal_tokens = signals  # None: signals disabled
        self.hands: list[list[list[int]]] = [[[], [], [], []] for _ in range(4)]
        for seat, hand in enumerate(hands):
            for c in hand:
                self.hands[seat][c // 13].append(c % 13)
            for lst in self.hands[seat]:
                lst.sort()
        self.trump = -1
        self.phase = "trump"
        self.leader = self.eldest
        self.turn = self.eldest
        self.trick: list[tuple[int, int]] = []
        self.best_key = -1
        self.best_seat = -1
        self.completed: list[tuple[int, list[tuple[int, int]], int]] = []
        self.tricks_by_seat = [0, 0, 0, 0]
        self.signals: list[dict[str, Any]] = []

    # -- construction helpers -----------------------------------------------------------------
    def _check_hands(self, hands: list[list[int]]) -> None:
        from games.cards import RANKS_36, deck

        for seat, hand in enumerate(hands):
            if len(hand) != self.hand_size:
                raise RecordError(
                    f"field 'hands', seat {seat}: holds {len(hand)} cards, not {self.hand_size}"
                )
        want = Counter(deck(RANKS_36, copies=self.deck_copies))
        got = Counter(c for h in hands for c in h)
        if got != want:
            wrong = sorted((got - want) or (want - got))
            word = "too many" if got - want else "missing"
            raise RecordError(f"field 'hands': the hands are not the pack ({word}: "
                              f"{describe(wrong[:6])})")

    # -- fast core --------------------------------------------------------------------------
    def fast_legal(self, seat: int) -> list[int]:
        """Distinct card ints ``seat`` may play now (assumes it is his turn to play)."""
        h = self.hands[seat]
        if self.trick:
            led = self.trick[0][1] // 13
            if h[led]:
                return [led * 13 + r for r in sorted(set(h[led]))]
        return [s * 13 + r for s in range(4) for r in sorted(set(h[s]))]

    def fast_play(self, c: int) -> None:
        """Play card ``c`` for the seat to move, without checks, events or messages."""
        seat = self.turn
        s = c // 13
        self.hands[seat][s].remove(c % 13)
        trick = self.trick
        led = trick[0][1] // 13 if trick else s
        trick.append((seat, c))
        key = 100 + c % 13 if s == self.trump else (c % 13 if s == led else -1)
        if key > self.best_key:
            self.best_key, self.best_seat = key, seat
        if len(trick) < 4:
            self.turn = (seat + self.direction) % 4
            return
        winner = self.best_seat
        self.completed.append((self.leader, trick, winner))
        self.tricks_by_seat[winner] += 1
        self.trick = []
        self.best_key, self.best_seat = -1, -1
        self.leader = self.turn = winner
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        """Decide whether the deal goes on after a completed trick (subclass hook)."""
        if len(self.completed) == self.hand_size:
            self.phase = "over"

    def tricks_by_team(self) -> list[int]:
        t = self.tricks_by_seat
        return [t[0] + t[2], t[1] + t[3]]

    # -- readable surface -------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == "over":
            return ()
        return (self.turn,)

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def signal_choices(self) -> tuple[str, ...]:
        return self.signal_tokens or ()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "trump":
            return [Action.call_trump(s) for s in SUITS] if seat == self.eldest else []
        if self.phase != "play" or seat != self.turn:
            return []
        out: list[Action] = []
        leading = not self.trick
        for c in self.fast_legal(seat):
            out.append(Action.play(name(c)))
            if leading:
                out.extend(Action.play(name(c), signal=t) for t in self.signal_choices())
        return out

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.type == "call_trump":
            return self._call_trump(seat, action)
        if action.type == "play":
            return self._play(seat, action)
        raise IllegalAction(self._phase_refusal(action))

    def _phase_refusal(self, action: Action) -> str:
        if self.phase == "trump":
            return f"trump has not been named yet: seat {self.eldest} names it first"
        return f"{action.type.replace('_', ' ')} is not possible now"

    def _call_trump(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "trump":
            raise IllegalAction("trump has already been named")
        if seat != self.eldest:
            raise IllegalAction(f"only seat {self.eldest}, eldest, names trump")
        assert action.suit is not None
        self.trump = parse_suit(action.suit)
        self.phase = "play"
        events = [public("trump", seat=seat, suit=action.suit)]
        for s in range(4):
            events.append(private(s, "hand", cards=self.hand_names(s)))
        return events

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase != "play":
            raise IllegalAction(self._phase_refusal(action))
        if seat != self.turn:
            raise self.not_your_turn(seat)
        assert action.card is not None
        c = _card_int(action.card)
        h = self.hands[seat]
        if (c % 13) not in h[c // 13]:
            raise IllegalAction(f"you do not hold {action.card}")
        if self.trick:
            led = self.trick[0][1] // 13
            if c // 13 != led and h[led]:
                raise IllegalAction(follow_reason(led, [led * 13 + r for r in reversed(h[led])]))
        if action.signal is not None:
            if self.signal_tokens is None:
                raise IllegalAction("signals are not used at this table")
            if self.trick:
                raise IllegalAction("only the player leading to a trick may signal")
            if action.signal not in self.signal_tokens:
                raise IllegalAction(f"{action.signal!r} is not a signal here "
                                    f"({', '.join(self.signal_tokens)})")
        if action.bella:
            raise IllegalAction("there is no bella in this game")
        trick_no = len(self.completed) + 1
        if action.signal is not None:
            self.signals.append({"trick": trick_no, "seat": seat, "signal": action.signal})
        self.fast_play(c)
        events = [public("play", seat=seat, card=action.card, signal=action.signal,
                         trick=trick_no)]
        if len(self.completed) == trick_no:
            leader, cards, winner = self.completed[-1]
            events.append(public("trick", number=trick_no, leader=leader,
                                 cards=[[s, name(x)] for s, x in cards], winner=winner))
        events.extend(self._status_events())
        if self.is_over:
            events.append(public("deal_over", summary=self.summary()))
        return events

    def _status_events(self) -> list[Event]:
        """Events a subclass adds after a play (Turup's kort decision)."""
        return []

    def hand_names(self, seat: int) -> list[str]:
        """``seat``'s current hand, sorted for display (suits alternate black and red)."""
        cards = [s * 13 + r for s in range(4) for r in self.hands[seat][s]]
        return [name(c) for c in sort_for_display(cards)]

    def _visible_hand(self, seat: int) -> list[str]:
        if self.phase == "trump":
            if seat != self.eldest:
                return []
            return [name(c) for c in sort_for_display(self.dealt[seat][:3])]
        return self.hand_names(seat)

    def hand_sizes(self) -> list[int]:
        if self.phase == "trump":
            return [3 if s == self.eldest else 0 for s in range(4)]
        return [sum(len(x) for x in self.hands[s]) for s in range(4)]

    def view(self, seat: int | None) -> dict[str, Any]:
        trump = SUITS[self.trump] if self.trump >= 0 else None
        out: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "players": 4,
            "teams": [list(t) for t in TEAMS_4],
            "dealer": self.dealer,
            "eldest": self.eldest,
            "direction": "clockwise" if self.direction == 1 else "counterclockwise",
            "phase": self.phase,
            "to_act": list(self.to_act),
            "trump": trump,
            "hand": [] if seat is None else self._visible_hand(seat),
            "hand_sizes": self.hand_sizes(),
            "trick": {"leader": self.leader, "cards": [[s, name(c)] for s, c in self.trick]},
            "tricks": [_trick_json(t) for t in self.completed],
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "signals": [dict(x) for x in self.signals],
            "signal_tokens": list(self.signal_choices()),
        }
        facts = [["Trump", SUIT_NAMES[self.trump] if trump else "not named yet"],
                 ["Tricks A–B", "{}–{}".format(*self.tricks_by_team())]]
        out["facts"] = facts
        return out

    def summary(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trick_winners": [w for _, _, w in self.completed],
            "tricks": [_trick_json(t) for t in self.completed],
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "hand_over": self.is_over,
            "signals": [dict(x) for x in self.signals],
        }

    def dealt_hands(self) -> list[list[str]]:
        return [[name(c) for c in h] for h in self.dealt]

    def sort_key_suits(self) -> tuple[int, ...]:
        return DISPLAY_SUIT_ORDER


def _trick_json(t: tuple[int, list[tuple[int, int]], int]) -> dict[str, Any]:
    leader, cards, winner = t
    return {"leader": leader, "cards": [[s, name(c)] for s, c in cards], "winner": winner}


def _card_int(text: str) -> int:
    from games.cards import card

    return card(text)


def deal_hands(
    dealer: int, direction: int, per_seat: int, copies: int, rng: random.Random
) -> list[list[int]]:
    """Shuffle the pack and deal it in packets of three from eldest in ``direction``."""
    from games.cards import RANKS_36, deal_packets, deck, seat_order, shuffled

    cards = shuffled(deck(RANKS_36, copies=copies), rng)
    order = seat_order((dealer + direction) % 4, 4, direction)
    return deal_packets(cards, order, 3, per_seat, 4)


ORDERS = {d: [[(s + d * i) % 4 for i in range(4)] for s in range(4)] for d in (1, -1)}
"""``ORDERS[direction][leader]``: the four seats of a trick in playing order."""


def playout_tricks(
    hands: list[list[list[int]]],
    trump: int,
    leader: int,
    direction: int,
    rnd: Any,
    tally: list[int],
    stop: tuple[int, int],
) -> int:
    """Play whole tricks with uniformly random legal cards until a team's trick count (the
    seats' counts in ``tally`` added up) reaches its threshold in ``stop`` (``[A, B]``) or
    the hands run out; add each trick to ``tally[winner]`` and return the next leader.

    ``hands`` is the fast form (``[seat][suit]`` lists of rank ints) and is consumed.
    ``rnd`` is a ``random.Random().random`` bound method. This tight loop is the hot path
    of search playouts and of ``bench/engine.py``.
    """
    orders = ORDERS[direction]
    n = sum(len(x) for x in hands[leader])
    team = [tally[0] + tally[2], tally[1] + tally[3]]
    stop_a, stop_b = stop
    while n and team[0] < stop_a and team[1] < stop_b:
        first = True
        led = -1
        best = -1
        winner = leader
        for seat in orders[leader]:
            h = hands[seat]
            if not first:
                lst = h[led]
                k = len(lst)
                if k:
                    r = lst.pop(int(rnd() * k))
                    key = 100 + r if led == trump else r
                    if key > best:
                        best, winner = key, seat
                    continue
            i = int(rnd() * n)
            s = 0
            lst = h[0]
            while i >= len(lst):
                i -= len(lst)
                s += 1
                lst = h[s]
            r = lst.pop(i)
            if first:
                led = s
                first = False
                best = 100 + r if s == trump else r
                winner = seat
            elif s == trump and 100 + r > best:
                best, winner = 100 + r, seat
        tally[winner] += 1
        team[winner & 1] += 1
        leader = winner
        n -= 1
    return leader
