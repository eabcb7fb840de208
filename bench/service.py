"""Table service load: many concurrent AI-only tables in one process on SQLite.

    python bench/service.py [--tables 1000] [--seconds 60] [--level rules]
                            [--synchronous normal|full]

Every table is a full match of AI players (pace 0) through the real service: the table
lock, the engine, the durable append to the action log, the events to a spectator
subscription of every table. Games are assigned round-robin; a table whose match ends is
replaced at once, so the number of tables stays constant. Measured over the run, after
the tables are open:

* actions/s: actions accepted (and stored) per second, all tables together;
* action latency p50/p95: from the moment an AI's choice is submitted to the moment its
  events are published (lock, rules check, durable append, publish);
* event-loop lag p99: how late a 10 ms heartbeat task wakes up (a proxy for how long the
  loop was blocked);
* memory per table: growth of the process's resident memory after opening the tables
  (and at the end of the run), divided by the number of tables.

After opening the tables the benchmark calls :func:`bot.service.runtime.tune_gc`, as the
bot should after start-up (``--default-gc`` shows the collector's pauses without it).

Prints a markdown table. The database is a temporary SQLite file in WAL mode;
``--synchronous normal`` (the default here) skips the fsync of every commit, ``full``
keeps it (each append then waits for the disk).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import Observer, Seat, TableService
from bot.service.runtime import tune_gc
from games.registry import GAMES
from storage import TerminalLocation, open_store


def rss_bytes() -> int:
    """Resident memory of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Probe:
    """The latency of every accepted action, given by the service's observer
    (:class:`bot.service.Observer`: ``on_action``) while ``recording``."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.recording = False

    def on_action(self, seconds: float) -> None:
        if self.recording:
            self.latencies.append(seconds)


class GcTimer:
    """Durations of the garbage collector's full (generation 2) collections."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._start)


async def heartbeat(lags: list[float], stop: asyncio.Event, period: float = 0.01) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        t0 = loop.time()
        await asyncio.sleep(period)
        lags.append(max(0.0, loop.time() - t0 - period))


async def run(tables: int, seconds: float, level: str, synchronous: str,
              tuned_gc: bool = True) -> dict[str, Any]:
    games = [(name, info.player_counts[0]) for name, info in GAMES.items()]
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite:///{Path(tmp) / 'bench.db'}?synchronous={synchronous}")
        probe = Probe()
        service = TableService(store, observer=Observer(on_action=probe.on_action))
        watcher = service.watch()
        spectators = []
        slot_of: dict[int, int] = {}
        counter = 0

        async def open_table(slot: int, start: bool = True) -> int:
            nonlocal counter
            counter += 1
            game, players = games[slot % len(games)]
            table_id = await service.create_table(
                TerminalLocation(f"bench-{slot}"), game, players=players,
                seed=f"bench-{counter}", seats=[Seat.ai(level) for _ in range(players)],
                ai_pace=0, turn_timeout=0,
            )
            slot_of[table_id] = slot
            sub = service.subscribe(table_id)
            spectators.append(sub)
            if start:
                await service.start_match(table_id)
            return table_id

        rss0 = rss_bytes()
        t_open = time.perf_counter()
        lobbies = [await open_table(slot, start=False) for slot in range(tables)]
        await asyncio.gather(*(service.start_match(t) for t in lobbies))
        open_seconds = time.perf_counter() - t_open
        await asyncio.sleep(1.0)  # let every table reach its first AI turns
        rss1 = rss_bytes()
        if tuned_gc:
            tune_gc()
        finished = 0

        async def replace_finished() -> None:
            nonlocal finished
            async for event in watcher:
                if event.type == "match_over":
                    ended = [event.table_id]
                elif event.type == "resync":  # the watcher fell behind: re-read the tables
                    live = set(service.table_ids())
                    ended = [t for t in slot_of if t not in live]
                else:
                    continue
                for table_id in ended:
                    if table_id not in slot_of:
                        continue
                    finished += 1
                    for sub in [s for s in spectators if s.table_id == table_id]:
                        spectators.remove(sub)
                    await open_table(slot_of.pop(table_id))

        replacer = asyncio.create_task(replace_finished())

        async def drain() -> None:
            while True:
                for sub in list(spectators):
                    sub.drain()
                await asyncio.sleep(0.5)

        drainer = asyncio.create_task(drain())
        lags: list[float] = []
        gc_timer = GcTimer()
        gc.callbacks.append(gc_timer)
        stop = asyncio.Event()
        beat = asyncio.create_task(heartbeat(lags, stop))
        probe.recording = True
        done_before = finished
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        probe.recording = False
        actions = len(probe.latencies)
        stop.set()
        await beat
        gc.callbacks.remove(gc_timer)
        replacer.cancel()
        drainer.cancel()
        open_now = len(service.table_ids())
        rss2 = rss_bytes()
        await service.close()
        await store.close()
        return {
            "tables": tables,
            "open_now": open_now,
            "open_seconds": open_seconds,
            "seconds": elapsed,
            "actions": actions,
            "matches": finished - done_before,
            "actions_per_s": actions / elapsed,
            "lat_p50_ms": 1000 * percentile(probe.latencies, 0.50),
            "lat_p95_ms": 1000 * percentile(probe.latencies, 0.95),
            "lag_p99_ms": 1000 * percentile(lags, 0.99),
            "lag_max_ms": 1000 * max(lags, default=float("nan")),
            "lag_mean_ms": 1000 * (statistics.fmean(lags) if lags else float("nan")),
            "mem_per_table_kb": (rss1 - rss0) / tables / 1024,
            "mem_end_per_table_kb": (rss2 - rss0) / tables / 1024,
            "level": level,
            "synchronous": synchronous,
            "tuned_gc": tuned_gc,
            "gc_full": len(gc_timer.pauses),
            "gc_max_ms": 1000 * max(gc_timer.pauses, default=0.0),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--level", default="rules")
    parser.add_argument("--synchronous", choices=["normal", "full"], default="normal")
    parser.add_argument("--default-gc", action="store_true",
                        help="keep Python's default garbage collector settings")
    args = parser.parse_args()
    r = asyncio.run(run(args.tables, args.seconds, args.level, args.synchronous,
                        not args.default_gc))
    print(f"Table service: {r['tables']} concurrent AI-only tables ({r['level']} level, "
          f"pace 0), one process, SQLite synchronous={r['synchronous']}, "
          f"{r['seconds']:.0f} s measured (tables opened in {r['open_seconds']:.1f} s; "
          f"garbage collector {'tuned' if r['tuned_gc'] else 'default'}).")
    print()
    print("| measure | value | target |")
    print("|---|---|---|")
    print(f"| actions/s (all tables) | {r['actions_per_s']:.0f} | |")
    print(f"| actions measured | {r['actions']} | |")
    print(f"| matches finished (tables replaced) | {r['matches']} | |")
    print(f"| action latency p50 | {r['lat_p50_ms']:.1f} ms | |")
    print(f"| action latency p95 | {r['lat_p95_ms']:.1f} ms | |")
    print(f"| event-loop lag p99 | {r['lag_p99_ms']:.1f} ms | ≤ 50 ms |")
    print(f"| event-loop lag max | {r['lag_max_ms']:.1f} ms | |")
    print(f"| full GC collections (longest) | {r['gc_full']} ({r['gc_max_ms']:.0f} ms) | |")
    print(f"| memory per table, tables just opened | {r['mem_per_table_kb']:.0f} KB | ≤ 1 MB |")
    print(f"| memory per table, end of the run | {r['mem_end_per_table_kb']:.0f} KB | ≤ 1 MB |")
    print(f"| tables open at the end | {r['open_now']} | {r['tables']} |")


if __name__ == "__main__":
    main()
