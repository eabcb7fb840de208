"""This process's shards: how many the bot has, which run here, and what that owns.

Called from the bot's ``setup_hook`` (after login, before the gateway connects):

1. :func:`use_discord_api` (at construction): ``TRICKTABLE_DISCORD_API`` points the REST
   client at another base URL (an HTTP proxy in front of Discord, or a test server); the
   gateway URL is then the one that API names in ``GET /gateway/bot``.
2. :func:`plan_shards`: the shard count (``TRICKTABLE_SHARD_COUNT``; for ``auto``,
   Discord's recommendation from ``GET /gateway/bot``) and this process's shards
   (``TRICKTABLE_SHARD_IDS``, default all), set on the ``AutoShardedBot`` so it connects
   exactly those; returns the :class:`~bot.cluster.Ownership` (the guilds of those shards).
3. :func:`join_cluster`: takes the start lock of every shard of this process —
   :class:`storage.ShardBusy` (a clear message naming the shard) when another process
   already runs one: ``tricktable run`` then exits with status 1 before loading any table.

A single process (every shard, the default) goes through the same steps (its start locks
refuse a second process on the same database): it owns every guild and keeps every
unfinished table of the store, as before sharding, and no click is ever forwarded.
"""

from __future__ import annotations

import logging

import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.cluster import ClusterNode, Ownership
from bot.settings import Settings
from storage import Store

log = logging.getLogger(__name__)


def use_discord_api(settings: Settings) -> None:
    """Send discord.py's REST requests to ``settings.discord_api`` when set (for the whole
    process: discord.py reads ``Route.BASE`` for every request)."""
    if settings.discord_api:
        Route.BASE = settings.discord_api


async def plan_shards(bot: commands.AutoShardedBot, settings: Settings) -> Ownership:
    """Fix the bot's shard count and shard ids from the settings (module docstring);
    raises :class:`bot.settings.SettingsError` for shard ids outside an ``auto`` count."""
    count = settings.shard_count
    if count is None or settings.discord_api:
        recommended, url, _limits = await bot.http.get_bot_gateway()
        if count is None:
            count = int(recommended)
            log.info("Discord recommends %d shard%s", count, "" if count == 1 else "s")
        if settings.discord_api:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
    ids = settings.shards_for(count)
    bot.shard_count = count
    bot.shard_ids = list(ids)
    return Ownership.of(count, ids)


async def join_cluster(store: Store, ownership: Ownership) -> ClusterNode:
    """This process's :class:`~bot.cluster.ClusterNode`, holding its shards' start
    locks (raises :class:`storage.ShardBusy` when another process runs one of them)."""
    node = ClusterNode(store, ownership)
    await node.lock()
    shards = ", ".join(map(str, sorted(ownership.shard_ids)))
    log.info("running shard%s %s of %d", "" if len(ownership.shard_ids) == 1 else "s",
             shards, ownership.shard_count)
    return node


__all__ = ["join_cluster", "plan_shards", "use_discord_api"]
