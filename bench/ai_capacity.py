"""How many tables of one human and three ``search`` players one bot process serves.

    python bench/ai_capacity.py [--tables 50,75,100,125,150,200,250,300] [--seconds 40]
                                [--think 4] [--workers 2] [--json FILE]

Every table is a match of one scripted human (seat 0: a random legal action, taken
``--think`` seconds after his turn comes, 4 s by default) and three ``search`` AI players
at the default budget, through the real table service (table lock, engine, durable
append to SQLite, events) with the bot's AI worker pool (:class:`bot.ai_pool.AIPool`, two
workers by default, its default overload limit) and AI pace 0 (each AI answers as soon
as it can: the worst case). Games are assigned round-robin over the five games; a table
whose match ends is replaced at once, so the number of tables stays constant.

For each table count of ``--tables`` (in increasing order) the tables are opened, given
5 s to reach their first turns, then measured for ``--seconds``:

* AI reply p50/p95: from the moment an AI seat's turn begins waiting to be served (for
  one of the service's AI slots, then for a worker) to the moment the move is chosen —
  all queueing included;
* event-loop lag p99: how late a 10 ms heartbeat task wakes up;
* AI moves per second, and the share of moves that fell back to ``rules`` because the
  pool was overloaded (:data:`bot.ai_pool.DEFAULT_MAX_WAIT_MS`).

A table count is *served* when the AI reply p95 is at most 1 s, the lag p99 at most
50 ms and at most 1% of AI moves fell back. The run stops at the first count that is not
served (so its length is bounded by the list); the last served count is the capacity.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import heartbeat, percentile
from bot.ai_pool import AIPool
from bot.service import NoSuchTable, Observer, Rejected, Seat, StaleAction, TableService
from bot.service.runtime import tune_gc
from storage import TerminalLocation, open_store

GAMES_PLAYED: list[tuple[str, int]] = [("turup", 4), ("tarabish", 4), ("arbaa_turub", 4),
                                       ("albastini", 4), ("truf", 4)]
HUMAN_ID = 50_000


class ReplyProbe:
    """The reply time of every AI decision, given by the service's observer
    (:class:`bot.service.Observer`: ``on_ai_choice``) while ``recording``."""

    def __init__(self) -> None:
        self.replies: list[float] = []
        self.recording = False

    def on_ai_choice(self, seconds: float) -> None:
        if self.recording:
            self.replies.append(seconds)


async def step(tables: int, seconds: float, think: float, pool: AIPool,
               tmp: Path) -> dict[str, Any]:
    """One table count: open, warm up, measure, close."""
    store = await open_store(f"sqlite:///{tmp / f'cap-{tables}.db'}?synchronous=normal")
    probe = ReplyProbe()
    service = TableService(store, ai_pool=pool,
                           observer=Observer(on_ai_choice=probe.on_ai_choice))
    stop = asyncio.Event()
    counter = 0
    rng = random.Random(tables)

    async def open_table(slot: int) -> int:
        nonlocal counter
        counter += 1
        game, players = GAMES_PLAYED[slot % len(GAMES_PLAYED)]
        seats = [Seat.human(HUMAN_ID + slot, f"H{slot}")] + [Seat.ai("search")
                                                             for _ in range(players - 1)]
        return await service.create_table(
            TerminalLocation(f"cap-{tables}-{counter}"), game, players=players,
            seed=f"cap-{tables}-{counter}", seats=seats, ai_pace=0, turn_timeout=0,
            start=True)

    async def human(slot: int) -> None:
        """Seat 0 of one table slot: plays ``think`` seconds after each turn comes."""
        table_id = await open_table(slot)
        sub = service.subscribe(table_id, 0)
        while not stop.is_set():
            if table_id not in service.table_ids() or \
                    service.info(table_id).status != "playing":
                sub.close()
                table_id = await open_table(slot)
                sub = service.subscribe(table_id, 0)
                continue
            info = service.info(table_id)
            if 0 in info.to_act:
                await asyncio.sleep(think)
                legal = [a for a in service.legal(table_id, 0) if a.type != "concede"]
                if legal:
                    with contextlib.suppress(StaleAction, Rejected, NoSuchTable):
                        await service.act(table_id, HUMAN_ID + slot, rng.choice(legal),
                                          info.version)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(sub.get(), 1.0)
            sub.drain()
        sub.close()

    humans = [asyncio.create_task(human(slot)) for slot in range(tables)]
    await asyncio.sleep(5.0)  # every table opened and at its first turns
    tune_gc()
    lags: list[float] = []
    beat = asyncio.create_task(heartbeat(lags, stop))
    fallbacks0 = pool.fallbacks
    probe.recording = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - t0
    probe.recording = False
    fallbacks = pool.fallbacks - fallbacks0
    stop.set()
    await beat
    for task in humans:
        task.cancel()
    await asyncio.gather(*humans, return_exceptions=True)
    await service.close()
    await store.close()
    moves = len(probe.replies)
    row = {
        "tables": tables,
        "seconds": round(elapsed, 1),
        "ai_moves": moves,
        "ai_moves_per_s": moves / elapsed,
        "reply_p50_ms": 1000 * percentile(probe.replies, 0.50),
        "reply_p95_ms": 1000 * percentile(probe.replies, 0.95),
        "reply_max_ms": 1000 * max(probe.replies, default=float("nan")),
        "lag_p99_ms": 1000 * percentile(lags, 0.99),
        "fallbacks": fallbacks,
        "fallback_share": fallbacks / moves if moves else 0.0,
    }
    row["served"] = bool(moves and row["reply_p95_ms"] <= 1000 and row["lag_p99_ms"] <= 50
                         and row["fallback_share"] <= 0.01)
    return row


async def run(counts: list[int], seconds: float, think: float,
              workers: int) -> list[dict[str, Any]]:
    rows = []
    print("| tables | AI moves/s | AI reply p50 / p95 / max | event-loop lag p99 | "
          "fell back to rules | served |\n|---:|---:|---|---:|---:|---|", flush=True)
    async with AIPool(workers) as pool:
        await pool.warm_up()
        with tempfile.TemporaryDirectory() as tmp:
            for tables in counts:
                r = await step(tables, seconds, think, pool, Path(tmp))
                rows.append(r)
                print(f"| {r['tables']} | {r['ai_moves_per_s']:.1f} | "
                      f"{r['reply_p50_ms']:.0f} / {r['reply_p95_ms']:.0f} / "
                      f"{r['reply_max_ms']:.0f} ms | {r['lag_p99_ms']:.1f} ms | "
                      f"{r['fallback_share'] * 100:.1f}% | "
                      f"{'yes' if r['served'] else 'no'} |", flush=True)
                if not r["served"]:
                    break
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="50,75,100,125,150,200,250,300",
                        help="table counts to try, increasing, comma-separated")
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="measured seconds per table count (default 40)")
    parser.add_argument("--think", type=float, default=4.0,
                        help="seconds the scripted human takes per decision (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="AI worker processes")
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    args = parser.parse_args()
    counts = sorted(int(x) for x in args.tables.split(",") if x.strip())
    rows = asyncio.run(run(counts, args.seconds, args.think, args.workers))
    served = [r["tables"] for r in rows if r["served"]]
    print(f"\ncapacity: {max(served) if served else 0} tables of one human and three "
          f"search players per process ({args.workers} AI workers)")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
