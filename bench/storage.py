"""Storage benchmark: append latency and throughput, and recovery time, per backend.

    python bench/storage.py [--backend sqlite|postgres|both] [--postgres-url URL]

Durability is left on, as in production: SQLite in WAL mode with synchronous=FULL (every
commit fsynced), PostgreSQL with the server's settings (synchronous_commit is reported).
Measured:

* append latency p50/p99 and appends/s of one coroutine appending to one table;
* appends/s (and p99) of 50 tables appending concurrently on one store;
* recovery: ``load_unfinished_tables()`` over 1,000 unfinished tables of 100 actions each.

SQLite runs on a file in a temporary directory; PostgreSQL in a throw-away schema
(``tt_bench_<random>``, dropped at the end) of ``--postgres-url`` (default: the
``TEST_DATABASE_URL`` environment variable, else postgresql://postgres@127.0.0.1:5432/test).
Prints a markdown table. Targets (SQLite): append p99 ≤ 5 ms, recovery ≤ 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]

# This file is named like the package it measures: make ``import storage`` find the package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or os.curdir).resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from storage import ChannelLocation, SqlStore, open_store  # noqa: E402
from storage.sqlite import SqliteDatabase  # noqa: E402

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
SEQUENTIAL_APPENDS = 2000
FLOOR_COMMITS = 500
CONCURRENT_TABLES = 50
CONCURRENT_APPENDS = 40  # per table
RECOVERY_TABLES = 1000
RECOVERY_ACTIONS = 100
TARGET_P99_MS = 5.0
TARGET_RECOVERY_S = 2.0

# A realistic action: a card play with a little context.
ACTION = {"type": "play", "seat": 2, "card": "QH", "trick": 5, "at": "2025-01-01T20:00:00Z"}


@dataclass
class Result:
    backend: str
    durability: str
    floor_p50_ms: float
    floor_p99_ms: float
    p50_ms: float
    p99_ms: float
    sequential_rate: float
    concurrent_rate: float
    concurrent_p99_ms: float
    seed_s: float
    recovery_s: float


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def sqlite_floor(path: Path) -> list[float]:
    """Commit latencies of the bare sqlite3 module (same pragmas, one INSERT per commit, no
    asyncio): what the disk allows, to tell store overhead from machine noise."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
        connection.execute("CREATE TABLE floor (n INTEGER PRIMARY KEY, body TEXT)")
        latencies = []
        for n in range(FLOOR_COMMITS):
            t0 = time.perf_counter()
            connection.execute("INSERT INTO floor VALUES (?, ?)", (n, json.dumps(ACTION)))
            latencies.append(time.perf_counter() - t0)
        return latencies
    finally:
        connection.close()


async def postgres_floor(url: str, schema: str) -> list[float]:
    """Commit latencies of bare asyncpg (one INSERT per implicit transaction) in ``schema``
    (a logged table: temporary tables skip the WAL and would flatter the floor)."""
    connection = await asyncpg.connect(url, server_settings={"search_path": schema})
    try:
        await connection.execute("CREATE TABLE floor (n INTEGER PRIMARY KEY, body TEXT)")
        latencies = []
        for n in range(FLOOR_COMMITS):
            t0 = time.perf_counter()
            await connection.execute("INSERT INTO floor VALUES ($1, $2)", n, json.dumps(ACTION))
            latencies.append(time.perf_counter() - t0)
        return latencies
    finally:
        await connection.close()


async def measure(store: SqlStore, backend: str, durability: str, floor: list[float]) -> Result:
    # 1. One writer.
    table = await store.create_table(ChannelLocation(1, 1), "truf")
    latencies: list[float] = []
    started = time.perf_counter()
    for seq in range(1, SEQUENTIAL_APPENDS + 1):
        t0 = time.perf_counter()
        await store.append_action(table.id, seq, {**ACTION, "seq": seq})
        latencies.append(time.perf_counter() - t0)
    sequential_rate = SEQUENTIAL_APPENDS / (time.perf_counter() - started)

    # 2. Many tables at once.
    tables = [
        await store.create_table(ChannelLocation(2, c), "truf") for c in range(CONCURRENT_TABLES)
    ]
    concurrent: list[float] = []

    async def play(table_id: int) -> None:
        for seq in range(1, CONCURRENT_APPENDS + 1):
            t0 = time.perf_counter()
            await store.append_action(table_id, seq, {**ACTION, "seq": seq})
            concurrent.append(time.perf_counter() - t0)

    started = time.perf_counter()
    await asyncio.gather(*(play(t.id) for t in tables))
    concurrent_rate = len(concurrent) / (time.perf_counter() - started)
    for t in [table, *tables]:
        await store.update_table(t.id, status="finished")

    # 3. Recovery of 1,000 unfinished tables of 100 actions (seeded in batches of 100).
    started = time.perf_counter()
    batch = [dict(ACTION, seq=seq) for seq in range(1, RECOVERY_ACTIONS + 1)]
    semaphore = asyncio.Semaphore(8)

    async def seed(channel: int) -> None:
        async with semaphore:
            seeded = await store.create_table(
                ChannelLocation(3, channel), "truf", seats=[1, 2, 3, 4]
            )
            await store.append_actions(seeded.id, 1, batch)

    await asyncio.gather(*(seed(c) for c in range(RECOVERY_TABLES)))
    seed_s = time.perf_counter() - started
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        recovered = await store.load_unfinished_tables()
        timings.append(time.perf_counter() - started)
        assert len(recovered) == RECOVERY_TABLES
        assert all(len(r.actions) == RECOVERY_ACTIONS for r in recovered)

    return Result(
        backend=backend,
        durability=durability,
        floor_p50_ms=statistics.median(floor) * 1000,
        floor_p99_ms=percentile(floor, 0.99) * 1000,
        p50_ms=statistics.median(latencies) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        sequential_rate=sequential_rate,
        concurrent_rate=concurrent_rate,
        concurrent_p99_ms=percentile(concurrent, 0.99) * 1000,
        seed_s=seed_s,
        recovery_s=max(timings),  # the worst of three: a cold-ish start is what matters
    )


async def bench_sqlite() -> Result:
    with tempfile.TemporaryDirectory(prefix="tt-bench-") as directory:
        floor = sqlite_floor(Path(directory) / "floor.db")
        store = await open_store(f"sqlite:///{Path(directory) / 'bench.db'}")
        assert isinstance(store, SqlStore) and isinstance(store.database, SqliteDatabase)
        try:
            pragmas = await store.database.pragmas()
            synchronous = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[
                int(str(pragmas["synchronous"]))
            ]
            return await measure(
                store, "SQLite", f"{pragmas['journal_mode']}, synchronous={synchronous}", floor
            )
        finally:
            await store.close()


async def bench_postgres(url: str) -> Result:
    schema = f"tt_bench_{secrets.token_hex(4)}"
    separator = "&" if "?" in url else "?"
    store = await open_store(f"{url}{separator}schema={schema}")  # creates the schema
    assert isinstance(store, SqlStore)
    try:
        floor = await postgres_floor(url, schema)
        async with store.database.read() as connection:
            row = await connection.fetchrow(
                "SELECT current_setting('synchronous_commit') AS sc, current_setting('fsync') AS fs"
            )
        assert row is not None
        return await measure(
            store, "PostgreSQL", f"synchronous_commit={row['sc']}, fsync={row['fs']}", floor
        )
    finally:
        await store.close()
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        finally:
            await connection.close()


def report(results: list[Result]) -> str:
    size = f"{RECOVERY_TABLES}×{RECOVERY_ACTIONS}"
    lines = [
        "| backend | durability | bare commit p50 / p99 | append p50 / p99 "
        f"| appends/s, 1 writer | appends/s, {CONCURRENT_TABLES} tables "
        f"| p99, {CONCURRENT_TABLES} tables | seed {size} | recovery {size} |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(
            f"| {r.backend} | {r.durability} | {r.floor_p50_ms:.2f} / {r.floor_p99_ms:.2f} ms "
            f"| {r.p50_ms:.2f} / {r.p99_ms:.2f} ms | {r.sequential_rate:,.0f} "
            f"| {r.concurrent_rate:,.0f} | {r.concurrent_p99_ms:.1f} ms "
            f"| {r.seed_s:.2f} s | {r.recovery_s:.2f} s |"
        )
    lines += [
        "",
        "bare commit: one INSERT per commit through the bare driver with the same durability "
        "(what the disk and server allow); append: Store.append_action; "
        "recovery: worst of 3 runs of Store.load_unfinished_tables.",
    ]
    for r in results:
        if r.backend == "SQLite":
            p99 = "met" if r.p99_ms <= TARGET_P99_MS else "MISSED"
            recovery = "met" if r.recovery_s <= TARGET_RECOVERY_S else "MISSED"
            lines.append(
                f"SQLite targets: append p99 ≤ {TARGET_P99_MS:g} ms {p99}; "
                f"recovery ≤ {TARGET_RECOVERY_S:g} s {recovery}."
            )
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--backend", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--postgres-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    args = parser.parse_args(argv)
    results = []
    if args.backend in ("sqlite", "both"):
        results.append(await bench_sqlite())
    if args.backend in ("postgres", "both"):
        results.append(await bench_postgres(args.postgres_url))
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
