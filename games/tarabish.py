"""Tarabish ("Bish"), exactly as ``docs/rules/tarabish.md``.

* 36 cards, four players, partners opposite (A = {0, 2}, B = {1, 3}), everything clockwise.
* Deal in packets of three from eldest (``d + 1``), nine cards each. The third packet is the
  player's **kitty**: until trump is fixed his view shows exactly his first six cards.
* Auction, one round from eldest: ``call_trump`` (any suit; ends the auction, the caller's
  side is the calling side) or ``pass``. After three passes the dealer must call, unless
  ``dealer_may_pass``: four passes void the hand (no score) and the deal passes on.
* Play: eldest leads; follow suit; void: trump; a trump (led or played because void) must
  beat the best trump in the trick when the player can ("overtrump", "head a trump lead");
  void and unable to overtrump: a lower trump all the same ("undertrump"). Options
  ``must_head_plain`` (beat the best card of a plain suit led when no trump is in the trick)
  and ``partner_exception`` (no duty to trump or to beat while the partner is winning).
* Runs: 3+ consecutive cards of a suit in ``6 7 8 9 T J Q K A`` (20; 4 or more: 50;
  ``split_long_runs``: 7 = 50 + 20, 8-9 = 50 + 50), declared with ``declare_runs`` at the
  player's first turn; only the best declarer scores (all of his runs): value, then top
  card, then trump suit, then earliest from eldest (``run_tie: "none_score"``: nobody).
* Bella: K-Q of trumps in one hand, 20, announced with the second of the two cards
  (``bella_call_on_first``: either; ``auto_bella``: the engine announces).
* Hand: card points (trump ``J 9 A T K Q`` = 20 14 11 10 4 3, plain ``A T K Q J`` =
  11 10 4 3 2) + 10 for the last trick = 162; total = 162 + runs + bella. Calling side over
  half: both score what they took; exactly half ("half-bait"): callers 0, defenders keep
  theirs (``half_bait_is_whole_bait``: bait); under half ("bait"): defenders take the total.
* ``concede`` (``allow_concede``): the conceding side scores 0, the other the full total.
* Game to ``target`` (500): after a scored hand, a side at the target ends the game and the
  higher total wins; both there with equal totals: another hand (``tie_break:
  "calling_side"``: the side that called trump in that hand wins). The deal passes clockwise.

Views. During the auction a player's ``hand`` is his first six cards (``kitty_hidden`` is
true); his runs (``my_runs``) appear only once trump is fixed. Declarations are public at
once as ``runs.declared`` (``{"seat": s, "value": 20 or 50}``: the value of the declarer's
best run, no card); at the end of trick 1 ``runs.winner``, ``runs.points`` and
``runs.shown`` (the winner's runs, each a list of cards, highest first) become public.
Only the winner ever shows his runs.

Choices where the rule file is silent (a careful referee's):

* ``declare_runs`` declares all of the player's runs at once (the engine knows them); the
  public announcement is the value of his best run only.
* ``auto_declare_runs``: the engine declares for every player holding a run at the moment
  his first turn to play begins (a public ``declare_runs`` event with ``auto: true``), so
  the next players see it before they act. ``declare_runs`` is then never offered; an
  explicit one by such a player during his first turn is accepted and changes nothing (as an
  explicit ``bella`` with ``auto_bella``); anything else is refused as usual.
* ``split_long_runs``: the 50 of a split sequence is its top four cards; a player's best run
  is compared by the top card of the whole sequence. Runs shown are whole sequences.
* ``run_tie: "none_score"``: when the two best declared runs are equal in value, top card and
  trump-ness, nobody scores runs (partners included).
* Bella inside the winning run: the engine announces bella for the holder when his runs are
  shown at the end of trick 1 (the rule's "may also announce when showing the run"; the K-Q
  are being shown anyway). A bella in a run that does not win is announced with a card.
  The holder's own call with a card afterwards is still accepted and changes nothing
  (section 7: bella counts once).
* ``auto_bella`` announces with the second card (also with ``bella_call_on_first``): the
  moment that is always allowed and reveals nothing early.
* ``concede`` is accepted from any seat once trump is fixed and until the hand ends, also
  out of turn and in the middle of a trick (the unfinished trick is abandoned, its cards
  count for nobody). It is not accepted during the auction (a player passes instead). The
  other side scores ``hand_total`` = 162 + the run points + bella announced so far; in
  trick 1 the runs are settled among the declarations made so far. ``result`` is ``"made"``
  when the defenders conceded and ``"bait"`` when the callers did; ``conceded_by`` names
  the seat. ``legal_actions`` lists ``concede`` for every seat (AI players should skip it).
* A void hand's summary has ``caller`` and ``trump`` null, ``hand_void`` true,
  ``hand_score`` ``[0, 0]`` and ``result`` null.
* Score-only deals: ``caller`` and ``card_points_by_team`` are required, ``runs`` and
  ``bella`` optional (null). ``caller: null`` (and nothing else) records a void hand and
  needs ``dealer_may_pass``. Card points must add up to 162 and be a total a side can take;
  run points must be a total one nine-card hand can hold (20, 40, 50, 60, 70, 100).
* The random playout (``random_playout``, search and benchmarks): uniform among the legal
  auction actions, uniform among the legal cards; every player holding runs declares them,
  bella is always announced; it never concedes. It returns the hand score ``[A, B]``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.actions import PLAYS, Action
from games.base import Deal, Event, GameInfo, Match, TrickDeal, private, public, trick_data
from games.cards import NATURAL, RANKS_36, SUIT_NAMES, SUITS, deck, name, sort_for_display
from games.cards import card as parse_card
from games.errors import IllegalAction, RecordError, quote
from games.event_types import DealSummary
from games.options import GameOptions, option
from games.plain_tricks import TEAMS_4, deal_hands
from games.trick import TRUMP_BONUS, follow_reason, key_tables, trick_json
from games.view_types import OwnRun, RunsJSON, TarabishView
from games.views import common_view

# -- tables ---------------------------------------------------------------------------------
# Inside a suit a card is a bit 0..8 of a 9-bit mask, bit = its strength in the order that
# applies to that suit: the plain order, or the trump order once the suit is trump.

PLAIN_ORDER = "6789JQKTA"
"""Plain-suit ranks from lowest to highest (bit index = strength)."""
TRUMP_ORDER = "678QKTA9J"
"""Trump ranks from lowest to highest (bit index = strength)."""
PLAIN_POINTS = (0, 0, 0, 0, 2, 3, 4, 10, 11)
TRUMP_POINTS = (0, 0, 0, 3, 4, 10, 11, 14, 20)
POINTS = (PLAIN_POINTS, TRUMP_POINTS)
LAST_TRICK = 10
HAND_POINTS = 162
BELLA = 20
RUN_3, RUN_4 = 20, 50
QUEEN, KING = NATURAL.index("Q"), NATURAL.index("K")
LOW = NATURAL.index("6")  # natural rank of the lowest card of the pack

ORDERS = (PLAIN_ORDER, TRUMP_ORDER)
BIT_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(order.index(NATURAL[c % 13]) if NATURAL[c % 13] in order else -1 for c in range(52))
    for order in ORDERS
)
"""``BIT_OF[is_trump][card]``: the card's bit in its suit's mask."""
CARD_OF: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s * 13 + NATURAL.index(order[b]) for b in range(9)) for s in range(4))
    for order in ORDERS
)
"""``CARD_OF[is_trump][suit][bit]``: the card int."""
BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(9) if m >> b & 1) for m in range(512)
)
"""``BITS[mask]``: the set bits of a 9-bit mask, lowest first."""
POP: tuple[int, ...] = tuple(len(x) for x in BITS)
ABOVE: tuple[int, ...] = tuple(0x1FF & ~((1 << k) - 1) for k in range(10))
"""``ABOVE[k]``: the bits ``>= k`` (so ``ABOVE[b + 1]`` = the cards stronger than bit b)."""
TO_TRUMP: tuple[int, ...] = tuple(
    sum(1 << TRUMP_ORDER.index(PLAIN_ORDER[b]) for b in BITS[m]) for m in range(512)
)
"""A suit's mask re-ordered from plain strengths to trump strengths."""
FOLLOWERS = tuple(tuple((lead + i) % 4 for i in (1, 2, 3)) for lead in range(4))
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(BIT_OF[int(c // 13 == t)][c] for c in range(52)) for t in range(-1, 4)
)
"""``STRENGTH[trump + 1][card]``: in-suit strength for display sorting (no trump: -1)."""
KQ_BITS = (1 << TRUMP_ORDER.index("K")) | (1 << TRUMP_ORDER.index("Q"))
KEYS = key_tables(BIT_OF[0], BIT_OF[1])
"""The card keys (:func:`games.trick.key_tables`): plain and trump orders by bit."""


class TarabishPhase(StrEnum):
    """The phases of a Tarabish hand."""

    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"


P = TarabishPhase
# The phases as plain module names: comparing with them is several times faster than looking
# a member up on the enum class (the fast core and the playout compare phases often).
AUCTION_PHASE, PLAY_PHASE, OVER_PHASE = P.AUCTION, P.PLAY, P.OVER


def _run_values(length: int, split: bool) -> list[int]:
    """The values one maximal sequence of ``length`` counts (empty below three)."""
    if length < 3:
        return []
    if length == 3:
        return [RUN_3]
    if split and length == 7:
        return [RUN_4, RUN_3]
    if split and length >= 8:
        return [RUN_4, RUN_4]
    return [RUN_4]


def _mask_runs(m: int) -> tuple[tuple[int, int], ...]:
    """Maximal runs of 3+ set bits of a natural 9-bit mask (bit 0 = the six), as natural
    ``(low rank, high rank)``."""
    out = []
    b = 0
    while b < 9:
        if m >> b & 1:
            top = b
            while top + 1 < 9 and m >> (top + 1) & 1:
                top += 1
            if top - b >= 2:
                out.append((b + LOW, top + LOW))
            b = top + 1
        else:
            b += 1
    return tuple(out)


MASK_RUNS = tuple(_mask_runs(m) for m in range(512))


def natural_masks(hand: Iterable[int]) -> list[int]:
    """Per suit, the 9-bit mask of the cards held in natural order (bit 0 = the six)."""
    masks = [0, 0, 0, 0]
    for c in hand:
        if c % 13 >= LOW:
            masks[c // 13] |= 1 << (c % 13 - LOW)
    return masks


def sequences(hand: Iterable[int]) -> list[tuple[int, int, int]]:
    """Maximal runs of 3+ cards of a suit in the natural order ``6 … A``, as ``(suit, low
    rank, high rank)`` (natural rank ints), by suit then low rank."""
    masks = natural_masks(hand)
    return [(s, lo, hi) for s in range(4) for lo, hi in MASK_RUNS[masks[s]]]


def _run_totals(split: bool) -> frozenset[int]:
    """Every run total one nine-card hand can hold (lengths of its sequences sum to <= 9)."""
    totals: set[int] = set()

    def walk(left: int, low: int, acc: int, count: int) -> None:
        if count:
            totals.add(acc)
        for length in range(max(3, low), left + 1):
            walk(left - length, length, acc + sum(_run_values(length, split)), count + 1)

    walk(9, 3, 0, 0)
    return frozenset(totals)


RUN_TOTALS = {split: _run_totals(split) for split in (False, True)}


def _side_points() -> frozenset[int]:
    """Card points (last trick included) one side can take in a hand."""
    sums = {0}
    for v in [*TRUMP_POINTS, *PLAIN_POINTS * 3]:
        sums |= {x + v for x in sums}
    return frozenset(sums | {x + LAST_TRICK for x in sums})


SIDE_POINTS = _side_points()


def hand_result(
    calling_team: int, raw: Sequence[int], total: int, half_is_whole: bool
) -> tuple[str, list[int]]:
    """Section 8: ``(result, hand_score)`` from the sides' points (cards + extras)."""
    c = raw[calling_team]
    if 2 * c > total:
        return "made", list(raw)
    score = [0, 0]
    defenders = 1 - calling_team
    if 2 * c == total and not half_is_whole:
        score[defenders] = raw[defenders]
        return "half_bait", score
    score[defenders] = total
    return "bait", score


def following_duty(h: Sequence[int], led: int, trump: int, best_key: int, best_trump: int,
                   free: bool, must_head_plain: bool) -> tuple[str, int, int]:
    """Section 4 for a player following to a trick: ``(duty, suit, mask)``, the legal cards
    being the ``mask`` bits of ``suit`` in his strength masks ``h`` (``suit == -1``: any
    card he holds). ``best_key`` is the winning card's strength bit when no trump is in
    the trick, ``best_trump`` the best trump's bit (``-1``: none); ``free``: the partner
    exception applies (the partner is winning and the option is on). ``duty`` names the
    obligation: ``any``, ``follow``, ``head_trump``, ``head_plain``, ``trump``,
    ``overtrump`` or ``undertrump``. It is the game's one legality rule: ``apply``'s
    refusals (:meth:`TarabishDeal._refusal` words the reason only then), ``legal_actions``
    (:meth:`TarabishHand.fast_legal`), the random playout and the exact endgame search
    (:mod:`games.ai.tarabish_endgame`) all play by it."""
    m = h[led]
    if m:
        if not free:
            if led == trump:
                hi = m & ABOVE[best_trump + 1]
                if hi:
                    return "head_trump", led, hi
            elif must_head_plain and best_trump < 0:
                hi = m & ABOVE[best_key + 1]
                if hi:
                    return "head_plain", led, hi
        return "follow", led, m
    m = h[trump]
    if not m or free:
        return "any", -1, 0
    if best_trump < 0:
        return "trump", trump, m
    hi = m & ABOVE[best_trump + 1]
    if hi:
        return "overtrump", trump, hi
    return "undertrump", trump, m


# -- options --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TarabishOptions(GameOptions):
    dealer_may_pass: bool = option(
        False, "After three passes the dealer may pass too; the hand is then void and the "
               "deal passes on (default: the dealer is forced to call).")
    must_head_plain: bool = option(
        False, "A player following a plain suit must beat the best card of that suit when "
               "he can, as long as no trump is in the trick.")
    partner_exception: bool = option(
        False, "No duty to trump or to beat the trick while your partner is winning it "
               "(Belote style).")
    run_tie: str = option(
        "eldest", "Equal best runs: the declarer earliest from eldest scores ('eldest'), or "
                  "nobody scores runs ('none_score').", choices=("eldest", "none_score"))
    split_long_runs: bool = option(
        False, "A sequence of 7 counts 50 + 20, of 8 or 9 counts 50 + 50.")
    bella_call_on_first: bool = option(
        False, "Bella may be announced with the first of the king and queen of trumps.")
    auto_bella: bool = option(False, "The engine announces bella for the player.")
    auto_declare_runs: bool = option(
        False, "The engine declares runs for every player holding one, at his first turn.")
    half_bait_is_whole_bait: bool = option(
        False, "A calling side with exactly half the points is baited (defenders take all).")
    tie_break: str = option(
        "another_hand", "Both sides at the target with equal totals: play another hand, or "
                        "the side that called trump in the last hand wins.",
        choices=("another_hand", "calling_side"))
    target: int = option(500, "The game ends when a side has this many points.", min=1,
                         max=100000)
    allow_concede: bool = option(
        True, "A player may throw in his cards; the other side scores the full hand total.")


# -- the deal -------------------------------------------------------------------------------


PACK = sorted(deck(RANKS_36))
KQ_NATURAL = (1 << (KING - LOW)) | (1 << (QUEEN - LOW))


def _check_hands(hands: list[list[int]]) -> None:
    for seat, hand in enumerate(hands):
        if len(hand) != 9:
            raise RecordError(f"field 'hands', seat {seat}: holds {len(hand)} cards, not 9")
    want = PACK
    got = sorted([c for h in hands for c in h])
    if got != want:
        extra = sorted(set(got) - set(want)) or sorted(c for c in set(got) if got.count(c) > 1)
        missing = sorted(set(want) - set(got))
        detail = f"not in the pack or twice: {', '.join(name(c) for c in extra[:6])}" if extra \
            else f"missing: {', '.join(name(c) for c in missing[:6])}"
        raise RecordError(f"field 'hands': the hands are not the 36-card pack ({detail})")


_NOT_KQ, _NOT_DEALT, _NOT_SECOND = 1, 2, 3
"""Why a play may not carry bella (:meth:`TarabishHand.bella_refusal`)."""


class TarabishHand(TrickDeal):
    """The state and fast core of one hand of Tarabish (:class:`TarabishDeal` adds the
    readable surface). Phases (:class:`TarabishPhase`): ``auction``, ``play``, ``over``.

    The fast state: ``hands[seat][suit]`` is a 9-bit mask of strengths (plain order; the
    trump suit's masks are re-ordered when trump is fixed). The trick is
    :class:`games.trick.TrickPlay`'s with :data:`KEYS`: ``best_key`` is the bit of the card
    winning the trick (plus :data:`~games.trick.TRUMP_BONUS` for a trump), ``best_trump``
    the bit of the best trump in the trick (``-1``: none).
    """

    game = "tarabish"

    def __init__(self, dealer: int, hands: list[list[int]], options: TarabishOptions, *,
                 trusted: bool = False) -> None:
        super().__init__(4, dealer)
        if not trusted:
            _check_hands(hands)
        self.opts = options
        self.eldest = (dealer + 1) % 4
        self.order = tuple((self.eldest + i) % 4 for i in range(4))
        self.dealt = tuple(tuple(h) for h in hands)
        self.hands: list[list[int]] = [[0, 0, 0, 0] for _ in range(4)]
        for seat, hand in enumerate(hands):
            for c in hand:
                self.hands[seat][c // 13] |= 1 << BIT_OF[0][c]
        self.phase = AUCTION_PHASE
        self.bidder = self.eldest
        self.auction: list[tuple[int, int]] = []  # (seat, suit or -1 for pass)
        self.caller: int | None = None
        self.hand_void = False
        self.init_tricks(4, self.eldest, 1, KEYS)
        self.card_points = [0, 0]
        # Runs, known from the dealt hands; keys compare (value, top card, trump suit).
        split = options.split_long_runs
        natural = [natural_masks(h) for h in hands]
        self.runs = tuple(tuple((s, lo, hi) for s in range(4) for lo, hi in MASK_RUNS[nm[s]])
                          for nm in natural)
        self.run_total = tuple(sum(sum(_run_values(hi - lo + 1, split)) for _, lo, hi in rs)
                               for rs in self.runs)
        self.run_best = tuple(max((RUN_4 if hi - lo >= 3 else RUN_3 for _, lo, hi in rs),
                                  default=0) for rs in self.runs)
        self.run_keys = tuple(
            tuple(max(((hi - lo >= 3) * 100 + hi * 2 + (s == t) for s, lo, hi in rs),
                      default=-1) for t in range(4))
            for rs in self.runs)
        self.declared: list[int] = []
        self.runs_resolved = False
        self.runs_winner: int | None = None
        self.run_points = 0
        # Bella: kq_holder[suit] = the seat dealt both K and Q of that suit, else -1.
        self.kq_holder = tuple(
            next((s for s in range(4) if natural[s][t] & KQ_NATURAL == KQ_NATURAL), -1)
            for t in range(4))
        self.bella_seat: int | None = None
        self.bella_with_run = False
        self.conceded_by: int | None = None

    # -- fast core --------------------------------------------------------------------------
    def fast_bid(self, suit: int) -> None:
        """The bidder passes (``suit == -1``) or calls ``suit``; no checks."""
        seat = self.bidder
        self.auction.append((seat, suit))
        if suit >= 0:
            self._fix_trump(seat, suit)
        elif seat == self.dealer:
            self.hand_void = True
            self.phase = OVER_PHASE
        else:
            self.bidder = (seat + 1) % 4

    def _fix_trump(self, seat: int, suit: int) -> None:
        self.trump = suit
        self.caller = seat
        for h in self.hands:
            h[suit] = TO_TRUMP[h[suit]]
        self.phase = PLAY_PHASE
        self._begin_turn()

    def _begin_turn(self) -> None:
        """A turn starts: with ``auto_declare_runs`` the engine declares in trick 1."""
        seat = self.turn
        if (self.opts.auto_declare_runs and not self.completed and self.run_total[seat]
                and seat not in self.declared):
            self.declared.append(seat)

    def duty(self, seat: int) -> tuple[str, int, int, int]:
        """The legal-play predicate of section 4 for ``seat`` (to play now), as
        ``(duty, suit, mask, card)``: :func:`following_duty` (``lead`` when the trick is
        empty) and ``card``, the card to beat (``-1``: none)."""
        if not self.trick:
            return "lead", -1, 0, -1
        led, tr, bt = self.led, self.trump, self.best_trump
        free = self.opts.partner_exception and self.best_seat == seat ^ 2
        duty, suit, mask = following_duty(self.hands[seat], led, tr, self.best_key, bt, free,
                                          self.opts.must_head_plain)
        if duty == "head_plain":
            return duty, suit, mask, CARD_OF[0][led][self.best_key]
        if bt >= 0 and duty in ("head_trump", "overtrump", "undertrump"):
            return duty, suit, mask, CARD_OF[1][tr][bt]
        return duty, suit, mask, -1

    def fast_legal(self, seat: int) -> list[int]:
        """Distinct card ints ``seat`` may play now (assumes it is his turn to play)."""
        _, suit, mask, _ = self.duty(seat)
        tr = self.trump
        if suit >= 0:
            return [CARD_OF[suit == tr][suit][b] for b in BITS[mask]]
        h = self.hands[seat]
        return [CARD_OF[s == tr][s][b] for s in range(4) for b in BITS[h[s]]]

    def holds(self, seat: int, c: int) -> bool:
        s = c // 13
        b = BIT_OF[s == self.trump][c]
        return b >= 0 and bool(self.hands[seat][s] >> b & 1)

    @property
    def led(self) -> int:
        """The suit led to the trick in progress (``-1``: none yet)."""
        return self.trick[0][1] // 13 if self.trick else -1

    @property
    def best_trump(self) -> int:
        """The bit of the best trump in the trick in progress (``-1``: none)."""
        k = self.best_key
        return k - TRUMP_BONUS if k >= TRUMP_BONUS else -1

    def fast_play(self, c: int) -> None:
        """Play card ``c`` for the seat to move, without checks, events or bella."""
        seat = self.turn
        s = c // 13
        tr = self._trump
        self.hands[seat][s] ^= 1 << BIT_OF[s == tr][c]
        if not self.trick_step(seat, c):
            self._begin_turn()
            return
        winner, trick = self.leader, self.completed[-1][1]
        pts = sum(POINTS[x // 13 == tr][BIT_OF[x // 13 == tr][x]] for _, x in trick)
        if len(self.completed) == 9:
            self.card_points[winner & 1] += pts + LAST_TRICK
            self.phase = OVER_PHASE
            return
        self.card_points[winner & 1] += pts
        if len(self.completed) == 1:
            self.resolve_runs()
        self._begin_turn()

    def run_winner(self, declarers: Iterable[int]) -> int | None:
        """Section 6: the declarer whose runs count, or ``None``."""
        best, winner, tie = -1, None, False
        keys = self.run_keys
        tr = self.trump
        chosen = set(declarers)
        for seat in self.order:
            if seat in chosen:
                k = keys[seat][tr]
                if k > best:
                    best, winner, tie = k, seat, False
                elif k == best:
                    tie = True
        if tie and self.opts.run_tie == "none_score":
            return None
        return winner

    def resolve_runs(self) -> None:
        """Settle the runs among the declarations made (end of trick 1, or a concession);
        the winner's runs are then shown, and a bella inside them is announced."""
        self.runs_resolved = True
        winner = self.run_winner(self.declared)
        self.runs_winner = winner
        self.run_points = 0 if winner is None else self.run_total[winner]
        tr = self.trump
        if (winner is not None and self.bella_seat is None and self.kq_holder[tr] == winner
                and any(s == tr and lo <= QUEEN and hi >= KING
                        for s, lo, hi in self.runs[winner])):
            self.bella_seat = winner
            self.bella_with_run = True

    def bella_refusal(self, seat: int, c: int) -> IllegalAction | None:
        """Why ``play c`` may not carry ``bella: true`` for ``seat`` (``None``: it may)."""
        problem = self._bella_problem(seat, c)
        if problem is None:
            return None
        if problem == _NOT_KQ:
            return IllegalAction("bella is announced with the king or queen of trumps")
        if problem == _NOT_DEALT:
            return IllegalAction("you were not dealt both the king and the queen of trumps")
        other = c - c % 13 + (QUEEN if c % 13 == KING else KING)
        return IllegalAction("bella is announced with the second of the king and queen of "
                             "trumps (you still hold {card})", card=name(other))

    def _bella_problem(self, seat: int, c: int) -> int | None:
        """:meth:`bella_refusal` as a number, cheap for rollouts (``None``: allowed)."""
        tr = self.trump
        if c // 13 != tr or c % 13 not in (QUEEN, KING):
            return _NOT_KQ
        if self.kq_holder[tr] != seat:
            return _NOT_DEALT
        other = c - c % 13 + (QUEEN if c % 13 == KING else KING)
        if self.holds(seat, other) and not self.opts.bella_call_on_first:
            return _NOT_SECOND
        return None

    def completes_bella(self, seat: int, c: int) -> bool:
        """Whether ``play c`` by ``seat`` is the second of his king and queen of trumps and
        may carry ``bella: true`` (the moment the default rule announces it). Public, for
        AI players and rollouts that announce bella as soon as it is allowed."""
        return self._bella_problem(seat, c) is None and not self.holds(
            seat, c - c % 13 + (QUEEN if c % 13 == KING else KING))

    # -- scoring ----------------------------------------------------------------------------
    def raw_points(self) -> list[int]:
        """Each side's card points plus the runs and bella it has earned so far."""
        raw = list(self.card_points)
        if self.runs_winner is not None:
            raw[self.runs_winner & 1] += self.run_points
        if self.bella_seat is not None:
            raw[self.bella_seat & 1] += BELLA
        return raw

    def hand_total(self) -> int:
        return HAND_POINTS + self.run_points + (BELLA if self.bella_seat is not None else 0)

    def outcome(self) -> tuple[str | None, list[int] | None]:
        """``(result, hand_score)`` of a finished hand (``(None, None)`` before the end)."""
        if self.phase != OVER_PHASE:
            return None, None
        if self.hand_void or self.caller is None:
            return None, [0, 0]
        total = self.hand_total()
        calling = self.caller & 1
        if self.conceded_by is not None:
            winners = 1 - (self.conceded_by & 1)
            score = [0, 0]
            score[winners] = total
            return ("made" if winners == calling else "bait"), score
        return hand_result(calling, self.raw_points(), total,
                           self.opts.half_bait_is_whole_bait)



class TarabishDeal(TarabishHand):
    """One hand of Tarabish: the readable surface (actions checked with a reason, events,
    views, summary) on top of :class:`TarabishHand`'s fast core."""

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.phase == AUCTION_PHASE:
            return (self.bidder,)
        if self.phase == PLAY_PHASE:
            return (self.turn,)
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase == OVER_PHASE

    def closed_refusal(self) -> IllegalAction:
        if self.hand_void:
            return IllegalAction("the hand is void: all four players passed")
        if self.conceded_by is not None:
            return IllegalAction("the hand is over: {seat} conceded", seat=self.conceded_by)
        return IllegalAction("the hand is over")

    def may_declare(self, seat: int) -> bool:
        """Whether ``declare_runs`` would declare something for ``seat`` now."""
        return (self.phase == PLAY_PHASE and not self.completed and seat == self.turn
                and self.run_total[seat] > 0 and seat not in self.declared)

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == AUCTION_PHASE:
            if seat != self.bidder:
                return []
            out = [Action.call_trump(s) for s in SUITS]
            if seat != self.dealer or self.opts.dealer_may_pass:
                out.insert(0, Action.pass_())
            return out
        if self.phase != PLAY_PHASE:
            return []
        out = []
        if seat == self.turn:
            if self.may_declare(seat):
                out.append(Action("declare_runs"))
            announce = not self.opts.auto_bella and self.bella_seat is None
            for c in self.fast_legal(seat):
                out.append(PLAYS[c])
                if announce and self._bella_problem(seat, c) is None:
                    out.append(Action.play(name(c), bella=True))
        if self.opts.allow_concede:
            out.append(Action("concede"))
        return out

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.type
        if kind in ("pass", "call_trump"):
            return self._bid(seat, action)
        if kind == "declare_runs":
            return self._declare(seat)
        if kind == "play":
            return self._play(seat, action)
        if kind == "concede":
            return self._concede(seat)
        raise IllegalAction("{action} is not an action of tarabish", action=kind)

    def _bid(self, seat: int, action: Action) -> list[Event]:
        if self.phase != AUCTION_PHASE:
            raise IllegalAction("the auction is over: {suit} are trumps", suit=self.trump)
        if seat != self.bidder:
            raise self.not_your_turn(seat)
        if action.type == "pass":
            if seat == self.dealer and not self.opts.dealer_may_pass:
                raise IllegalAction("the dealer must call trump: the other three passed")
            self.fast_bid(-1)
            events = [public("pass", {"seat": seat})]
            if self.hand_void:
                events.append(public("hand_void", {"next_dealer": (self.dealer + 1) % 4}))
                events.append(public("deal_over", {"summary": self.summary()}))
            return events
        assert action.suit is not None
        declared = len(self.declared)
        self.fast_bid(SUITS.index(action.suit))
        events = [public("call_trump", {"seat": seat, "suit": action.suit})]
        for s in range(4):
            events.append(private(s, "kitty", {"cards": [name(c) for c in self.dealt[s][6:]],
                                               "hand": self.hand_names(s)}))
        return events + self._declare_events(declared)

    def _declare_events(self, since: int) -> list[Event]:
        return [public("declare_runs", {"seat": s, "value": self.run_best[s], "auto": True})
                for s in self.declared[since:]]

    def _declare(self, seat: int) -> list[Event]:
        if self.phase != PLAY_PHASE:
            raise IllegalAction("runs are declared at your first turn to play, once trump "
                                "has been called")
        if self.completed:
            raise IllegalAction("runs can only be declared during the first trick")
        if seat != self.turn:
            raise IllegalAction("runs are declared at your own first turn, before your first "
                                "card")
        if not self.run_total[seat]:
            raise IllegalAction("you hold no run (three or more cards in sequence in one suit)")
        if seat in self.declared:
            if self.opts.auto_declare_runs:
                return []  # the engine declared them already: accepted, changes nothing
            raise IllegalAction("you have already declared your runs")
        self.declared.append(seat)
        return [public("declare_runs", {"seat": seat, "value": self.run_best[seat],
                                        "auto": False})]

    def _refusal(self, seat: int, c: int) -> IllegalAction | None:
        """Why ``seat`` may not play ``c`` now under section 4 (``None``: legal)."""
        duty, suit, mask, ref = self.duty(seat)
        if suit < 0:
            return None
        s = c // 13
        tr = self.trump
        if s == suit and BIT_OF[s == tr][c] in BITS[mask]:
            return None
        held = [CARD_OF[suit == tr][suit][b] for b in reversed(BITS[mask])]
        cards = [name(x) for x in held]
        if duty == "follow":
            return follow_reason(self.led, held)
        if duty == "head_trump":
            return IllegalAction("trumps were led: you must beat the {card} with a higher "
                                 "trump: you hold {cards}", card=name(ref), cards=cards)
        if duty == "head_plain":
            # Translators: {suit_one} is the led suit's word (English "heart": one card of
            # it; Somali: its symbol); {card} and {cards} are cards such as K♥.
            return IllegalAction("you must beat the {card} with a higher {suit_one}: you hold "
                                 "{cards}", card=name(ref), suit_one=self.led, cards=cards)
        if duty == "trump":
            return IllegalAction("you have no {suit}, so you must play a trump: you hold "
                                 "{cards}", suit=self.led, cards=cards)
        if duty == "overtrump":
            return IllegalAction("you must overtrump the {card}: you hold {cards}",
                                 card=name(ref), cards=cards)
        return IllegalAction("you have no {suit} and cannot overtrump the {card}, so you must "
                             "still play a trump: you hold {cards}", suit=self.led,
                             card=name(ref), cards=cards)

    def _play(self, seat: int, action: Action) -> list[Event]:
        if self.phase == AUCTION_PHASE:
            raise IllegalAction("trump has not been called yet ({seat} to speak)",
                                seat=self.bidder)
        if seat != self.turn:
            raise self.not_your_turn(seat)
        if action.signal is not None:
            raise IllegalAction("there are no signals in tarabish")
        assert action.card is not None
        try:
            c = parse_card(action.card)
        except ValueError:
            raise IllegalAction("{text} is not a card (write rank then suit, e.g. 'TS', 'AH')",
                                text=quote(action.card)) from None
        if not self.holds(seat, c):
            raise IllegalAction("you do not hold {card}", card=action.card)
        refusal = self._refusal(seat, c)
        if refusal is not None:
            raise refusal
        announce = False
        if action.bella:
            why = self.bella_refusal(seat, c)
            if why is not None:
                raise why
            if (self.bella_seat is not None and not self.opts.auto_bella
                    and not (self.bella_with_run and self.bella_seat == seat)):
                raise IllegalAction("bella has already been announced")
            announce = self.bella_seat is None
        elif self.opts.auto_bella and self.bella_seat is None:
            announce = self.completes_bella(seat, c)
        trick_no = len(self.completed) + 1
        declared = len(self.declared)
        if announce:
            self.bella_seat = seat
        self.fast_play(c)
        events = [public("play", {"seat": seat, "card": action.card, "bella": announce,
                                  "trick": trick_no})]
        if len(self.completed) == trick_no:
            events.append(public("trick", trick_data(trick_no, trick_json(self.completed[-1]))))
            if trick_no == 1:
                events.append(public("runs", self.runs_public()))
                if self.bella_with_run:
                    assert self.bella_seat is not None  # set with bella_with_run
                    events.append(public("bella", {"seat": self.bella_seat,
                                                   "with_run": True}))
        events.extend(self._declare_events(declared))
        if self.is_over:
            events.append(public("deal_over", {"summary": self.summary()}))
        return events

    def _concede(self, seat: int) -> list[Event]:
        if not self.opts.allow_concede:
            raise IllegalAction("conceding is not allowed at this table")
        if self.phase != PLAY_PHASE:
            raise IllegalAction("you can concede only once trump has been called; pass instead")
        self.conceded_by = seat
        if not self.runs_resolved:
            self.resolve_runs()
        self.phase = OVER_PHASE
        return [public("concede", {"seat": seat, "team": seat & 1}),
                public("deal_over", {"summary": self.summary()})]

    # -- views ------------------------------------------------------------------------------
    def strength_table(self) -> tuple[int, ...]:
        return STRENGTH[self.trump + 1]

    def hand_names(self, seat: int) -> list[str]:
        """``seat``'s current hand (all nine cards' remainder), sorted for display."""
        h, tr = self.hands[seat], self.trump
        cards = [CARD_OF[s == tr][s][b] for s in range(4) for b in BITS[h[s]]]
        return [name(c) for c in sort_for_display(cards, self.strength_table())]

    def visible_hand(self, seat: int) -> list[str]:
        """What ``seat`` sees of his hand: his first six cards during the auction."""
        if self.phase == AUCTION_PHASE or (self.hand_void and self.trump < 0):
            return [name(c) for c in sort_for_display(self.dealt[seat][:6],
                                                      self.strength_table())]
        return self.hand_names(seat)

    def run_cards(self, seat: int) -> list[list[str]]:
        """``seat``'s runs as card lists, highest first."""
        return [[name(s * 13 + r) for r in range(hi, lo - 1, -1)] for s, lo, hi in
                self.runs[seat]]

    def runs_public(self) -> RunsJSON:
        shown = self.runs_resolved and self.runs_winner is not None
        return {
            "declared": [{"seat": s, "value": self.run_best[s]} for s in self.declared],
            "resolved": self.runs_resolved,
            "winner": self.runs_winner,
            "points": self.run_points,
            "shown": self.run_cards(self.runs_winner) if shown and self.runs_winner is not None
            else [],
        }

    def tricks_by_team(self) -> list[int]:
        t = self.tricks_by_seat
        return [t[0] + t[2], t[1] + t[3]]

    def view(self, seat: int | None) -> TarabishView:
        trump = SUITS[self.trump] if self.trump >= 0 else None
        result, score = self.outcome()
        before_trump = self.trump < 0
        mine: list[OwnRun] = []
        if seat is not None and not before_trump:
            split = self.opts.split_long_runs
            mine = [{"cards": cards, "value": sum(_run_values(len(cards), split))}
                    for cards in self.run_cards(seat)]
        out: TarabishView = {
            **common_view(
                self, seat, teams=TEAMS_4, trump=self.trump,
                hand=[] if seat is None else self.visible_hand(seat),
                hand_sizes=[9 - len(self.completed) - any(s == p for p, _ in self.trick)
                            for s in range(4)],
                facts=[]),
            "eldest": self.eldest,
            "caller": self.caller,
            "auction": [[s, "pass" if x < 0 else SUITS[x]] for s, x in self.auction],
            "kitty_hidden": before_trump,
            "last_trick": trick_json(self.completed[-1]) if self.completed else None,
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "card_points_by_team": list(self.card_points),
            "runs": self.runs_public(),
            "my_runs": mine,
            "bella": self.bella_seat,
            "hand_void": self.hand_void,
            "conceded_by": self.conceded_by,
            "result": result,
            "hand_score": score,
        }
        facts: list[list[str]] = []
        if trump:
            facts.append(["Trump", f"{SUIT_NAMES[self.trump]} (called by seat {self.caller}, "
                                   f"team {'AB'[(self.caller or 0) & 1]})"])
        else:
            facts.append(["Trump", "not called yet" if not self.hand_void else "none (void)"])
        facts.append(["Card points A–B", "{}–{}".format(*self.card_points)])
        runs = out["runs"]
        if runs["declared"]:
            facts.append(["Runs declared", ", ".join(f"seat {d['seat']}: {d['value']}"
                                                     for d in runs["declared"])])
        if runs["resolved"]:
            facts.append(["Runs", "nobody scores" if runs["winner"] is None else
                          f"seat {runs['winner']} scores {runs['points']}: " +
                          "; ".join(" ".join(r) for r in runs["shown"])])
        if self.bella_seat is not None:
            facts.append(["Bella", f"seat {self.bella_seat} (20)"])
        if result is not None and score is not None:
            facts.append(["Hand", f"{result.replace('_', '-')}: A {score[0]}, B {score[1]}"])
        out["facts"] = facts
        return out

    def summary(self) -> DealSummary:
        result, score = self.outcome()
        over = self.phase == OVER_PHASE
        return {
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "caller": self.caller,
            "hand_void": self.hand_void,
            "auction": [[s, "pass" if x < 0 else SUITS[x]] for s, x in self.auction],
            "trick_winners": self.trick_winners(),
            "tricks": self.tricks_json(),
            "tricks_by_seat": list(self.tricks_by_seat),
            "tricks_by_team": self.tricks_by_team(),
            "hand_over": over,
            "runs_declared": [{"seat": s, "value": self.run_best[s]} for s in self.declared],
            "runs_winner": self.runs_winner,
            "run_points": self.run_points,
            "bella": self.bella_seat,
            "card_points_by_team": list(self.card_points),
            "raw_points_by_team": self.raw_points(),
            "hand_total": self.hand_total() if over and not self.hand_void else None,
            "result": result,
            "hand_score": score,
            "conceded_by": self.conceded_by,
        }

    def dealt_hands(self) -> list[list[str]]:
        return [[name(c) for c in h] for h in self.dealt]


# -- the match ------------------------------------------------------------------------------


def _seat_field(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise RecordError(f"field 'summary.{field}': must be a seat (0-3)")
    return value


class TarabishMatch(Match):
    """Hands until a side reaches ``target`` points (section 9)."""

    game = "tarabish"
    options_type = TarabishOptions
    options: TarabishOptions

    def deal_cards(self, dealer: int, rng: random.Random) -> list[list[int]]:
        return deal_hands(dealer, 1, 9, 1, rng)

    def build_deal(self, dealer: int, hands: list[list[int]], *, trusted: bool) -> Deal:
        return TarabishDeal(dealer, hands, self.options, trusted=trusted)

    def _score(self, summary: DealSummary) -> None:
        self.next_dealer = (self.next_dealer + 1) % 4
        if summary["hand_void"]:
            return
        score, caller = summary["hand_score"], summary["caller"]
        assert score is not None and caller is not None  # a hand that was played
        self.add_scores(score)
        a, b = self.scores
        if max(a, b) < self.options.target:
            return
        if a != b:
            self.over, self.winner = True, (0 if a > b else 1)
        elif self.options.tie_break == "calling_side":
            self.over, self.winner = True, caller & 1

    def _score_only_summary(self, dealer: int, given: Mapping[str, Any]) -> DealSummary:
        fields = ("caller", "card_points_by_team", "runs", "bella")
        bad = sorted(set(given) - set(fields))
        if bad:
            raise RecordError(f"field 'summary.{bad[0]}': not a score-only field of tarabish "
                              f"({', '.join(fields)})")
        if "caller" not in given:
            raise RecordError("field 'summary.caller': required (the seat that called trump, "
                              "or null for a void hand)")
        out: DealSummary = {"dealer": dealer, "trump": None, "hand_over": True,
                               "conceded_by": None}
        if given["caller"] is None:
            if not self.options.dealer_may_pass:
                raise RecordError("field 'summary.caller': null records a void hand, which "
                                  "needs the option dealer_may_pass (the dealer is forced)")
            if any(given.get(f) is not None for f in fields):
                raise RecordError("field 'summary': a void hand has no points, runs or bella")
            out.update({"caller": None, "hand_void": True, "runs_winner": None,
                        "run_points": 0, "bella": None, "card_points_by_team": [0, 0],
                        "raw_points_by_team": [0, 0], "hand_total": None, "result": None,
                        "hand_score": [0, 0]})
            return out
        caller = _seat_field(given["caller"], "caller")
        cp = given.get("card_points_by_team")
        if (not isinstance(cp, list) or len(cp) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cp)):
            raise RecordError("field 'summary.card_points_by_team': must be two numbers [A, B]")
        if sum(cp) != HAND_POINTS or min(cp) < 0:
            raise RecordError(f"field 'summary.card_points_by_team': {cp[0]} + {cp[1]} is not "
                              f"{HAND_POINTS} (card points and the last trick)")
        if cp[0] not in SIDE_POINTS:  # then neither is the other side's (complement)
            raise RecordError(f"field 'summary.card_points_by_team': the cards cannot split "
                              f"{cp[0]}–{cp[1]}")
        runs = given.get("runs")
        run_seat, run_points = None, 0
        if runs is not None:
            if not isinstance(runs, Mapping) or set(runs) != {"seat", "points"}:
                raise RecordError("field 'summary.runs': must be {\"seat\": s, \"points\": p} "
                                  "or null")
            run_seat = _seat_field(runs["seat"], "runs.seat")
            run_points = runs["points"]
            allowed = RUN_TOTALS[self.options.split_long_runs]
            if (not isinstance(run_points, int) or isinstance(run_points, bool)
                    or run_points not in allowed):
                listed = ", ".join(map(str, sorted(allowed)))
                raise RecordError(f"field 'summary.runs.points': {quote(run_points)} is not a run "
                                  f"total one hand can hold ({listed})")
        bella = given.get("bella")
        if bella is not None:
            bella = _seat_field(bella, "bella")
        raw = list(cp)
        if run_seat is not None:
            raw[run_seat & 1] += run_points
        if bella is not None:
            raw[bella & 1] += BELLA
        total = HAND_POINTS + run_points + (BELLA if bella is not None else 0)
        result, score = hand_result(caller & 1, raw, total,
                                    self.options.half_bait_is_whole_bait)
        out.update({"caller": caller, "hand_void": False, "runs_winner": run_seat,
                    "run_points": run_points, "bella": bella, "card_points_by_team": list(cp),
                    "raw_points_by_team": raw, "hand_total": total, "result": result,
                    "hand_score": score})
        return out


# -- random playout -------------------------------------------------------------------------


def random_playout(deal: Deal, rng: random.Random) -> list[int]:
    """Finish ``deal`` (consumed) with uniformly random legal decisions (the policy of the
    module docstring) and return the hand score ``[A, B]``."""
    return _playout(deal, rng, None)


def _playout(deal: Deal, rng: random.Random, log: list[tuple[int, Any]] | None) -> list[int]:
    """The random playout; with ``log`` every decision is appended as ``(seat, Action)``
    (auction) or ``(seat, card int)`` (plays) so tests can replay it through ``apply``."""
    assert isinstance(deal, TarabishDeal)
    rnd = rng.random
    if deal.phase == AUCTION_PHASE:
        _random_auction(deal, rnd, log)
    if deal.trick and deal.phase != OVER_PHASE:
        _finish_trick(deal, rnd, log)
    if deal.phase == OVER_PHASE:
        return deal.outcome()[1] or [0, 0]
    run_seat, run_pts, bella_seat = _bonuses(deal)
    cp = _random_tricks(deal, rnd, log)
    total = HAND_POINTS + run_pts
    if run_seat is not None:
        cp[run_seat & 1] += run_pts
    if bella_seat is not None:
        cp[bella_seat & 1] += BELLA
        total += BELLA
    assert deal.caller is not None
    deal.phase = OVER_PHASE
    return hand_result(deal.caller & 1, cp, total, deal.opts.half_bait_is_whole_bait)[1]


def _random_auction(deal: TarabishDeal, rnd: Callable[[], float],
                    log: list[tuple[int, Any]] | None) -> None:
    """The auction with uniformly random legal bids (a pass is the fifth choice, when the
    bidder may pass)."""
    may_pass = deal.opts.dealer_may_pass
    while deal.phase == AUCTION_PHASE:
        seat = deal.bidder
        i = int(rnd() * (4 if seat == deal.dealer and not may_pass else 5))
        if log is not None:
            log.append((seat, Action.call_trump(SUITS[i]) if i < 4 else Action.pass_()))
        deal.fast_bid(i if i < 4 else -1)


def _finish_trick(deal: TarabishDeal, rnd: Callable[[], float],
                  log: list[tuple[int, Any]] | None) -> None:
    """Finish a trick in progress on the readable core (:meth:`TarabishHand.fast_legal`):
    a player's runs are declared at his first turn, bella is announced with its second
    card."""
    while deal.trick and deal.phase != OVER_PHASE:
        seat = deal.turn
        if deal.may_declare(seat):
            deal.declared.append(seat)
        legal = deal.fast_legal(seat)
        c = legal[int(rnd() * len(legal))]
        if deal.bella_seat is None and deal.completes_bella(seat, c):
            deal.bella_seat = seat
        if log is not None:
            log.append((seat, c))
        deal.fast_play(c)


def _bonuses(deal: TarabishDeal) -> tuple[int | None, int, int | None]:
    """``(run seat, run points, bella seat)`` of a hand whose tricks are played out from
    here: every run holder declares at his first turn, bella is announced by its holder
    unless he already played one of the two cards unannounced."""
    if deal.runs_resolved:
        run_seat = deal.runs_winner
        run_pts = deal.run_points
    else:  # a fresh first trick: every holder declares at his first turn
        run_seat = deal.run_winner(set(deal.declared) | {s for s in range(4)
                                                        if deal.run_total[s]})
        run_pts = 0 if run_seat is None else deal.run_total[run_seat]
    bella_seat = deal.bella_seat
    tr = deal.trump
    if bella_seat is None:
        holder = deal.kq_holder[tr]
        if holder >= 0 and deal.hands[holder][tr] & KQ_BITS:  # not both played unannounced
            bella_seat = holder
    return run_seat, run_pts, bella_seat


def _random_tricks(deal: TarabishDeal, rnd: Callable[[], float],
                   log: list[tuple[int, Any]] | None) -> list[int]:
    """Play the hand's remaining whole tricks with uniformly random legal cards (section 4
    as :func:`following_duty` states it); return the card points by team, the last trick's
    10 included. ``deal.hands`` is consumed; nothing else of ``deal`` is updated.

    The leader, and a follower whom the rule leaves free, takes the ``i``-th of the ``n``
    cards he holds (``i`` uniformly random). Those few lines are written out twice, at the
    lead and in the follower's branch, instead of in a helper: in this hot loop a Python
    call per such card costs about 6% of the playout (``bench/engine.py --instructions``),
    on top of the rule's own call per follower, and issue 37 allows the playout 15%."""
    hands = deal.hands
    tr = deal.trump
    px = deal.opts.partner_exception
    hp = deal.opts.must_head_plain
    pts = [PLAIN_POINTS, PLAIN_POINTS, PLAIN_POINTS, PLAIN_POINTS]
    pts[tr] = TRUMP_POINTS
    cards = [CARD_OF[s == tr][s] for s in range(4)]
    bits, pop, duty = BITS, POP, following_duty
    cp = list(deal.card_points)
    leader = deal.leader
    n = 9 - len(deal.completed)
    while n:
        h = hands[leader]
        i = int(rnd() * n)
        s = 0
        m = h[0]
        while i >= pop[m]:
            i -= pop[m]
            s += 1
            m = h[s]
        b = bits[m][i]
        h[s] = m ^ (1 << b)
        if log is not None:
            log.append((leader, cards[s][b]))
        led = s
        tp = pts[s][b]
        winner = leader
        if s == tr:
            best = 100 + b
            bt = b
        else:
            best = b
            bt = -1
        for seat in FOLLOWERS[leader]:
            h = hands[seat]
            _, s, m = duty(h, led, tr, best, bt, px and winner == seat ^ 2, hp)
            if s >= 0:
                bl = bits[m]
                b = bl[int(rnd() * len(bl))]
                h[s] ^= 1 << b
            else:  # any card: as at the lead
                i = int(rnd() * n)
                s = 0
                m = h[0]
                while i >= pop[m]:
                    i -= pop[m]
                    s += 1
                    m = h[s]
                b = bits[m][i]
                h[s] = m ^ (1 << b)
            if log is not None:
                log.append((seat, cards[s][b]))
            tp += pts[s][b]
            if s == tr:
                if 100 + b > best:
                    best = 100 + b
                    bt = b
                    winner = seat
            elif s == led and b > best:
                best = b
                winner = seat
        cp[winner & 1] += tp
        leader = winner
        n -= 1
    cp[leader & 1] += LAST_TRICK
    return cp


INFO = GameInfo(
    name="tarabish",
    title="Tarabish",
    match_type=TarabishMatch,
    options_type=TarabishOptions,
    player_counts=(4,),
    teams=lambda players, options: list(TEAMS_4),
    rules_file="tarabish.md",
    random_playout=random_playout,
    summary_line="Cape Breton · 4 players in partnerships · 36 cards · one-round trump "
                 "auction, runs and bella, bait · game to 500",
)
