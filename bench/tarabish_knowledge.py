"""What knowing one hidden hand more is worth to ``search`` in Tarabish.

    python bench/tarabish_knowledge.py [--deals 500] [--seed 2024] [--jobs 2]
                                       [--shown none,partner,after,before,all]

``search`` plays ``rules`` on the duplicate deals of ``tricktable simulate tarabish
--players search,rules --deals N --seed S --budget-ms 0 --samples 32`` (the same deals,
the same 32 worlds per move), except that during the card play every world of a
``search`` player deals some of the other hands exactly as they are — for measurement
only; no player is ever shown a hand (:class:`~games.ai.tarabish.TarabishSampler`'s
``revealed``). The auction is the fitted call's in every row. Rows: ``none`` (plain
``search``), its partner's hand, the hand of the opponent who plays after it or of the
one who plays before it, and ``all`` three (every world is then the real deal: the card
play of ``oracle``, with the fitted call kept). Each row is a duplicate score against
``rules`` with its 95% interval and the points won per deal: the distance between the
rows is what the missing knowledge of each hand costs the search.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.simulate import SimConfig, run
from games.actions import Action
from games.ai import Budget, Player, SearchPlayer, make_player
from games.ai.adapter import GameAI, WorldSampler
from games.ai.players import ShownTheDeal
from games.ai.tarabish import TarabishSampler
from games.cards import card

SHOWN: dict[str, tuple[int, ...]] = {
    "none": (),
    "partner": (2,),
    "after": (1,),
    "before": (3,),
    "all": (1, 2, 3),
}
"""Each row's revealed seats, as offsets from the ``search`` player's own seat."""


class ShownHandsSearch(ShownTheDeal, SearchPlayer):
    """``search`` whose worlds deal the hands of the seats at ``offsets`` from its own as
    they really are (measurement only; :meth:`see` hands it the deal)."""

    def __init__(self, offsets: Sequence[int], seed: int | str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seed, options)
        self.offsets = tuple(offsets)

    def worlds(self, ai: GameAI, view: Mapping[str, Any], legal: Sequence[Action],
               options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        assert self._deal is not None, "the bench shows every decision's deal first"
        me = view["seat"]
        revealed = {(me + o) % 4: [card(c) for c in self._deal.view((me + o) % 4)["hand"]]
                    for o in self.offsets}
        return TarabishSampler(view, options, rng, revealed)


def make(offsets: Sequence[int], level: str, seed: int | str | None = None,
         options: Mapping[str, Any] | None = None) -> Player:
    """:func:`games.ai.make_player`, with ``search`` shown the hands at ``offsets``."""
    if level == "search":
        return ShownHandsSearch(offsets, seed, options)
    return make_player(level, seed, options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--shown", default=",".join(SHOWN),
                        help=f"rows, comma-separated, of: {', '.join(SHOWN)}")
    args = parser.parse_args()
    rows = args.shown.split(",")
    unknown = [r for r in rows if r not in SHOWN]
    if unknown:
        parser.error(f"unknown rows: {', '.join(unknown)} (one of {', '.join(SHOWN)})")
    print("| hands shown to `search`'s worlds | duplicate score against `rules` (95% CI) | "
          "points per deal (95% CI) | plays won |\n|---|---|---|---:|")
    for row in rows:
        cfg = SimConfig(game="tarabish", levels=("search", "rules"), boards=args.deals,
                        seed=args.seed, jobs=args.jobs, budget=Budget.samples(32),
                        make=partial(make, SHOWN[row]))
        out = run(cfg)
        lo, hi = out["duplicate_ci95"][0]
        dlo, dhi = out["mean_score_diff_ci95"]
        print(f"| {row} | {out['duplicate_score'][0]:.1%} ({lo:.1%}–{hi:.1%}) | "
              f"{out['mean_score_diff']:+.2f} ({dlo:+.2f} to {dhi:+.2f}) | "
              f"{out['win_rate'][0]:.1%} |", flush=True)


if __name__ == "__main__":
    main()
