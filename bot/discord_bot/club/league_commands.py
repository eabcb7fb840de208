"""``/league …``: club leagues on Discord, and their fixture reminders.

Commands (``[x]`` optional; ``league`` is an autocompleted league id or a league's name,
and defaults to the only league that is not closed in this channel, else on the server):

* ``/league create name game [weekday] [time] [timezone] [rounds] [players]`` (Manage
  Server) — an open league hosted in this channel (reminders go there). Defaults: Friday,
  20:00, UTC, single round robin, the game's partnership form (4 players) where it has one.
* ``/league team add name member1 member2 [league]`` — a team of two for a partnership
  game; one of the two must be the member running it, unless an admin does.
* ``/league join [league]`` — yourself, in a league of a two-player game.
* ``/league withdraw [league] [member]`` — your entrant (an admin may name a member). The
  reply lists what became of its fixtures: before the start it is just left out; after it,
  unplayed fixtures are forfeits won by the opponent and its byes are void.
* ``/league schedule [league] [first_day]`` (Manage Server) — start the league: a round
  robin by the circle method, one round per week on the league's day and time in its time
  zone; the reply shows the first round with Discord timestamps.
* ``/league fixtures [league] [round] [page]``, ``/league standings [league] [page]``,
  ``/league list``.
* ``/league report fixture [result] [sheet] [first_dealer]`` — a match played at a
  physical table, as score-only deals in the scoresheet form of
  :mod:`bot.discord_bot.club.club_texts` (``20-16 22-14``, or JSON), or a match played
  elsewhere as a full game record (``docs/records.md``). Exactly one of ``result`` (text,
  at most 4,000 characters) and ``sheet`` (a file, :func:`read_sheet`: at most 256 KB,
  refused by its announced size before the download, UTF-8) is given; the text of either
  takes the same path (:func:`bot.discord_bot.club.club_texts.read_report`, then
  :func:`bot.leagues.reports.report_result` or :func:`~bot.leagues.reports.report_record`).
  The fixture is ``reported`` until the opponents (or an admin) confirm it: ``/league
  confirm fixture``, ``/league reject fixture``, or the Confirm / Reject buttons under the
  report (:class:`~bot.discord_bot.club.league_reports.ReportButton`, persistent).
* ``/league close [league]`` (Manage Server) — void what is unplayed, show the final table.

Reminders: a :class:`bot.leagues.reminders.ReminderScheduler` on the table service's clock
posts to the league's channel 24 hours and 1 hour before each fixture and at its start,
pinging the players only (``allowed_mentions``: users). It runs from ``cog_load`` until
``cog_unload`` (which ``Bot.close`` calls).

:class:`LeagueCog` puts together the commands of :mod:`~.league_director` (create,
schedule, close), :mod:`~.league_entries` (team add, join, withdraw),
:mod:`~.league_standings` (fixtures, standings, list) and :mod:`~.league_reports` (report,
confirm, reject), their groups (:mod:`~.league_base`), and the reminders.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.ext import commands

from bot.discord_bot.club.league_base import LEAGUE, TEAM
from bot.discord_bot.club.league_director import DirectorCommands
from bot.discord_bot.club.league_entries import EntryCommands
from bot.discord_bot.club.league_reports import ReportButton, ReportCommands
from bot.discord_bot.club.league_standings import StandingsCommands
from bot.discord_bot.club.league_support import LeagueReminders
from bot.discord_bot.languages import Languages
from bot.leagues.reminders import ReminderScheduler
from bot.service.clock import Clock
from storage.base import Store


class LeagueCog(DirectorCommands, EntryCommands, StandingsCommands, ReportCommands,
                LeagueReminders, commands.Cog, name="ClubLeagues"):
    """``/league`` commands and the fixture reminders."""

    league = LEAGUE
    team = TEAM

    def __init__(self, bot: commands.Bot, store: Store, clock: Clock, languages: Languages,
                 *, run_reminders: bool = True, poll_seconds: float = 60.0) -> None:
        self.bot = bot
        self.store = store
        self.clock = clock
        self.languages = languages
        self.reminders = ReminderScheduler(store, self.send_reminder, clock=clock,
                                           poll_seconds=poll_seconds,
                                           handles_guild=self.handles_guild,
                                           language=languages.server)
        self.run_reminders = run_reminders
        self._task: asyncio.Task[None] | None = None


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (ReportButton,)
