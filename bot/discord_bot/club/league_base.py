"""What every ``/league`` command shares (``bot/discord_bot/club/league_commands.py`` puts
them together in one cog): the command groups ``/league`` and ``/league team``, and the
lookups and answer helper the commands call (:class:`LeagueCommandBase`)."""

from __future__ import annotations

from typing import Final

from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club.league_lookups import LeagueLookups
from bot.discord_bot.club.league_support import LeagueChoices
from bot.i18n import pgettext_noop

LEAGUE: Final = app_commands.Group(
    name=pgettext_noop("command name", "league"),
    description=pgettext_noop("command description", "Club leagues"),
    guild_only=True)
"""The ``/league`` group: the director's, the entrants', the reports' and the standings'
commands are its children; the cog holds it (``LeagueCog.league``)."""
TEAM: Final = app_commands.Group(
    name=pgettext_noop("command name", "team"),
    description=pgettext_noop("command description", "League teams"),
    parent=LEAGUE)
"""``/league team``, the group of ``/league team add`` (``LeagueCog.team``)."""


class LeagueCommandBase(LeagueLookups, LeagueChoices, commands.Cog):
    """The lookups (:class:`LeagueLookups`) and the answer helper and autocomplete
    (:class:`LeagueChoices`) of the ``/league`` commands, on the state set by
    :class:`LeagueCog <bot.discord_bot.club.league_commands.LeagueCog>`. A cog class only so
    that its subclasses may hold children of :data:`LEAGUE`; the one cog added to the bot
    is ``LeagueCog``."""
