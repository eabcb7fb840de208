"""Albastini, exactly as ``docs/rules/albastini.md``, for 2 to 6 players.

* 36 cards ``A 7 K J Q 6 5 4 3`` in every suit, ranked in that order (trumps too); card
  points A 11, 7 10, K 4, J 3, Q 2, others 0 (120 in all).
* Sides: 2, 3 and 5 players play as individuals; 4 players as two teams {0, 2}, {1, 3};
  6 players as three teams of two ({0, 3}, {1, 4}, {2, 5}; option ``teams: "3x2"``) or two
  teams of three ({0, 2, 4}, {1, 3, 5}; ``teams: "2x3"``).
* Deal: five cards each, one at a time clockwise from the dealer's left; the next card is
  the card the dealer will turn for trump (record ``extra.trump_card``), the rest is the
  stock (``extra.stock``, top first).
* Bidding: the dealer's opponents only, clockwise from the dealer's left, each once: ``bid``
  a card of a suit nobody has bid yet, or ``pass``. Then the turned card's suit is trump. The
  bidder of the trump suit (at most one) must take the turned card into his hand; his bid
  card takes its place. The face-up card (turned card, or exchanged bid card) goes under the
  stock as its last card and stays visible to everybody.
* Play: dealer's left leads; any card may be played, always; highest trump, else highest card
  of the led suit, wins; the winner leads next.
* Drawing: after each trick, while the stock holds at least one card per player, everybody
  draws one card, the trick winner first then clockwise. With 5 players the face-up card is
  never drawn and counts for nobody.
* Scoring: the side with most card points wins the game (a tie for most: no victory points);
  it scores 1 VP if every side took at least 10 points per member (individuals 10, teams of
  two 20, teams of three 30 — for teams of three "the losing team took 30" is the same
  test), else 2 VP. The next dealer is the first seat clockwise after the old dealer that
  belongs to the winning side; after a tie the same dealer deals again. The session ends when
  a side reaches ``target_vp`` (5) or after ``session_games`` games (no limit by default).

Engine representation:

* **Timing of the turn.** The trump card is turned inside the ``apply`` of the last eligible
  bidder's ``bid``/``pass``: that call's events are the bid (or pass), ``trump_turned``
  (the card and suit), ``exchange`` (``seat``, ``took`` = the turned card, ``gave`` = his bid
  card; only when a bid was in the trump suit), ``bottom_card`` (the face-up card under the
  stock), then one private ``hand`` event per seat. The deal goes straight to play.
* **Bid cards** stay in their bidder's hand in the engine (they lie face up on the table at
  a real one); ``bids`` in every view lists ``[seat, card]`` (``[seat, null]`` for a pass)
  for the whole deal, because every player saw those cards.
* **The exchange** is public: views carry ``trump_card`` (the turned card), ``exchanged_by``
  (the seat that took it, or null) and ``bottom_card``; everybody therefore knows that the
  exchanger holds the turned card until he plays it, as at the table.
* **Draws**: a public ``draw_round`` event lists the seats in drawing order with every card
  written ``??`` except the face-up bottom card; each drawer gets a private ``draw`` event
  with his card and new hand. Views show ``draws`` the same way (the viewer's own draws in
  clear), ``bottom_drawn_by`` (who drew the face-up card) and ``stock_size``; the stock's
  order is never shown.

Choices where the rule file is silent (a careful referee's):

* ``dealer_choice: "winners_choose"``: the winning side names the next dealer among its
  members. The choice is made by naming the next deal's dealer: the table service calls
  :meth:`AlbastiniMatch.choose_dealer` (or passes ``dealer`` to ``start_deal``), and a record
  gives the next deal's ``dealer`` field. Any member of the winning side is accepted; when no
  choice is made the default rule (first clockwise after the old dealer) applies, so
  ``next_dealer`` in summaries is that default and the match summary lists the permitted
  seats as ``dealer_choices``. After a tied game there is no choice: the dealer deals again.
* ``session_games`` counts every game, tied ones included. If it ends the session before
  anyone reaches ``target_vp``, the side with most VP wins; equal leaders: no winner (null).
* ``teams`` concerns 6 players only; ``"2x3"`` at another player count is an error.
* A bidder may always pass, even when he holds a card of an unbid suit; a bidder who holds
  no card of an unbid suit can only pass.
* Score-only deals give ``points_by_side``: one total per side, which the pack's counting
  cards must be able to make (with 5 players, all of them but possibly the one face-up card
  left in the stock); anything else is an error.
* The random playout (AI search, ``bench/engine.py``) bids uniformly among ``pass`` and every
  biddable card, and plays a uniformly random card of the hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from games.actions import PLAYS, Action
from games.base import (
    HIDDEN,
    Deal,
    Event,
    GameInfo,
    Match,
    TrickDeal,
    private,
    public,
    trick_data,
)
from games.cards import (
    RANKS_ALBASTINI,
    SUIT_NAMES,
    SUITS,
    card,
    deal_packets,
    deck,
    describe,
    name,
    seat_order,
    shuffled,
    sort_for_display,
)
from games.errors import IllegalAction, OptionError, RecordError, quote
from games.event_types import DealSummary, MatchExtras
from games.options import GameOptions, option
from games.trick import key_tables, trick_json
from games.view_types import AlbastiniView
from games.views import common_view

HAND_SIZE = 5
PACK = tuple(deck(RANKS_ALBASTINI))
"""The 36 card ints of the pack."""

STRENGTH: list[int] = [-1] * 52
"""``STRENGTH[c]``: rank strength within a suit (A = 8 … 3 = 0); -1 for cards not in the pack."""
POINTS: list[int] = [0] * 52
"""``POINTS[c]``: card points (A 11, 7 10, K 4, J 3, Q 2, others 0)."""
_RANK_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}
for _c in PACK:
    _r = name(_c)[0]
    STRENGTH[_c] = len(RANKS_ALBASTINI) - 1 - RANKS_ALBASTINI.index(_r)
    POINTS[_c] = _RANK_POINTS.get(_r, 0)
TOTAL_POINTS = sum(POINTS)
assert TOTAL_POINTS == 120

KEY_SET = key_tables(STRENGTH)
"""The card keys (:func:`games.trick.key_tables`) by this game's ranks."""
KEYS = KEY_SET[1:]
"""``KEYS[trump][led][c]``: how strongly card ``c`` bids for the trick (higher wins; -1 never
wins); the same tables as the deal's, indexed by the trump suit (there is always one)."""


class AlbastiniPhase(StrEnum):
    """The phases of an Albastini game (deal)."""

    BIDDING = "bidding"
    PLAY = "play"
    OVER = "over"


P = AlbastiniPhase

ORDERS: dict[int, list[tuple[int, ...]]] = {
    n: [tuple(seat_order(s, n, 1)) for s in range(n)] for n in range(2, 7)
}
"""``ORDERS[players][first]``: the seats clockwise from ``first``."""
FOLLOWERS: dict[int, list[tuple[int, ...]]] = {n: [o[1:] for o in ORDERS[n]] for n in ORDERS}
"""``FOLLOWERS[players][leader]``: the seats that play after ``leader`` in a trick."""


def sides_for(players: int, teams: str = "3x2") -> list[tuple[int, ...]]:
    """The sides (rule file sections 2 and 9), in the rule file's index order."""
    if players == 4:
        return [(0, 2), (1, 3)]
    if players == 6:
        if teams == "2x3":
            return [(0, 2, 4), (1, 3, 5)]
        return [(0, 3), (1, 4), (2, 5)]
    return [(s,) for s in range(players)]


def bidders_for(dealer: int, sides: Sequence[Sequence[int]], players: int) -> list[int]:
    """The dealer's opponents, clockwise from the dealer's left: the seats that may bid."""
    own = next(side for side in sides if dealer in side)
    return [s for s in ORDERS[players][dealer][1:] if s not in own]


def score_game(
    points: Sequence[int], sides: Sequence[Sequence[int]]
) -> tuple[int | None, list[int]]:
    """``(winner_side, victory_points)`` for the sides' card points (section 7).

    A tie for most points scores nothing; otherwise the winner gets 1 VP when every side took
    at least 10 points per member, else 2 VP.
    """
    vp = [0] * len(sides)
    best = max(points)
    if list(points).count(best) > 1:
        return None, vp
    winner = list(points).index(best)
    every_side_safe = all(p >= 10 * len(side) for p, side in zip(points, sides, strict=True))
    vp[winner] = 1 if every_side_safe else 2
    return winner, vp


def next_dealer_for(dealer: int, winner_side: int | None, sides: Sequence[Sequence[int]],
                    players: int) -> list[int]:
    """Seats that may deal next, the rule's default first (section 8): the winning side's
    members clockwise after the old dealer (the old dealer last); after a tie, the dealer."""
    if winner_side is None:
        return [dealer]
    side = sides[winner_side]
    return [s for s in (*ORDERS[players][dealer][1:], dealer) if s in side]


_COUNTING = (11, 10, 4, 3, 2)


@lru_cache(maxsize=4096)
def _splittable(targets: tuple[int, ...], counts: tuple[int, ...]) -> bool:
    """Whether counting cards (``counts[i]`` cards worth ``_COUNTING[i]``) can be split into
    piles worth exactly ``targets`` (all cards used; the sums are known to agree)."""
    if len(targets) <= 1:
        return True
    t, rest = targets[0], targets[1:]
    c11, c10, c4, c3, c2 = counts
    for a in range(min(c11, t // 11) + 1):
        t1 = t - 11 * a
        for b in range(min(c10, t1 // 10) + 1):
            t2 = t1 - 10 * b
            for d in range(min(c4, t2 // 4) + 1):
                t3 = t2 - 4 * d
                for e in range(min(c3, t3 // 3) + 1):
                    t4 = t3 - 3 * e
                    if t4 % 2 or t4 // 2 > c2:
                        continue
                    left = (c11 - a, c10 - b, c4 - d, c3 - e, c2 - t4 // 2)
                    if _splittable(rest, left):
                        return True
    return False


def check_points(points: Sequence[int], players: int) -> None:
    """Raise ``RecordError`` unless the pack can give the sides exactly ``points`` (with 5
    players the face-up card may be left over, counting for nobody)."""
    total = sum(points)
    where = "field 'summary.points_by_side'"
    if total > TOTAL_POINTS:
        raise RecordError(f"{where}: the sides' points add up to {quote(total)}, more than the "
                          f"{TOTAL_POINTS} in the pack")
    left_over = TOTAL_POINTS - total
    if players != 5 and left_over:
        raise RecordError(f"{where}: the sides' points add up to {quote(total)}, not "
                          f"{TOTAL_POINTS}")
    if left_over and left_over not in _COUNTING:
        raise RecordError(f"{where}: the sides' points add up to {quote(total)}; only the face-up "
                          f"card (worth 0, 2, 3, 4, 10 or 11) counts for nobody")
    counts = [4] * len(_COUNTING)
    if left_over:
        counts[_COUNTING.index(left_over)] -= 1
    ordered = tuple(sorted(points, reverse=True))
    if not _splittable(ordered, tuple(counts)):
        raise RecordError(f"{where}: no split of the pack's cards gives these totals")


@dataclass(frozen=True)
class AlbastiniOptions(GameOptions):
    target_vp: int = option(5, "The session ends when a side reaches this many victory "
                               "points.", min=1, max=1000)
    session_games: int | None = option(
        None, "The session ends after this many games (null: no limit).", min=1, max=10000)
    dealer_choice: str = option(
        "first_clockwise", "Which winner deals next: the first clockwise after the old dealer, "
        "or the winning side chooses among its members.",
        choices=("first_clockwise", "winners_choose"))
    teams: str = option(
        "3x2", "6 players only: three teams of two (partners opposite) or two teams of "
        "three (alternate seats).", choices=("3x2", "2x3"))


class AlbastiniDeal(TrickDeal):
    """One game (deal) of Albastini. Phases: ``"bidding"``, ``"play"``, ``"over"``.

    Fast state: ``hands[seat]`` lists card ints (dealt order, then draws appended),
    ``stock[stock_pos:]`` is what is left of the stock (after the turn its last card is the
    face-up ``bottom``), ``trick`` the cards played to the current trick.
    """

    game = "albastini"

    def __init__(self, players: int, dealer: int, hands: list[list[int]], stock: list[int],
                 trump_card: int, sides: Sequence[Sequence[int]], *,
                 trusted: bool = False) -> None:
        super().__init__(players, dealer)
        if not trusted:
            _check_pack(players, hands, stock, trump_card)
        self.sides = [tuple(s) for s in sides]
        self.side_of = [0] * players
        for i, side in enumerate(self.sides):
            for s in side:
                self.side_of[s] = i
        self.dealt = [list(h) for h in hands]
        self.hands = [list(h) for h in hands]
        self.stock_init = list(stock)
        self.trump_card = trump_card
        self.stock = list(stock)  # the turned card is apart until bidding ends
        self.stock_pos = 0
        self.bidders = bidders_for(dealer, self.sides, players)
        self.bids: list[tuple[int, int]] = []  # (seat, card or -1 for pass)
        self.bid_suits = 0  # bitmask of suits bid
        self.phase = P.BIDDING
        self.exchanged_by: int | None = None
        self.bottom = -1
        self.bottom_drawn_by: int | None = None
        self.init_tricks(players, (dealer + 1) % players, 1, KEY_SET)
        self.won: list[list[int]] = [[] for _ in self.sides]
        self.points_by_side = [0] * len(self.sides)
        self.draws: list[list[tuple[int, int]]] = []
        self.winner_side: int | None = None
        self.victory_points = [0] * len(self.sides)

    # -- fast core ----------------------------------------------------------------------------
    def fast_bid(self, c: int) -> None:
        """The current bidder bids card ``c`` (``-1``: passes); unchecked. After the last
        bidder the trump card is turned and the exchange made."""
        seat = self.bidders[len(self.bids)]
        self.bids.append((seat, c))
        if c >= 0:
            self.bid_suits |= 1 << (c // 13)
        if len(self.bids) == len(self.bidders):
            self._turn_trump()

    def _turn_trump(self) -> None:
        turned = self.trump_card
        self.trump = turned // 13
        bottom = turned
        for seat, c in self.bids:
            if c >= 0 and c // 13 == self.trump:
                hand = self.hands[seat]
                hand[hand.index(c)] = turned
                self.exchanged_by, bottom = seat, c
        self.bottom = bottom
        self.stock.append(bottom)
        self.phase = P.PLAY

    def fast_play(self, c: int) -> None:
        """Play card ``c`` for the seat to move, unchecked: completes the trick, the draw
        round and the end of the game when due."""
        seat = self.turn
        self.hands[seat].remove(c)
        if not self.trick_step(seat, c):
            return
        n = self.players
        winner = self.leader
        side = self.side_of[winner]
        for _, x in self.completed[-1][1]:
            self.won[side].append(x)
            self.points_by_side[side] += POINTS[x]
        stock = self.stock
        if len(stock) - self.stock_pos >= n:
            drawn = []
            for s in ORDERS[n][winner]:
                x = stock[self.stock_pos]
                self.stock_pos += 1
                self.hands[s].append(x)
                drawn.append((s, x))
                if self.stock_pos == len(stock):
                    self.bottom_drawn_by = s
            self.draws.append(drawn)
        elif not self.hands[winner]:
            self.phase = P.OVER
            self.winner_side, self.victory_points = score_game(self.points_by_side,
                                                               self.sides)

    def stock_left(self) -> list[int]:
        """The cards still in the stock, top first (during bidding the unturned trump card is
        its top card)."""
        rest = self.stock[self.stock_pos:]
        return [self.trump_card, *rest] if self.phase == P.BIDDING else rest

    # -- readable surface ---------------------------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == P.BIDDING:
            return (self.bidders[len(self.bids)],)
        if self.phase == P.PLAY:
            return (self.turn,)
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == P.OVER

    def _biddable(self, seat: int) -> list[int]:
        return [c for c in self.hands[seat] if not self.bid_suits >> (c // 13) & 1]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if self.phase == P.BIDDING:
            cards = sort_for_display(self._biddable(seat), STRENGTH)
            return [Action.pass_(), *(Action.bid(name(c)) for c in cards)]
        return [PLAYS[c] for c in sort_for_display(self.hands[seat], STRENGTH)]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.type in ("bid", "pass"):
            return self._bid(seat, action)
        if action.type == "play":
            return self._play(seat, action)
        raise IllegalAction("{action} is not an action in Albastini (bid, pass, play)",
                            action=action.type)

    def _bid(self, seat: int, action: Action) -> list[Event]:
        if self.phase != P.BIDDING:
            raise IllegalAction("the bidding is over")
        if seat not in self.bidders:
            raise IllegalAction("only the dealer's opponents bid ({seats}); the dealer's side "
                                "does not", seats=list(self.bidders))
        if seat != self.to_act[0]:
            raise self.not_your_turn(seat)
        c = -1
        if action.type == "bid":
            if action.cards is not None or action.card is None:
                raise IllegalAction("bid exactly one card")
            c = _held(self.hands[seat], action.card)
            if self.bid_suits >> (c // 13) & 1:
                by = next(s for s, x in self.bids if x >= 0 and x // 13 == c // 13)
                raise IllegalAction("{suit} has already been bid (by {seat}): bid a card of "
                                    "another suit, or pass", suit=c // 13, seat=by)
        self.fast_bid(c)
        events = [public("bid", {"seat": seat, "card": name(c)}) if c >= 0
                  else public("pass", {"seat": seat})]
        if self.phase == P.PLAY:
            events.append(public("trump_turned", {"card": name(self.trump_card),
                                                  "suit": SUITS[self.trump]}))
            if self.exchanged_by is not None:
                events.append(public("exchange", {"seat": self.exchanged_by,
                                                  "took": name(self.trump_card),
                                                  "gave": name(self.bottom)}))
            events.append(public("bottom_card", {"card": name(self.bottom)}))
            events.extend(private(s, "hand", {"cards": self.hand_names(s)})
                          for s in range(self.players))
        return events

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase != P.PLAY:
            raise IllegalAction("the bidding is not finished: waiting for {seat} to bid or "
                                "pass", seat=self.to_act[0])
        if seat != self.turn:
            raise self.not_your_turn(seat)
        if action.signal is not None:
            raise IllegalAction("there are no signals in Albastini")
        if action.bella:
            raise IllegalAction("there is no bella in Albastini")
        c = _held(self.hands[seat], action.card)
        number = len(self.completed) + 1
        rounds = len(self.draws)
        self.fast_play(c)
        events = [public("play", {"seat": seat, "card": name(c), "trick": number})]
        if len(self.completed) == number:
            done = self.completed[-1]
            data = trick_data(number, trick_json(done))
            data["points"] = sum(POINTS[x] for _, x in done[1])
            events.append(public("trick", data))
        if len(self.draws) > rounds:
            drawn = self.draws[-1]
            events.append(public("draw_round", {
                "round": len(self.draws),
                "draws": [[s, self._shown(x, s, None)] for s, x in drawn],
                "stock_size": len(self.stock) - self.stock_pos}))
            events.extend(private(s, "draw", {"round": len(self.draws), "card": name(x),
                                              "hand": self.hand_names(s)}) for s, x in drawn)
        if self.is_over:
            events.append(public("deal_over", {"summary": self.summary()}))
        return events

    def _shown(self, c: int, drawer: int, viewer: int | None) -> str:
        """A drawn card as ``viewer`` may see it: his own draws and the face-up card."""
        return name(c) if c == self.bottom or drawer == viewer else HIDDEN

    def hand_names(self, seat: int) -> list[str]:
        """``seat``'s hand sorted for display."""
        return [name(c) for c in sort_for_display(self.hands[seat], STRENGTH)]

    def view(self, seat: int | None) -> AlbastiniView:
        turned = self.phase != P.BIDDING
        stock_size = len(self.stock_left())
        out: AlbastiniView = {
            **common_view(
                self, seat, teams=self.sides, trump=self.trump if turned else -1,
                hand=[] if seat is None else self.hand_names(seat),
                hand_sizes=[len(h) for h in self.hands], facts=[]),
            "bidders": list(self.bidders),
            "bids": [[s, name(c) if c >= 0 else None] for s, c in self.bids],
            "trump_card": name(self.trump_card) if turned else None,
            "exchanged_by": self.exchanged_by,
            "bottom_card": name(self.bottom) if turned else None,
            "bottom_drawn_by": self.bottom_drawn_by,
            "stock_size": stock_size,
            "draws": [[[s, self._shown(c, s, seat)] for s, c in rnd] for rnd in self.draws],
            "tricks_by_seat": list(self.tricks_by_seat),
            "points_by_side": list(self.points_by_side),
            "winner_side": self.winner_side,
            "victory_points": list(self.victory_points),
        }
        facts: list[list[str]] = []
        if turned:
            text = f"{SUIT_NAMES[self.trump]} (turned {name(self.trump_card)})"
            if self.exchanged_by is not None:
                text += f", taken by seat {self.exchanged_by}"
            facts.append(["Trump", text])
            where = ("under the stock" if self.bottom_drawn_by is None
                     else f"drawn by seat {self.bottom_drawn_by}")
            facts.append(["Face-up card", f"{name(self.bottom)} ({where})"])
        else:
            bid = describe(c for _, c in self.bids if c >= 0) or "none"
            facts.append(["Trump", f"not turned yet (bids: {bid})"])
        facts.append(["Stock", f"{stock_size} cards"])
        facts.append(["Card points", " · ".join(
            f"seat{'s' if len(side) > 1 else ''} {'+'.join(map(str, side))}: {p}"
            for side, p in zip(self.sides, self.points_by_side, strict=True))])
        out["facts"] = facts
        return out

    def summary(self) -> DealSummary:
        turned = self.phase != P.BIDDING
        out: DealSummary = {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if turned else None,
            "trick_winners": self.trick_winners(),
            "tricks": self.tricks_json(),
            "tricks_by_seat": list(self.tricks_by_seat),
        }
        if len(self.sides) < self.players:
            out["tricks_by_team"] = [sum(self.tricks_by_seat[s] for s in side)
                                     for side in self.sides]
        out.update({
            "hand_over": self.is_over,
            "exchanged_by": self.exchanged_by,
            "bottom_card": name(self.bottom) if turned else None,
            "draws": [[[s, name(c)] for s, c in rnd] for rnd in self.draws],
            "points_by_side": list(self.points_by_side),
            "winner_side": self.winner_side,
            "victory_points": list(self.victory_points),
        })
        return out

    def dealt_hands(self) -> list[list[str]]:
        return [[name(c) for c in h] for h in self.dealt]

    def record_extra(self) -> dict[str, Any]:
        return {"stock": [name(c) for c in self.stock_init], "trump_card": name(self.trump_card)}


def _held(hand: list[int], text: str | None) -> int:
    """The card int of ``text`` if ``hand`` holds it, else the refusal."""
    try:
        c = card(text or "")
    except ValueError:
        raise IllegalAction("{text} is not a card (write rank then suit, e.g. 'TS', 'AH')",
                            text=quote(text or "")) from None
    if c not in hand:
        raise IllegalAction("you do not hold {card}", card=str(text))
    return c


def _check_pack(players: int, hands: list[list[int]], stock: list[int], trump_card: int) -> None:
    if len(hands) != players:
        raise RecordError(f"field 'hands': must list {players} hands")
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(f"field 'hands', seat {seat}: holds {len(hand)} cards, not "
                              f"{HAND_SIZE}")
    want = len(PACK) - HAND_SIZE * players - 1
    if len(stock) != want:
        raise RecordError(f"field 'extra.stock': holds {len(stock)} cards, not {want} (the "
                          "pack less the hands and the turned card)")
    every = [c for h in hands for c in h] + stock + [trump_card]
    if sorted(every) != sorted(PACK):
        foreign = sorted(c for c in set(every) if c not in PACK)
        if foreign:
            raise RecordError(f"the deal holds {describe(foreign[:6])}, not in the "
                              "Albastini pack (A 7 K J Q 6 5 4 3)")
        twice = sorted(c for c in set(every) if every.count(c) > 1)
        raise RecordError(f"the deal holds {describe(twice[:6])} more than once")


def _record_cards(extra: Mapping[str, Any]) -> tuple[list[int], int]:
    raw_stock, raw_trump = extra.get("stock"), extra.get("trump_card")
    if not isinstance(raw_stock, list):
        raise RecordError("field 'extra.stock': must list the undealt cards, top first, "
                          "without the turned card")
    if not isinstance(raw_trump, str):
        raise RecordError("field 'extra.trump_card': must be the turned card (e.g. '7H')")
    try:
        stock = [card(c) if isinstance(c, str) else card(repr(c)) for c in raw_stock]
    except ValueError as exc:
        raise RecordError(f"field 'extra.stock': {exc}") from None
    try:
        trump_card = card(raw_trump)
    except ValueError as exc:
        raise RecordError(f"field 'extra.trump_card': {exc}") from None
    return stock, trump_card


def teams_for(players: int, options: GameOptions) -> list[tuple[int, ...]]:
    """``GameInfo.teams``: the sides for this player count and ``teams`` option."""
    form = options.teams if isinstance(options, AlbastiniOptions) else "3x2"
    return sides_for(players, form)


class AlbastiniMatch(Match):
    """A session: games until a side reaches ``target_vp`` victory points (or
    ``session_games`` games have been played). ``totals`` are VP by side."""

    game = "albastini"
    options_type = AlbastiniOptions
    extra_fields = frozenset({"stock", "trump_card"})
    options: AlbastiniOptions

    def _setup(self) -> None:
        if self.options.teams != "3x2" and self.players != 6:
            raise OptionError("option 'teams' applies to 6 players only, not {count}",
                              count=self.players)
        self.sides = sides_for(self.players, self.options.teams)
        self._choices = [self.next_dealer]

    def player_count(self, players: int | None) -> int:
        if players is None:
            return 4
        if not 2 <= players <= 6:
            raise RecordError(f"albastini is played by 2 to 6 players, not {quote(players)}")
        return players

    def side_count(self) -> int:
        return len(self.sides)

    def dealer_choices(self) -> list[int]:
        """Seats that may deal the next game: the rule's pick only, or with
        ``dealer_choice: "winners_choose"`` every member of the winning side (default
        first)."""
        if self.options.dealer_choice == "winners_choose":
            return list(self._choices)
        return [self.next_dealer]

    def choose_dealer(self, seat: int) -> None:
        """The winning side names the next dealer (``winners_choose``), between games."""
        if self.current is not None and not self.current.is_over:
            raise IllegalAction("the next dealer is chosen when this game is over")
        if seat not in self.dealer_choices():
            raise IllegalAction("{seat} may not deal next (allowed: {seats_or})", seat=seat,
                                seats_or=self.dealer_choices())
        self.next_dealer = seat

    def _check_dealer(self, dealer: int | None) -> None:
        if dealer is None:
            return
        if dealer not in self.dealer_choices():
            allowed = " or ".join(map(str, self.dealer_choices()))
            raise RecordError(f"dealer {quote(dealer)} is not a dealer the rules allow ({allowed})")
        self.next_dealer = dealer

    def _new_deal(
        self, dealer: int, hands: list[list[int]] | None, extra: Mapping[str, Any],
        rng: random.Random | None,
    ) -> Deal:
        n = self.players
        if hands is None:
            assert rng is not None
            if extra:
                raise RecordError("field 'extra': only a deal given by its hands has extra "
                                  "fields")
            cards = shuffled(PACK, rng)
            hands = deal_packets(cards, seat_order((dealer + 1) % n, n, 1), 1, HAND_SIZE, n)
            trump_card, stock = cards[HAND_SIZE * n], cards[HAND_SIZE * n + 1:]
            return AlbastiniDeal(n, dealer, hands, stock, trump_card, self.sides, trusted=True)
        stock, trump_card = _record_cards(extra)
        return AlbastiniDeal(n, dealer, hands, stock, trump_card, self.sides)

    def _score(self, summary: DealSummary) -> None:
        self.add_scores(summary["victory_points"])
        dealer = self.dealers[-1]
        self._choices = next_dealer_for(dealer, summary["winner_side"], self.sides,
                                        self.players)
        self.next_dealer = self._choices[0]
        top = max(self.scores)
        if top >= self.options.target_vp:
            self.over, self.winner = True, self.scores.index(top)
        elif (self.options.session_games is not None
              and len(self.dealers) >= self.options.session_games):
            self.over = True
            self.winner = self.scores.index(top) if self.scores.count(top) == 1 else None

    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        bad = sorted(set(given) - {"points_by_side"})
        if bad:
            raise RecordError(f"field 'summary.{bad[0]}': not a score-only field of albastini "
                              "(points_by_side)")
        points = given.get("points_by_side")
        k = len(self.sides)
        if (not isinstance(points, list) or len(points) != k or not all(
                isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points)):
            raise RecordError(f"field 'summary.points_by_side': must list {k} point totals, "
                              "one per side")
        check_points(points, self.players)
        winner, vp = score_game(points, self.sides)
        return {"dealer": dealer, "trump": None, "hand_over": True,
                "points_by_side": list(points), "winner_side": winner, "victory_points": vp}

    def match_extras(self) -> MatchExtras:
        if self.options.dealer_choice == "winners_choose":
            return {"dealer_choices": self.dealer_choices()}
        return {}


def random_playout(deal: Deal, rng: random.Random) -> list[int]:
    """Finish ``deal`` (consumed; its state afterwards is unspecified) with uniformly random
    legal actions; return the card points by side.

    Random policy: each remaining bidder picks uniformly among ``pass`` and his biddable
    cards (pass first, then the cards in hand order); each player plays a uniformly random
    card of his hand (hand order: as held in ``deal.hands``).
    """
    assert isinstance(deal, AlbastiniDeal)
    rnd = rng.random
    hands = deal.hands
    while deal.phase == P.BIDDING:
        used = deal.bid_suits
        opts = [c for c in hands[deal.bidders[len(deal.bids)]] if not used >> (c // 13) & 1]
        i = int(rnd() * (len(opts) + 1))
        deal.fast_bid(opts[i - 1] if i else -1)
    while deal.trick:  # finish a trick in progress on the readable core
        h = hands[deal.turn]
        deal.fast_play(h[int(rnd() * len(h))])
    pts = list(deal.points_by_side)
    if deal.phase == P.OVER:
        return pts
    n = deal.players
    orders = ORDERS[n]
    followers = FOLLOWERS[n]
    keys = KEYS[deal.trump]
    side_of = deal.side_of
    stock = deal.stock
    sp = deal.stock_pos
    last = len(stock) - n  # a draw round needs sp <= last
    points = POINTS
    leader = deal.leader
    k = len(hands[leader])  # every hand holds k cards at the start of a trick
    while k:
        c = hands[leader].pop(int(rnd() * k))
        kt = keys[c // 13]
        best = kt[c]
        p = points[c]
        for seat in followers[leader]:
            c = hands[seat].pop(int(rnd() * k))
            p += points[c]
            if kt[c] > best:
                best = kt[c]
                leader = seat
        pts[side_of[leader]] += p
        if sp <= last:
            for seat in orders[leader]:
                hands[seat].append(stock[sp])
                sp += 1
        else:
            k -= 1
    return pts


INFO = GameInfo(
    name="albastini",
    title="Albastini",
    match_type=AlbastiniMatch,
    options_type=AlbastiniOptions,
    player_counts=(2, 3, 4, 5, 6),
    teams=teams_for,
    rules_file="albastini.md",
    random_playout=random_playout,
    summary_line="Tanzania · 2–6 players (4: partnerships) · 36 cards, no duty to follow suit, "
                 "draw after each trick · most of the 120 card points wins; session to 5 VP",
)
