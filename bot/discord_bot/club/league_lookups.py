"""The lookups of the ``/league`` commands: a league or fixture named in a command, an
entrant of a member, and the confirmation or rejection of a reported result."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_bot.club.club_common import ClubError, guild_of, is_admin
from bot.discord_bot.club.club_texts import clip, result_sentence
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import N_, Translator
from bot.i18n.commands import Command, Option
from bot.leagues.reports import confirm_report, reject_report
from bot.leagues.service import CLOSED, LeagueView, league_view
from storage.base import Store
from storage.models import Fixture, League


class LeagueLookups:
    """Mixed into :class:`bot.discord_bot.club.league_commands.LeagueCog` (needs ``store``)."""

    store: Store

    async def find_league(self, interaction: discord.Interaction[Any], text: str | None,
                          *, open_only: bool = False) -> League:
        """The league named by ``text`` (id or name) on this server, or the default one."""
        guild_id = guild_of(interaction)
        leagues = await self.store.list_leagues(guild_id)
        if text is not None and text.strip():
            wanted = text.strip()
            for league in reversed(leagues):
                if wanted == str(league.id) or wanted.lower() == league.name.lower():
                    return league
            raise ClubError(N_("there is no league “{league}” on this server"),
                            league=safe_name(clip(wanted, 60)))
        live = [lg for lg in leagues if lg.status != CLOSED]
        here = [lg for lg in live if lg.channel_id == interaction.channel_id]
        for candidates in (here, live):
            if len(candidates) == 1:
                return candidates[0]
        if not live:
            # Translators: {command} is a command (/league create) shown as a link.
            raise ClubError(N_("there is no league running on this server: an admin starts "
                               "one with {command}"), command=Command("league create"))
        # Translators: {option} is the name of the option (league).
        raise ClubError(N_("several leagues run here: name one with the {option} option"),
                        option=Option("league"))

    async def find_fixture(self, interaction: discord.Interaction[Any], fixture_id: int
                           ) -> tuple[LeagueView, Fixture]:
        guild_id = guild_of(interaction)
        fixture = await self.store.get_fixture(fixture_id)
        season = await self.store.get_season(fixture.season_id) if fixture else None
        if (fixture is None or season is None or season.league_id is None
                or season.guild_id != guild_id):
            raise ClubError(N_("there is no fixture #{fixture} on this server"),
                            fixture=fixture_id)
        view = await league_view(self.store, season.league_id)
        return view, fixture

    async def entrant_of(self, view: LeagueView, user_id: int) -> int:
        for entrant_id, entrant in view.entrants.items():
            if user_id in entrant.members and entrant_id not in view.withdrawn:
                return entrant_id
        raise ClubError(N_("{player} does not play in league {league}"),
                        player=f"<@{user_id}>", league=safe_name(repr(view.league.name)))

    async def decide(self, interaction: discord.Interaction[Any], fixture_id: int,
                     confirm: bool, t: Translator) -> str:
        """Confirm or reject a reported result; the text announcing it (in ``t``'s
        language: the server's)."""
        view, fixture = await self.find_fixture(interaction, fixture_id)
        admin = is_admin(interaction)
        user = interaction.user.id
        if confirm:
            done = await confirm_report(self.store, fixture.id, user, is_admin=admin)
            return t.gettext("✅ **{league}**, fixture #{fixture}: {result} — confirmed by "
                             "{player}; it counts in the standings.").format(
                league=safe_name(view.league.name), fixture=fixture.id,
                result=result_sentence(view, done, t), player=f"<@{user}>")
        await reject_report(self.store, fixture.id, user, is_admin=admin)
        return t.gettext("❌ **{league}**, fixture #{fixture}: the reported result was "
                         "rejected by {player}; the fixture is open again (report it "
                         "anew).").format(league=safe_name(view.league.name),
                                          fixture=fixture.id, player=f"<@{user}>")
