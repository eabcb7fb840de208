"""Engine speed: random full deals per second, per game, with and without the deal.

    python bench/engine.py [--seconds 2] [--games turup,arbaa_turub]

"Without the deal": a deal already shuffled and dealt is played to its end (bidding,
auction or trump call included) with uniformly random legal actions on the game's fast
core (``GameInfo.random_playout``, the routine search players use). "With the deal": the
shuffle and deal (``Match.start_deal``) are timed too. One process, one core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.registry import GAMES


def measure(game: str, seconds: float) -> tuple[float, float, int]:
    """Return (µs per deal without the deal, µs with it, deals measured)."""
    info = GAMES[game]
    rng = random.Random(1)
    # calibrate a batch size that takes about a tenth of the budget
    batch, total_play, total_deal, n = 200, 0.0, 0.0, 0
    seed = 0
    while total_play + total_deal < seconds:
        t0 = time.perf_counter()
        deals = []
        for _ in range(batch):
            seed += 1
            deals.append(info.match_type(None, None, seed % 4, seed=seed).start_deal())
        t1 = time.perf_counter()
        playout = info.random_playout
        for d in deals:
            playout(d, rng)
        t2 = time.perf_counter()
        total_deal += t1 - t0
        total_play += t2 - t1
        n += batch
    return total_play / n * 1e6, (total_play + total_deal) / n * 1e6, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    args = parser.parse_args()
    print("| game | deals/s (play only) | µs/deal (play only) | deals/s (with the deal) | "
          "µs/deal (with the deal) |")
    print("|---|---:|---:|---:|---:|")
    for game in args.games.split(","):
        play_us, all_us, _ = measure(game, args.seconds)
        print(f"| {GAMES[game].title} | {1e6 / play_us:,.0f} | {play_us:.1f} | "
              f"{1e6 / all_us:,.0f} | {all_us:.1f} |", flush=True)


if __name__ == "__main__":
    main()
