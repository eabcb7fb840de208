"""Engine speed: random deals per game, side by side with OpenSpiel, and table recovery.

    python bench/engine.py [--seconds 2] [--games turup,arbaa_turub] [--no-openspiel]

All figures are CPU time of this one process (``time.process_time``), uniformly random
legal play.

1. **Per game** — "play only": a deal already shuffled and dealt is played to its end
   (bidding, auction or trump call included) on the game's fast core
   (``GameInfo.random_playout``, the routine search players use). "With the deal": the
   shuffle and deal (``Match.start_deal``) are timed too.
2. **Against OpenSpiel** (when ``pyspiel`` is installed: ``pip install -e '.[bench]'``),
   in card plays per second, Turup and Arba'a Turub against OpenSpiel's spades:

   * *with the deal*: ``start_deal`` + ``random_playout`` against spades through
     OpenSpiel's Python API from a fresh state (its deal is 52 chance actions, then four
     bids and 52 plays, each chosen uniformly from ``legal_actions``);
   * *play alone*: ``random_playout`` of dealt deals against OpenSpiel's C++ random
     simulation (``pyspiel.evaluate_bots`` with uniform random bots, deal included);
   * *readable API*: ``legal_actions`` + ``apply`` (actions, events, checks: what the table
     service and records use) from ``start_deal`` on, against the same OpenSpiel Python
     API loop, in decisions per second (bids and plays for spades; trump calls, plays and
     kort decisions for Turup).

3. **Recovery**: a Turup table of 500 deals (about 16,000 actions) rebuilt from its log by
   the table service (``LiveTable.replay``, as on a restart), and checked equal to the
   table that played it.

**Before and after** on a shared machine::

    python bench/engine.py --against DIR [--pairs 20] [--seconds 1] [--games ...]

measures figure 1 for this checkout and for another one (``DIR``, e.g. ``git worktree add
/tmp/engine-base HEAD~3``) in two processes at the same time, ``--pairs`` times (which
starts first alternates), so both see the same load; it prints each side's median µs per
deal and the change. ``--root DIR`` measures another checkout's engine alone (``--json``:
one JSON object, what ``--against`` reads).

**Instructions per deal** (load-independent, for before and after)::

    python bench/engine.py --instructions [--against DIR] [--root DIR] [--deals 500] [--games ...]

counts the machine instructions of figure 1 with valgrind's callgrind (``valgrind`` must be
installed), which gives the same count whatever else the machine runs. For each game and
checkout it runs ``python bench/engine.py --root ROOT --deals N --warmup 20 --games GAME``
under ``valgrind --tool=callgrind`` three times (``PYTHONHASHSEED=0``), each after 20 deals
dealt and played (seeds 0 … 19: one-time costs such as caches and lazily built tables cancel
out): with ``--deals 0``, with ``--deals N --deal-only`` (the deals of seeds 20 … N+19) and
with ``--deals N`` (those deals, each played to its end by ``random_playout`` with
``random.Random(1)``). Per deal, "with the deal" is (I(N) − I(0)) / N and "play only" is
(I(N) − I(N, deal only)) / N.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the checkout whose engine is measured: --root's, else this one
sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
                       if "--root" in sys.argv else Path(__file__).resolve().parents[1]))

from games.base import Deal
from games.registry import GAMES

HERE = Path(__file__).resolve().parents[1]
"""This checkout."""

Clock = Callable[[], float]
clock: Clock = time.process_time


def _deals(game: str, count: int, start: int) -> list[Deal]:
    info = GAMES[game]
    return [info.match_type(None, None, s % 4, seed=s).start_deal()
            for s in range(start, start + count)]


def _plays(game: str, deal: Deal, result: Any) -> int:
    """Card plays of a deal finished by ``random_playout``."""
    if game == "arbaa_turub":
        return 144
    completed = getattr(deal, "completed", [])
    return len(completed) * deal.players


def measure(game: str, seconds: float) -> tuple[float, float, int]:
    """Return (µs per deal without the deal, µs with it, deals measured)."""
    info = GAMES[game]
    rng = random.Random(1)
    batch, total_play, total_deal, n = 200, 0.0, 0.0, 0
    seed = 0
    while total_play + total_deal < seconds:
        t0 = clock()
        deals = _deals(game, batch, seed)
        seed += batch
        t1 = clock()
        playout = info.random_playout
        for d in deals:
            playout(d, rng)
        t2 = clock()
        total_deal += t1 - t0
        total_play += t2 - t1
        n += batch
    return total_play / n * 1e6, (total_play + total_deal) / n * 1e6, n


def plays_per_second(game: str, seconds: float, with_deal: bool) -> float:
    """Card plays per CPU second of ``random_playout`` (and ``start_deal``)."""
    info = GAMES[game]
    rng = random.Random(2)
    plays, spent, seed = 0, 0.0, 10_000
    while spent < seconds:
        t0 = clock()
        deals = _deals(game, 100, seed)
        t1 = clock()
        results = [info.random_playout(d, rng) for d in deals]
        t2 = clock()
        seed += 100
        spent += (t2 - t0) if with_deal else (t2 - t1)
        plays += sum(_plays(game, d, r) for d, r in zip(deals, results, strict=True))
    return plays / spent


def readable_per_second(game: str, seconds: float) -> float:
    """Decisions per CPU second through ``legal_actions`` + ``apply``, deal included."""
    info = GAMES[game]
    rng = random.Random(3)
    rnd = rng.random
    acts, spent, seed = 0, 0.0, 20_000
    while spent < seconds:
        t0 = clock()
        for _ in range(50):
            seed += 1
            d = info.match_type(None, None, seed % 4, seed=seed).start_deal()
            while not d.is_over:
                seat = d.to_act[0]
                legal = d.legal_actions(seat)
                d.apply(seat, legal[int(rnd() * len(legal))])
                acts += 1
        spent += clock() - t0
    return acts / spent


# -- OpenSpiel ------------------------------------------------------------------------------
def openspiel_python(seconds: float) -> tuple[float, float]:
    """(card plays/s, decisions/s) of random spades through OpenSpiel's Python API."""
    import pyspiel

    game = pyspiel.load_game("spades")
    rng = random.Random(4)
    rnd = rng.random
    plays = decisions = 0
    spent = 0.0
    while spent < seconds:
        t0 = clock()
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rnd() * len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                action = legal[int(rnd() * len(legal))]
                state.apply_action(action)
                decisions += 1
                plays += action < 52
        spent += clock() - t0
    return plays / spent, decisions / spent


def openspiel_cpp(seconds: float) -> float:
    """Card plays/s of OpenSpiel's C++ random simulation of spades (``evaluate_bots``)."""
    import pyspiel

    game = pyspiel.load_game("spades")
    bots = [pyspiel.make_uniform_random_bot(p, 5 + p) for p in range(4)]
    games, spent, seed = 0, 0.0, 0
    while spent < seconds:
        t0 = clock()
        for _ in range(200):
            seed += 1
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        spent += clock() - t0
        games += 200
    return games * 52 / spent


# -- recovery -------------------------------------------------------------------------------
def recovery_seconds(deals: int = 500) -> tuple[float, int]:
    """CPU seconds to rebuild a Turup table of ``deals`` deals from its action log, and the
    number of actions; the rebuilt table must equal the one that played."""
    from bot.service.live import LiveTable, TableSettings
    from storage.models import ChannelLocation

    def table() -> LiveTable:
        return LiveTable(id=1, location=ChannelLocation(1, 2), game="turup",
                         options={"target": 1000}, players=4, seats=[None] * 4,
                         status="playing", settings=TableSettings(seed="bench"))

    played = table()
    played.begin()
    rng = random.Random(5)
    log: list[dict[str, Any]] = []
    while played.deal_index < deals:
        deal = played.deal
        assert deal is not None
        seat = deal.to_act[0]
        action = rng.choice(deal.legal_actions(seat))
        log.append(played.log_entry(seat, action, "ai"))
        played.advance(seat, action)
    best = float("inf")
    for _ in range(3):
        rebuilt = table()
        t0 = clock()
        rebuilt.replay(log)
        best = min(best, clock() - t0)
        assert rebuilt.version == played.version
        assert rebuilt.match is not None and played.match is not None
        assert rebuilt.match.summary() == played.match.summary()
    return best, len(log)


# -- fixed work, counted in instructions ----------------------------------------------------
def fixed_work(game: str, deals: int, play: bool, warmup: int = 0) -> None:
    """Deal and play ``warmup`` deals (seeds 0 … ``warmup`` − 1), then deal the next
    ``deals`` seeds and, with ``play``, play each to its end with ``random_playout`` (one
    ``random.Random(1)`` for all): the same work on every run, no clock."""
    info = GAMES[game]
    rng = random.Random(1)
    for seed in range(warmup + deals):
        deal = info.match_type(None, None, seed % 4, seed=seed).start_deal()
        if play or seed < warmup:
            info.random_playout(deal, rng)


WARMUP = 20
"""Deals played before the counted ones in every counted run (one-time costs cancel)."""


def counted_instructions(root: Path, game: str, deals: int, play: bool) -> int:
    """Instructions callgrind counts in a process running ``fixed_work`` on ``root``'s
    engine after :data:`WARMUP` deals (start-up, imports and warm-up included)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--root", str(root), "--games", game,
               "--deals", str(deals), "--warmup", str(WARMUP)]
    command += [] if play else ["--deal-only"]
    done = subprocess.run(command, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode or found is None:
        raise RuntimeError(f"no instruction count from callgrind:\n{done.stderr}")
    return int(found.group(1))


def instructions_per_deal(root: Path, game: str, deals: int) -> tuple[float, float]:
    """(instructions per deal play only, with the deal) of ``root``'s engine."""
    start = counted_instructions(root, game, 0, True)
    dealt = counted_instructions(root, game, deals, False)
    played = counted_instructions(root, game, deals, True)
    return (played - dealt) / deals, (played - start) / deals


def instructions(root: Path, against: Path | None, games: str, deals: int) -> None:
    """Print instructions per deal of ``root``'s engine (and ``against``'s, with the
    change)."""
    roots = ([against] if against is not None else []) + [root]
    if against is None:
        print("| game | instructions/deal, play only | instructions/deal, with the deal |")
        print("|---|---:|---:|")
    else:
        print(f"| game | instructions/deal, play only: {against.name} | this | change | "
              f"instructions/deal, with the deal: {against.name} | this | change |")
        print("|---|---:|---:|---:|---:|---:|---:|")
    for game in games.split(","):
        sides = [instructions_per_deal(root, game, deals) for root in roots]
        if against is None:
            cells = [f"{sides[0][k]:,.0f}" for k in (0, 1)]
        else:
            cells = [f"{sides[0][k]:,.0f} | {sides[1][k]:,.0f} | "
                     f"{sides[1][k] / sides[0][k] - 1:+.1%}" for k in (0, 1)]
        print(f"| {GAMES[game].title} | {' | '.join(cells)} |", flush=True)


# -- before and after -----------------------------------------------------------------------
def _measured(root: Path, games: str, seconds: float) -> subprocess.Popen[str]:
    """A process measuring ``root``'s engine (figure 1, ``--json``)."""
    return subprocess.Popen([sys.executable, __file__, "--root", str(root), "--games", games,
                             "--seconds", str(seconds), "--json"],
                            stdout=subprocess.PIPE, text=True)


def compare(against: Path, games: str, seconds: float, pairs: int) -> None:
    """Figure 1 for ``against`` and this checkout, measured side by side ``pairs`` times;
    print the medians and the change."""
    runs: dict[str, list[dict[str, list[float]]]] = {"old": [], "new": []}
    for i in range(pairs):
        order = [("old", against), ("new", HERE)]
        if i % 2:
            order.reverse()
        procs = [(side, _measured(root, games, seconds)) for side, root in order]
        for side, proc in procs:
            out, _ = proc.communicate()
            runs[side].append(json.loads(out))
    print(f"| game | µs/deal, play only: {against.name} | this | change | "
          f"µs/deal, with the deal: {against.name} | this | change |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game in games.split(","):
        cells = []
        for k in (0, 1):
            old = statistics.median(r[game][k] for r in runs["old"])
            new = statistics.median(r[game][k] for r in runs["new"])
            cells.append(f"{old:.1f} | {new:.1f} | {new / old - 1:+.0%}")
        print(f"| {GAMES[game].title} | {' | '.join(cells)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per figure")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--no-openspiel", action="store_true",
                        help="skip the comparison with OpenSpiel")
    parser.add_argument("--root", type=Path, help="measure another checkout's engine")
    parser.add_argument("--json", action="store_true",
                        help="figure 1 only, as {game: [µs play only, µs with the deal]}")
    parser.add_argument("--against", type=Path,
                        help="another checkout: figure 1 of both, measured side by side")
    parser.add_argument("--pairs", type=int, default=20, help="measurements per side")
    parser.add_argument("--deals", type=int,
                        help="fixed work: play exactly this many deals per game, no timing "
                             "(with --instructions: deals per count, default 500)")
    parser.add_argument("--deal-only", action="store_true",
                        help="with --deals: deal them without playing them")
    parser.add_argument("--warmup", type=int, default=0,
                        help="with --deals: deal and play this many deals first")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per deal with callgrind (with --against: "
                             "of both checkouts)")
    args = parser.parse_args()
    if args.instructions:
        instructions((args.root or HERE).resolve(),
                     None if args.against is None else args.against.resolve(), args.games,
                     args.deals or 500)
        return
    if args.deals is not None:
        for game in args.games.split(","):
            fixed_work(game, args.deals, not args.deal_only, args.warmup)
        return
    if args.json:
        print(json.dumps({g: measure(g, args.seconds)[:2] for g in args.games.split(",")}))
        return
    if args.against is not None:
        compare(args.against.resolve(), args.games, args.seconds, args.pairs)
        return
    print("| game | deals/s (play only) | µs/deal (play only) | deals/s (with the deal) | "
          "µs/deal (with the deal) |")
    print("|---|---:|---:|---:|---:|")
    for game in args.games.split(","):
        play_us, all_us, _ = measure(game, args.seconds)
        print(f"| {GAMES[game].title} | {1e6 / play_us:,.0f} | {play_us:.1f} | "
              f"{1e6 / all_us:,.0f} | {all_us:.1f} |", flush=True)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        pyspiel_missing = True
    else:
        pyspiel_missing = False
    print()
    if args.no_openspiel or pyspiel_missing:
        print("OpenSpiel comparison skipped (pip install -e '.[bench]' installs pyspiel)")
    else:
        os_plays, os_decisions = openspiel_python(args.seconds)
        os_cpp = openspiel_cpp(args.seconds)
        print("| measure | OpenSpiel spades | Turup | ratio | Arba'a Turub | ratio | "
              "target (Turup) |")
        print("|---|---:|---:|---:|---:|---:|---|")
        rows = [
            ("card plays/s with the deal (Python API)", os_plays,
             lambda g: plays_per_second(g, args.seconds, True), 1.3),
            ("card plays/s, play alone (C++ random simulation)", os_cpp,
             lambda g: plays_per_second(g, args.seconds, False), 1.0),
            ("decisions/s, readable API (Python API)", os_decisions,
             lambda g: readable_per_second(g, args.seconds), 0.5),
        ]
        for label, theirs, ours, target in rows:
            turup, arbaa = ours("turup"), ours("arbaa_turub")
            mark = "✔" if turup / theirs >= target else "✘"
            print(f"| {label} | {theirs:,.0f} | {turup:,.0f} | {turup / theirs:.2f}× | "
                  f"{arbaa:,.0f} | {arbaa / theirs:.2f}× | ≥ {target}× {mark} |", flush=True)
    print()
    spent, actions = recovery_seconds()
    mark = "✔" if spent <= 0.3 else "✘"
    print(f"recovery of a Turup table of 500 deals ({actions:,} actions): {spent:.3f} s "
          f"(target ≤ 0.3 s {mark})")


if __name__ == "__main__":
    main()
