"""How well ``search`` reads the hidden Tarabish hands, and how much better it could.

    python bench/tarabish_inference.py [--deals 200] [--worlds 200] [--seed i1]

Deals are played by four ``rules`` players. At each card play of seat 0 (from the second
trick on), ``search``'s sampler draws ``--worlds`` worlds from seat 0's view, and for
every card still held by another player the bench takes the share of the worlds, each
counted by its likelihood weight, that give the card to its real holder: the mean of that
share is how well the worlds read the hidden hands (1.0 would be the real deal). It is
reported for several likelihood factors — each world's weight is the factor to the power
of the other players' bids and cards it does not explain — from 1.0 (no weighting: every
world consistent with the voids, runs and bella alike) through the search's own
:data:`~games.ai.tarabish.SURPRISE` to near zero (only the worlds that explain the most).
As the other players here are ``rules`` players, the likelihood's model of them is
nearly exact: the bench also counts how often the real deal itself leaves one of their
cards unexplained, with the bids judged on the six cards each bidder really saw.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.ai import make_player
from games.ai.tarabish import SURPRISE, TarabishSampler
from games.registry import GAMES
from games.tarabish import TarabishDeal

FACTORS = (1.0, SURPRISE, 0.2, 0.05, 0.001)
"""Likelihood factors compared (:data:`SURPRISE` is the search's own)."""

STAGES = ((1, 2), (3, 4), (5, 6), (7, 8))
"""Rows of the table: tricks already played."""


def holder_shares(hands: list[list[set[int]]], surprises: list[int], truth: list[set[int]],
                  me: int, played: set[int]) -> dict[float, float]:
    """Per factor: the mean weighted share of the worlds (``hands[w][seat]``, with
    ``surprises[w]``) that give each other player's unplayed card to its real holder."""
    out: dict[float, float] = {}
    for f in FACTORS:
        weights = [f ** k for k in surprises]
        total = sum(weights)
        shares = []
        for seat, held in enumerate(truth):
            if seat == me:
                continue
            for c in held - played:
                mass = sum(w for w, h in zip(weights, hands, strict=True) if c in h[seat])
                shares.append(mass / total)
        out[f] = sum(shares) / len(shares)
    return out


def measure(deal: TarabishDeal, view: dict[str, Any], rng: random.Random, worlds: int
            ) -> tuple[bool, dict[float, float]] | None:
    """For seat 0's decision in ``deal``: whether the real deal explains every other
    player's bid and card, and :func:`holder_shares` of ``worlds`` sampled worlds (None
    when the others hold no card)."""
    played = {c for t in deal.completed for _, c in t[1]} | {c for _, c in deal.trick}
    truth = [set(h) for h in deal.dealt]
    if not any(truth[s] - played for s in (1, 2, 3)):
        return None
    sampler = TarabishSampler(view, {}, rng)
    explained = sampler.unexplained([list(h) for h in deal.dealt]) == 0
    hands, surprises = [], []
    for _ in range(worlds):
        world = sampler.sample()
        assert isinstance(world, TarabishDeal)
        hands.append([set(h) for h in world.dealt])
        surprises.append(sampler.surprises)
    return explained, holder_shares(hands, surprises, truth, 0, played)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--seed", default="i1")
    args = parser.parse_args()
    info = GAMES["tarabish"]
    shares: dict[int, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
    explained = [0, 0]  # card plays of seat 0 whose real deal explains every bid / card
    for deal_no in range(1, args.deals + 1):
        deal = info.match_type(None, 4, deal_no % 4,
                               seed=f"{args.seed}:{deal_no}").start_deal()
        assert isinstance(deal, TarabishDeal)
        movers = [make_player("rules", seed=s) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            view = deal.view(seat)
            tricks = len(view["tricks"])
            if seat == 0 and view["phase"] == "play" and tricks >= 1 and len(legal) > 1:
                found = measure(deal, view, random.Random(f"{args.seed}:{deal_no}"),
                                args.worlds)
                if found is not None:
                    explained[0] += found[0]
                    explained[1] += 1
                    stage = next(i for i, (lo, hi) in enumerate(STAGES) if lo <= tricks <= hi)
                    for f, x in found[1].items():
                        shares[stage][f].append(x)
            deal.apply(seat, movers[seat].choose(view, legal))
    print(f"Real deal explains every bid and card: {explained[0]} of {explained[1]} "
          f"decisions ({explained[0] / explained[1]:.1%})\n")
    print("| tricks played | decisions | " + " | ".join(
        f"factor {f:g}" + (" (search)" if f == SURPRISE else "") for f in FACTORS) + " |")
    print("|---|---:|" + "---:|" * len(FACTORS))
    for i, (lo, hi) in enumerate(STAGES):
        row = shares[i]
        if not row:
            continue
        cells = " | ".join(f"{sum(row[f]) / len(row[f]):.3f}" for f in FACTORS)
        print(f"| {lo}–{hi} | {len(row[FACTORS[0]])} | {cells} |")


if __name__ == "__main__":
    main()
