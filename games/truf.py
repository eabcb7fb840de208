"""Truf, exactly as ``docs/rules/truf.md``.

* Four players, each for himself (or three, option ``players: 3`` of the record/table,
  without the ``removed_suit``: clubs by default, 39 cards). 13 cards each, 13 tricks.
* A game is ``deals`` deals (13). Deal 1 is dealt and played **counter-clockwise**, deal 2
  clockwise, and so on (``dir = -1`` for odd hand numbers, ``+1`` for even ones). Cards are
  dealt one at a time from the player next to the dealer in ``dir``.
* **Misdeal**: a hand of only number cards (2–10) or only court cards (J, Q, K, A) voids
  the deal; the same dealer redeals in the same direction and the hand number stays.
* **Bidding** (phase ``"bid"``): simultaneous and secret. ``to_act`` holds every seat that
  has not bid; a seat's bid is visible only to itself until all are in, then all are
  revealed at once. Values: J Q K 0, A 1, 2–9 face, T 10. The high bidder (largest value,
  ties by the bid card's suit ``S > H > D > C``, then by rank ``K > Q > J`` for two court
  cards of one suit) names trump (his card's suit) and leads.
  Total > 13: main **atas** (play high); < 13: main **bawah** (play low); = 13: the high
  bidder must ``adjust`` (phase ``"adjust"``): ``up`` or ``down`` by ``k`` in
  ``adjust_amounts``; every bid moves by ``k`` (negative bids are kept). Bid cards stay in
  their owners' hands and are played normally.
* **Multi-card bids** (``multi_card_bids``): 1, 2 or 3 cards; two cards must total at
  least 5, three at least 9. A mixed-suit winning bid, or a tie for the highest value that
  involves a mixed-suit bid, gives a no-trump deal. Among tied bids: single-suit above
  mixed, then the bid holding the highest suit, then the player first from the dealer in
  the deal's direction.
* **Play** (phase ``"play"``): follow suit if able, else anything. A trump may not be led
  until trumps are broken (a trump played to any trick, led or discarded) unless the
  leader holds only trumps. Trumps are played **face down**: until the trick is complete
  every other seat (and the public) sees :data:`~games.base.HIDDEN` in its place, and the
  ``play`` event with the card goes to the player alone (the others get a ``play`` event
  whose card is :data:`~games.base.HIDDEN`). The completed trick is revealed (public
  ``trick`` event): highest trump, else highest card of the led suit.
* **Scoring** (``scoring``): ``"difference"`` (default): ``diff = t - b`` (atas) or
  ``b - t`` (bawah); ``2 * diff`` when positive, else ``diff``. ``"zero_bid_bonus"``: the
  same, but in bawah a final bid of 0 with 0 tricks scores +5. ``"exact"``: exactly the
  bid scores ``+b``; otherwise ``-|t - b|`` times 1 (atas over, bawah under) or 2 (atas
  under, bawah over).
* **Next dealer**: the lowest running total; ties go to the tied seat furthest from the
  previous dealer in the direction of the deal just played (the previous dealer himself
  counts as furthest); ``dealer_tie_direction: "next_deal"`` measures in the next deal's
  direction instead. After the last deal the highest total wins.

Records: deal ``extra.hand_number`` (1-based number of the deal in the game). On a
record's first deal it may start the game at any hand number (a single-deal record of
hand 2 plays clockwise); on later deals it must be the hand number the rules give.

Choices where the rule file is silent (a careful referee's):

* **Automatic redeal and the record.** When a random deal is a misdeal the match keeps the
  void deal as its own entry (in ``deal_records`` and ``deal_summaries``: its hands, its
  ``extra.hand_number``, no actions; summary ``redeal: true``, ``misdeal`` naming the
  seats and why, no score) and deals again at once with the same dealer, direction and
  hand number, so ``Match.start_deal`` always returns a playable deal and the exported
  record replays to the same summaries. The playable deal's view says ``redeals`` (how
  many void deals came just before it). A void deal given by a record has phase
  ``"over"``; every action on it is refused with the misdeal as the reason.
* **Multi-card ties.** A multi-card table breaks ties by the rule file's order for them
  (single-suit, highest suit, then first from the dealer), not by rank.
* **Secret bids** cannot be changed once placed. Who has bid is public (the card is on the
  table face down); the cards are not. A bid card stays in its owner's hand (and in
  ``hand_sizes``) during bidding, since it goes back before play anyway. A deal summary
  shows bids only once all are revealed. The view's ``earlier_bids`` lists every earlier
  deal's revealed bid values by seat (public, as on a scoresheet), so a player can tell how
  each other player bids.
* **Multi-card bids in records** are written with ``cards`` (a list); a one-card bid may
  also be written with ``card``, and ``cards`` with one card is accepted at a one-card
  table (both forms mean the same bid). ``legal_actions`` lists every legal bid once, as
  ``cards`` tuples in display order (at most 13 + 78 + 286 = 377 at a multi-card table);
  ``apply`` accepts the cards of any legal bid in any order.
* **The winner** (match key ``winner``) is the seat with the highest total when it is
  unique, else ``null``; the match key ``winners`` lists every seat sharing the highest
  total once the game is over (``null`` before).
* ``removed_suit`` only means something with three players; a non-default value at a
  four-player table is an option error rather than silently ignored.
* The default ``dealer_tie_direction`` is written ``"last_deal"``.
* A score-only deal (``bids`` values by seat, ``adjust`` exactly when they total 13,
  ``tricks_by_seat`` adding up to 13) is an error when the bid values could not come from
  one pack (e.g. five tens, or a multi-card 2-card bid below 5); its summary has
  ``leader`` and ``trump`` null, since values alone do not name them.
* ``random_playout`` bids uniformly among the legal bids (at a multi-card table by
  rejection sampling over 1–3-card subsets), adjusts with a random direction and a
  uniform amount, and plays uniformly random legal cards; it returns the deal's points by
  seat (zeros for a void deal).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
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
    NATURAL,
    SUIT_NAMES,
    SUITS,
    deal_packets,
    deck,
    name,
    seat_order,
    shuffled,
    sort_for_display,
)
from games.cards import card as parse_card
from games.errors import N_, IllegalAction, OptionError, RecordError, quote
from games.event_types import BidsRevealedData, DealSummary, MatchExtras
from games.options import GameOptions, option
from games.trick import NATURAL_KEYS, follow_reason, trick_json
from games.view_types import AdjustJSON, MisdealJSON, TrufView
from games.views import common_view

HAND_SIZE = 13
TARGET = 13
"""The bid total compared with 13 (also the number of tricks)."""

RANK_VALUE = (2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 1)
"""Bid value of a natural rank index (2 = 0 … A = 12): 2–9 face, T 10, J Q K 0, A 1."""

CARD_VALUE = tuple(RANK_VALUE[c % 13] for c in range(52))
"""Bid value of every card int."""

BID_KEY = tuple((CARD_VALUE[c] * 4 + 3 - c // 13) * 13 + c % 13 for c in range(52))
"""One-card bids compared: value, then suit (``S > H > D > C``), then rank (``K > Q > J``
for the zero-valued courts of one suit)."""

COURT = 9
"""Natural rank index of the jack: ranks below are number cards (2–10), the rest courts."""

MIN_TOTAL = {1: 0, 2: 5, 3: 9}
"""Multi-card bids: the least total a bid of that many cards may have."""

DIRECTION_WORD = {1: "clockwise", -1: "counterclockwise"}


@dataclass(frozen=True)
class TrufOptions(GameOptions):
    deals: int = option(13, "Number of deals in a game.", min=1, max=99)
    scoring: str = option(
        "difference",
        "How a deal is scored: 'difference' (2 per trick beyond the bid in atas / short of "
        "it in bawah, -1 per trick the other way), 'zero_bid_bonus' (the same, plus 5 for a "
        "0 bid with 0 tricks in bawah), 'exact' (the bid for taking exactly it, else a "
        "penalty per trick).",
        choices=("difference", "zero_bid_bonus", "exact"))
    adjust_amounts: tuple[int, ...] = option(
        tuple(range(1, 14)),
        "Amounts the high bidder may move every bid by when the bids total 13.",
        min=1, max=13)
    dealer_tie_direction: str = option(
        "last_deal",
        "Tie for the lowest total when choosing the dealer: the tied player furthest from "
        "the previous dealer in the direction of the deal just played ('last_deal') or of "
        "the next deal ('next_deal').",
        choices=("last_deal", "next_deal"))
    removed_suit: str = option(
        "C", "Three players: the suit taken out of the pack.", choices=("C", "S"))
    multi_card_bids: bool = option(
        False, "A bid may be 1, 2 or 3 cards (2 cards at least 5, 3 cards at least 9); a "
               "mixed-suit winning bid means no trump.")


def direction_of(hand_number: int) -> int:
    """``-1`` (counter-clockwise) for odd hand numbers, ``+1`` (clockwise) for even ones."""
    return -1 if hand_number % 2 else 1


def suits_in_play(players: int, removed_suit: str) -> tuple[int, ...]:
    """Suit ints of the pack: all four, or all but ``removed_suit`` with three players."""
    if players == 4:
        return (0, 1, 2, 3)
    return tuple(s for s in range(4) if SUITS[s] != removed_suit)


MISDEAL_PARTS = {"only number cards": N_("{seat} holds only number cards"),
                 "only court cards": N_("{seat} holds only court cards")}
"""A misdeal by its reason (:func:`misdeal_of`), as part of the refusal of every action."""


def misdeal_of(hands: Sequence[Sequence[int]]) -> list[MisdealJSON]:
    """Seats whose hand voids the deal: only number cards (2–10) or only court cards."""
    out: list[MisdealJSON] = []
    for seat, hand in enumerate(hands):
        courts = sum(1 for c in hand if c % 13 >= COURT)
        if courts == 0:
            out.append({"seat": seat, "reason": "only number cards"})
        elif courts == len(hand):
            out.append({"seat": seat, "reason": "only court cards"})
    return out


def deal_points(final_bids: Sequence[int], tricks: Sequence[int], mode: str,
                scoring: str) -> list[int]:
    """Each seat's score for a deal (section 6 and the ``scoring`` variants)."""
    atas = mode == "atas"
    out: list[int] = []
    for b, t in zip(final_bids, tricks, strict=True):
        if scoring == "exact":
            if t == b:
                p = b
            elif t > b:
                p = (b - t) * (1 if atas else 2)
            else:
                p = (t - b) * (2 if atas else 1)
        else:
            diff = t - b if atas else b - t
            p = 2 * diff if diff > 0 else diff
            if scoring == "zero_bid_bonus" and not atas and b == 0 and t == 0:
                p = 5
        out.append(p)
    return out


def pick_dealer(totals: Sequence[int], previous: int, direction: int) -> int:
    """The next dealer: the lowest total; among ties the seat furthest from ``previous``
    counting steps in ``direction`` (``previous`` himself is furthest, ``N`` steps)."""
    n = len(totals)
    low = min(totals)

    def steps(s: int) -> int:
        return ((s - previous) * direction) % n or n

    return max((s for s in range(n) if totals[s] == low), key=steps)


class TrufPhase(StrEnum):
    """The phases of a Truf deal."""

    BID = "bid"
    """Secret bids, all seats at once."""
    ADJUST = "adjust"
    """The bids total 13: the high bidder moves them up or down."""
    PLAY = "play"
    OVER = "over"


P = TrufPhase
# The phases as plain module names for the fast core and the playout: comparing with them
# is several times faster than looking a member up on the enum class.
BID_PHASE, ADJUST_PHASE, PLAY_PHASE, OVER_PHASE = P.BID, P.ADJUST, P.PLAY, P.OVER


ANY, NO_TRUMP = -1, -2
"""What :func:`playable` answers besides a suit: any card; any card but a trump."""


def playable(h: Sequence[Sequence[int]], n: int, led: int, trump: int, broken: bool) -> int:
    """The legality rule of Truf's card play, the one that ``apply`` (refusing with a
    reason), ``legal_actions`` and the random playouts all play by. ``h`` is the hand
    (``[suit]`` card lists, ``n`` cards in all), ``led`` the suit led to the trick
    (``-1``: he leads). The answer: a suit (following: the led suit, when he holds it: a
    card of it); :data:`NO_TRUMP` (leading before trumps are broken while he holds another
    suit: any card but a trump); or :data:`ANY` (any card)."""
    if led >= 0:
        return led if h[led] else ANY
    if trump >= 0 and not broken and len(h[trump]) < n:
        return NO_TRUMP
    return ANY


def allows(rule: int, c: int, trump: int) -> bool:
    """Whether card ``c`` (held) is one that :func:`playable`'s answer ``rule`` allows."""
    if rule >= 0:
        return c // 13 == rule
    return rule == ANY or c // 13 != trump


class TrufHand(TrickDeal):
    """The state and fast core of one deal of Truf (:class:`TrufDeal` adds the readable
    surface); a void deal when the given hands are a misdeal.

    The fast state: ``hands[seat][suit]`` sorted lists of card ints (four suit lists even
    with three players), ``trump`` a suit int or ``-1``, ``broken``, the trick
    in progress as ``(seat, card)`` pairs. :meth:`fast_legal` and :meth:`fast_play` are the
    unchecked steps that ``apply`` and search players share.
    """

    game = "truf"

    def __init__(self, players: int, dealer: int, hands: list[list[int]], *,
                 hand_number: int, options: TrufOptions, redeals: int = 0,
                 trusted: bool = False) -> None:
        super().__init__(players, dealer)
        self.options = options
        self.hand_number = hand_number
        self.direction = direction_of(hand_number)
        self.suits = suits_in_play(players, options.removed_suit)
        if not trusted:
            _check_hands(hands, players, self.suits)
        # seats from the player next to the dealer in the deal's direction; the dealer last
        self.order = seat_order((dealer + self.direction) % players, players, self.direction)
        self.dealt = [list(h) for h in hands]
        self.hands: list[list[list[int]]] = [[[], [], [], []] for _ in range(players)]
        for seat, hand in enumerate(hands):
            for c in hand:
                self.hands[seat][c // 13].append(c)
            for lst in self.hands[seat]:
                lst.sort()
        self.redeals = redeals
        self.misdeal = misdeal_of(hands)
        self.phase = OVER_PHASE if self.misdeal else BID_PHASE
        self.bids: list[tuple[int, ...] | None] = [None] * players
        self.bid_values: list[int] | None = None
        self.bid_total: int | None = None
        self.high = -1
        self.mode: str | None = None
        self.adjust: tuple[str, int] | None = None
        self.final_bids: list[int] | None = None
        self.init_tricks(players, -1, self.direction, NATURAL_KEYS)
        self.broken = False
        self.points: list[int] | None = None
        self.earlier_bids: list[list[int]] = []
        """Bid values of the game's earlier deals, by seat (:meth:`TrufMatch.earlier_bids`);
        public, shown in the view so a player (or the AI) can tell how the others bid."""

    # -- fast core --------------------------------------------------------------------------
    def resolve_bids(self) -> None:
        """All bids are in: values, total, high bidder, trump; then ``"adjust"`` (total 13)
        or ``"play"`` with the mode set and the high bidder to lead."""
        bids = self.bids
        n = self.players
        values = [0] * n
        best = high = high_card = -1
        if not self.options.multi_card_bids:  # one card each: no equal keys, always a trump
            for seat in range(n):
                b = bids[seat]
                assert b is not None
                c = b[0]
                values[seat] = CARD_VALUE[c]
                if BID_KEY[c] > best:
                    best, high, high_card = BID_KEY[c], seat, c
            self._bids_resolved(values, high, high_card // 13)
            return
        for pos, seat in enumerate(self.order):
            b = bids[seat]
            assert b is not None
            v = 0
            top = 4
            suit = b[0] // 13
            single = 1
            for c in b:
                v += CARD_VALUE[c]
                s = c // 13
                if s < top:
                    top = s
                if s != suit:
                    single = 0
            values[seat] = v
            # value, then single-suit above mixed, then the highest suit, then seat order
            key = ((v * 2 + single) * 4 + 3 - top) * n + n - 1 - pos
            if key > best:
                best, high = key, seat
        top_value = values[high]
        mixed = any(values[s] == top_value and len({c // 13 for c in b}) > 1
                    for s, b in enumerate(bids) if b is not None and len(b) > 1)
        winning = bids[high]
        assert winning is not None
        self._bids_resolved(values, high, -1 if mixed else winning[0] // 13)

    def _bids_resolved(self, values: list[int], high: int, trump: int) -> None:
        self.bid_values = values
        self.high = high
        self.trump = trump
        total = self.bid_total = sum(values)
        if total == TARGET:
            self.phase = ADJUST_PHASE
            return
        self.mode = "atas" if total > TARGET else "bawah"
        self.final_bids = values
        self._start_play()

    def set_adjust(self, direction: str, amount: int) -> None:
        """Apply the high bidder's adjustment (unchecked): every bid moves by ``amount``."""
        assert self.bid_values is not None
        k = amount if direction == "up" else -amount
        self.adjust = (direction, amount)
        self.final_bids = [v + k for v in self.bid_values]
        self.mode = "atas" if direction == "up" else "bawah"
        self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY_PHASE
        self.leader = self.turn = self.high

    def fast_legal(self, seat: int) -> list[int]:
        """Card ints ``seat`` may play now (assumes it is his turn to play): :func:`playable`."""
        h = self.hands[seat]
        rule = playable(h, sum(map(len, h)), self.led_suit, self.trump, self.broken)
        if rule >= 0:
            return list(h[rule])
        return [c for lst in h for c in lst if allows(rule, c, self.trump)]

    def fast_play(self, c: int) -> None:
        """Play card ``c`` for the seat to move, without checks, events or messages."""
        seat = self.turn
        self.hands[seat][c // 13].remove(c)
        if c // 13 == self._trump:
            self.broken = True
        if self.trick_step(seat, c) and len(self.completed) == HAND_SIZE:
            self.finish()

    def finish(self) -> None:
        """All 13 tricks are played: score the deal."""
        assert self.final_bids is not None and self.mode is not None
        self.points = deal_points(self.final_bids, self.tricks_by_seat, self.mode,
                                  self.options.scoring)
        self.phase = OVER_PHASE



class TrufDeal(TrufHand):
    """One deal of Truf: the readable surface (actions checked with a reason, events with
    face-down trumps, views, summary) on top of :class:`TrufHand`'s fast core."""

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == P.BID:
            return tuple(s for s in range(self.players) if self.bids[s] is None)
        if self.phase == P.ADJUST:
            return (self.high,)
        if self.phase == P.PLAY:
            return (self.turn,)
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == P.OVER

    def closed_refusal(self) -> IllegalAction:
        if self.misdeal:
            parts = [(MISDEAL_PARTS.get(m["reason"], N_("{seat} holds {text}")),
                      {"seat": m["seat"], "text": m["reason"]}) for m in self.misdeal]
            return IllegalAction("this deal is void ({parts}): the same dealer redeals",
                                 parts=parts)
        return IllegalAction("the deal is over")

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_act:
            return []
        if self.phase == P.BID:
            return [_bid_action(self, b) for b in self._bid_choices(seat)]
        if self.phase == P.ADJUST:
            return [Action.adjust(d, k) for d in ("up", "down")
                    for k in sorted(set(self.options.adjust_amounts))]
        return [PLAYS[c] for c in self.fast_legal(seat)]

    def _bid_choices(self, seat: int) -> list[tuple[int, ...]]:
        """Every legal bid of ``seat`` as card tuples (hand display order inside)."""
        hand = self._hand_ints(seat)
        if not self.options.multi_card_bids:
            return [(c,) for c in hand]
        out: list[tuple[int, ...]] = []
        for size in (1, 2, 3):
            for combo in combinations(hand, size):
                if sum(CARD_VALUE[c] for c in combo) >= MIN_TOTAL[size]:
                    out.append(combo)
        return out

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action.type == "bid":
            return self._bid(seat, action)
        if action.type == "adjust":
            return self._adjust(seat, action)
        if action.type == "play":
            return self._play(seat, action)
        raise IllegalAction("{action} is not an action in Truf", action=action.type)

    def _bid(self, seat: int, action: Action) -> list[Event]:
        if self.phase != P.BID:
            raise IllegalAction("the bidding is over")
        own = self.bids[seat]
        if own is not None:
            raise IllegalAction("you have already bid {cards}; waiting for {seats}",
                                cards=names_of(own), seats=list(self.to_act))
        texts = (action.card,) if action.card is not None else action.cards
        if not texts:
            raise IllegalAction("a bid names a card")
        cards = tuple(_card_of(t) for t in texts)
        multi = self.options.multi_card_bids
        if len(cards) > 1 and not multi:
            raise IllegalAction("bid one card: multi-card bids are not used at this table")
        if len(cards) > 3:
            raise IllegalAction("a bid is one, two or three cards")
        if len(set(cards)) != len(cards):
            raise IllegalAction("a bid cannot name the same card twice")
        h = self.hands[seat]
        for c in cards:
            if c not in h[c // 13]:
                raise IllegalAction("you do not hold {card}", card=name(c))
        value = sum(CARD_VALUE[c] for c in cards)
        if value < MIN_TOTAL[len(cards)]:
            template = (N_("a two-card bid must total at least {least}: {cards_plus} is "
                           "worth {value}") if len(cards) == 2 else
                        N_("a three-card bid must total at least {least}: {cards_plus} is "
                           "worth {value}"))
            raise IllegalAction(template, least=MIN_TOTAL[len(cards)],
                                cards_plus=names_of(cards), value=value)
        self.bids[seat] = cards
        events = [private(seat, "bid", {"seat": seat, "cards": names_of(cards),
                                        "value": value}),
                  public("bid_placed", {"seat": seat, "waiting": list(self.to_act)})]
        if self.to_act:
            return events
        self.resolve_bids()
        events.append(public("bids_revealed", self._bid_facts()))
        return events

    def _bid_facts(self) -> BidsRevealedData:
        return {"bids": self.bid_values, "bid_cards": self._bid_cards(),
                "bid_total": self.bid_total, "high_bidder": self.high,
                "trump": SUITS[self.trump] if self.trump >= 0 else None,
                "mode": self.mode, "adjust_needed": self.phase == P.ADJUST}

    def _bid_cards(self) -> list[list[str]]:
        return [names_of(b) if b is not None else [] for b in self.bids]

    def _adjust(self, seat: int, action: Action) -> list[Event]:
        if self.phase == P.BID:
            raise IllegalAction("the bids are not all in yet (waiting for {seats})",
                                seats=list(self.to_act))
        if self.phase != P.ADJUST:
            if self.adjust is not None:
                raise IllegalAction("the bids have already been adjusted")
            raise IllegalAction("the bids total {total}, not 13: there is nothing to adjust",
                                total=self.bid_total)
        if seat != self.high:
            raise IllegalAction("only {seat}, the high bidder, adjusts the bids",
                                seat=self.high)
        allowed = sorted(set(self.options.adjust_amounts))
        if action.direction not in ("up", "down"):
            raise IllegalAction("adjust 'up' or 'down'")
        if action.amount is None or action.amount not in allowed:
            raise IllegalAction("the amount must be one of {amounts}", amounts=allowed)
        self.set_adjust(action.direction, action.amount)
        return [public("adjust", {"seat": seat, "direction": action.direction,
                                  "amount": action.amount, "mode": self.mode,
                                  "final_bids": list(self.final_bids or [])})]

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase == P.BID:
            raise IllegalAction("the bids are not all in yet (waiting for {seats})",
                                seats=list(self.to_act))
        if self.phase == P.ADJUST:
            raise IllegalAction("{seat}, the high bidder, must first adjust the bids up or "
                                "down (they total 13)", seat=self.high)
        if seat != self.turn:
            raise self.not_your_turn(seat)
        if action.signal is not None or action.bella:
            raise IllegalAction("there are no signals or bella in Truf")
        c = _card_of(action.card)
        s = c // 13
        h = self.hands[seat]
        if c not in h[s]:
            raise IllegalAction("you do not hold {card}", card=str(action.card))
        t = self.trump
        rule = playable(h, sum(map(len, h)), self.led_suit, t, self.broken)
        if not allows(rule, c, t):  # refused: only now the reason
            if rule >= 0:
                raise follow_reason(rule, h[rule][::-1])
            raise IllegalAction("you may not lead a trump ({suit}) before trumps are broken "
                                "while you hold other suits", suit=t)
        trick_no = len(self.completed) + 1
        self.fast_play(c)
        if s == t:
            events = [private(seat, "play", {"seat": seat, "card": name(c), "trick": trick_no,
                                             "face_down": True}),
                      public("play", {"seat": seat, "card": HIDDEN, "trick": trick_no,
                                      "face_down": True})._replace(exclude=frozenset({seat}))]
        else:
            events = [public("play", {"seat": seat, "card": name(c), "trick": trick_no,
                                      "face_down": False})]
        if len(self.completed) == trick_no:
            events.append(public("trick", trick_data(trick_no, trick_json(self.completed[-1]))))
        if self.is_over:
            events.append(public("deal_over", {"summary": self.summary()}))
        return events

    # -- views ------------------------------------------------------------------------------
    def _hand_ints(self, seat: int) -> list[int]:
        h = self.hands[seat]
        return sort_for_display([c for lst in h for c in lst])

    def hand_names(self, seat: int) -> list[str]:
        """``seat``'s current hand, sorted for display (suits alternate black and red)."""
        return names_of(self._hand_ints(seat))

    def _shown(self, seat: int | None, player: int, c: int) -> str:
        """A trick card as ``seat`` sees it: face-down trumps of others are hidden."""
        return HIDDEN if c // 13 == self.trump and player != seat else name(c)

    def view(self, seat: int | None) -> TrufView:
        n = self.players
        revealed = self.bid_values is not None
        if revealed:
            bids: list[list[str] | None] = list(self._bid_cards())
        else:
            own = self.bids[seat] if seat is not None else None
            bids = [names_of(own) if s == seat and own is not None else None
                    for s in range(n)]
        if seat is not None:
            hand = self.hand_names(seat) if not self.misdeal else names_of(
                sort_for_display(self.dealt[seat]))
        else:
            hand = []
        return {
            **common_view(
                self, seat, teams=[[s] for s in range(n)], trump=self.trump, hand=hand,
                hand_sizes=[HAND_SIZE - len(self.completed) - (1 if any(
                    p == s for p, _ in self.trick) else 0) for s in range(n)],
                facts=self._facts(revealed), shown=lambda p, c: self._shown(seat, p, c)),
            "hand_number": self.hand_number,
            "deals": self.options.deals,
            "direction": DIRECTION_WORD[self.direction],
            "bid_placed": [b is not None for b in self.bids],
            "bids": bids,
            "bid_values": list(self.bid_values) if self.bid_values is not None else None,
            "bid_total": self.bid_total,
            "high_bidder": self.high if revealed else None,
            "mode": self.mode,
            "adjust": _adjust_json(self.adjust),
            "adjust_amounts": sorted(set(self.options.adjust_amounts)),
            "final_bids": self.final_bids,
            "broken": self.broken,
            "tricks_by_seat": list(self.tricks_by_seat),
            "points": self.points,
            "redeals": self.redeals,
            "misdeal": [MisdealJSON(seat=m["seat"], reason=m["reason"])
                        for m in self.misdeal] or None,
            "earlier_bids": [list(b) for b in self.earlier_bids],
        }

    def _facts(self, revealed: bool) -> list[list[str]]:
        n = self.players
        facts = [["Deal", f"{self.hand_number} of {self.options.deals}, dealt and played "
                          f"{DIRECTION_WORD[self.direction].replace('counterc', 'counter-c')}"]]
        if self.redeals:
            facts.append(["Redealt", f"{self.redeals} misdeal(s) before this deal"])
        if self.misdeal:
            facts.append(["Misdeal", self.closed_reason()])
            return facts
        if not revealed:
            facts.append(["Bids", "waiting for " + ", ".join(f"seat {s}" for s in self.to_act)])
            return facts
        assert self.bid_values is not None
        cards = self._bid_cards()
        facts.append(["Bids", ", ".join(
            f"seat {s}: {' '.join(cards[s])} ({self.bid_values[s]})" for s in range(n))])
        total = f"{self.bid_total}"
        if self.mode is not None:
            total += f": main {self.mode} (play {'high' if self.mode == 'atas' else 'low'})"
        else:
            total += f": seat {self.high} must adjust up or down"
        facts.append(["Bid total", total])
        trump = SUIT_NAMES[self.trump] if self.trump >= 0 else "none"
        facts.append(["Trump", f"{trump} (seat {self.high}, high bidder, leads)"])
        if self.adjust is not None and self.final_bids is not None:
            facts.append(["Adjusted", f"{self.adjust[0]} {self.adjust[1]}: final bids "
                          + ", ".join(map(str, self.final_bids))])
        if self.trump >= 0:
            facts.append(["Trumps", "broken" if self.broken else "not broken yet"])
        facts.append(["Tricks", ", ".join(f"seat {s}: {self.tricks_by_seat[s]}"
                                          for s in range(n))])
        if self.points is not None:
            facts.append(["Points", ", ".join(f"seat {s}: {self.points[s]:+d}"
                                              for s in range(n))])
        return facts

    def summary(self) -> DealSummary:
        out: DealSummary = {
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "direction": DIRECTION_WORD[self.direction],
            "redeal": bool(self.misdeal),
        }
        if self.misdeal:
            out["misdeal"] = [m.copy() for m in self.misdeal]
            out["hand_over"] = True
            return out
        revealed = self.bid_values is not None
        out.update({
            "bids": list(self.bid_values) if self.bid_values is not None else None,
            "bid_cards": self._bid_cards() if revealed else None,
            "bid_total": self.bid_total,
            "mode": self.mode,
            "adjust": _adjust_json(self.adjust),
            "leader": self.high if revealed else None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "final_bids": list(self.final_bids) if self.final_bids is not None else None,
            "trick_winners": self.trick_winners(),
            "tricks": self.tricks_json(),
            "tricks_by_seat": list(self.tricks_by_seat),
            "hand_over": self.is_over,
            "points": list(self.points) if self.points is not None else None,
        })
        return out

    def dealt_hands(self) -> list[list[str]]:
        return [names_of(h) for h in self.dealt]

    def record_extra(self) -> dict[str, Any]:
        return {"hand_number": self.hand_number}


def _bid_action(deal: TrufDeal, cards: tuple[int, ...]) -> Action:
    """The canonical action of a bid: ``card`` at a one-card table, else ``cards``."""
    if deal.options.multi_card_bids:
        return Action.bid_cards(tuple(names_of(cards)))
    return Action.bid(name(cards[0]))


def _card_of(text: str | None) -> int:
    """Parse an action's card; a missing or malformed card is an illegal action."""
    try:
        return parse_card(text or "")
    except ValueError:
        raise IllegalAction("{text} is not a card (rank then suit, e.g. 'TS')",
                            text=quote(text)) from None


def names_of(cards: Sequence[int]) -> list[str]:
    return [name(c) for c in cards]


def _adjust_json(adjust: tuple[str, int] | None) -> AdjustJSON | None:
    return None if adjust is None else {"direction": adjust[0], "amount": adjust[1]}


def _check_hands(hands: list[list[int]], players: int, suits: tuple[int, ...]) -> None:
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(
                f"field 'hands', seat {seat}: holds {len(hand)} cards, not {HAND_SIZE}")
    pack = set(_pack(suits))
    seen: set[int] = set()
    for seat, hand in enumerate(hands):
        for c in hand:
            if c not in pack:
                raise RecordError(f"field 'hands', seat {seat}: {name(c)} is not in the "
                                  f"{len(pack)}-card pack")
            if c in seen:
                raise RecordError(f"field 'hands', seat {seat}: {name(c)} is dealt twice")
            seen.add(c)


def _pack(suits: tuple[int, ...]) -> list[int]:
    return deck(NATURAL, "".join(SUITS[s] for s in suits))


def deal_hands(players: int, dealer: int, direction: int, suits: tuple[int, ...],
               rng: random.Random) -> list[list[int]]:
    """Shuffle and deal one card at a time from the player next to the dealer in
    ``direction``; each hand lists its cards in the order dealt."""
    cards = shuffled(_pack(suits), rng)
    order = seat_order((dealer + direction) % players, players, direction)
    return deal_packets(cards, order, 1, HAND_SIZE, players)


# -- score-only deals ------------------------------------------------------------------------
def _value_splits(value: int, multi: bool) -> list[tuple[int, ...]]:
    """Ways to make bid ``value`` from card values (non-increasing tuples, 1–3 cards)."""
    vals = range(10, -1, -1)
    out: list[tuple[int, ...]] = [(value,)] if 0 <= value <= 10 else []
    if multi:
        out += [(a, b) for a in vals for b in vals if b <= a and a + b == value
                and value >= MIN_TOTAL[2]]
        out += [(a, b, c) for a in vals for b in vals for c in vals
                if c <= b <= a and a + b + c == value and value >= MIN_TOTAL[3]]
    return out


def bids_possible(values: Sequence[int], suits: int, multi: bool) -> bool:
    """Whether bid ``values`` can come from one pack of ``suits`` suits (value 0: J, Q, K
    of each suit; values 1–10: one card per suit)."""
    stock = [3 * suits] + [suits] * 10
    splits = [_value_splits(v, multi) for v in values]
    if not all(splits):
        return False

    def place(i: int) -> bool:
        if i == len(values):
            return True
        for split in splits[i]:
            if all(split.count(v) <= stock[v] for v in set(split)):
                for v in split:
                    stock[v] -= 1
                ok = place(i + 1)
                for v in split:
                    stock[v] += 1
                if ok:
                    return True
        return False

    return place(0)


class TrufMatch(Match):
    """A game of ``deals`` deals with running totals by seat; the lowest total deals next."""

    game = "truf"
    options_type = TrufOptions
    extra_fields = frozenset({"hand_number"})
    options: TrufOptions

    def _setup(self) -> None:
        if self.players == 4 and self.options.removed_suit != "C":
            raise OptionError("option 'removed_suit' applies only to the 3-player game")
        self.hand_number = 1
        self.void_streak = 0
        self.winners: list[int] | None = None
        self.suits = suits_in_play(self.players, self.options.removed_suit)

    def player_count(self, players: int | None) -> int:
        if players is None:
            return 4
        if players not in (3, 4):
            raise RecordError(f"truf is played by 4 players (or 3 without one suit), "
                              f"not {quote(players)}")
        return players

    def side_count(self) -> int:
        return self.players

    def _new_deal(
        self, dealer: int, hands: list[list[int]] | None, extra: Mapping[str, Any],
        rng: random.Random | None,
    ) -> Deal:
        number = self._hand_number_of(extra)
        if hands is not None:
            deal = TrufDeal(self.players, dealer, hands, hand_number=number,
                            options=self.options, redeals=self.void_streak)
            deal.earlier_bids = self.earlier_bids()
            self.hand_number = number
            return deal
        assert rng is not None
        while True:
            hands = deal_hands(self.players, dealer, direction_of(number), self.suits, rng)
            deal = TrufDeal(self.players, dealer, hands, hand_number=number,
                            options=self.options, redeals=self.void_streak, trusted=True)
            if not deal.misdeal:
                deal.earlier_bids = self.earlier_bids()
                return deal
            # The void deal is kept as its own record entry; the same dealer redeals.
            self.deal_records.append(deal.record())
            self._close(dealer, deal.summary())

    def earlier_bids(self) -> list[list[int]]:
        """The bid values of every deal of this game scored so far, by seat (public once
        each deal's bids were revealed)."""
        return [list(bids) for s in self.deal_summaries
                if not s.get("redeal") and (bids := s.get("bids")) is not None]

    def _hand_number_of(self, extra: Mapping[str, Any]) -> int:
        if "hand_number" not in extra:
            return self.hand_number
        number = extra["hand_number"]
        if not isinstance(number, int) or isinstance(number, bool):
            raise RecordError("field 'extra.hand_number': must be a whole number")
        if not self.deal_summaries:
            if not 1 <= number <= self.options.deals:
                raise RecordError(f"field 'extra.hand_number': must be 1-{self.options.deals}")
        elif number != self.hand_number:
            raise RecordError(f"field 'extra.hand_number': this is hand {self.hand_number} of "
                              f"the game, not {number}")
        return number

    def _score(self, summary: DealSummary) -> None:
        if summary["redeal"]:
            self.void_streak += 1  # same dealer, same direction, same hand number
            return
        self.void_streak = 0
        points = summary["points"]
        assert points is not None  # a deal that was played
        self.add_scores(points)
        played = direction_of(self.hand_number)
        tie = played if self.options.dealer_tie_direction == "last_deal" else -played
        self.next_dealer = pick_dealer(self.scores, summary["dealer"], tie)
        self.hand_number += 1
        if self.hand_number > self.options.deals:
            self.over = True
            top = max(self.scores)
            self.winners = [s for s in range(self.players) if self.scores[s] == top]
            self.winner = self.winners[0] if len(self.winners) == 1 else None

    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        n = self.players
        bad = sorted(set(given) - {"bids", "adjust", "tricks_by_seat"})
        if bad:
            raise RecordError(f"field 'summary.{bad[0]}': not a score-only field of truf "
                              "(bids, adjust, tricks_by_seat)")
        bids = _seat_ints(given.get("bids"), n, "bids", "bid values")
        tricks = _seat_ints(given.get("tricks_by_seat"), n, "tricks_by_seat", "trick counts")
        if any(t < 0 for t in tricks) or sum(tricks) != HAND_SIZE:
            raise RecordError(f"field 'summary.tricks_by_seat': {quote(tricks)} must be "
                              f"non-negative and add up to {HAND_SIZE}")
        multi = self.options.multi_card_bids
        if not bids_possible(bids, len(self.suits), multi):
            raise RecordError(f"field 'summary.bids': {quote(bids)} cannot be bid from one pack "
                              + ("(1-3 cards; two at least 5, three at least 9)" if multi
                                 else "(one card each: values 0-10)"))
        total = sum(bids)
        adjust = given.get("adjust")
        if total == TARGET:
            if not isinstance(adjust, Mapping) or set(adjust) != {"direction", "amount"}:
                raise RecordError("field 'summary.adjust': the bids total 13, so give "
                                  "{\"direction\": \"up\"/\"down\", \"amount\": k}")
            direction, amount = adjust["direction"], adjust["amount"]
            if direction not in ("up", "down"):
                raise RecordError("field 'summary.adjust.direction': must be 'up' or 'down'")
            if (not isinstance(amount, int) or isinstance(amount, bool)
                    or amount not in self.options.adjust_amounts):
                allowed = ", ".join(map(str, sorted(set(self.options.adjust_amounts))))
                raise RecordError(f"field 'summary.adjust.amount': must be one of {allowed}")
            k = amount if direction == "up" else -amount
            final = [b + k for b in bids]
            mode = "atas" if direction == "up" else "bawah"
            adj: AdjustJSON | None = {"direction": direction, "amount": amount}
        else:
            if adjust is not None:
                raise RecordError(f"field 'summary.adjust': the bids total {total}, not 13; "
                                  "there is no adjustment")
            final, mode, adj = list(bids), ("atas" if total > TARGET else "bawah"), None
        points = deal_points(final, tricks, mode, self.options.scoring)
        return {"dealer": dealer, "hand_number": self.hand_number,
                "direction": DIRECTION_WORD[direction_of(self.hand_number)], "redeal": False,
                "bids": bids, "bid_total": total, "mode": mode, "adjust": adj,
                "leader": None, "trump": None, "final_bids": final,
                "tricks_by_seat": tricks, "hand_over": True, "points": points}

    def match_extras(self) -> MatchExtras:
        return {"next_hand_number": self.hand_number,
                "next_direction": DIRECTION_WORD[direction_of(self.hand_number)],
                "winners": None if self.winners is None else list(self.winners)}


def _seat_ints(raw: object, n: int, key: str, what: str) -> list[int]:
    if (not isinstance(raw, list) or len(raw) != n
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw)):
        raise RecordError(f"field 'summary.{key}': must list {n} {what}, one per seat")
    return list(raw)


# -- random playout --------------------------------------------------------------------------
ORDERS = {(n, d): [tuple((s + d * i) % n for i in range(1, n)) for s in range(n)]
          for n in (3, 4) for d in (1, -1)}
"""``ORDERS[(players, direction)][leader]``: the other seats of a trick ``leader`` leads,
in playing order."""


def random_bid(deal: TrufDeal, seat: int, rng: random.Random) -> tuple[int, ...]:
    """A uniformly random legal bid of ``seat``."""
    h = deal.hands[seat]
    if not deal.options.multi_card_bids:
        i = int(rng.random() * HAND_SIZE)  # bidding comes before play: 13 cards
        for lst in h:
            k = len(lst)
            if i < k:
                return (lst[i],)
            i -= k
    cards = [c for lst in h for c in lst]
    n = len(cards)
    one, two = n, n * (n - 1) // 2
    subsets = one + two + n * (n - 1) * (n - 2) // 6
    rnd = rng.random
    while True:  # rejection sampling: uniform over all 1-3-card subsets, keep legal ones
        x = rnd() * subsets
        i = int(rnd() * n)
        if x < one:
            return (cards[i],)
        j = int(rnd() * (n - 1))
        j += j >= i
        if x < one + two:
            combo: tuple[int, ...] = (cards[i], cards[j])
        else:
            a, b = (i, j) if i < j else (j, i)
            k = int(rnd() * (n - 2))
            k += k >= a
            k += k >= b
            combo = (cards[i], cards[j], cards[k])
        if sum(CARD_VALUE[c] for c in combo) >= MIN_TOTAL[len(combo)]:
            return combo


def play_random_tricks(hands: list[list[list[int]]], trump: int, broken: bool, leader: int,
                       orders: Sequence[tuple[int, ...]], n: int, rnd: Any,
                       tally: list[int], log: list[tuple[int, int]] | None = None) -> int:
    """Play ``n`` whole tricks (every seat holds ``n`` cards) with uniformly random legal
    cards (:func:`playable`, the one rule); add each trick to ``tally[winner]``; return the
    last winner.

    ``hands`` is the fast form and is consumed; ``rnd`` is a ``Random().random`` bound
    method; ``orders[leader]`` the other seats of a trick ``leader`` leads (:data:`ORDERS`);
    ``log`` (tests) receives every ``(seat, card)`` played. This is the hot path of
    playouts and of ``bench/engine.py``: the lead is drawn before the followers' loop (a
    follower free to play any card may play a trump, a leader the rule may keep off
    trumps), so that no card pays for the other's branches; with the rule's call per card
    that keeps the playout within issue 37's 15% (``bench/engine.py --instructions``).
    """
    keys = NATURAL_KEYS[trump + 1]
    rule_of = playable
    while n:
        h = hands[leader]
        trumps = h[trump] if rule_of(h, n, -1, trump, broken) == NO_TRUMP else None
        i = int(rnd() * (n if trumps is None else n - len(trumps)))
        for lst in h:
            if lst is not trumps:
                if i < len(lst):
                    break
                i -= len(lst)
        c = lst.pop(i)
        if log is not None:
            log.append((leader, c))
        led = c // 13
        broken = broken or led == trump
        row = keys[led]  # the readable path's card keys
        best = row[c]
        winner = leader
        for seat in orders[leader]:
            h = hands[seat]
            rule = rule_of(h, n, led, trump, broken)
            if rule >= 0:
                lst = h[rule]
                c = lst.pop(int(rnd() * len(lst)))
            else:  # any card
                i = int(rnd() * n)
                for lst in h:
                    if i < len(lst):
                        break
                    i -= len(lst)
                c = lst.pop(i)
                broken = broken or c // 13 == trump
            if log is not None:
                log.append((seat, c))
            if row[c] > best:
                best, winner = row[c], seat
        tally[winner] += 1
        leader = winner
        n -= 1
    return leader


def random_playout(deal: Deal, rng: random.Random,
                   log: list[tuple[int, Action]] | None = None) -> list[int]:
    """Finish ``deal`` (consumed) with uniformly random legal decisions; return the deal's
    points by seat (zeros for a void deal). ``log`` (tests) receives every decision as
    ``(seat, Action)`` in an order ``apply`` accepts."""
    assert isinstance(deal, TrufDeal)
    if deal.misdeal:
        return [0] * deal.players
    if deal.phase == BID_PHASE:
        bids = deal.bids
        for seat in range(deal.players):
            if bids[seat] is None:
                bids[seat] = b = random_bid(deal, seat, rng)
                if log is not None:
                    log.append((seat, _bid_action(deal, b)))
        deal.resolve_bids()
    if deal.phase == ADJUST_PHASE:
        direction = "up" if rng.random() < 0.5 else "down"
        amounts = sorted(set(deal.options.adjust_amounts))
        amount = amounts[int(rng.random() * len(amounts))]
        deal.set_adjust(direction, amount)
        if log is not None:
            log.append((deal.high, Action.adjust(direction, amount)))
    while deal.trick and deal.phase == PLAY_PHASE:  # finish the trick in progress
        legal = deal.fast_legal(deal.turn)
        c = legal[int(rng.random() * len(legal))]
        if log is not None:
            log.append((deal.turn, Action.play(name(c))))
        deal.fast_play(c)
    if deal.phase == PLAY_PHASE:
        plays: list[tuple[int, int]] | None = [] if log is not None else None
        left = HAND_SIZE - len(deal.completed)
        deal.leader = deal.turn = play_random_tricks(
            deal.hands, deal.trump, deal.broken, deal.leader,
            ORDERS[(deal.players, deal.direction)], left, rng.random, deal.tricks_by_seat,
            plays)
        if log is not None and plays is not None:
            log.extend((seat, Action.play(name(c))) for seat, c in plays)
        deal.completed.extend([(-1, [], -1)] * left)  # placeholders: results only
        deal.finish()
    assert deal.points is not None
    return list(deal.points)


INFO = GameInfo(
    name="truf",
    title="Truf",
    match_type=TrufMatch,
    options_type=TrufOptions,
    player_counts=(4, 3),
    teams=lambda players, options: [(s,) for s in range(players)],
    rules_file="truf.md",
    random_playout=random_playout,
    summary_line="Indonesia · 4 (or 3) players, each for himself · 52 cards · bid a card: "
                 "play high or low · trumps face down · 13 deals",
)
