"""Benchmark of the Discord adapter: many tables in one process against the fake Discord.

    python bench/bot.py [--tables 200] [--seconds 40] [--pace 1.5] [--think 0]
                        [--web-share 0]

Two phases, each with ``--tables`` tables in their own channels of one guild, the real bot
(:func:`bot.app.create_bot`) on a fresh SQLite file, AI pace ``--pace`` (1.5 s, the guild
default), ``random`` AI players, images off:

1. **one simulated human and three AI players** per table (Turup): each human plays every
   turn as a person does — in the hand DM, which the bot turns into the live panel when
   the turn comes: the card in the panel's select, which plays it (no signal is given),
   ``--think`` seconds after the controls arrived (0: at once).
   With ``--web-share X`` (0 to 1) that share of the tables' humans plays on the web
   instead: the web table is bound to the bot, the player's page is open (its presence
   on the table, as the page's socket makes it) and they play through the table service
   as the page's ``act`` frame does, ``--think`` seconds after their turn came (the page's
   own traffic is not Discord's and is not measured here: ``bench/web.py``).
   Measured: time from pushing the interaction on the gateway to the bot's callback
   (p50/p95), taps per card, REST calls per played card and per card the human played,
   and **counted calls per second per busy table**: the REST calls that count against
   Discord's global limit of 50 requests per second per bot (those made with the bot's
   token: not the interaction callbacks nor the edits through an interaction's token)
   over the seconds of play, divided by the tables — for all of them, and for the
   tables played on the web and in Discord DMs apart — and the busy tables one token
   carries at that rate.
2. **all-AI tables** (Turup): REST calls per played card (table edits, results), and
   counted calls per second per table.

Calls are counted from the moment every table shows its message and every human has the
first deal's DM (setting tables up is not play). The bot's REST budget is set out of reach
(``rest_budget``): this measures what tables ask of Discord; ``bench/budget.py`` measures
the budget at work against a fake Discord enforcing the global limit. Memory per table is
the growth of the process's resident set over the tables opened (phase 1, after play),
divided by their number. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "helpers"))
sys.path.insert(0, str(ROOT))

from fakediscord import FakeDiscord, Harness, counts_globally, pointed_at  # noqa: E402
from fakediscord import payloads as P  # noqa: E402
from fakediscord.models import InteractionRecord, StoredMessage  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.discord_bot.tables.web_lobby import bind_web  # noqa: E402
from bot.service import Seat  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from bot.web.viewer import WebConfig  # noqa: E402
from storage.models import ChannelLocation  # noqa: E402


def rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


class Human:
    """One simulated player: plays its seat whenever it is to act."""

    def __init__(self, server: FakeDiscord, user: Any, channel: Any, table_id: int,
                 service: Any, seat: int, latencies: list[float], rng: random.Random,
                 think: float = 0.0) -> None:
        self.server, self.user, self.channel = server, user, channel
        self.table_id, self.service, self.seat = table_id, service, seat
        self.latencies, self.rng = latencies, rng
        self.think = think
        self.choices = 0
        self.kinds: dict[str, list[float]] = {}

    async def interact(self, message: StoredMessage, data: dict[str, Any]) -> InteractionRecord:
        record = self.server.new_interaction(
            interaction_type=P.MESSAGE_COMPONENT, data=data, user=self.user,
            channel=self.server.dm_channel(self.user) if message.guild_id is None
            else self.channel, message=message, source_message_id=message.id)
        start = time.monotonic()
        await self.server.push_interaction(record)
        while record.callback is None:
            await asyncio.sleep(0.005)  # the server notes the callback's arrival time
        self.latencies.append(record.callback.time - start)
        self.kinds.setdefault(data["custom_id"][3], []).append(record.callback.time - start)
        return record

    async def run(self, public_id: int, until: float) -> None:
        """Play whenever the seat is to act (told by a service subscription, as cheap as
        a person watching the table), on the hand DM once it shows the turn's controls,
        until ``until``."""
        sub = self.service.subscribe(self.table_id, self.seat)
        dm_channel = self.server.dm_channel(self.user)
        try:
            while time.monotonic() < until:
                try:
                    event = await asyncio.wait_for(sub.get(), until - time.monotonic())
                except TimeoutError:
                    return
                if event is None:
                    return
                latest = event
                for e in sub.drain():
                    latest = e
                if latest.type != "state" or not latest.data.get("legal"):
                    continue
                panel = await self.live_dm(dm_channel, latest.version, until)
                if panel is not None:
                    if self.think:
                        await asyncio.sleep(self.think)
                    await self.choose(panel)
        finally:
            sub.close()

    async def live_dm(self, channel: Any, version: int, until: float
                      ) -> StoredMessage | None:
        """The table's DM once it offers the controls of ``version``."""
        mark = f"table {self.table_id},"
        while time.monotonic() < until:
            for m in reversed(self.server.messages(channel)):
                if mark in m.content:
                    if any(c.split(":")[3] == str(version) for c in m.custom_ids()
                           if c.startswith(("tt:s:", "tt:a:"))):
                        return m
                    break
            await asyncio.sleep(0.005)
        return None

    async def choose(self, panel: StoredMessage) -> None:
        for _ in range(3):
            comps = [c for c in panel.walk_components()
                     if str(c.get("custom_id", "")).startswith(("tt:s:", "tt:a:"))
                     and "concede" not in c["custom_id"]]
            if not comps:
                return
            c = self.rng.choice(comps)
            if c["type"] == 3:
                value = self.rng.choice(c["options"])["value"]
                data = P.component_data(c["custom_id"], 3, [value])
            else:
                data = P.component_data(c["custom_id"], 2)
            rec = await self.interact(panel, data)
            self.choices += 1
            if rec.callback_type == 6:  # acknowledged first: the panel is edited after it
                for _ in range(2000):
                    if any(r.route and r.route.endswith("@original") for r in rec.requests):
                        break
                    await asyncio.sleep(0.005)
            panel = self.server.message(panel.id)
            if not any(x.startswith("tt:a:") and '"play"' in x for x in panel.custom_ids()) or \
                    any(x.startswith("tt:s:") for x in panel.custom_ids()):
                return  # not a signal choice: the card was played


class WebHuman:
    """One simulated player on the web page: plays its seat through the table service
    whenever it is to act, ``think`` seconds after the turn came (as the page's ``act``
    frame does: nothing of it goes to Discord)."""

    def __init__(self, service: Any, table_id: int, user_id: int, seat: int,
                 rng: random.Random, think: float) -> None:
        self.service, self.table_id, self.user_id, self.seat = service, table_id, user_id, seat
        self.rng, self.think = rng, think
        self.choices = 0

    async def run(self, public_id: int, until: float) -> None:
        sub = self.service.subscribe(self.table_id, self.seat)
        try:
            while time.monotonic() < until:
                try:
                    event = await asyncio.wait_for(sub.get(), until - time.monotonic())
                except TimeoutError:
                    return
                if event is None:
                    return
                latest = event
                for e in sub.drain():
                    latest = e
                if latest.type != "state" or not latest.data.get("legal"):
                    continue
                if self.think:
                    await asyncio.sleep(self.think)
                legal = [a for a in self.service.legal(self.table_id, self.seat)
                         if a.type != "concede"]
                if not legal:
                    continue
                with contextlib.suppress(Exception):  # stale: the next state tells
                    await self.service.act(self.table_id, self.user_id,
                                           self.rng.choice(legal), latest.version)
                    self.choices += 1
        finally:
            sub.close()


async def open_tables(bot: Any, harness: Harness, channels: list[Any], users: list[Any] | None
                      ) -> list[int]:
    ids = []
    guild_id = int(harness.guild.id)
    for i, channel in enumerate(channels):
        seats: list[Seat | None] = [Seat.ai("random") for _ in range(4)]
        if users is not None:
            seats[0] = Seat.human(users[i].id, users[i].username)
        ids.append(await bot.service.create_table(
            ChannelLocation(guild_id, int(channel.id)), "turup", seats=seats, start=True))
    return ids


async def wait_messages(bot: Any, ids: list[int]) -> dict[int, int]:
    hub = bot.hub
    for _ in range(3000):
        found = {t: p.message_id for t in ids
                 if (p := hub.presenters.get(t)) is not None and p.message_id}
        if len(found) == len(ids):
            return found
        await asyncio.sleep(0.01)
    raise RuntimeError("the table messages were not all posted")


async def wait_dms(server: FakeDiscord, users: list[Any], ids: list[int]) -> None:
    """(Only the tables' DM players: a player on the web gets no DM.)"""
    await _wait_dms(server, users, ids)


async def _wait_dms(server: FakeDiscord, users: list[Any], ids: list[int]) -> None:
    """Wait (at most 10 s, else fail) until every table's human has the first deal's DM,
    so that setting a table up (its message, the DM channel, the first deal's DM) is not
    counted as play. Turup's first DM goes out once the human holds cards (after eldest
    named trump)."""
    for _ in range(1000):
        if all(any(f"table {t}," in m.content for m in server.messages(server.dm_channel(u)))
               for u, t in zip(users, ids, strict=True)):
            return
        await asyncio.sleep(0.01)
    raise RuntimeError("the first deal's DMs were not all sent")


async def cards_played(bot: Any, ids: list[int], by: str | None = None) -> int:
    """Cards played at these tables (from their action logs: finished tables too); ``by``
    ``human``: only the humans' own plays."""
    total = 0
    for t in ids:
        for entry in await bot.store.load_actions(t):
            total += entry.action.get("action", {}).get("type") == "play" and (
                by is None or entry.action.get("by") == by)
    return total


def counted(calls: list[Any]) -> list[Any]:
    """The calls that count against Discord's global limit of 50 requests per second per
    bot: those made with the bot's token (the fake Discord's ``counts_globally``)."""
    return [r for r in calls if counts_globally(r)]


GLOBAL_LIMIT = 50
"""Discord's global limit of REST requests per second per bot (interactions excepted)."""


async def bench(tables: int, seconds: float, pace: float, think: float = 0.0,
                web_share: float = 0.0) -> list[tuple[str, str, str]]:
    server = FakeDiscord()
    await server.start()
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp, pointed_at(server):
        harness = Harness(server, timeout=30)
        harness.strict = False
        channels = [server.add_text_channel(harness.guild, f"t{i}") for i in range(2 * tables)]
        users = []
        for i in range(tables):
            u = server.add_user(f"p{i}")
            server.join(harness.guild, u)
            users.append(u)
        settings = Settings(token=server.token, database_url=f"sqlite:///{tmp}/bench.db?synchronous=normal",
                            ai_workers=0, edit_delay=0.2, edit_interval=1.0,
                            rest_budget=1e6)  # demand measured here: bench/budget.py
        bot = create_bot(settings)
        await harness.start_bot(bot)
        await bot.store.update_guild_settings(int(harness.guild.id),
                                              {"ai_pace": pace, "images": False,
                                               "turn_timeout": 3600})
        hub = bot.hub
        assert hub is not None, "the bot's table hub starts with the bot"
        hub.forget_guild_settings(int(harness.guild.id))
        web = WebServer(bot.service, WebConfig(secret=b"b" * 32),
                        public_url="https://tables.example")
        bind_web(bot, hub, web)  # the web table served: Open table, presence, links
        await asyncio.sleep(0.05)

        # -- phase 1: one human and three AI players per table --------------------------
        rss0 = rss_bytes()
        ids = await open_tables(bot, harness, channels[:tables], users)
        on_web = round(web_share * tables)  # the first tables' humans play on the web
        for i in range(on_web):
            web.presence.enter(ids[i], users[i].id)  # the page's socket is open
        messages = await wait_messages(bot, ids)
        await wait_dms(server, users[on_web:], ids[on_web:])
        for _ in range(3000):  # set-up: the web tables' messages drawn for the web once
            if all("Played on the web" in server.message(messages[t]).content
                   for t in ids[:on_web]):
                break
            await asyncio.sleep(0.01)
        else:
            raise RuntimeError("the web tables' messages were not drawn for the web")
        start_seq = server.requests[-1].seq
        latencies: list[float] = []
        rng = random.Random(1)
        humans: list[Any] = [
            WebHuman(bot.service, t, users[i].id, 0, random.Random(rng.random()), think)
            if i < on_web else
            Human(server, users[i], channels[i], t, bot.service, 0, latencies, rng, think)
            for i, t in enumerate(ids)]
        began = time.monotonic()
        until = began + seconds
        await asyncio.gather(*(h.run(messages[h.table_id], until) for h in humans))
        played_for = time.monotonic() - began
        by_kind: dict[str, list[float]] = {}
        for h in humans:
            for k, v in getattr(h, "kinds", {}).items():
                by_kind.setdefault(k, []).extend(v)
        played = await cards_played(bot, ids)
        by_human = await cards_played(bot, ids, "human")
        calls = [r for r in server.requests if r.seq > start_seq]
        bot_calls = counted(calls)
        per_table = len(bot_calls) / played_for / tables
        rss1 = rss_bytes()
        latencies.sort()
        p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
        p95 = latencies[int(0.95 * (len(latencies) - 1))] * 1000 if latencies else float("nan")
        web_channels = {str(channels[i].id) for i in range(on_web)} | {
            str(server.dm_channel(users[i]).id) for i in range(on_web)}
        web_calls = [r for r in bot_calls if r.params.get("channel_id") in web_channels]
        dm_tables = tables - on_web
        rows.append(("tables (1 human + 3 AI)", str(tables), ""))
        rows.append(("… of which played on the web (--web-share)",
                     f"{on_web} ({web_share:g})", ""))
        if on_web:
            per_web = len(web_calls) / played_for / on_web
            rows.append(("counted calls per second per busy table played on the web",
                         f"{per_web:.4f}", "≤ 0.02"))
        if dm_tables:
            per_dm = (len(bot_calls) - len(web_calls)) / played_for / dm_tables
            rows.append(("counted calls per second per busy table played in DMs",
                         f"{per_dm:.3f}", "≤ 0.3"))
        rows.append(("interactions answered", str(len(latencies)), ""))
        rows.append(("cards played", str(played), ""))
        rows.append(("interaction → response p50 / p95",
                     f"{p50:.1f} ms / {p95:.1f} ms", "p95 ≤ 50 ms"))
        names = {"h": "My hand click", "s": "card select", "a": "action button"}
        for k, v in sorted(by_kind.items()):
            v.sort()
            rows.append((f"… {names.get(k, k)} ({len(v)}) p50 / p95",
                         f"{v[len(v) // 2] * 1000:.1f} ms / "
                         f"{v[int(0.95 * (len(v) - 1))] * 1000:.1f} ms", ""))
        picks = len(by_kind.get("s", []))  # card menu picks (a signal menu is not used)
        rows.append(("taps per card a human played (DM panel, no signal)",
                     f"{picks / max(1, by_human):.2f}", "1.0"))
        rows.append(("REST calls per played card (bot's own, 1 human + 3 AI)",
                     f"{len(bot_calls) / max(1, played):.2f}", ""))
        rows.append(("counted calls per second per busy table (1 human + 3 AI; "
                     f"human thinks {think:g} s)", f"{per_table:.3f}", ""))
        rows.append((f"… busy tables one token carries ({GLOBAL_LIMIT} counted calls/s)",
                     f"{GLOBAL_LIMIT / per_table:.0f}" if per_table else "∞", ""))
        rows.append(("cards played per second per busy table",
                     f"{played / played_for / tables:.3f}", ""))
        rows.append(("REST calls per played card incl. interaction callbacks",
                     f"{len(calls) / max(1, played):.2f}", ""))
        rows.append(("REST calls per card a human played (incl. callbacks)",
                     f"{len(calls) / max(1, by_human):.2f}", "aim ≤ 3"))
        rows.append(("… of which the bot's own (DM panel and table edits, results)",
                     f"{len(bot_calls) / max(1, by_human):.2f}", ""))
        routes: dict[str, int] = {}
        for r in calls:
            routes[f"{r.method} {r.route}"] = routes.get(f"{r.method} {r.route}", 0) + 1
        for route, n in sorted(routes.items(), key=lambda x: -x[1])[:6]:
            rows.append((f"… `{route}` per human card", f"{n / max(1, by_human):.2f}", ""))
        edits = [r for r in calls
                 if f"{r.method} {r.route}" == "PATCH /channels/{channel_id}/messages/{message_id}"]
        dm_edits = sum(server.channels[int(r.params["channel_id"])].is_dm for r in edits)
        rows.append(("… message edits per human card: the DM / the table message",
                     f"{dm_edits / max(1, by_human):.2f} / "
                     f"{(len(edits) - dm_edits) / max(1, by_human):.2f}", ""))
        rows.append(("memory per table (RSS growth / tables)",
                     f"{(rss1 - rss0) / tables / 1e6:.2f} MB", "≤ 2 MB"))
        for t in ids:
            with contextlib.suppress(Exception):
                await bot.service.abandon(t)
        await asyncio.sleep(0.5)

        # -- phase 2: all-AI tables -------------------------------------------------------
        ai_ids = await open_tables(bot, harness, channels[tables:], None)
        await wait_messages(bot, ai_ids)
        seq = server.requests[-1].seq
        await asyncio.sleep(seconds)
        calls = [r for r in server.requests if r.seq > seq]
        played = await cards_played(bot, ai_ids)
        finished = 0
        for t in ai_ids:
            if t not in bot.service.table_ids():
                finished += 1
        rows.append(("all-AI tables / cards played / matches finished",
                     f"{tables} / {played} / {finished}", ""))
        rows.append(("REST calls per played card (all-AI)",
                     f"{len(calls) / max(1, played):.3f}", "≤ 0.5"))
        rows.append(("counted calls per second per all-AI table",
                     f"{len(counted(calls)) / seconds / tables:.3f}", ""))
        await harness.close()
    await server.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--pace", type=float, default=1.5,
                        help="AI pace in seconds (the guild default is 1.5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each human takes per choice once the controls show")
    parser.add_argument("--web-share", type=float, default=0.0,
                        help="share of the humans playing on the web (0 to 1)")
    args = parser.parse_args()
    if not 0.0 <= args.web_share <= 1.0:
        parser.error("--web-share is between 0 and 1")
    started = time.monotonic()
    rows = asyncio.run(bench(args.tables, args.seconds, args.pace, args.think,
                             args.web_share))
    print("| measure | value | target |")
    print("|---|---|---|")
    for name, value, target in rows:
        print(f"| {name} | {value} | {target} |")
    print(f"\n(total {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
