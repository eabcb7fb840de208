"""Who may still read a table's channel, from Discord: the web table's revocation
(``docs/web.md``, "Revocation"; the web side is ``bot.web.access``, which the adapter
reaches only through :class:`~bot.discord_bot.tables.web_table.Links`).

:class:`DiscordChannelAccess` answers ``bot.web.access.ChannelAccess``: the user must
be a member of the table's server (the member is read with
``GET /guilds/{guild}/members/{user}``, which answers 404 for someone who left or was
banned, and kept :data:`MEMBER_MEMORY` seconds so a burst of reconnections costs one
read) with **View Channel** in the table's channel, computed from the bot's own cache of
the server's roles and the channel's overwrites (they come with the gateway).

:func:`watch_access` makes the gateway events the bot receives without a privileged
intent end the pages at once:

* a ban (``GUILD_BAN_ADD``, Guild Moderation intent): the user's sockets at the server's
  tables are closed;
* a channel's overwrites changed (``CHANNEL_UPDATE``) or a role's permissions changed or
  the role was deleted (``GUILD_ROLE_UPDATE``/``DELETE``): every open socket at the
  server's tables is checked again, and those who lost View Channel are closed.

A member who leaves the server or loses a role is told to the bot only with the
privileged Server Members intent, which it does not ask for: those are found by the
periodic re-check (``bot.web.access.RECHECK``, 60 s, asking Discord afresh) and when the
page connects again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Final

import discord
from discord.ext import commands

from bot.discord_bot.tables.web_table import WebAccess
from bot.service import NoSuchTable, TableService
from storage.models import ChannelLocation

log = logging.getLogger(__name__)

MEMBER_MEMORY = 30.0
"""Seconds a member read from Discord answers again (not for a ``fresh`` check)."""


class _Unknown:
    """Discord could not say (it did not answer): the user is not refused for it."""


UNKNOWN: Final = _Unknown()


class DiscordChannelAccess:
    """``bot.web.access.ChannelAccess`` from the bot's client (module docstring)."""

    def __init__(self, client: discord.Client, service: TableService, *,
                 memory: float = MEMBER_MEMORY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.service = service
        self.memory = memory
        self._clock = clock
        self._members: dict[tuple[int, int], tuple[float, discord.Member | None]] = {}

    def location(self, table: int) -> ChannelLocation | None:
        """The table's channel (None: not a table of this process, or not in a server)."""
        try:
            where = self.service.info(table).location
        except NoSuchTable:
            return None
        return where if isinstance(where, ChannelLocation) else None

    async def may_view(self, table: int, user: int, *, fresh: bool = False) -> bool:
        where = self.location(table)
        if where is None:  # the viewer refuses a table this process does not hold
            return True
        guild = self.client.get_guild(where.guild_id)
        if guild is None:  # connecting still, or no longer in that server
            return not self.client.is_ready()
        channel = guild.get_channel_or_thread(where.channel_id)
        if channel is None:  # e.g. an archived thread not in the cache: cannot tell
            return True
        member = await self._member(guild, user, fresh=fresh)
        if isinstance(member, _Unknown):
            return True
        return member is not None and channel.permissions_for(member).view_channel

    def forget(self, guild_id: int, user: int) -> None:
        """Drop what is known of ``user`` in ``guild_id`` (the next check asks Discord)."""
        self._members.pop((guild_id, user), None)

    def in_guild(self, guild_id: int) -> Callable[[int], bool]:
        """Selects the tables of ``guild_id`` (for :meth:`WebAccess.recheck`)."""
        def selects(table: int) -> bool:
            where = self.location(table)
            return where is not None and where.guild_id == guild_id
        return selects

    async def _member(self, guild: discord.Guild, user: int, *, fresh: bool
                      ) -> discord.Member | _Unknown | None:
        key = (guild.id, user)
        known = self._members.get(key)
        now = self._clock()
        if known is not None and not fresh and now - known[0] < self.memory:
            return known[1]
        try:
            member: discord.Member | None = await guild.fetch_member(user)
        except discord.NotFound:  # not a member: left, removed or banned
            member = None
        except discord.HTTPException as exc:
            log.warning("guild %s: could not read a web user's membership (%s)", guild.id,
                        exc.status)
            return UNKNOWN
        self._members[key] = (now, member)
        return member


def watch_access(client: discord.Client, check: DiscordChannelAccess, access: WebAccess
                 ) -> None:
    """End the pages of users who lost a table's channel as soon as Discord says so
    (module docstring). Needs a :class:`commands.Bot` (its listeners); a plain client
    relies on the periodic re-check."""
    if not isinstance(client, commands.Bot):
        log.info("the web table's revocation uses the periodic re-check only")
        return

    async def banned(guild: discord.Guild, user: discord.User | discord.Member) -> None:
        check.forget(guild.id, user.id)
        selects = check.in_guild(guild.id)
        for table, holder in access.held():
            if holder == user.id and selects(table):
                await access.revoke(table, holder)

    async def channel_changed(before: discord.abc.GuildChannel,
                              after: discord.abc.GuildChannel) -> None:
        if before.overwrites != after.overwrites or before.category_id != after.category_id:
            await access.recheck(check.in_guild(after.guild.id))

    async def role_changed(before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions:
            await access.recheck(check.in_guild(after.guild.id))

    async def role_deleted(role: discord.Role) -> None:
        await access.recheck(check.in_guild(role.guild.id))

    client.add_listener(banned, "on_member_ban")
    client.add_listener(channel_changed, "on_guild_channel_update")
    client.add_listener(role_changed, "on_guild_role_update")
    client.add_listener(role_deleted, "on_guild_role_delete")
