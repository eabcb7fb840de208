"""Benchmark of sharded bot processes: DM clicks forwarded between real processes.

    python bench/shards.py [--tables 200] [--processes 2] [--seconds 30]

``--processes`` real ``tricktable run`` processes (one shard each, ``TRICKTABLE_SHARD_IDS``)
against the fake Discord (run by this process, ``TRICKTABLE_DISCORD_API``) on one fresh
PostgreSQL schema (``TRICKTABLE_PG_URL`` or the tests' default). ``--tables`` Turup tables,
spread evenly over the shards' guilds (one table per guild), each with one simulated
human and three ``rules`` AI players, AI pace 0, images off, AI decisions in a thread.

Every human plays every turn in the hand DM, as a person does. Discord delivers every DM
click to shard 0: a click for a table of another shard is forwarded to its owner through
PostgreSQL (with 2 processes, half the tables). Measured over ``--seconds`` of play:

* **forwarded** and **local** click → next turn: what the player sees — from pushing the
  click on the gateway until the DM shows the next state they act on (their controls
  again after the other seats played, or the next deal's DM), p50 / p95 / mean;
* **forwarded** and **local** click → answer: until the clicked DM panel first shows
  anything new (the owner's edit through the interaction's token, or the update in the
  answer), p50 / p95;
* **actions per second**: every action stored (humans and AI) over the measured time.

Run it with ``--processes 2`` and ``3`` (same tables) to see what one more process adds.
The fake Discord and the simulated humans run in this process: on a small machine they
share the CPU with the bot processes (say so with the figures). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in ("tests/bot", "tests/multiprocess", "tests/helpers", "."):
    sys.path.insert(0, str(ROOT / extra))

from fakediscord import FakeDiscord, Harness, SimulatedUser  # noqa: E402
from fakediscord import payloads as P  # noqa: E402
from fakediscord.models import StoredMessage  # noqa: E402
from pgtest import Schemas  # noqa: E402
from shardworld import (  # noqa: E402
    ShardWorld,
    controls,
    dm_deals,
    moved_on,
    open_table,
    panel_version,
    snapshot,
    wait_turn,
)

from storage import Store, open_store, upgrade  # noqa: E402

LONG_MATCH = '{"target": 1000}'
"""Matches that outlast the measurement (a played-out table would stop clicking)."""


class Player:
    """One simulated human: plays every turn in the hand DM, timing each click."""

    def __init__(self, world: ShardWorld, user: SimulatedUser, table_id: int, local: bool,
                 rng: random.Random, think: float) -> None:
        self.world, self.user, self.table_id, self.local = world, user, table_id, local
        self.rng = rng
        self.think = think
        self.latencies: list[float] = []
        """Click → the clicked panel shows something new."""
        self.turns: list[float] = []
        """Click → the DM offers this player's next choice (what the player waits for)."""
        self.warnings: list[str] = []

    async def play(self, stop: asyncio.Event) -> None:
        server = self.world.server
        clicked: float | None = None  # when the last accepted click was pushed
        while not stop.is_set():
            deal = max(dm_deals(self.user), 1)
            try:
                panel = await wait_turn(self.world, self.user, deal, timeout=60)
            except AssertionError:
                return  # the match ended, or the bot stopped
            if panel is None:
                continue
            if clicked is not None and not stop.is_set():
                self.turns.append(time.monotonic() - clicked)
            clicked = None
            if self.think > 0:  # a person reads the panel before choosing
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                panel = server.message(panel.id)
                if panel_version(panel) is None:
                    continue
            before, dms = snapshot(panel), len(self.user.dms)
            record, started = await self.click(panel)

            def changed(clicked: StoredMessage = panel, shown: Any = before,
                        click: Any = record, dms: int = dms) -> bool:
                return moved_on(self.world, clicked, shown, dms, self.user) or bool(
                    self._followups(click))

            await server.wait_until(changed, timeout=30, what="the panel to change")
            if self._followups(record):
                self.warnings.extend(server.message(i).content for i in record.followup_ids)
            elif not stop.is_set():
                self.latencies.append(time.monotonic() - started)
                clicked = started

    @staticmethod
    def _followups(record: Any) -> list[int]:
        """The private follow-ups of a click (a refusal, or "not answering")."""
        return list(record.followup_ids)

    async def click(self, panel: StoredMessage) -> tuple[Any, float]:
        """Push one component interaction as the Discord client does; returns it and the
        time it was pushed."""
        server = self.world.server
        offered = [c for c in controls(panel) if "concede" not in c["custom_id"]]
        c = self.rng.choice(offered)
        values = None
        if c["type"] == 3:
            values = [self.rng.choice([o["value"] for o in c["options"]])]
            if c.get("min_values", 1) > 1:
                values = [o["value"] for o in c["options"]][: c["min_values"]]
        data = P.component_data(c["custom_id"], c["type"], values)
        record = server.new_interaction(
            interaction_type=P.MESSAGE_COMPONENT, data=data, user=self.user.user,
            channel=server.channels[panel.channel_id], message=panel,
            source_message_id=panel.id)
        started = time.monotonic()
        await server.push_interaction(record)
        return record, started


async def total_actions(store: Store, tables: list[int]) -> int:
    return sum([len(await store.load_actions(t)) for t in tables])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(tables: int, processes: int, seconds: float, pg_url: str, tmp: Path,
              think: float = 0.0) -> dict[str, Any]:
    await upgrade(pg_url)
    server = FakeDiscord(shard_count=processes)
    await server.start()
    store = await open_store(pg_url)
    harness = Harness(server, timeout=60.0)
    harness.strict = False
    per_shard = -(-tables // processes)
    world = await ShardWorld.create(harness, pg_url, store, tmp, guilds_per_shard=per_shard)
    try:
        await world.sync_commands()
        t0 = time.monotonic()
        for shard in range(processes):
            await world.start(str(shard), timeout=120)
        startup = time.monotonic() - t0
        users = []
        for n in range(tables):
            shard, index = n % processes, n // processes
            users.append((world.user(f"p{n}", shard, index), shard))
        gate = asyncio.Semaphore(8)

        async def open_one(user: SimulatedUser) -> int:
            async with gate:
                return await open_table(world, user, options=LONG_MATCH)

        t0 = time.monotonic()
        ids = await asyncio.gather(*(open_one(u) for u, _ in users))
        opening = time.monotonic() - t0
        rng = random.Random(1)
        players = [Player(world, u, t, shard == 0, random.Random(rng.random()), think)
                   for (u, shard), t in zip(users, ids, strict=True)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(p.play(stop)) for p in players]
        await asyncio.sleep(3)  # warm-up: every table in its first turns
        for p in players:
            p.latencies.clear()
            p.turns.clear()
        before = await total_actions(store, ids)
        t0 = time.monotonic()
        await asyncio.sleep(seconds)
        after = await total_actions(store, ids)
        elapsed = time.monotonic() - t0
        stop.set()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        local = [x for p in players if p.local for x in p.latencies]
        forwarded = [x for p in players if not p.local for x in p.latencies]
        local_turns = [x for p in players if p.local for x in p.turns]
        forwarded_turns = [x for p in players if not p.local for x in p.turns]
        return {
            "tables": tables, "processes": processes, "startup_s": startup,
            "opening_s": opening, "seconds": elapsed,
            "actions_per_s": (after - before) / elapsed,
            "local": local, "forwarded": forwarded,
            "local_turns": local_turns, "forwarded_turns": forwarded_turns,
            "clicks_per_s": (len(local) + len(forwarded)) / elapsed,
            "warnings": [w for p in players for w in p.warnings], "think": think,
        }
    finally:
        await world.close()
        await store.close()
        await server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean seconds a human takes to choose (0: at once)")
    args = parser.parse_args()
    schemas = Schemas("ttbench")
    url = os.environ.get("TRICKTABLE_PG_URL") or schemas.fresh_url()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = asyncio.run(run(args.tables, args.processes, args.seconds, url, Path(tmp),
                                args.think))
        finally:
            schemas.drop_all()
    print(f"{r['processes']} processes × {r['tables']} tables, {r['seconds']:.0f} s of play, "
          f"humans think {r['think']:.1f} s on average (start {r['startup_s']:.1f} s, "
          f"tables opened in {r['opening_s']:.1f} s)\n")
    print("| measure | value | target |")
    print("|---|---|---|")
    for name, values, target in (
            ("forwarded DM click → next turn", r["forwarded_turns"], "as local"),
            ("local DM click → next turn", r["local_turns"], ""),
            ("forwarded DM click → answer", r["forwarded"], "≤ 100 ms"),
            ("local DM click → answer", r["local"], "")):
        mean = statistics.mean(values) * 1000 if values else float("nan")
        print(f"| {name} p50 / p95 / mean (n={len(values)}) | {pct(values, 0.5):.0f} / "
              f"{pct(values, 0.95):.0f} / {mean:.0f} ms | {target or '—'} |")
    print(f"| actions per second (all seats) | {r['actions_per_s']:.0f} | |")
    print(f"| human clicks per second | {r['clicks_per_s']:.1f} | |")
    print(f"| clicks answered with a warning | {len(r['warnings'])} | 0 |")

    kinds: dict[str, int] = {}
    for text in r["warnings"]:
        kinds[text[:60]] = kinds.get(text[:60], 0) + 1
    for text, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {count} × {text}…")


if __name__ == "__main__":
    main()
