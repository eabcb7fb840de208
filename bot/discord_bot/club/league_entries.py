"""The ``/league`` commands that enter and withdraw: ``team add`` (a team of two for a
partnership game), ``join`` (yourself, in a league of a two-player game) and ``withdraw``
(your entrant, or a member's for an admin; the reply says what became of its fixtures)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, is_admin, require_admin
from bot.discord_bot.club.club_texts import clip, pages_of
from bot.discord_bot.club.league_base import LEAGUE, TEAM, LeagueCommandBase
from bot.discord_bot.club.league_support import LeagueChoices, withdrawal_lines
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Command
from bot.leagues.service import LeagueSetup, join_league, league_formats, league_view, withdraw


class EntryCommands(LeagueCommandBase):
    """``/league team add``, ``join`` and ``withdraw`` (mixed into
    :class:`bot.discord_bot.club.league_commands.LeagueCog`)."""

    @TEAM.command(name=pgettext_noop("command name", "add"),
                  description=pgettext_noop("command description",
                                            "Enter a team of two in a league"))
    @app_commands.describe(
        name=pgettext_noop("command description", "Team name"),
        member1=pgettext_noop("command description", "First player"),
        member2=pgettext_noop("command description", "Second player"),
        league=pgettext_noop("command description",
                             "Which league (default: the one in this channel)"))
    @app_commands.rename(name=pgettext_noop("command name", "name"),
                         member1=pgettext_noop("command name", "member1"),
                         member2=pgettext_noop("command name", "member2"),
                         league=pgettext_noop("command name", "league"))
    async def team_add(self, interaction: discord.Interaction[Any],
                       name: app_commands.Range[str, 1, 60], member1: discord.User,
                       member2: discord.User, league: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            members = [member1, member2]
            if any(m.bot for m in members):
                raise ClubError(N_("bots cannot play in a league"))
            if interaction.user.id not in (m.id for m in members) and not is_admin(
                    interaction):
                raise ClubError(N_("you may enter a team you play in (an admin may enter "
                                   "any)"))
            if league_formats(chosen.game)[LeagueSetup.of(chosen).players] != 2:
                # Translators: {command} is a command (/league join) shown as a link.
                raise ClubError(N_("league {league} is for single players: use {command}"),
                                league=safe_name(repr(chosen.name)),
                                command=Command("league join"))
            entrant = await join_league(self.store, chosen.id, [m.id for m in members],
                                        name=name)
            return Reply(content=t.gettext(
                "Team **{team}** ({first} & {second}) entered league **{league}**.").format(
                    team=safe_name(clip(entrant.name or name, 60)), first=f"<@{member1.id}>",
                    second=f"<@{member2.id}>", league=safe_name(chosen.name)))
        await self._public(interaction, work)

    team_add.autocomplete("league")(LeagueChoices.league_names)

    @LEAGUE.command(name=pgettext_noop("command name", "join"),
                    description=pgettext_noop("command description",
                                              "Enter a league of a two-player game yourself"))
    @app_commands.describe(league=pgettext_noop(
        "command description", "Which league (default: the one in this channel)"))
    @app_commands.rename(league=pgettext_noop("command name", "league"))
    async def join(self, interaction: discord.Interaction[Any],
                   league: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            if league_formats(chosen.game)[LeagueSetup.of(chosen).players] != 1:
                # Translators: {command} is a command (/league team add) shown as a link.
                raise ClubError(N_("league {league} is played by teams of two: use "
                                   "{command}"), league=safe_name(repr(chosen.name)),
                                command=Command("league team add"))
            await join_league(self.store, chosen.id, [interaction.user.id])
            return Reply(content=t.gettext("{player} entered league **{league}**.").format(
                player=f"<@{interaction.user.id}>", league=safe_name(chosen.name)))
        await self._public(interaction, work)

    join.autocomplete("league")(LeagueChoices.league_names)

    @LEAGUE.command(name=pgettext_noop("command name", "withdraw"),
                    description=pgettext_noop("command description",
                                              "Withdraw your entrant from a league"))
    @app_commands.describe(
        league=pgettext_noop("command description",
                             "Which league (default: the one in this channel)"),
        member=pgettext_noop("command description", "Withdraw this member's entrant (admins)"))
    @app_commands.rename(league=pgettext_noop("command name", "league"),
                         member=pgettext_noop("command name", "member"))
    async def withdraw_command(self, interaction: discord.Interaction[Any],
                               league: str | None = None,
                               member: discord.User | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            if member is not None and member.id != interaction.user.id:
                require_admin(interaction, N_("only members with the Manage Server "
                                              "permission may withdraw another member"))
            who = member.id if member is not None else interaction.user.id
            view = await league_view(self.store, chosen.id)
            entrant_id = await self.entrant_of(view, who)
            label = view.label(entrant_id)
            done = await withdraw(self.store, chosen.id, entrant_id, self.now())
            lines = withdrawal_lines(view, chosen, label, done, t)
            return Reply(content="\n".join(pages_of(lines, 1900)[0]))
        await self._public(interaction, work)

    withdraw_command.autocomplete("league")(LeagueChoices.league_names)
