"""Real ``tricktable run`` processes against the fake Discord, for the sharding tests and
``bench/shards.py``.

* :class:`ShardWorld`: a :class:`fakediscord.FakeDiscord` with two shards (run by the
  calling process, on its event loop), one guild and channel per shard, one PostgreSQL
  schema, and the bot processes started on them.
* :class:`BotProcess`: one ``tricktable run`` (the bot's own console entry point) with
  ``TRICKTABLE_DISCORD_API`` pointing it at the fake, ``TRICKTABLE_SHARD_COUNT=2`` and its
  ``TRICKTABLE_SHARD_IDS``; started, stopped (SIGINT, as Ctrl-C) or killed (SIGKILL).
* Play helpers read the hand DM as a person would: the newest DM of the deal, its select
  options and buttons; a "turn" is complete when the panel was redrawn.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, Harness, InteractionResult, SimulatedUser
from fakediscord.models import FakeChannel, FakeGuild, StoredMessage, snowflake_for_shard

from storage import Store

SHARDS = 2
CONTROL_PREFIXES = ("tt:s:", "tt:a:", "tt:m:")
ENTRY_POINT = Path(sys.executable).with_name("tricktable")
"""The bot's console script (``[project.scripts]``), next to the interpreter."""
GUILD_SETTINGS: dict[str, object] = {"ai_pace": 0.0, "images": False}


@dataclass
class BotProcess:
    """One ``tricktable run`` process (module docstring)."""

    name: str
    env: dict[str, str]
    log_path: Path
    proc: asyncio.subprocess.Process | None = None
    _log: Any = None

    async def start(self) -> None:
        self._log = open(self.log_path, "ab")  # noqa: SIM115 — closed in wait()
        self.proc = await asyncio.create_subprocess_exec(
            str(ENTRY_POINT), "run", env=self.env, stdout=self._log, stderr=self._log)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def kill(self) -> None:
        """SIGKILL: no cleanup at all (locks and connections die with the process)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)

    async def stop(self) -> int:
        """Ctrl-C (SIGINT: the bot closes cleanly); returns the exit status."""
        if self.running:
            assert self.proc is not None
            self.proc.send_signal(signal.SIGINT)
        return await self.wait()

    async def wait(self, timeout: float = 20.0) -> int:
        assert self.proc is not None
        try:
            async with asyncio.timeout(timeout):
                code = await self.proc.wait()
        except TimeoutError:
            self.proc.kill()
            code = await self.proc.wait()
        if self._log is not None:
            self._log.close()
            self._log = None
        return code

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


@dataclass
class ShardWorld:
    """The fake Discord, two guilds (one per shard), a store, and the bot processes."""

    harness: Harness
    db_url: str
    store: Store
    tmp: Path
    shards: int = SHARDS
    guilds: list[FakeGuild] = field(default_factory=list)
    channels: list[FakeChannel] = field(default_factory=list)
    processes: list[BotProcess] = field(default_factory=list)

    @property
    def server(self) -> FakeDiscord:
        return self.harness.server

    @staticmethod
    async def create(harness: Harness, db_url: str, store: Store, tmp: Path, *,
                     guilds_per_shard: int = 1) -> ShardWorld:
        """The guilds: ``guilds[n * shards + s]`` is the ``n``-th guild of shard ``s``."""
        world = ShardWorld(harness, db_url, store, tmp, harness.server.shard_count)
        await world.add_guilds(guilds_per_shard)
        return world

    async def add_guilds(self, per_shard: int) -> None:
        """``per_shard`` more guilds on each shard, each with a channel (before the
        processes start: a guild added later is not announced on the gateway)."""
        last = max((g.id for g in self.guilds), default=0)
        first = len(self.guilds) // self.shards
        for n in range(first, first + per_shard):
            for shard in range(self.shards):
                last = snowflake_for_shard(shard, self.shards, last)
                guild = self.server.add_guild(f"Club {shard}.{n}", guild_id=last)
                self.guilds.append(guild)
                self.channels.append(self.server.add_text_channel(guild, "cards"))
                await self.store.update_guild_settings(guild.id, GUILD_SETTINGS)

    def env(self, shard_ids: str, **extra: str) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items()
                if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH")}
        return {**keep, "DISCORD_TOKEN": self.server.token, "DATABASE_URL": self.db_url,
                "TRICKTABLE_DISCORD_API": self.server.api_base,
                "TRICKTABLE_SHARD_COUNT": str(self.shards), "TRICKTABLE_SHARD_IDS": shard_ids,
                "TRICKTABLE_AI_WORKERS": "0", "TRICKTABLE_LOG_LEVEL": "INFO", **extra}

    async def sync_commands(self) -> None:
        """``tricktable sync`` (global): the simulated users' clients then know the
        commands."""
        proc = await asyncio.create_subprocess_exec(
            str(ENTRY_POINT), "sync", env=self.env("0"), stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT)
        out, _ = await proc.communicate()
        assert proc.returncode == 0, out.decode(errors="replace")

    def process(self, shard_ids: str, name: str | None = None, **extra: str) -> BotProcess:
        name = name or f"shards-{shard_ids.replace(',', '-')}"
        bot = BotProcess(name, self.env(shard_ids, **extra), self.tmp / f"{name}.log")
        self.processes.append(bot)
        return bot

    async def start(self, shard_ids: str, name: str | None = None,
                    timeout: float = 30.0, **extra: str) -> BotProcess:
        """Start a process for ``shard_ids`` and return once each of its shards is
        connected to the fake gateway (its tables are loaded by then)."""
        bot = self.process(shard_ids, name, **extra)
        before = set(self.server.sessions)
        await bot.start()
        wanted = {int(s) for s in shard_ids.split(",")}

        def connected() -> bool | None:
            if not bot.running:
                raise AssertionError(f"{bot.name} exited:\n{bot.output()[-3000:]}")
            shards = {s.shard_id for sid, s in self.server.sessions.items()
                      if sid not in before and s.connection is not None and not s.closed}
            return True if wanted <= shards else None

        await self.server.wait_until(connected, timeout=timeout,
                                     what=f"{bot.name} to connect its shards")
        return bot

    async def close(self) -> None:
        for bot in self.processes:
            if bot.running:
                await bot.stop()
            elif bot._log is not None:
                await bot.wait()

    def user(self, name: str, shard: int, n: int = 0) -> SimulatedUser:
        return self.harness.user(name, guild=self.guilds[n * self.shards + shard])


# -- reading panels ---------------------------------------------------------------------
def controls(msg: StoredMessage) -> list[dict[str, Any]]:
    return [c for c in msg.walk_components()
            if str(c.get("custom_id", "")).startswith(CONTROL_PREFIXES)]


def find(msg: StoredMessage, suffix: str) -> str:
    return next(c for c in msg.custom_ids() if c.endswith(suffix))


def panel_version(msg: StoredMessage) -> int | None:
    """The table version the panel's controls were drawn at (None: no controls)."""
    for c in controls(msg):
        return int(str(c["custom_id"]).split(":")[3])
    return None


def hand_dm(user: SimulatedUser, deal: int) -> StoredMessage | None:
    """The user's hand DM of ``deal`` (1-based, as the panel says), newest first."""
    for msg in reversed(user.dms):
        if "Your hand" in msg.content and f", deal {deal} ·" in msg.content:
            return msg
    return None


def dm_deals(user: SimulatedUser) -> int:
    """The highest deal number the user got a hand DM for (0: none yet)."""
    found = [int(m.group(1)) for msg in user.dms
             if (m := re.search(r", deal (\d+) ·", msg.content))]
    return max(found, default=0)


def warnings(result: InteractionResult) -> list[str]:
    """The private follow-ups of an interaction (refusals and "not answering")."""
    return [m.content for m in result.followups]


async def open_table(world: ShardWorld, host: SimulatedUser, game: str = "turup", *,
                     ais: int = 3, options: str | None = None,
                     order: str | None = None) -> int:
    """``host`` opens ``game`` (rule ``options`` as JSON) in their guild's channel, adds
    ``ais`` AI players, rearranges the seats by ``order`` (``/table arrange``: seat ``i``
    gets who sat at the ``i``-th number; the host sits at 0 before) and starts; returns
    the table id."""
    opened = await (host.slash("table", "new", game=game) if options is None else
                    host.slash("table", "new", game=game, options=options))
    msg = await opened.wait_filled()
    table_id = int(find(msg, ":join").split(":")[2])
    for _ in range(ais):
        r = await host.click(world.server.message(msg.id), find(world.server.message(msg.id),
                                                                ":ai:rules"))
        assert not warnings(r) and r.type in (6, 7), r.content
    if order is not None:
        arranged = await host.slash("table", "arrange", order=order)
        assert "rearranged" in arranged.content, arranged.content
    await host.click(world.server.message(msg.id), find(world.server.message(msg.id),
                                                        ":start"))
    return table_id


async def wait_turn(world: ShardWorld, user: SimulatedUser, deal: int,
                    timeout: float = 30.0) -> StoredMessage | None:
    """The user's DM panel of ``deal`` once it offers controls; None once a later deal's
    DM arrived (or the match ended) instead."""
    def ready() -> tuple[StoredMessage | None] | None:
        if dm_deals(user) > deal:
            return (None,)
        # the newest DM of the deal that offers controls (a click on the last panel of a
        # deal can make that older message the live panel of the next deal)
        for msg in reversed(user.dms):
            msg = world.server.message(msg.id)
            if "The match is over" in msg.content or "The table is closed" in msg.content:
                return (None,)
            if (f", deal {deal} ·" in msg.content and controls(msg)
                    and "Your turn" in msg.content):
                return (msg,)
        return None

    got = await world.server.wait_until(ready, timeout=timeout,
                                        what=f"{user.user.username}'s turn in deal {deal}")
    return got[0]


async def dm_click(world: ShardWorld, user: SimulatedUser, panel: StoredMessage,
                   rng: random.Random, *, actions_only: bool = False) -> InteractionResult:
    """One choice on the panel (random among what it offers, never ``concede``): a select
    option or a button; with ``actions_only`` never the leader's signal select (choosing a
    signal redraws the panel and plays nothing). Returns the interaction (answered:
    deferred or updated)."""
    offered = [c for c in controls(panel) if "concede" not in c["custom_id"]
               and not (actions_only and c["custom_id"].startswith("tt:g"))]
    assert offered, f"no controls on the panel: {panel.content}"
    c = rng.choice(offered)
    if c["type"] == 3:
        values = [rng.choice([o["value"] for o in c["options"]])]
        if c.get("min_values", 1) > 1:
            values = [o["value"] for o in c["options"]][: c["min_values"]]
        return await user.select(panel, c["custom_id"], values)
    return await user.click(panel, c["custom_id"])


def snapshot(msg: StoredMessage) -> tuple[str, int | None, list[str]]:
    """What a panel shows (the fake updates its stored message in place: take this
    before the click)."""
    return (msg.content, panel_version(msg), msg.custom_ids())


def moved_on(world: ShardWorld, panel: StoredMessage,
             before: tuple[str, int | None, list[str]], dms_before: int,
             user: SimulatedUser) -> bool:
    """The click's effect is visible: the clicked panel shows something else, or the next
    deal's DM came (the click ended the deal: that DM is the panel now)."""
    return snapshot(world.server.message(panel.id)) != before or len(user.dms) > dms_before


async def redrawn(world: ShardWorld, result: InteractionResult, panel: StoredMessage,
                  before: tuple[str, int | None, list[str]], timeout: float = 10.0, *,
                  followups_before: int = 0) -> StoredMessage:
    """Wait until the clicked panel shows something else than ``before`` (its
    :func:`snapshot` before the click) or a private follow-up came (beyond the
    ``followups_before`` the interaction had already); returns the panel.
    An accepted click always redraws the panel clicked on — also one that ended the deal
    (it then shows the next deal, or stays an old message redrawn to the state of now)."""

    def changed() -> StoredMessage | None:
        msg = world.server.message(panel.id)
        done = snapshot(msg) != before or len(result.followups) > followups_before
        return msg if done else None

    return await world.server.wait_until(changed, timeout=timeout,
                                         what="the clicked panel to be redrawn")


async def human_actions(store: Store, table_id: int, seat: int) -> int:
    """How many actions the human at ``seat`` made, as the table's log holds them."""
    return sum(1 for e in await store.load_actions(table_id)
               if e.action.get("by") == "human" and e.action["action"].get("seat") == seat)
