"""AI strength and move times, per game.

    python bench/ai.py [--boards 500] [--jobs 2] [--games turup,tarabish] [--quick]
                       [--json FILE] [--times-only | --strength-only]

**Strength.** For every game, the ``search`` player plays ``--boards`` duplicate deals
(default 500; each deal is played once per seating of the players, so 1000 plays for two
sides and 2000 for Truf's four seats) against ``random`` and against ``rules``:

* partnership games (Arba'a Turub, Turup, Tarabish, 4-player Albastini): one team of each
  level. The target figure is the **duplicate score**: on each deal the two levels' results
  over its two plays (each level held each side's cards once) are compared, 1 for the
  better, ½ each for a tie, as duplicate bridge scores its boards; this is the measure in
  which the luck of the cards cancels out (:mod:`bot.simulate`). Also shown: the share of
  single plays won outright (luck included; ties count for nobody), with their 95% Wilson
  intervals, and the mean score difference per deal (tricks, game points, hand score or
  card points) with its 95% interval over deals;
* Truf (four individuals): one ``search`` player and three of the other level, rotated
  over the four seats; the figure is each player's mean score per deal and rank.

To keep the whole bench within reasonable time on two cores, strength runs give the search
player a fixed number of sampled worlds per move instead of a time budget (listed in
:data:`SAMPLES`; typical moves then take 5-20 ms). This also makes the figures exactly
reproducible: the same seed gives the same deals and the same choices.

**Move time.** ``search`` with the default budget (200 ms) chooses a move in a sample of
positions per game taken from games between rule-based players (every position with a real
choice), plus the opening lead and the rest of the first trick of Arba'a Turub deals (36
cards in hand: the heaviest positions). One process, so one core; the p50/p95/max wall
times are reported (the p95 must stay under 250 ms).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.simulate import SimConfig, format_table, percentile, run
from games.actions import Action
from games.ai import Budget, make_player
from games.registry import GAMES

SAMPLES: dict[tuple[str, str], int] = {
    ("arbaa_turub", "random"): 8,
    ("arbaa_turub", "rules"): 24,
    ("turup", "random"): 64,
    ("turup", "rules"): 64,
    ("tarabish", "random"): 32,
    ("tarabish", "rules"): 32,
    ("truf", "random"): 24,
    ("truf", "rules"): 24,
    ("albastini", "random"): 32,
    ("albastini", "rules"): 32,
}
"""Sampled worlds per search move in the strength runs, by (game, opponent level)."""

TARGETS = {
    "random": "search's duplicate score at least 90% (Truf: best mean score)",
    "rules": "search's duplicate score at least 55% (Truf: higher mean score)",
}


def matchup(game: str, opponent: str) -> tuple[str, ...]:
    if game == "truf":
        return ("search", opponent, opponent, opponent)
    return ("search", opponent)


def strength(games: list[str], boards: int, jobs: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for game in games:
        for opponent in ("random", "rules"):
            cfg = SimConfig(game=game, levels=matchup(game, opponent), boards=boards,
                            players=4, seed=seed, jobs=jobs,
                            budget=Budget.samples(SAMPLES[(game, opponent)]))
            t0 = time.perf_counter()
            result = run(cfg)
            result["seconds"] = round(time.perf_counter() - t0, 1)
            result["target"] = TARGETS[opponent]
            result["met"] = target_met(result)
            print(format_table(result))
            print(f"target: {result['target']} -> {'met' if result['met'] else 'NOT met'} "
                  f"({result['seconds']} s)\n", flush=True)
            out.append(result)
    return out


def target_met(result: dict[str, Any]) -> bool:
    if result["game"] == "truf":
        return bool(result["rank"][0] == 1)
    need = 0.90 if result["players"][1] == "random" else 0.55
    return bool(result["duplicate_score"][0] >= need)


def positions(game: str, count: int, seed: int) -> list[tuple[dict[str, Any], list[Action]]]:
    """Positions with a real choice from games between rule-based players."""
    info = GAMES[game]
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], list[Action]]] = []
    deal_no = 0
    while len(out) < count:
        deal_no += 1
        deal = info.match_type(None, None, deal_no % 4, seed=f"{seed}:{deal_no}").start_deal()
        movers = [make_player("rules", seed=s) for s in range(deal.players)]
        while not deal.is_over and len(out) < count:
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            real = [a for a in legal if a.type != "concede"]
            if len(real) > 1 and rng.random() < 0.15:
                out.append((deal.view(seat), legal))
            deal.apply(seat, movers[seat].choose(deal.view(seat), legal))
    return out


def first_tricks(count: int, seed: int) -> list[tuple[dict[str, Any], list[Action]]]:
    """The four decisions of the first trick of Arba'a Turub deals (after the trump call)."""
    info = GAMES["arbaa_turub"]
    out = []
    for i in range(count):
        deal = info.match_type(None, None, i % 4, seed=f"first:{seed}:{i}").start_deal()
        rules = make_player("rules", seed=i)
        seat = deal.to_act[0]
        deal.apply(seat, rules.choose(deal.view(seat), deal.legal_actions(seat)))
        for _ in range(4):
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            out.append((deal.view(seat), legal))
            deal.apply(seat, rules.choose(deal.view(seat), legal))
    return out


def move_times(games: list[str], count: int, seed: int) -> list[dict[str, Any]]:
    out = []
    budget = Budget()  # the default: 200 ms
    for game in games:
        sets = [(game, positions(game, count, seed))]
        if game == "arbaa_turub":
            sets.append(("arbaa_turub first trick", first_tricks(max(1, count // 4), seed)))
        for label, pos in sets:
            player = make_player("search", seed=seed)
            ms: list[float] = []
            for view, legal in pos:
                t0 = time.perf_counter()
                player.choose(view, legal, budget)
                ms.append((time.perf_counter() - t0) * 1000)
            ms.sort()
            row = {"positions": label, "moves": len(ms), "p50": percentile(ms, 0.5),
                   "p95": percentile(ms, 0.95), "max": ms[-1]}
            print(f"| {label} | {len(ms)} | {row['p50']:.0f} | {row['p95']:.0f} | "
                  f"{row['max']:.0f} |", flush=True)
            out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=500,
                        help="duplicate deals per matchup (default 500)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--positions", type=int, default=40,
                        help="positions per game for move times (default 40)")
    parser.add_argument("--quick", action="store_true",
                        help="50 boards per matchup and 12 positions per game (a smoke run)")
    parser.add_argument("--strength-only", action="store_true")
    parser.add_argument("--times-only", action="store_true")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    boards = 50 if args.quick else args.boards
    count = 12 if args.quick else args.positions
    result: dict[str, Any] = {"boards": boards, "samples": {f"{g}/{o}": n for (g, o), n in
                                                            SAMPLES.items()}}
    if not args.times_only:
        print(f"## Strength: {boards} duplicate deals per matchup\n", flush=True)
        result["strength"] = strength(games, boards, args.jobs, args.seed)
    if not args.strength_only:
        print("## Move time at the default budget (200 ms), one core\n")
        print("| positions | moves | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|",
              flush=True)
        result["move_times"] = move_times(games, count, args.seed)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
