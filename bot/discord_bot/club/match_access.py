"""Which recorded matches a member may list (``/history``) and read the record of.

A match's record holds every hand as dealt and every play, so it is for those who could
follow the table: a member reads the matches played in a channel (or thread) where they
have **View Channel** and **Read Message History**. A match whose channel is unknown
(stored before the bot kept it, with no table channel to take it from) or gone (deleted,
or a thread the bot no longer has in its cache, such as an archived one) has no
permissions left to ask: only members with **Manage Server** read those. A private thread
counts as readable with **Manage Threads** in its parent only (its members are not
always known to the bot).

Statistics (``/stats``, leaderboards, ratings) count every match of the server, private
channels included: they show figures, never a record.

Where a list of matches may be shown (:func:`public_in`): a list of matches (players,
score, date) is posted publicly only in the channel where every one of them was played, so
that it tells the channel's audience nothing it could not follow itself; anywhere else it
goes privately to the member who asked. (An audience no larger than the channel's, such as
a private channel's own threads, would do too; the rule keeps to the same channel.)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from storage.models import MatchChannels


def reads(member: discord.Member, place: discord.abc.GuildChannel | discord.Thread) -> bool:
    """Whether ``member`` may read what was played in ``place`` (the rule above)."""
    try:
        allowed = place.permissions_for(member)
    except discord.ClientException:  # a thread whose parent is not cached
        return False
    if isinstance(place, discord.Thread) and place.is_private():
        return allowed.view_channel and allowed.manage_threads
    return allowed.view_channel and allowed.read_message_history


def match_channels(member: discord.Member) -> MatchChannels:
    """The channels whose matches ``member`` may read, and (with Manage Server) the
    server's existing channels, so that the orphans are admitted too."""
    guild = member.guild
    places: list[discord.abc.GuildChannel | discord.Thread] = [*guild.channels,
                                                               *guild.threads]
    readable = frozenset(p.id for p in places if reads(member, p))
    known = (frozenset(p.id for p in places) if member.guild_permissions.manage_guild
             else None)
    return MatchChannels(readable, known)


def reader_channels(interaction: discord.Interaction[Any]) -> MatchChannels:
    """:func:`match_channels` of whoever sent ``interaction``; nothing at all outside a
    server the bot has in its cache."""
    user = interaction.user
    if interaction.guild is None or not isinstance(user, discord.Member):
        return MatchChannels(frozenset())
    return match_channels(user)


def public_in(channel_id: int | None, played_in: Iterable[int | None]) -> bool:
    """Whether a list of the matches played in the channels ``played_in`` may be shown
    publicly in channel ``channel_id``: only when every one was played in that very
    channel (a match of an unknown channel never is)."""
    return channel_id is not None and all(c == channel_id for c in played_in)
