"""AI strength and move times, per game.

    python bench/ai.py [--boards 500] [--jobs 2] [--games turup,tarabish] [--quick]
                       [--json FILE] [--times-only | --strength-only]
                       [--opponents random,rules,oracle]
    python bench/ai.py --curve [--boards 200] [--games ...] [--worlds 8,16,32] [--json FILE]

**Strength curve** (``--curve``). For every game, ``search`` with a fixed number of
worlds per move (:data:`CURVE_WORLDS`) plays ``--boards`` duplicate deals against
``rules``; the table gives the duplicate score with its 95% interval, the mean worlds a
move really used (the stop rule ends many searches early) and the move times. The
default world counts (:data:`games.ai.players.DEFAULT_WORLDS`) were chosen from it: the
smallest count past which more worlds gained nothing measurable, within 50 ms p95.

**Strength.** For every game, the ``search`` player plays ``--boards`` duplicate deals
(default 500; each deal is played once per seating of the players, so 1000 plays for two
sides and 2000 for Truf's four seats) against each level of ``--opponents`` (default
``random`` and ``rules``):

* partnership games (Arba'a Turub, Turup, Tarabish, 4-player Albastini): one team of each
  level. The target figure is the **duplicate score**: on each deal the two levels' results
  over its two plays (each level held each side's cards once) are compared, 1 for the
  better, ½ each for a tie, as duplicate bridge scores its boards; this is the measure in
  which the luck of the cards cancels out (:mod:`bot.simulate`). Also shown: the share of
  single plays won outright (luck included; ties count for nobody), with their 95% Wilson
  intervals, and the mean score difference per deal (tricks, game points, hand score or
  card points) with its 95% interval over deals;
* Truf (four individuals): one ``search`` player and three of the other level, rotated
  over the four seats, in whole games of 13 deals (``--boards`` deals make
  ``ceil(boards / 13)`` games, each played once per seat of the ``search`` player), since
  ``search`` learns from a game's earlier deals how the others bid; the figures are each
  player's mean score per deal (a game's total over its 13 deals, interval over games) and
  rank, and the duplicate score over games.

Strength runs give the search player its game's default number of worlds per move
(:data:`games.ai.players.DEFAULT_WORLDS`, what the default budget uses) without the time
limit, so the figures are exactly reproducible (the same seed gives the same deals and
choices) and do not depend on how busy the machine is. ``oracle`` (``--opponents``) is
the search player shown every hand: how far ``search`` is from the ceiling.

**Move time** (:func:`move_times`). ``search`` chooses a move in a sample of positions
per game taken from games between four rule-based players (every position with a real
choice), plus the opening lead and the rest of the first trick of Arba'a Turub deals (36
cards in hand: the heaviest positions). One process, so one core; reported: the mean
worlds a move used, the CPU time per move with the default worlds (the cost on a core of
its own: the p95 must stay under 50 ms) and the wall time with the default budget (the
default worlds, at most 50 ms).
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
from games.ai import Budget, SearchPlayer, make_player
from games.ai.players import DEFAULT_WORLDS
from games.registry import GAMES

CURVE_WORLDS: dict[str, tuple[int, ...]] = {
    "arbaa_turub": (8, 16, 24, 32),
    "turup": (4, 8, 16, 32, 64, 128),
    "tarabish": (4, 8, 16, 32, 64),
    "truf": (4, 8, 16, 24, 32),
    "albastini": (4, 8, 16, 32, 64),
}
"""Worlds per move tried by the strength curve, per game."""

TARGETS = {
    "random": "search's duplicate score at least 90% (Truf: best mean score)",
    "rules": "search's duplicate score at least 55% (Truf: higher mean score)",
    "oracle": "none: the distance to the ceiling",
}


TRUF_DEALS = 13
"""Deals in a game of Truf (its default ``deals`` option)."""


def matchup(game: str, opponent: str) -> tuple[str, ...]:
    if game == "truf":
        return ("search", opponent, opponent, opponent)
    return ("search", opponent)


def sim_config(game: str, opponent: str, boards: int, jobs: int, seed: int,
               worlds: int) -> SimConfig:
    """``search`` with ``worlds`` per move against ``opponent`` over ``boards`` deals: single
    deals, or for Truf whole games holding at least that many deals."""
    truf = game == "truf"
    return SimConfig(game=game, levels=matchup(game, opponent),
                     boards=-(-boards // TRUF_DEALS) if truf else boards,
                     players=4, seed=seed, jobs=jobs, matches=truf,
                     budget=Budget.samples(worlds))


def per_deal(result: dict[str, Any]) -> dict[str, Any]:
    """Truf: the mean scores and their intervals per deal instead of per game (the games are
    all :data:`TRUF_DEALS` deals long); other games unchanged."""
    if result["mode"] != "matches":
        return result
    out = dict(result)
    for key in ("mean_score", "mean_score_diff"):
        out[key] = [x / TRUF_DEALS for x in result[key]]
    out["mean_score_ci95"] = [[lo / TRUF_DEALS, hi / TRUF_DEALS]
                              for lo, hi in result["mean_score_ci95"]]
    out["scores_per"] = "deal"
    return out


def truf_line(result: dict[str, Any]) -> str:
    """Truf's summary: ``search``'s mean score per deal against the others' and how far
    ahead of the best of them it is."""
    means = result["mean_score"]
    lo, hi = result["mean_score_ci95"][0]
    others = ", ".join(f"{m:+.2f}" for m in means[1:])
    lead = means[0] - max(means[1:])
    dlo, dhi = result["duplicate_ci95"][0]
    return (f"Truf per deal: search {means[0]:+.2f} ({lo:+.2f} to {hi:+.2f}) against {others}"
            f" — {lead:+.2f} ahead of the best of them; duplicate score over "
            f"{result['matches']} games {result['duplicate_score'][0] * 100:.1f}% "
            f"({dlo * 100:.1f}–{dhi * 100:.1f})")


def strength(games: list[str], boards: int, jobs: int, seed: int,
             opponents: list[str]) -> list[dict[str, Any]]:
    out = []
    for game in games:
        for opponent in opponents:
            cfg = sim_config(game, opponent, boards, jobs, seed, DEFAULT_WORLDS[game])
            t0 = time.perf_counter()
            result = per_deal(run(cfg))
            result["seconds"] = round(time.perf_counter() - t0, 1)
            result["target"] = TARGETS[opponent]
            result["met"] = target_met(result)
            print(format_table(result))
            if game == "truf":
                print(truf_line(result))
            print(f"target: {result['target']} -> {'met' if result['met'] else 'NOT met'} "
                  f"({result['seconds']} s)\n", flush=True)
            out.append(result)
    return out


def target_met(result: dict[str, Any]) -> bool:
    opponent = result["players"][1]
    if opponent == "oracle":
        return True
    if result["game"] == "truf":
        return bool(result["rank"][0] == 1)
    need = 0.90 if opponent == "random" else 0.55
    return bool(result["duplicate_score"][0] >= need)


def curve(games: list[str], boards: int, jobs: int, seed: int,
          worlds_list: tuple[int, ...] | None = None) -> list[dict[str, Any]]:
    """Duplicate score against ``rules`` by worlds per move (the strength curve), at
    :data:`CURVE_WORLDS` or the given ``worlds_list``."""
    out = []
    print("| game | worlds per move | mean worlds used | duplicate score | 95% CI | "
          "mean score difference | move p50 / p95 ms | seconds |\n"
          "|---|---:|---:|---:|---|---:|---|---:|", flush=True)
    for game in games:
        for worlds in worlds_list or CURVE_WORLDS[game]:
            cfg = sim_config(game, "rules", boards, jobs, seed, worlds)
            t0 = time.perf_counter()
            result = per_deal(run(cfg))
            seconds = time.perf_counter() - t0
            used = mean_worlds(game, worlds, seed)
            lo, hi = result["duplicate_ci95"][0]
            t = result["move_ms_by_level"].get("search", {"p50": 0.0, "p95": 0.0})
            diff = result["mean_score_diff"]
            diff = diff[0] if isinstance(diff, list) else diff  # Truf: search's own
            row = {"game": game, "worlds": worlds, "mean_worlds": used,
                   "duplicate_score": result["duplicate_score"][0], "ci95": [lo, hi],
                   "mean_score_diff": diff, "p50": t["p50"],
                   "p95": t["p95"], "boards": boards, "seconds": round(seconds, 1)}
            print(f"| {game} | {worlds} | {used:.1f} | "
                  f"{row['duplicate_score'] * 100:.1f}% | {lo * 100:.1f}–{hi * 100:.1f} | "
                  f"{diff:+.2f} | {t['p50']:.1f} / {t['p95']:.1f} | {seconds:.0f} |",
                  flush=True)
            out.append(row)
    return out


def mean_worlds(game: str, cap: int, seed: int, count: int = 40) -> float:
    """Mean worlds a search move with at most ``cap`` worlds really samples (the stop
    rule ends a search early once the rules choice is safe)."""
    player = make_player("search", seed=seed)
    assert isinstance(player, SearchPlayer)
    used = []
    for view, legal in positions(game, count, seed):
        player.choose(view, legal, Budget.samples(cap))
        used.append(player.last_samples)
    return sum(used) / len(used)


def positions(game: str, count: int, seed: int) -> list[tuple[dict[str, Any], list[Action]]]:
    """Positions with a real choice from games between four rule-based players (the
    player count of the strength runs)."""
    info = GAMES[game]
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], list[Action]]] = []
    deal_no = 0
    while len(out) < count:
        deal_no += 1
        deal = info.match_type(None, 4, deal_no % 4, seed=f"{seed}:{deal_no}").start_deal()
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
    """Move times of ``search`` at the default budget, two ways: the wall time with the
    default budget itself (its 50 ms ceiling cuts a search short when the machine is
    busy), and the CPU time of this process with the default worlds and no time limit:
    what a move costs on one core of its own, however busy the machine is."""
    out = []
    budget = Budget()  # the default: the game's default worlds, at most 50 ms
    for game in games:
        sets = [(game, positions(game, count, seed))]
        if game == "arbaa_turub":
            sets.append(("arbaa_turub first trick", first_tricks(max(1, count // 4), seed)))
        full = Budget.samples(DEFAULT_WORLDS[game])
        for label, pos in sets:
            player = make_player("search", seed=seed)
            assert isinstance(player, SearchPlayer)
            ms: list[float] = []
            cpu: list[float] = []
            worlds = 0
            for view, legal in pos:
                t0 = time.perf_counter()
                player.choose(view, legal, budget)
                ms.append((time.perf_counter() - t0) * 1000)
                c0 = time.process_time()
                player.choose(view, legal, full)
                cpu.append((time.process_time() - c0) * 1000)
                worlds += player.last_samples
            ms.sort()
            cpu.sort()
            row = {"positions": label, "moves": len(ms), "p50": percentile(ms, 0.5),
                   "p95": percentile(ms, 0.95), "max": ms[-1],
                   "cpu_p50": percentile(cpu, 0.5), "cpu_p95": percentile(cpu, 0.95),
                   "cpu_max": cpu[-1], "mean_worlds": worlds / len(ms)}
            print(f"| {label} | {len(ms)} | {row['mean_worlds']:.1f} | "
                  f"{row['cpu_p50']:.1f} / {row['cpu_p95']:.1f} / {row['cpu_max']:.1f} | "
                  f"{row['p50']:.1f} / {row['p95']:.1f} / {row['max']:.1f} |", flush=True)
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
    parser.add_argument("--opponents", default="random,rules",
                        help="levels search plays against (random, rules, oracle)")
    parser.add_argument("--curve", action="store_true",
                        help="the strength curve against rules by worlds per move")
    parser.add_argument("--worlds", default=None,
                        help="with --curve: these worlds per move (comma-separated) "
                             "instead of the game's list")
    parser.add_argument("--strength-only", action="store_true")
    parser.add_argument("--times-only", action="store_true")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    boards = 50 if args.quick else args.boards
    count = 12 if args.quick else args.positions
    result: dict[str, Any] = {"boards": boards, "worlds": dict(DEFAULT_WORLDS)}
    if args.curve:
        print(f"## Strength curve against rules: {boards} duplicate deals per point\n",
              flush=True)
        points = tuple(int(x) for x in args.worlds.split(",")) if args.worlds else None
        result["curve"] = curve(games, boards, args.jobs, args.seed, points)
    elif not args.times_only:
        print(f"## Strength: {boards} duplicate deals per matchup\n", flush=True)
        opponents = [o for o in args.opponents.split(",") if o]
        result["strength"] = strength(games, boards, args.jobs, args.seed, opponents)
    if not args.strength_only and not args.curve:
        print("## Move time at the default budget (default worlds, at most 50 ms), one core\n")
        print("| positions | moves | mean worlds used | CPU ms, default worlds: p50 / p95 / "
              "max | wall ms, default budget: p50 / p95 / max |\n|---|---:|---:|---|---|",
              flush=True)
        result["move_times"] = move_times(games, count, args.seed)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
