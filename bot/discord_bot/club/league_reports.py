"""The ``/league`` commands of a match played away from the bot's tables: ``report`` (a
result as text or a file, :func:`read_sheet`), then ``confirm`` or ``reject`` by the
opponents or an admin (also the buttons under the report,
:class:`bot.discord_bot.club.league_commands.ReportButton`)."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, is_admin, update_in_place
from bot.discord_bot.club.club_texts import clip, read_report, sheet_size_problem, sheet_text
from bot.discord_bot.club.league_base import LEAGUE, LeagueCommandBase
from bot.discord_bot.club.league_support import LeagueChoices, report_announcement
from bot.discord_bot.ids import CustomIdKind
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Option
from bot.leagues.reports import report_record, report_result

log = logging.getLogger(__name__)


class ReportCommands(LeagueCommandBase):
    """``/league report``, ``confirm`` and ``reject`` (mixed into
    :class:`bot.discord_bot.club.league_commands.LeagueCog`)."""

    @LEAGUE.command(name=pgettext_noop("command name", "report"),
                    description=pgettext_noop("command description",
                                              "Report a match played at a physical table or "
                                              "elsewhere, as text or a file"))
    @app_commands.describe(
        fixture=pgettext_noop("command description", "The fixture (autocompleted)"),
        result=pgettext_noop("command description",
                             "Deals as HOME-AWAY, e.g. '20-16 22-14' (Turup kort: 9-0:made), "
                             "or JSON"),
        sheet=pgettext_noop("command description",
                            "A file instead of result: a scoresheet or a game record, ≤ 256 "
                            "KB"),
        first_dealer=pgettext_noop("command description",
                                   "Seat of the first dealer (default 0; home players sit 0 "
                                   "and 2)"))
    @app_commands.rename(fixture=pgettext_noop("command name", "fixture"),
                         result=pgettext_noop("command name", "result"),
                         sheet=pgettext_noop("command name", "sheet"),
                         first_dealer=pgettext_noop("command name", "first_dealer"))
    async def report(self, interaction: discord.Interaction[Any], fixture: int,
                     result: app_commands.Range[str, 1, 4000] | None = None,
                     sheet: discord.Attachment | None = None,
                     first_dealer: app_commands.Range[int, 0, 3] | None = None) -> None:
        async def work(t: Translator) -> Reply:
            if result is not None and sheet is not None:
                # Translators: {result} and {sheet} are the names of two options.
                raise ClubError(N_("give the result either as text (the {result} option) "
                                   "or as a file (the {sheet} option): not both"),
                                result=Option("result"), sheet=Option("sheet"))
            if result is None and sheet is None:
                # Translators: {result} and {sheet} are the names of two options.
                raise ClubError(N_("give the result either as text (the {result} option) "
                                   "or as a file (the {sheet} option): neither was given"),
                                result=Option("result"), sheet=Option("sheet"))
            view, found = await self.find_fixture(interaction, fixture)
            text = result if sheet is None else await read_sheet(sheet)
            assert text is not None
            read = read_report(view.league.game, text)
            reporter, admin = interaction.user.id, is_admin(interaction)
            if read.record is not None:
                done = await report_record(self.store, found.id, reporter, read.record,
                                           first_dealer=first_dealer, is_admin=admin)
            else:
                dealer = first_dealer if first_dealer is not None else read.first_dealer or 0
                done = await report_result(self.store, found.id, reporter, read.deals,
                                           first_dealer=dealer, is_admin=admin)
            home, away = view.members(done.home_entrant_id), view.members(done.away_entrant_id)
            side = (done.result or {}).get("reporter_side")
            confirmers = away if side == "home" else home if side == "away" else home + away
            text = report_announcement(view, done, reporter, confirmers,
                                       read.record is not None, t)
            return Reply(content=text, view=report_view(done.id, t), ping=confirmers)
        await self._public(interaction, work)

    report.autocomplete("fixture")(LeagueChoices.report_fixtures)

    @LEAGUE.command(name=pgettext_noop("command name", "confirm"),
                    description=pgettext_noop("command description", "Confirm a reported result"))
    @app_commands.describe(fixture=pgettext_noop("command description", "The reported fixture"))
    @app_commands.rename(fixture=pgettext_noop("command name", "fixture"))
    async def confirm(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work(t: Translator) -> Reply:
            return Reply(content=await self.decide(interaction, fixture, True, t))
        await self._public(interaction, work)

    confirm.autocomplete("fixture")(LeagueChoices.reported_fixtures)

    @LEAGUE.command(name=pgettext_noop("command name", "reject"),
                    description=pgettext_noop("command description", "Reject a reported result"))
    @app_commands.describe(fixture=pgettext_noop("command description", "The reported fixture"))
    @app_commands.rename(fixture=pgettext_noop("command name", "fixture"))
    async def reject(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work(t: Translator) -> Reply:
            return Reply(content=await self.decide(interaction, fixture, False, t))
        await self._public(interaction, work)

    reject.autocomplete("fixture")(LeagueChoices.reported_fixtures)


async def read_sheet(sheet: discord.Attachment) -> str:
    """The text of a ``sheet`` file: refused by its announced size before anything is
    downloaded, then read once and decoded (:func:`bot.discord_bot.club.club_texts.sheet_text`).
    Raises :class:`ScoresheetError` or :class:`ClubError` with a message for the user."""
    problem = sheet_size_problem(sheet.size)
    if problem is not None:
        raise problem
    try:
        data = await sheet.read()
    except discord.HTTPException as exc:
        log.warning("could not download report sheet %s: %s", sheet.url, exc)
        raise ClubError(N_("the file could not be downloaded from Discord; try "
                           "again")) from None
    return sheet_text(data)


def _cog(interaction: discord.Interaction[Any]) -> ReportCommands:
    cog = interaction.client.get_cog("ClubLeagues")
    if not isinstance(cog, ReportCommands):
        raise ClubError(N_("leagues are not available right now"))
    return cog


class ReportButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=CustomIdKind.FIXTURE_REPORT.template(
                       r"(?P<fixture>\d+):(?P<action>confirm|reject)")):
    """Confirm / Reject under a reported result (same checks as ``/league confirm``)."""

    def __init__(self, fixture_id: int, action: str, t: Translator | None = None) -> None:
        confirm = action == "confirm"
        label = None
        if t is not None:
            label = clip(t.gettext("Confirm") if confirm else t.gettext("Reject"), 80)
        super().__init__(discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.danger,
            custom_id=f"{CustomIdKind.FIXTURE_REPORT}:{fixture_id}:{action}"))
        self.fixture_id, self.action = fixture_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ReportButton:
        return cls(int(match["fixture"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        reader = await cog.languages.reader(interaction)

        async def work() -> Reply:
            t = await cog.languages.server(interaction.guild_id)
            text = await cog.decide(interaction, self.fixture_id, self.action == "confirm", t)
            return Reply(text)
        await update_in_place(interaction, work, t=reader)


def report_view(fixture_id: int, t: Translator) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton(fixture_id, "confirm", t))
    view.add_item(ReportButton(fixture_id, "reject", t))
    return view
