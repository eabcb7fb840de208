"""The ``/league`` commands that show leagues: ``fixtures`` (a league's fixtures and
results, or one round's), ``standings`` (its table) and ``list`` (the server's leagues)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, guild_of
from bot.discord_bot.club.club_texts import (
    fixture_line,
    game_title,
    league_summary,
    standings_lines,
)
from bot.discord_bot.club.league_base import LEAGUE, LeagueCommandBase
from bot.discord_bot.club.league_embeds import paged_embed
from bot.discord_bot.club.league_support import LeagueChoices, league_status
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Command, command
from bot.leagues.service import league_view, standings


class StandingsCommands(LeagueCommandBase):
    """``/league fixtures``, ``standings`` and ``list`` (mixed into
    :class:`bot.discord_bot.club.league_commands.LeagueCog`)."""

    @LEAGUE.command(name=pgettext_noop("command name", "fixtures"),
                    description=pgettext_noop("command description",
                                              "A league's fixtures and results"))
    @app_commands.describe(
        league=pgettext_noop("command description",
                             "Which league (default: the one in this channel)"),
        round=pgettext_noop("command description", "One round only"),
        page=pgettext_noop("command description", "Page of a long list"))
    @app_commands.rename(league=pgettext_noop("command name", "league"),
                         round=pgettext_noop("command name", "round"),
                         page=pgettext_noop("command name", "page"))
    async def fixtures(self, interaction: discord.Interaction[Any], league: str | None = None,
                       round: app_commands.Range[int, 1, 200] | None = None,
                       page: app_commands.Range[int, 1, 100] = 1) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            view = await league_view(self.store, chosen.id, round=round)
            lines = [fixture_line(view, f, t) for f in view.fixtures]
            if not lines:
                if chosen.status == "open":
                    # Translators: {command} is a command (/league schedule) shown as a link.
                    raise ClubError(N_("no fixtures yet: the league starts with {command}"),
                                    command=Command("league schedule"))
                raise ClubError(N_("no fixtures in that round"))
            title = (t.gettext("{league} — fixtures, round {round}").format(
                league=safe_name(chosen.name), round=round) if round else
                t.gettext("{league} — fixtures").format(league=safe_name(chosen.name)))
            return Reply(embeds=[paged_embed(title, lines, page, t)])
        await self._public(interaction, work)

    fixtures.autocomplete("league")(LeagueChoices.league_names)

    @LEAGUE.command(name=pgettext_noop("command name", "standings"),
                    description=pgettext_noop("command description", "A league's table"))
    @app_commands.describe(
        league=pgettext_noop("command description",
                             "Which league (default: the one in this channel)"),
        page=pgettext_noop("command description", "Page of a long table"))
    @app_commands.rename(league=pgettext_noop("command name", "league"),
                         page=pgettext_noop("command name", "page"))
    async def standings_command(self, interaction: discord.Interaction[Any],
                                league: str | None = None,
                                page: app_commands.Range[int, 1, 100] = 1) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            view = await league_view(self.store, chosen.id)
            rows = await standings(self.store, chosen.id)
            if not rows:
                raise ClubError(N_("league {league} has no entrants yet"),
                                league=safe_name(repr(chosen.name)))
            return Reply(embeds=[paged_embed(
                t.gettext("{league} — standings").format(league=safe_name(chosen.name)),
                standings_lines(view, rows, t), page, t, league_summary(view, t))])
        await self._public(interaction, work)

    standings_command.autocomplete("league")(LeagueChoices.league_names)

    @LEAGUE.command(name=pgettext_noop("command name", "list"),
                    description=pgettext_noop("command description", "The server's leagues"))
    async def list_command(self, interaction: discord.Interaction[Any]) -> None:
        async def work(t: Translator) -> Reply:
            leagues = await self.store.list_leagues(guild_of(interaction))
            if not leagues:
                # Translators: {command} is a command (/league create) shown as a link.
                return Reply(content=t.gettext("No leagues yet: an admin creates one with "
                                               "{command}.").format(
                                                   command=command("league create", t)))
            lines = [f"`#{lg.id}` **{safe_name(lg.name)}** · {game_title(lg.game)} · "
                     f"{league_status(lg.status, t)} · <#{lg.channel_id}>"
                     for lg in reversed(leagues)]
            return Reply(embeds=[paged_embed(t.gettext("Leagues"), lines, 1, t)])
        await self._public(interaction, work)
