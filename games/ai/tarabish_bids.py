"""The ``search`` player's Tarabish trump call: a call evaluator fitted by simulation.

A bidder sees six cards and decides once: pass, or call one suit. What a call is worth
against passing depends on those six cards, on how many players have passed before him
(each pass says those hands were weak, and a later pass may leave the dealer forced) and
on whether the dealer may pass. :func:`call_advantage` estimates it as a linear function
of the six cards' features (:func:`features`), whose weights (:data:`WEIGHTS`) were fitted
by least squares over simulated auctions: for every auction decision of deals played by
four `rules` players, each of pass and the four calls was tried in the real deal and
played out by the rollout policy of :mod:`games.ai.tarabish` (exact endgame included),
and the weights predict the call's value minus the pass's. ``python
bench/fit_tarabish_bids.py`` reproduces them (its docstring gives the data and the
measured gain). Only ``search`` calls this way; the ``rules`` level keeps its rating rule
(:func:`games.ai.tarabish.auction_rule`), which also stays the model of the other bidders.

The decision (:func:`learned_call`): the suit with the highest estimate is called when
its estimate is above zero, or whatever it is when the dealer is forced to call.
"""

from __future__ import annotations

from collections.abc import Sequence

CONTEXTS = 8
"""Auction contexts: the bidder's place after the eldest hand (0–3), plus 4 when the
dealer may pass. Context 3, the dealer who must call, keeps zero weights: passing is not
open to him, so nothing is fitted there and only his suits are compared."""

FEATURE_NAMES: tuple[str, ...] = (
    "trump J", "trump 9", "trump A", "trump T", "trump K", "trump Q", "trump 8",
    "trump 7", "trump 6",
    "2 trumps", "3 trumps", "4 trumps", "5 trumps", "6 trumps",
    "trump J and 9", "trump J and A", "trump 9 and A", "trump K and Q",
    "side aces", "side tens with their ace", "bare side tens", "side kings",
    "void side suits", "singleton side suits",
    *(f"context {k}" for k in range(CONTEXTS)),
    *(f"context {k} × trumps" for k in range(CONTEXTS)),
)
"""What each weight multiplies (:func:`features`); a context's two features are its own
offset and its own weight per trump held."""

WEIGHTS: tuple[float, ...] = (
    51.00,  # trump J
    30.42,  # trump 9
    0.92,  # trump A
    3.74,  # trump T
    8.90,  # trump K
    6.97,  # trump Q
    -2.73,  # trump 8
    -3.11,  # trump 7
    -5.01,  # trump 6
    11.42,  # 2 trumps
    37.72,  # 3 trumps
    69.63,  # 4 trumps
    90.76,  # 5 trumps
    85.48,  # 6 trumps
    19.04,  # trump J and 9
    5.70,  # trump J and A
    1.99,  # trump 9 and A
    8.98,  # trump K and Q
    8.38,  # side aces
    2.90,  # side tens with their ace
    3.19,  # bare side tens
    0.19,  # side kings
    3.98,  # void side suits
    1.75,  # singleton side suits
    -127.27,  # context 0
    -103.41,  # context 1
    -137.22,  # context 2
    0.00,  # context 3
    -114.51,  # context 4
    -110.36,  # context 5
    -115.75,  # context 6
    -119.76,  # context 7
    13.40,  # context 0 × trumps
    11.76,  # context 1 × trumps
    14.25,  # context 2 × trumps
    0.00,  # context 3 × trumps
    12.30,  # context 4 × trumps
    9.96,  # context 5 × trumps
    15.17,  # context 6 × trumps
    14.25,  # context 7 × trumps
)
"""Fitted by ``bench/fit_tarabish_bids.py`` (see the module docstring), in the order of
:data:`FEATURE_NAMES`."""

_TRUMP_RANKS = "J9ATKQ876"


def features(cards: Sequence[int], suit: int, context: int) -> list[float]:
    """The features of calling ``suit`` holding the six ``cards`` (card ints) in auction
    ``context`` (see :data:`CONTEXTS`), in the order of :data:`FEATURE_NAMES`."""
    ranks: list[set[str]] = [set(), set(), set(), set()]
    for c in cards:
        ranks[c // 13].add("23456789TJQKA"[c % 13])
    trump = ranks[suit]
    n = len(trump)
    out = [1.0 if r in trump else 0.0 for r in _TRUMP_RANKS]
    out += [1.0 if n == k else 0.0 for k in (2, 3, 4, 5, 6)]
    out += [float("J" in trump and "9" in trump), float("J" in trump and "A" in trump),
            float("9" in trump and "A" in trump), float("K" in trump and "Q" in trump)]
    side = [ranks[s] for s in range(4) if s != suit]
    out += [float(sum("A" in r for r in side)),
            float(sum("T" in r and "A" in r for r in side)),
            float(sum("T" in r and "A" not in r for r in side)),
            float(sum("K" in r for r in side)),
            float(sum(not r for r in side)),
            float(sum(len(r) == 1 for r in side))]
    out += [1.0 if k == context else 0.0 for k in range(CONTEXTS)]
    out += [float(n) if k == context else 0.0 for k in range(CONTEXTS)]
    return out


def auction_context(place: int, dealer_may_pass: bool) -> int:
    """The context index of a bidder ``place`` seats after the eldest hand."""
    return place + (4 if dealer_may_pass else 0)


def call_advantage(cards: Sequence[int], suit: int, context: int,
                   weights: Sequence[float] = WEIGHTS) -> float:
    """Estimated points (the rollout's scale) that calling ``suit`` gains over passing."""
    return sum(w * x for w, x in zip(weights, features(cards, suit, context), strict=True))


def learned_call(cards: Sequence[int], context: int, forced: bool,
                 weights: Sequence[float] = WEIGHTS) -> int:
    """The suit ``search`` calls from its six ``cards`` (``-1``: pass; see the module
    docstring)."""
    adv = [call_advantage(cards, s, context, weights) for s in range(4)]
    best = max(range(4), key=lambda s: (adv[s], -s))
    return best if forced or adv[best] > 0.0 else -1
