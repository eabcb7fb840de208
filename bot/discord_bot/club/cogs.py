"""The club commands: ``/leaderboard``, ``/stats``, ``/history`` and ``/league …``.

:func:`setup` is what ``bot.app`` calls once the store and the table service are up: it
adds the two cogs (:class:`bot.discord_bot.club.leaderboard.StatsCog`,
:class:`bot.discord_bot.club.league_commands.LeagueCog`), registers their persistent components
(dynamic items: leaderboard paging, the history's paging buttons and record menu, a
report's confirm/reject buttons) and starts the fixture reminders, stopped again in the
league cog's ``cog_unload``; then the ``/duplicate`` cog
(:mod:`bot.discord_bot.club.duplicate_commands`), whose board watcher runs with the reminders.

The commands are a thin layer on the discord-free domain code (``docs/leagues.md``). They
answer through :mod:`bot.discord_bot.answer` (one defer policy and one error path for
every interaction of the bot); what both cogs share beyond that is in
:mod:`bot.discord_bot.club.club_common` (``ClubError``, the Manage Server check).
"""

from __future__ import annotations

from discord.ext import commands

from bot.discord_bot.club.duplicate_posts import EventLink
from bot.discord_bot.languages import Languages
from bot.duplicate.service import DuplicateService
from bot.service import TableService
from storage.base import Store


async def setup(bot: commands.Bot, *, store: Store, service: TableService,
                duplicate: DuplicateService, languages: Languages, reminders: bool = True,
                reminder_poll_seconds: float = 60.0,
                event_link: EventLink | None = None) -> None:
    """Add the club cogs and persistent components to ``bot`` and start the reminders;
    ``duplicate`` is the process's duplicate service (built by the bot's ``setup_hook``).

    ``event_link`` makes the links to a duplicate event's web page (None: no web).
    ``service`` gives the clock ("now" for league commands and reminders); the reminder
    task runs until the league cog is removed (``cog_unload``) or the bot closes. With
    ``reminders=False`` the scheduler is built but not run (tests drive its ``tick``)."""
    from bot.discord_bot.club.leaderboard import StatsCog
    from bot.discord_bot.club.leaderboard import dynamic_items as stats_items
    from bot.discord_bot.club.league_commands import LeagueCog
    from bot.discord_bot.club.league_commands import dynamic_items as league_items

    await bot.add_cog(StatsCog(bot, store, languages))
    await bot.add_cog(LeagueCog(bot, store, service.clock, languages,
                                run_reminders=reminders, poll_seconds=reminder_poll_seconds))
    bot.add_dynamic_items(*stats_items(), *league_items())
    from bot.discord_bot.club import duplicate_commands

    await duplicate_commands.setup(bot, store, duplicate, languages, run=reminders,
                                   event_link=event_link)
