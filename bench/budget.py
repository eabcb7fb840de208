"""Benchmark of the bot's REST budget: two processes against a fake Discord enforcing the
global limit.

    python bench/budget.py [--tables 500] [--web-share 0.8] [--seconds 60] [--think 5]
                           [--limit 50] [--budget 45]

Two real ``tricktable run`` processes (shards 0 and 1, ``TRICKTABLE_REST_BUDGET=--budget``,
each serving the web table) on one fresh PostgreSQL schema (``TRICKTABLE_PG_URL`` or the
tests' default), against the fake Discord run by this process, which answers every
request made with the bot's token beyond ``--limit`` in any second with a 429 with
``global: true`` (from the first table opened on: logging in is not play). ``--tables``
Turup tables of one simulated human and three ``rules`` AI players at the default AI pace
(1.5 s), images off, half on each shard; ``--web-share`` of the humans play on the web
page (a real socket to their table's process, the ``act`` frame), the others in their
hand DM (every DM click reaches shard 0's process; the clicks for shard 1's tables are
forwarded). A human chooses ``--think`` seconds (0.5 to 1.5 times) after their controls
came. Measured over ``--seconds`` of play after every table opened:

* **global 429s** Discord answered (the target: none), and the bot's counted requests per
  second: on average and in the busiest second;
* **the seat to act sees its controls**: for the DM players, from the action that made it
  their turn (its time in the action log) to the first request carrying their controls
  to their DM, p50 / p95 (target: p95 within 1 s);
* **table messages**: edits per second per table, and how far the processes slowed them
  (their log lines ``REST budget: table messages now …``);
* **forwarded clicks**: the counted edits of the DMs of shard 1's DM players made after
  a click on that DM, per forwarded click (the target: 0, the owner redraws through the
  click's token; a deal's DM before its first click is edited with the bot's token);
* the load average of the machine before and after (it is shared: say so).

Prints a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in ("tests/bot", "tests/multiprocess", "tests/helpers", "bench", "."):
    sys.path.insert(0, str(ROOT / extra))

import aiohttp  # noqa: E402
from fakediscord import FakeDiscord, Harness, SimulatedUser, counts_globally  # noqa: E402
from pgtest import Schemas  # noqa: E402
from shards import LONG_MATCH, Player, pct  # noqa: E402
from shardworld import ShardWorld, open_table  # noqa: E402

from bot.web import links  # noqa: E402
from storage import Store, open_store, upgrade  # noqa: E402

SECRET = "budget-bench-secret-of-at-least-32-characters"
PUBLIC = "http://tables.bench"
GUILD = {"ai_pace": 1.5, "images": False, "turn_timeout": 3600}
CONTROL = re.compile(r"^tt:[sa]:(\d+):(\d+):")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebPlayer:
    """One human on the web page: a socket to its table's process; plays each turn
    ``think`` seconds (0.5 to 1.5 times) after it came, with the ``act`` frame."""

    def __init__(self, port: int, table_id: int, user_id: int, rng: random.Random,
                 think: float) -> None:
        self.port, self.table_id, self.user_id = port, table_id, user_id
        self.rng, self.think = rng, think
        self.acts = 0

    async def play(self, http: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        key = links.issue(SECRET.encode(), self.table_id, self.user_id, "seat", time.time())
        ws = await http.ws_connect(f"http://127.0.0.1:{self.port}/ws", origin=PUBLIC)
        try:
            await ws.send_str(json.dumps({"v": 1, "type": "join", "key": key}))
            while not stop.is_set():
                msg = await ws.receive()
                if msg.type != aiohttp.WSMsgType.TEXT:
                    return
                frame = json.loads(msg.data)
                if frame.get("type") != "table" or not frame.get("your_turn"):
                    continue
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                choices = [c for c in frame["choices"] if "concede" not in json.dumps(c)]
                if not choices:
                    continue
                choice = self.rng.choice(choices)
                await ws.send_str(json.dumps({"v": 1, "type": "act",
                                              "version": frame["version"],
                                              "action": choice["action"]}))
                self.acts += 1
        finally:
            await ws.close()


def loadavg() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


def controls_shown(server: FakeDiscord, dm_channels: dict[str, int], since: float
                   ) -> dict[tuple[int, int], float]:
    """The first time (monotonic) each ``(table, version)``'s controls were sent to a DM
    player's DM (a new message, an edit, or an edit through a click's token)."""
    tokens = {i.token: str(i.channel.id) for i in server.interactions.values()}
    first: dict[tuple[int, int], float] = {}
    for r in server.requests:
        if r.time < since or r.status >= 300 or not isinstance(r.json, dict):
            continue
        channel = r.params.get("channel_id") or tokens.get(r.params.get("webhook_token", ""))
        if channel not in dm_channels:
            continue
        for row in r.json.get("components") or []:
            for c in row.get("components") or []:
                m = CONTROL.match(str(c.get("custom_id", "")))
                if m and int(m.group(1)) == dm_channels[channel]:
                    first.setdefault((int(m.group(1)), int(m.group(2))), r.time)
    return first


async def action_times(store: Store, table_id: int) -> dict[int, float]:
    """Each version's time (wall clock): the action that made it, from the log."""
    return {e.seq: e.created_at.timestamp() for e in await store.load_actions(table_id)}


async def run(tables: int, web_share: float, seconds: float, think: float, limit: int,
              budget: float, pg_url: str, tmp: Path) -> dict[str, Any]:
    await upgrade(pg_url)
    server = FakeDiscord(shard_count=2)
    await server.start()
    store = await open_store(pg_url)
    harness = Harness(server, timeout=120.0)
    harness.strict = False
    world = await ShardWorld.create(harness, pg_url, store, tmp,
                                    guilds_per_shard=-(-tables // 2))
    for guild in world.guilds:
        await store.update_guild_settings(guild.id, GUILD)
    ports = [free_port(), free_port()]
    load_before = loadavg()
    try:
        await world.sync_commands()
        for shard in (0, 1):
            await world.start(str(shard), timeout=120, TRICKTABLE_REST_BUDGET=str(budget),
                              TRICKTABLE_WEB_PORT=str(ports[shard]),
                              TRICKTABLE_WEB_HOST="127.0.0.1", TRICKTABLE_WEB_URL=PUBLIC,
                              TRICKTABLE_WEB_SECRET=SECRET)
        server.global_limit = limit
        on_web = round(web_share * tables)
        users: list[tuple[SimulatedUser, int]] = []
        for n in range(tables):
            shard, index = n % 2, n // 2
            users.append((world.user(f"p{n}", shard, index), shard))
        gate = asyncio.Semaphore(8)

        async def open_one(user: SimulatedUser) -> int:
            async with gate:
                return await open_table(world, user, options=LONG_MATCH)

        t0 = time.monotonic()
        ids = await asyncio.gather(*(open_one(u) for u, _ in users))
        opening = time.monotonic() - t0
        rng = random.Random(1)
        stop = asyncio.Event()
        web_players = [WebPlayer(ports[shard], t, u.user.id, random.Random(rng.random()),
                                 think)
                       for (u, shard), t in list(zip(users, ids, strict=True))[:on_web]]
        dm_players = [Player(world, u, t, shard == 0, random.Random(rng.random()), think)
                      for (u, shard), t in list(zip(users, ids, strict=True))[on_web:]]
        async with aiohttp.ClientSession() as http:
            tasks = [asyncio.create_task(p.play(http, stop)) for p in web_players]
            tasks += [asyncio.create_task(p.play(stop)) for p in dm_players]
            await asyncio.sleep(5)  # warm-up: every table in its first turns
            for p in dm_players:
                p.latencies.clear()
                p.turns.clear()
            began, seq = time.monotonic(), server.requests[-1].seq
            opening_429s = server.global_429s
            wall = time.time() - began  # monotonic → wall clock
            await asyncio.sleep(seconds)
            ended = time.monotonic()
            stop.set()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        elapsed = ended - began
        window = [r for r in server.requests if r.seq > seq and r.time <= ended]
        counted = [r for r in window if counts_globally(r) and r.status]
        busiest = 0
        times = sorted(r.time for r in counted if r.status != 429)
        lo = 0
        for hi, t in enumerate(times):
            while times[lo] <= t - 1.0:
                lo += 1
            busiest = max(busiest, hi - lo + 1)
        table_channels = {str(c.id) for c in world.channels}
        table_edits = [r for r in counted if r.method == "PATCH"
                       and r.params.get("channel_id") in table_channels]
        dm_tables = {str(server.dm_channel(p.user.user).id): p.table_id for p in dm_players}
        shown = controls_shown(server, dm_tables, began)
        waits: list[float] = []
        for p in dm_players:
            stored = await action_times(store, p.table_id)
            for (table, version), at in shown.items():
                if table == p.table_id and version in stored:
                    waits.append(max(0.0, at + wall - stored[version]))
        forwarded = [p for p in dm_players if not p.local]
        forwarded_dms = {str(server.dm_channel(p.user.user).id) for p in forwarded}
        clicked: dict[str, float] = {}  # a DM message → when it was first clicked
        for i in server.interactions.values():
            if i.source_message_id is not None and i.callback is not None:
                key = str(i.source_message_id)
                clicked[key] = min(clicked.get(key, i.callback.time), i.callback.time)
        forwarded_edits = [r for r in counted if r.method == "PATCH"
                           and r.params.get("channel_id") in forwarded_dms
                           and r.time > clicked.get(r.params.get("message_id", ""), r.time)]
        forwarded_clicks = sum(len(p.latencies) for p in forwarded)
        levels = {}
        for bot in world.processes:
            found = re.findall(r"REST budget: table messages now ([a-z ,]+) \(", bot.output())
            levels[bot.name] = found[-1] if found else "per card"
            levels[bot.name + " (furthest)"] = max(
                found, key=lambda x: ("per card", "per trick", "per deal",
                                      "per deal, panels waiting").index(x), default="per card")
        return {
            "tables": tables, "on_web": on_web, "seconds": elapsed, "opening_s": opening,
            "global_429s": server.global_429s - opening_429s, "opening_429s": opening_429s,
            "routes_429": sorted({f"{r.method} {r.route}" for r in server.requests
                                  if r.status == 429}),
            "counted_per_s": len(counted) / elapsed, "busiest": busiest,
            "per_table": len(counted) / elapsed / tables,
            "table_edits_per_table_s": len(table_edits) / elapsed / tables,
            "waits": waits, "forwarded_edits": len(forwarded_edits),
            "forwarded_clicks": forwarded_clicks, "levels": levels,
            "web_acts": sum(p.acts for p in web_players),
            "dm_clicks": sum(len(p.latencies) for p in dm_players),
            "warnings": [w for p in dm_players for w in p.warnings],
            "load_before": load_before, "load_after": loadavg(), "limit": limit,
            "budget": budget, "think": think,
        }
    finally:
        await world.close()
        await store.close()
        await server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--web-share", type=float, default=0.8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--budget", type=float, default=45.0)
    args = parser.parse_args()
    schemas = Schemas("ttbudget")
    url = os.environ.get("TRICKTABLE_PG_URL") or schemas.fresh_url()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            r = asyncio.run(run(args.tables, args.web_share, args.seconds, args.think,
                                args.limit, args.budget, url, Path(tmp)))
        finally:
            schemas.drop_all()
    waits = r["waits"]
    print(f"2 processes × {r['tables']} tables ({r['on_web']} played on the web), "
          f"{r['seconds']:.0f} s of play, humans think {r['think']:g} s; Discord's limit "
          f"{r['limit']}/s, the bot's budget {r['budget']:g}/s; tables opened in "
          f"{r['opening_s']:.0f} s; load average {r['load_before']} before, "
          f"{r['load_after']} after\n")
    print("| measure | value | target |")
    print("|---|---|---|")
    rows = [
        ("global 429s during play / while the tables opened",
         f"{r['global_429s']} / {r['opening_429s']}", "0"),
        ("… on", ", ".join(f"`{x}`" for x in r["routes_429"]) or "—", ""),
        ("counted requests per second: mean / busiest second",
         f"{r['counted_per_s']:.1f} / {r['busiest']}", f"≤ {r['limit']}"),
        ("counted requests per second per busy table", f"{r['per_table']:.4f}", ""),
        ("table message edits per second per table",
         f"{r['table_edits_per_table_s']:.4f}", ""),
        (f"DM player's controls after their turn came p50 / p95 (n={len(waits)})",
         f"{pct(waits, 0.5):.0f} / {pct(waits, 0.95):.0f} ms", "p95 ≤ 1000 ms"),
        ("counted DM edits per forwarded click",
         f"{r['forwarded_edits']} / {r['forwarded_clicks']}", "0"),
        ("human choices: on the web / in DMs", f"{r['web_acts']} / {r['dm_clicks']}", ""),
        ("DM clicks answered with a warning", str(len(r["warnings"])), "0"),
    ]
    rows += [(f"table messages ({name})", level, "")
             for name, level in sorted(r["levels"].items())]
    for name, value, target in rows:
        print(f"| {name} | {value} | {target or '—'} |")
    print(f"\n(total {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
