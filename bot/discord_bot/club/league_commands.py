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
  report (:class:`ReportButton`, persistent).
* ``/league close [league]`` (Manage Server) — void what is unplayed, show the final table.

Reminders: a :class:`bot.leagues.reminders.ReminderScheduler` on the table service's clock
posts to the league's channel 24 hours and 1 hour before each fixture and at its start,
pinging the players only (``allowed_mentions``: users). It runs from ``cog_load`` until
``cog_unload`` (which ``Bot.close`` calls).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
from typing import Any, Final, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club.club_common import (
    ClubError,
    Reply,
    guild_of,
    is_admin,
    require_admin,
    update_in_place,
)
from bot.discord_bot.club.club_texts import (
    WEEKDAYS,
    clip,
    fixture_line,
    game_title,
    league_summary,
    pages_of,
    read_report,
    sheet_size_problem,
    sheet_text,
    stamp,
    standings_lines,
)
from bot.discord_bot.club.league_lookups import LeagueLookups
from bot.discord_bot.club.league_support import (
    LeagueChoices,
    LeagueReminders,
    league_status,
    report_announcement,
    withdrawal_lines,
)
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.ids import CustomIdKind
from bot.discord_bot.languages import Languages
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Command, Option, command, command_name, local_name
from bot.leagues.reminders import ReminderScheduler
from bot.leagues.reports import (
    report_record,
    report_result,
)
from bot.leagues.service import (
    CLOSED,
    LeagueSetup,
    close_league,
    create_league,
    join_league,
    league_formats,
    league_view,
    standings,
    start_league,
    withdraw,
)
from bot.service.clock import Clock
from games.registry import GAMES
from storage.base import Store

log = logging.getLogger(__name__)

COLOUR: Final = discord.Colour.dark_green()
LEAGUE_GAME_CHOICES: Final = [app_commands.Choice(name=info.title, value=name)
                              for name, info in GAMES.items() if league_formats(name)]
WEEKDAY_NAMES: Final = (
    pgettext_noop("command description", "Monday"),
    pgettext_noop("command description", "Tuesday"),
    pgettext_noop("command description", "Wednesday"),
    pgettext_noop("command description", "Thursday"),
    pgettext_noop("command description", "Friday"),
    pgettext_noop("command description", "Saturday"),
    pgettext_noop("command description", "Sunday"),
)
WEEKDAY_CHOICES: Final = [app_commands.Choice(name=d, value=i)
                          for i, d in enumerate(WEEKDAY_NAMES)]
assert len(WEEKDAY_NAMES) == len(WEEKDAYS)
DEFAULT_WEEKDAY: Final = 4
DEFAULT_TIME: Final = "20:00"
DEFAULT_ZONE: Final = "UTC"
FIRST_ROUND_LINES: Final = 20
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")


def parse_time(text: str) -> dt.time:
    m = _TIME.match(text.strip())
    if m is None:
        raise ClubError(N_("cannot read the time {time}: write it as HH:MM, e.g. 19:30"),
                        time=safe_name(repr(clip(text, 20))))
    return dt.time(int(m[1]), int(m[2]))


def _cog(interaction: discord.Interaction[Any]) -> LeagueCog:
    cog = interaction.client.get_cog("ClubLeagues")
    if not isinstance(cog, LeagueCog):
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


class LeagueCog(LeagueLookups, LeagueChoices, LeagueReminders, commands.Cog,
                name="ClubLeagues"):
    """``/league`` commands and the fixture reminders."""

    league = app_commands.Group(name=pgettext_noop("command name", "league"),
                                description=pgettext_noop("command description", "Club leagues"),
                                guild_only=True)
    team = app_commands.Group(name=pgettext_noop("command name", "team"),
                              description=pgettext_noop("command description", "League teams"),
                              parent=league)

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

    # -- commands -----------------------------------------------------------------------

    @league.command(name=pgettext_noop("command name", "create"),
                    description=pgettext_noop("command description",
                                              "Create a league hosted in this channel (Manage "
                                              "Server)"))
    @app_commands.describe(
        name=pgettext_noop("command description", "The league's name"),
        game=pgettext_noop("command description", "The game played"),
        weekday=pgettext_noop("command description", "Day of the weekly round (default Friday)"),
        time=pgettext_noop("command description", "Kick-off time, HH:MM (default 20:00)"),
        timezone=pgettext_noop("command description",
                               "IANA time zone of the kick-off, e.g. Europe/Berlin (default "
                               "UTC)"),
        rounds=pgettext_noop("command description",
                             "single: everyone meets once; double: home and away"),
        players=pgettext_noop("command description",
                              "Players per match (Albastini: 2 or 4; default 4 where "
                              "possible)"))
    @app_commands.rename(name=pgettext_noop("command name", "name"),
                         game=pgettext_noop("command name", "game"),
                         weekday=pgettext_noop("command name", "weekday"),
                         time=pgettext_noop("command name", "time"),
                         timezone=pgettext_noop("command name", "timezone"),
                         rounds=pgettext_noop("command name", "rounds"),
                         players=pgettext_noop("command name", "players"))
    @app_commands.choices(game=LEAGUE_GAME_CHOICES,  # type: ignore[misc]
                          weekday=WEEKDAY_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 80], game: str,
                     weekday: int | None = None, time: str | None = None,
                     timezone: str | None = None,
                     rounds: Literal["single", "double"] = "single",
                     players: Literal[2, 4] | None = None) -> None:
        async def work(t: Translator) -> Reply:
            guild_id = guild_of(interaction)
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may create a league"))
            assert interaction.channel_id is not None
            for other in await self.store.list_leagues(guild_id):
                if other.status != CLOSED and other.name.lower() == name.strip().lower():
                    raise ClubError(N_("a league named {league} already exists"),
                                    league=safe_name(repr(other.name)))
            league = await create_league(
                self.store, guild_id, interaction.channel_id, name, game,
                weekday=DEFAULT_WEEKDAY if weekday is None else weekday,
                start_time=parse_time(time or DEFAULT_TIME),
                time_zone=(timezone or DEFAULT_ZONE).strip(), rounds=rounds,
                players=players)
            view = await league_view(self.store, league.id)
            size = league_formats(game)[LeagueSetup.of(league).players]
            # Translators: {enter} and {schedule} are commands (/league team add or
            # /league join, /league schedule), shown as links in the reader's language.
            how = (t.gettext("Open for entries: teams enter with {enter}. An admin starts it "
                             "with {schedule}.") if size > 1 else
                   t.gettext("Open for entries: players enter with {enter}. An admin starts "
                             "it with {schedule}.")).format(
                enter=command("league team add" if size > 1 else "league join", t),
                schedule=command("league schedule", t))
            embed = discord.Embed(
                title=clip(t.gettext("League {league} (#{number})").format(
                    league=safe_name(league.name), number=league.id), 256), colour=COLOUR,
                description=clip(f"{league_summary(view, t)}\n\n{how}", 4096))
            return Reply(embeds=[embed])
        await self._public(interaction, work)

    create.autocomplete("timezone")(LeagueChoices.time_zones)

    @team.command(name=pgettext_noop("command name", "add"),
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

    @league.command(name=pgettext_noop("command name", "join"),
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

    @league.command(name=pgettext_noop("command name", "withdraw"),
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

    @league.command(name=pgettext_noop("command name", "schedule"),
                    description=pgettext_noop("command description",
                                              "Start the league: make the weekly round robin "
                                              "(Manage Server)"))
    @app_commands.describe(
        league=pgettext_noop("command description",
                             "Which league (default: the one in this channel)"),
        first_day=pgettext_noop("command description",
                                "Date of round 1, YYYY-MM-DD (default: the next league day)"))
    @app_commands.rename(league=pgettext_noop("command name", "league"),
                         first_day=pgettext_noop("command name", "first_day"))
    async def schedule(self, interaction: discord.Interaction[Any], league: str | None = None,
                       first_day: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may start a league"))
            day = None
            if first_day is not None:
                try:
                    day = dt.date.fromisoformat(first_day.strip())
                except ValueError:
                    # Translators: {option} is the name of the option (first_day).
                    raise ClubError(N_("write {option} as YYYY-MM-DD"),
                                    option=Option("first_day")) from None
            fixtures = await start_league(self.store, chosen.id, self.now(), first_day=day)
            view = await league_view(self.store, chosen.id)
            rounds = max(f.round for f in fixtures)
            times = sorted(f.scheduled_at for f in fixtures if f.scheduled_at is not None)
            first = [f for f in fixtures if f.round == 1]
            lines = [fixture_line(view, f, t) for f in first[:FIRST_ROUND_LINES]]
            if len(first) > FIRST_ROUND_LINES:
                # Translators: {command} is a command and its option, "/league fixtures
                # round:1", the command shown as a link.
                lines.append(t.gettext("… and {count} more: {command}").format(
                    count=t.number(len(first) - FIRST_ROUND_LINES),
                    command=f"{command('league fixtures', t)} "
                            f"`{local_name('round', t)}:1`"))
            head = t.ngettext("{count} round, one a week, {start} to {end}.",
                              "{count} rounds, one a week, {start} to {end}.", rounds).format(
                count=t.number(rounds), start=stamp(times[0]), end=stamp(times[-1], "D"))
            round_one = t.gettext("**Round 1**")
            embed = discord.Embed(
                title=clip(t.gettext("League {league} has started").format(
                    league=safe_name(chosen.name)), 256), colour=COLOUR,
                description=clip(f"{head}\n\n{round_one}\n" + "\n".join(lines), 4000))
            # Translators: {command} is the command /league fixtures, as plain text.
            embed.set_footer(text=clip(t.gettext(
                "All fixtures: {command} · reminders are posted here 24 h and 1 h "
                "before each fixture").format(command=command_name("league fixtures", t)),
                2048))
            return Reply(embeds=[embed])
        await self._public(interaction, work)

    schedule.autocomplete("league")(LeagueChoices.league_names)

    @league.command(name=pgettext_noop("command name", "fixtures"),
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

    @league.command(name=pgettext_noop("command name", "standings"),
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

    @league.command(name=pgettext_noop("command name", "list"),
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

    @league.command(name=pgettext_noop("command name", "report"),
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

    @league.command(name=pgettext_noop("command name", "confirm"),
                    description=pgettext_noop("command description", "Confirm a reported result"))
    @app_commands.describe(fixture=pgettext_noop("command description", "The reported fixture"))
    @app_commands.rename(fixture=pgettext_noop("command name", "fixture"))
    async def confirm(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work(t: Translator) -> Reply:
            return Reply(content=await self.decide(interaction, fixture, True, t))
        await self._public(interaction, work)

    confirm.autocomplete("fixture")(LeagueChoices.reported_fixtures)

    @league.command(name=pgettext_noop("command name", "reject"),
                    description=pgettext_noop("command description", "Reject a reported result"))
    @app_commands.describe(fixture=pgettext_noop("command description", "The reported fixture"))
    @app_commands.rename(fixture=pgettext_noop("command name", "fixture"))
    async def reject(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work(t: Translator) -> Reply:
            return Reply(content=await self.decide(interaction, fixture, False, t))
        await self._public(interaction, work)

    reject.autocomplete("fixture")(LeagueChoices.reported_fixtures)

    @league.command(name=pgettext_noop("command name", "close"),
                    description=pgettext_noop("command description",
                                              "Close a league: final table (Manage Server)"))
    @app_commands.describe(league=pgettext_noop(
        "command description", "Which league (default: the one in this channel)"))
    @app_commands.rename(league=pgettext_noop("command name", "league"))
    async def close(self, interaction: discord.Interaction[Any],
                    league: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            chosen = await self.find_league(interaction, league)
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may close a league"))
            rows = await close_league(self.store, chosen.id, self.now())
            view = await league_view(self.store, chosen.id)
            lines = standings_lines(view, rows, t) or [t.gettext("no entrants")]
            return Reply(embeds=[paged_embed(
                t.gettext("{league} is closed — final standings").format(
                    league=safe_name(chosen.name)), lines, 1, t,
                t.gettext("Unplayed fixtures are void."))])
        await self._public(interaction, work)

    close.autocomplete("league")(LeagueChoices.league_names)


def paged_embed(title: str, lines: list[str], page: int, t: Translator,
                header: str | None = None) -> discord.Embed:
    """An embed showing page ``page`` (1-based, clamped) of ``lines``."""
    pages = pages_of(lines, 3800 - len(header or ""))
    index = min(max(page, 1), len(pages)) - 1
    body = "\n".join(pages[index])
    embed = discord.Embed(title=clip(title, 256), colour=COLOUR,
                          description=f"{header}\n\n{body}" if header else body)
    if len(pages) > 1:
        # Translators: {option} is the name of the option (page), as plain text.
        embed.set_footer(text=clip(t.gettext(
            "Page {page}/{pages} — use the {option} option for more").format(
                page=index + 1, pages=len(pages), option=local_name("page", t)), 2048))
    return embed


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


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (ReportButton,)
