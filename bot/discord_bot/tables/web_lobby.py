"""Discord's lobby rights for the web table and the Activity (``docs/web.md``, "With the
bot"): a web viewer may join a free seat and add AI players like anyone clicking the
lobby, and start the match when they opened the table or have **Manage Server** in the
table's channel — the rights :meth:`bot.discord_bot.tables.clicks.TableClicks.start` checks.
:func:`bind_web` binds the web table to the client: **Open table**
(:mod:`bot.discord_bot.tables.web_table`), the table message's web line and these rights.

Manage Server is read from the bot's own guild cache (the guild, its roles and the
channel's overwrites come with the gateway), with the member fetched once
(``GET /guilds/{guild}/members/{user}``) when the cache lacks them: the web server runs in
the process that drives the table, which is connected to the table's guild. A member
Discord does not know, or an answer Discord cannot give, has no such right.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.discord_bot.tables.clicks import NOT_HOST_START
from bot.discord_bot.tables.web_access import DiscordChannelAccess, watch_access
from bot.discord_bot.tables.web_table import Links, TableOpener, open_tables

if TYPE_CHECKING:
    from bot.discord_bot.table_hub import TableHub

log = logging.getLogger(__name__)


class DiscordLobbyRights:
    """:class:`bot.web.lobby.LobbyRights` from the bot's client and table hub."""

    def __init__(self, client: discord.Client, hub: TableHub) -> None:
        self.client = client
        self.hub = hub

    async def start_refusal(self, table: int, user: int) -> str | None:
        presenter = self.hub.presenters.get(table)
        if presenter is not None and user == presenter.creator:
            return None
        if presenter is not None and presenter.guild_id is not None:
            member = await self._member(presenter.guild_id, user)
            if member is not None:
                channel = member.guild.get_channel(presenter.channel_id)
                perms = (channel.permissions_for(member) if channel is not None
                         else member.guild_permissions)
                if perms.manage_guild:
                    return None
        return NOT_HOST_START

    async def name_of(self, table: int, user: int) -> str:
        presenter = self.hub.presenters.get(table)
        guild = None if presenter is None else presenter.guild_id
        member = None if guild is None else await self._member(guild, user)
        if member is not None:
            return member.display_name
        found = self.client.get_user(user)
        if found is None:
            try:
                found = await self.client.fetch_user(user)
            except discord.HTTPException:
                return str(user)
        return found.display_name

    async def _member(self, guild_id: int, user: int) -> discord.Member | None:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return None
        member = guild.get_member(user)
        if member is not None:
            return member
        try:
            return await guild.fetch_member(user)
        except discord.HTTPException as exc:
            if exc.status != 404:
                log.warning("guild %s: could not read a member's permissions (%s)",
                            guild_id, exc.status)
            return None


def bind_web(client: discord.Client, hub: TableHub, links: Links) -> TableOpener:
    """Serve the web table on ``client``'s tables with ``links``: **Open table**, the
    table message and the hand DMs redrawn when its web users change (who plays on the
    web: :mod:`bot.discord_bot.tables.web_play`), the lobby's rights, and pages closed
    when their users lose the table's channel (:mod:`bot.discord_bot.tables.web_access`)."""
    opener = open_tables(client, hub, links)

    def redraw(table: int) -> None:  # the presenter's coalescing paces the edit
        if (presenter := hub.presenters.get(table)) is not None:
            presenter.web.presence_changed()  # who plays on the web (tables/web_play.py)
            presenter.live.mark()
        if (panels := hub.panels.get(table)) is not None:
            panels.redraw_all()  # a player now on the web, or back: their DM changes

    links.presence.on_change = redraw
    links.use_lobby(DiscordLobbyRights(client, hub))
    access = DiscordChannelAccess(client, hub.service)
    links.use_access(access)
    watch_access(client, access, links.access)
    return opener
