"""Time to analyse one seat's deal (:func:`games.ai.analysis.analyse_deal`), per game.

    python bench/analysis.py [--games turup,tarabish,...] [--seats N]

For each game, the first deal of its example record (``examples/``) is analysed from each
of its first ``--seats`` seats (default: every seat) with the default worlds
(:data:`games.ai.analysis.ANALYSIS_WORLDS`) and seed 0; the CPU time of the process
(:func:`time.process_time`, so a busy machine lengthens the wall clock, not this) is
reported per seat: the mean and the slowest, with the decisions analysed. Targets
(issue 50): at most 5 s of one core for Turup, Tarabish, Truf and Albastini, 20 s for
Arba'a Turub. The load average is printed alongside.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from games.ai.analysis import ANALYSIS_WORLDS, analyse_deal
from games.records import open_match

ROOT = Path(__file__).resolve().parents[1]

EXAMPLES = {
    "turup": "turup-deal.json",
    "tarabish": "tarabish-hand.json",
    "truf": "truf-deal.json",
    "albastini": "albastini-4p-deal.json",
    "arbaa_turub": "arbaa-turub-deal.json",
}

TARGET_S = {"arbaa_turub": 20.0}
"""Seconds of one core per seat's deal (5 s for a game not listed)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(EXAMPLES))
    parser.add_argument("--seats", type=int, default=None)
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, "
          f"{os.cpu_count()} cores")
    print(f"{'game':<12} {'worlds':>6} {'seats':>5} {'decisions':>9} {'mean s':>7} "
          f"{'max s':>6} {'target s':>8}")
    for game in args.games.split(","):
        record = json.loads((ROOT / "examples" / EXAMPLES[game]).read_text())
        seats = open_match(record).players
        times: list[float] = []
        decisions = 0
        for seat in range(seats if args.seats is None else min(args.seats, seats)):
            t0 = time.process_time()
            a = analyse_deal(record, seat)
            times.append(time.process_time() - t0)
            decisions += len(a.decisions)
        print(f"{game:<12} {ANALYSIS_WORLDS[game]:>6} {len(times):>5} {decisions:>9} "
              f"{sum(times) / len(times):>7.2f} {max(times):>6.2f} "
              f"{TARGET_S.get(game, 5.0):>8.0f}")


if __name__ == "__main__":
    main()
