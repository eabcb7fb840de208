"""Fit the ``search`` player's Tarabish call evaluator (:mod:`games.ai.tarabish_bids`).

    python bench/fit_tarabish_bids.py [--deals 48000] [--test-deals 10000] [--jobs 2]
                                      [--write]

**Data.** Deals dealt from fixed seeds are bid and played by four ``rules`` players, half
of them with the option ``dealer_may_pass``. At every auction decision the bidder's six
cards, his auction context and the value of each of his choices are recorded: pass and
each of the four calls are tried in a copy of the real deal and played out by the
rollout policy of :mod:`games.ai.tarabish` (the bidders after him by the rule, the exact
endgame at the end), valued as a ``search`` rollout values a deal for the bidder's side.

**Fit.** The weights are the ridge least-squares fit (λ = :data:`RIDGE`) of each call's
value minus the pass's value on the features of :func:`games.ai.tarabish_bids.features`,
over the decisions where passing was allowed.

**Test.** On auction decisions of other deals (``--test-deals``, another seed) the fitted
call is compared with the rule's (:func:`games.ai.tarabish.auction_rule`), both valued in
the same real deal: the mean gain per auction decision, its 95% interval, and how often
the two differ. ``--write`` stores the weights in ``games/ai/tarabish_bids.py``.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.ai_decisions import value_in_deal
from games.actions import Action
from games.ai.registry import adapter_for
from games.ai.tarabish import auction_rule
from games.ai.tarabish_bids import FEATURE_NAMES, auction_context, features, learned_call
from games.cards import SUITS
from games.registry import GAMES
from games.tarabish import TarabishDeal

RIDGE = 1.0
"""Ridge penalty of the fit (a little, so that rare features stay bounded)."""

Row = tuple[list[int], int, bool, list[float | None]]
"""Six cards, auction context, forced, and the values of pass and of each call."""


def decisions(seed: str, first: int, count: int) -> list[Row]:
    """The auction decisions of deals ``first`` … ``first + count - 1`` of ``seed``."""
    info = GAMES["tarabish"]
    ai = adapter_for("tarabish")
    rows: list[Row] = []
    for k in range(first, first + count):
        options = {"dealer_may_pass": bool(k % 2)}
        deal = info.match_type(options, 4, k % 4, seed=f"{seed}:{k}").start_deal()
        assert isinstance(deal, TarabishDeal)
        while deal.phase == "auction":
            seat = deal.bidder
            forced = seat == deal.dealer and not deal.opts.dealer_may_pass
            cards = list(deal.dealt[seat][:6])
            values: list[float | None] = [None if forced else
                                          value_in_deal(ai, deal, seat, Action.pass_())]
            values += [value_in_deal(ai, deal, seat, Action.call_trump(SUITS[suit]))
                       for suit in range(4)]
            context = auction_context((seat - deal.eldest) % 4, deal.opts.dealer_may_pass)
            rows.append((cards, context, forced, values))
            deal.fast_bid(auction_rule(cards, forced))
    return rows


def collect(seed: str, deals: int, jobs: int) -> list[Row]:
    """:func:`decisions` of ``deals`` deals, in ``jobs`` processes."""
    step = 500
    chunks = [(seed, first, min(step, deals - first)) for first in range(0, deals, step)]
    rows: list[Row] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_decisions, chunks):
            rows.extend(part)
    return rows


def _decisions(chunk: tuple[str, int, int]) -> list[Row]:
    return decisions(*chunk)


def fit(rows: list[Row]) -> list[float]:
    """Ridge least squares of call-minus-pass values on the features (normal equations)."""
    size = len(FEATURE_NAMES)
    a = [[RIDGE if i == j else 0.0 for j in range(size)] for i in range(size)]
    b = [0.0] * size
    for cards, context, forced, values in rows:
        if forced:
            continue
        passed = values[0]
        assert passed is not None
        for suit in range(4):
            x = features(cards, suit, context)
            called = values[suit + 1]
            assert called is not None
            y = called - passed
            nz = [(i, v) for i, v in enumerate(x) if v]
            for i, vi in nz:
                b[i] += vi * y
                row = a[i]
                for j, vj in nz:
                    row[j] += vi * vj
    return solve(a, b)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def test(rows: list[Row], weights: list[float]) -> tuple[float, float, float]:
    """Mean gain per decision of the fitted call over the rule's, its 95% half-width, and
    the share of decisions where they differ."""
    gains = []
    for cards, context, forced, values in rows:
        mine = learned_call(cards, context, forced, weights)
        rule = auction_rule(cards, forced)
        v_mine, v_rule = values[mine + 1], values[rule + 1]
        assert v_mine is not None and v_rule is not None
        gains.append(v_mine - v_rule)
    n = len(gains)
    mean = sum(gains) / n
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n), sum(1 for g in gains if g) / n


def write(weights: list[float]) -> None:
    """Store ``weights`` as :data:`games.ai.tarabish_bids.WEIGHTS`."""
    path = Path(__file__).resolve().parents[1] / "games" / "ai" / "tarabish_bids.py"
    text = path.read_text(encoding="utf-8")
    lines = "".join(f"    {w:.2f},  # {name}\n" for w, name in zip(weights, FEATURE_NAMES,
                                                               strict=True))
    new = f"WEIGHTS: tuple[float, ...] = (\n{lines})"
    text = re.sub(r"WEIGHTS: tuple\[float, \.\.\.\] = \((?:.|\n)*?\n?\)(?=\n)", new, text,
                  count=1)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=48000)
    parser.add_argument("--test-deals", type=int, default=10000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    train = collect("fit", args.deals, args.jobs)
    weights = fit(train)
    print(f"{len(train)} auction decisions from {args.deals} deals")
    for w, name in zip(weights, FEATURE_NAMES, strict=True):
        print(f"  {name:28s} {w:+8.2f}")
    held = collect("test", args.test_deals, args.jobs)
    mean, half, changed = test(held, weights)
    print(f"test: {len(held)} auction decisions from {args.test_deals} other deals: the "
          f"fitted call gains {mean:+.2f} points (±{half:.2f}) per decision over the rule's;"
          f" they differ in {changed * 100:.1f}% of decisions")
    if args.write:
        write(weights)


if __name__ == "__main__":
    main()
