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
  :mod:`bot.discord_bot.club_texts` (``20-16 22-14``, or JSON), or a match played
  elsewhere as a full game record (``docs/records.md``). Exactly one of ``result`` (text,
  at most 4,000 characters) and ``sheet`` (a file, :func:`read_sheet`: at most 256 KB,
  refused by its announced size before the download, UTF-8) is given; the text of either
  takes the same path (:func:`bot.discord_bot.club_texts.read_report`, then
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
import contextlib
import datetime as dt
import logging
import re
import zoneinfo
from typing import Any, Final, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club_common import (
    ClubError,
    Reply,
    answer,
    guild_of,
    is_admin,
    require_admin,
    update_in_place,
)
from bot.discord_bot.club_texts import (
    WEEKDAYS,
    ScoresheetError,
    clip,
    fixture_choice_name,
    fixture_line,
    game_title,
    league_summary,
    pages_of,
    read_report,
    result_sentence,
    sheet_size_problem,
    sheet_text,
    stamp,
    standings_lines,
)
from bot.discord_bot.league_lookups import LeagueLookups
from bot.discord_bot.safe import safe_name
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
REMINDER_MENTIONS: Final = discord.AllowedMentions(everyone=False, roles=False, users=True)
LEAGUE_GAME_CHOICES: Final = [app_commands.Choice(name=info.title, value=name)
                              for name, info in GAMES.items() if league_formats(name)]
WEEKDAY_CHOICES: Final = [app_commands.Choice(name=d, value=i) for i, d in enumerate(WEEKDAYS)]
DEFAULT_WEEKDAY: Final = 4
DEFAULT_TIME: Final = "20:00"
DEFAULT_ZONE: Final = "UTC"
FIRST_ROUND_LINES: Final = 20
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")


def parse_time(text: str) -> dt.time:
    m = _TIME.match(text.strip())
    if m is None:
        raise ClubError(f"cannot read the time {clip(text, 20)!r}: write it as HH:MM, "
                        "e.g. 19:30")
    return dt.time(int(m[1]), int(m[2]))


def _cog(interaction: discord.Interaction[Any]) -> LeagueCog:
    cog = interaction.client.get_cog("ClubLeagues")
    if not isinstance(cog, LeagueCog):
        raise ClubError("leagues are not available right now")
    return cog


class ReportButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"club:fx:(?P<fixture>\d+):(?P<action>confirm|reject)"):
    """Confirm / Reject under a reported result (same checks as ``/league confirm``)."""

    def __init__(self, fixture_id: int, action: str) -> None:
        confirm = action == "confirm"
        super().__init__(discord.ui.Button(
            label="Confirm" if confirm else "Reject",
            style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.danger,
            custom_id=f"club:fx:{fixture_id}:{action}"))
        self.fixture_id, self.action = fixture_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> ReportButton:
        return cls(int(match["fixture"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            cog = _cog(interaction)
            text = await cog.decide(interaction, self.fixture_id, self.action == "confirm")
            return Reply(text)
        await update_in_place(interaction, work)


def report_view(fixture_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReportButton(fixture_id, "confirm"))
    view.add_item(ReportButton(fixture_id, "reject"))
    return view


class LeagueCog(LeagueLookups, commands.Cog, name="ClubLeagues"):
    """``/league`` commands and the fixture reminders."""

    league = app_commands.Group(name="league", description="Club leagues", guild_only=True)
    team = app_commands.Group(name="team", description="League teams", parent=league)

    def __init__(self, bot: commands.Bot, store: Store, clock: Clock, *,
                 run_reminders: bool = True, poll_seconds: float = 60.0) -> None:
        self.bot = bot
        self.store = store
        self.clock = clock
        self.reminders = ReminderScheduler(store, self.send_reminder, clock=clock,
                                           poll_seconds=poll_seconds,
                                           handles_guild=self.handles_guild)
        self.run_reminders = run_reminders
        self._task: asyncio.Task[None] | None = None

    # -- reminders ----------------------------------------------------------------------

    async def cog_load(self) -> None:
        if self.run_reminders:
            self._task = asyncio.create_task(self._remind(), name="club-reminders")

    async def cog_unload(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _remind(self) -> None:
        await self.bot.wait_until_ready()
        await self.reminders.run()

    def handles_guild(self, guild_id: int) -> bool:
        """Whether this process serves the guild (its shard is one of ours)."""
        count = self.bot.shard_count
        ids = getattr(self.bot, "shard_ids", None)
        if not count or ids is None:
            return True
        return (guild_id >> 22) % count in ids

    async def send_reminder(self, channel_id: int, text: str) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        await channel.send(clip(text, 2000), allowed_mentions=REMINDER_MENTIONS)

    # -- helpers ------------------------------------------------------------------------

    def now(self) -> dt.datetime:
        return self.clock.now()

    # -- autocomplete -------------------------------------------------------------------

    async def league_names(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        leagues = await self.store.list_leagues(interaction.guild_id)
        out = []
        for league in sorted(leagues, key=lambda lg: (lg.status == CLOSED, -lg.id)):
            if current.lower() in league.name.lower() or current == str(league.id):
                out.append(app_commands.Choice(
                    name=clip(f"{league.name} ({game_title(league.game)}, {league.status})",
                              100), value=str(league.id)))
        return out[:25]

    async def fixture_choices(self, interaction: discord.Interaction[Any], current: str,
                              statuses: tuple[str, ...]) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        admin = is_admin(interaction)
        out: list[app_commands.Choice[int]] = []
        for league in await self.store.list_leagues(interaction.guild_id):
            if league.status != "running":
                continue
            view = await league_view(self.store, league.id)
            for f in view.fixtures:
                if f.status not in statuses or f.away_entrant_id is None:
                    continue
                mine = interaction.user.id in (view.members(f.home_entrant_id)
                                               + view.members(f.away_entrant_id))
                name = fixture_choice_name(view, f)
                if (mine or admin) and current.lower() in name.lower():
                    out.append(app_commands.Choice(name=name, value=f.id))
                if len(out) >= 25:
                    return out
        return out

    async def report_fixtures(self, interaction: discord.Interaction[Any], current: str
                              ) -> list[app_commands.Choice[int]]:
        return await self.fixture_choices(interaction, current, ("scheduled", "reported"))

    async def reported_fixtures(self, interaction: discord.Interaction[Any], current: str
                                ) -> list[app_commands.Choice[int]]:
        return await self.fixture_choices(interaction, current, ("reported",))

    async def time_zones(self, interaction: discord.Interaction[Any], current: str
                         ) -> list[app_commands.Choice[str]]:
        wanted = current.lower().replace(" ", "_")
        zones = sorted(z for z in zoneinfo.available_timezones() if wanted in z.lower())
        return [app_commands.Choice(name=z, value=z) for z in zones[:25]]

    # -- commands -----------------------------------------------------------------------

    @league.command(name="create", description="Create a league hosted in this channel "
                    "(Manage Server)")
    @app_commands.describe(
        name="The league's name", game="The game played",
        weekday="Day of the weekly round (default Friday)",
        time="Kick-off time, HH:MM (default 20:00)",
        timezone="IANA time zone of the kick-off, e.g. Europe/Berlin (default UTC)",
        rounds="single: everyone meets once; double: home and away",
        players="Players per match (Albastini: 2 or 4; default 4 where possible)")
    @app_commands.choices(game=LEAGUE_GAME_CHOICES,  # type: ignore[misc]
                          weekday=WEEKDAY_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 80], game: str,
                     weekday: int | None = None, time: str | None = None,
                     timezone: str | None = None,
                     rounds: Literal["single", "double"] = "single",
                     players: Literal[2, 4] | None = None) -> None:
        async def work() -> Reply:
            guild_id = guild_of(interaction)
            require_admin(interaction, "create a league")
            assert interaction.channel_id is not None
            for other in await self.store.list_leagues(guild_id):
                if other.status != CLOSED and other.name.lower() == name.strip().lower():
                    raise ClubError(f"a league named {other.name!r} already exists")
            league = await create_league(
                self.store, guild_id, interaction.channel_id, name, game,
                weekday=DEFAULT_WEEKDAY if weekday is None else weekday,
                start_time=parse_time(time or DEFAULT_TIME),
                time_zone=(timezone or DEFAULT_ZONE).strip(), rounds=rounds,
                players=players)
            view = await league_view(self.store, league.id)
            size = league_formats(game)[LeagueSetup.of(league).players]
            how = ("teams enter with `/league team add`" if size > 1
                   else "players enter with `/league join`")
            embed = discord.Embed(
                title=clip(f"League {league.name} (#{league.id})", 256), colour=COLOUR,
                description=f"{league_summary(view)}\n\nOpen for entries: {how}. An admin "
                            "starts it with `/league schedule`.")
            return Reply(embeds=[embed])
        await answer(interaction, work)

    create.autocomplete("timezone")(time_zones)

    @team.command(name="add", description="Enter a team of two in a league")
    @app_commands.describe(name="Team name", member1="First player", member2="Second player",
                           league="Which league (default: the one in this channel)")
    async def team_add(self, interaction: discord.Interaction[Any],
                       name: app_commands.Range[str, 1, 60], member1: discord.User,
                       member2: discord.User, league: str | None = None) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            members = [member1, member2]
            if any(m.bot for m in members):
                raise ClubError("bots cannot play in a league")
            if interaction.user.id not in (m.id for m in members) and not is_admin(
                    interaction):
                raise ClubError("you may enter a team you play in (an admin may enter any)")
            if league_formats(chosen.game)[LeagueSetup.of(chosen).players] != 2:
                raise ClubError(f"league {chosen.name!r} is for single players: use "
                                "`/league join`")
            entrant = await join_league(self.store, chosen.id, [m.id for m in members],
                                        name=name)
            return Reply(content=f"Team **{safe_name(clip(entrant.name or name, 60))}** "
                                 f"(<@{member1.id}> & <@{member2.id}>) entered league "
                                 f"**{safe_name(chosen.name)}**.")
        await answer(interaction, work)

    team_add.autocomplete("league")(league_names)

    @league.command(name="join", description="Enter a league of a two-player game yourself")
    @app_commands.describe(league="Which league (default: the one in this channel)")
    async def join(self, interaction: discord.Interaction[Any],
                   league: str | None = None) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            if league_formats(chosen.game)[LeagueSetup.of(chosen).players] != 1:
                raise ClubError(f"league {chosen.name!r} is played by teams of two: use "
                                "`/league team add`")
            await join_league(self.store, chosen.id, [interaction.user.id])
            return Reply(content=f"<@{interaction.user.id}> entered league "
                                 f"**{safe_name(chosen.name)}**.")
        await answer(interaction, work)

    join.autocomplete("league")(league_names)

    @league.command(name="withdraw", description="Withdraw your entrant from a league")
    @app_commands.describe(league="Which league (default: the one in this channel)",
                           member="Withdraw this member's entrant (admins)")
    async def withdraw_command(self, interaction: discord.Interaction[Any],
                               league: str | None = None,
                               member: discord.User | None = None) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            if member is not None and member.id != interaction.user.id:
                require_admin(interaction, "withdraw another member")
            who = member.id if member is not None else interaction.user.id
            view = await league_view(self.store, chosen.id)
            entrant_id = await self.entrant_of(view, who)
            label = view.label(entrant_id)
            done = await withdraw(self.store, chosen.id, entrant_id, self.now())
            lines = [f"{label} withdrew from league **{safe_name(chosen.name)}**."]
            if chosen.status == "open":
                lines.append("The league has not started: it is simply left out of the "
                             "schedule.")
            else:
                if done.forfeited:
                    lines.append(f"{len(done.forfeited)} unplayed fixture(s) become forfeits "
                                 "won by the opponent (0–0, a win's points):")
                    lines += [fixture_line(view, f) for f in done.forfeited]
                if done.voided:
                    lines.append(f"{len(done.voided)} bye(s) of theirs are void.")
                if not done.forfeited and not done.voided:
                    lines.append("No unplayed fixture was left; results already played "
                                 "stand.")
                else:
                    lines.append("Results already played stand.")
            return Reply(content="\n".join(pages_of(lines, 1900)[0]))
        await answer(interaction, work)

    withdraw_command.autocomplete("league")(league_names)

    @league.command(name="schedule", description="Start the league: make the weekly round "
                    "robin (Manage Server)")
    @app_commands.describe(league="Which league (default: the one in this channel)",
                           first_day="Date of round 1, YYYY-MM-DD (default: the next "
                                     "league day)")
    async def schedule(self, interaction: discord.Interaction[Any], league: str | None = None,
                       first_day: str | None = None) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            require_admin(interaction, "start a league")
            day = None
            if first_day is not None:
                try:
                    day = dt.date.fromisoformat(first_day.strip())
                except ValueError:
                    raise ClubError("write first_day as YYYY-MM-DD") from None
            fixtures = await start_league(self.store, chosen.id, self.now(), first_day=day)
            view = await league_view(self.store, chosen.id)
            rounds = max(f.round for f in fixtures)
            times = sorted(f.scheduled_at for f in fixtures if f.scheduled_at is not None)
            first = [f for f in fixtures if f.round == 1]
            lines = [fixture_line(view, f) for f in first[:FIRST_ROUND_LINES]]
            if len(first) > FIRST_ROUND_LINES:
                lines.append(f"… and {len(first) - FIRST_ROUND_LINES} more: "
                             "`/league fixtures round:1`")
            embed = discord.Embed(
                title=clip(f"League {chosen.name} has started", 256), colour=COLOUR,
                description=(f"{rounds} round{'s' if rounds != 1 else ''}, one a week, "
                             f"{stamp(times[0])} to {stamp(times[-1], 'D')}.\n\n"
                             "**Round 1**\n" + "\n".join(lines))[:4000])
            embed.set_footer(text="All fixtures: /league fixtures · reminders are posted "
                                  "here 24 h and 1 h before each fixture")
            return Reply(embeds=[embed])
        await answer(interaction, work)

    schedule.autocomplete("league")(league_names)

    @league.command(name="fixtures", description="A league's fixtures and results")
    @app_commands.describe(league="Which league (default: the one in this channel)",
                           round="One round only", page="Page of a long list")
    async def fixtures(self, interaction: discord.Interaction[Any], league: str | None = None,
                       round: app_commands.Range[int, 1, 200] | None = None,
                       page: app_commands.Range[int, 1, 100] = 1) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            view = await league_view(self.store, chosen.id, round=round)
            lines = [fixture_line(view, f) for f in view.fixtures]
            if not lines:
                text = ("no fixtures yet: the league starts with `/league schedule`"
                        if chosen.status == "open" else "no fixtures in that round")
                raise ClubError(text)
            return Reply(embeds=[paged_embed(
                f"{chosen.name} — fixtures" + (f", round {round}" if round else ""),
                lines, page)])
        await answer(interaction, work)

    fixtures.autocomplete("league")(league_names)

    @league.command(name="standings", description="A league's table")
    @app_commands.describe(league="Which league (default: the one in this channel)",
                           page="Page of a long table")
    async def standings_command(self, interaction: discord.Interaction[Any],
                                league: str | None = None,
                                page: app_commands.Range[int, 1, 100] = 1) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            view = await league_view(self.store, chosen.id)
            rows = await standings(self.store, chosen.id)
            if not rows:
                raise ClubError(f"league {chosen.name!r} has no entrants yet")
            return Reply(embeds=[paged_embed(f"{chosen.name} — standings",
                                             standings_lines(view, rows), page,
                                             league_summary(view))])
        await answer(interaction, work)

    standings_command.autocomplete("league")(league_names)

    @league.command(name="list", description="The server's leagues")
    async def list_command(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            leagues = await self.store.list_leagues(guild_of(interaction))
            if not leagues:
                return Reply(content="No leagues yet: an admin creates one with "
                                     "`/league create`.")
            lines = [f"`#{lg.id}` **{safe_name(lg.name)}** · {game_title(lg.game)} · {lg.status} · "
                     f"<#{lg.channel_id}>" for lg in reversed(leagues)]
            return Reply(embeds=[paged_embed("Leagues", lines, 1)])
        await answer(interaction, work)

    @league.command(name="report",
                    description="Report a match played at a physical table or elsewhere, as "
                                "text or a file")
    @app_commands.describe(
        fixture="The fixture (autocompleted)",
        result="Deals as HOME-AWAY, e.g. '20-16 22-14' (Turup kort: 9-0:made), or JSON; "
               "or attach a sheet",
        sheet="A file instead of result: a scoresheet (text or JSON) or a tricktable game "
              "record, ≤ 256 KB",
        first_dealer="Seat of the first dealer (default 0; home players sit 0 and 2)")
    async def report(self, interaction: discord.Interaction[Any], fixture: int,
                     result: app_commands.Range[str, 1, 4000] | None = None,
                     sheet: discord.Attachment | None = None,
                     first_dealer: app_commands.Range[int, 0, 3] | None = None) -> None:
        async def work() -> Reply:
            if (result is None) == (sheet is None):
                raise ClubError("give the result either as text (the result option) or as a "
                                "file (the sheet option): " + (
                                    "not both" if result is not None else "neither was given"))
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
            pings = " ".join(f"<@{m}>" for m in confirmers)
            deals = len((done.result or {}).get("record", {}).get("deals", []))
            source = " of a game record" if read.record is not None else ""
            return Reply(
                content=(f"📋 **{safe_name(view.league.name)}**, fixture #{done.id} "
                         f"(round {done.round}): "
                         f"<@{reporter}> reports {result_sentence(view, done)} over "
                         f"{deals} deal{'s' if deals != 1 else ''}{source}.\n"
                         f"{pings}: confirm or reject it (or an admin does) — it counts "
                         "once confirmed."),
                view=report_view(done.id), ping=confirmers)
        await answer(interaction, work)

    report.autocomplete("fixture")(report_fixtures)

    @league.command(name="confirm", description="Confirm a reported result")
    @app_commands.describe(fixture="The reported fixture")
    async def confirm(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work() -> Reply:
            return Reply(content=await self.decide(interaction, fixture, True))
        await answer(interaction, work)

    confirm.autocomplete("fixture")(reported_fixtures)

    @league.command(name="reject", description="Reject a reported result")
    @app_commands.describe(fixture="The reported fixture")
    async def reject(self, interaction: discord.Interaction[Any], fixture: int) -> None:
        async def work() -> Reply:
            return Reply(content=await self.decide(interaction, fixture, False))
        await answer(interaction, work)

    reject.autocomplete("fixture")(reported_fixtures)

    @league.command(name="close", description="Close a league: final table (Manage Server)")
    @app_commands.describe(league="Which league (default: the one in this channel)")
    async def close(self, interaction: discord.Interaction[Any],
                    league: str | None = None) -> None:
        async def work() -> Reply:
            chosen = await self.find_league(interaction, league)
            require_admin(interaction, "close a league")
            rows = await close_league(self.store, chosen.id, self.now())
            view = await league_view(self.store, chosen.id)
            lines = standings_lines(view, rows) or ["no entrants"]
            return Reply(embeds=[paged_embed(
                f"{chosen.name} is closed — final standings", lines, 1,
                "Unplayed fixtures are void.")])
        await answer(interaction, work)

    close.autocomplete("league")(league_names)


def paged_embed(title: str, lines: list[str], page: int, header: str | None = None
                ) -> discord.Embed:
    """An embed showing page ``page`` (1-based, clamped) of ``lines``."""
    pages = pages_of(lines, 3800 - len(header or ""))
    index = min(max(page, 1), len(pages)) - 1
    body = "\n".join(pages[index])
    embed = discord.Embed(title=clip(title, 256), colour=COLOUR,
                          description=f"{header}\n\n{body}" if header else body)
    if len(pages) > 1:
        embed.set_footer(text=f"Page {index + 1}/{len(pages)} — use the page option for more")
    return embed


async def read_sheet(sheet: discord.Attachment) -> str:
    """The text of a ``sheet`` file: refused by its announced size before anything is
    downloaded, then read once and decoded (:func:`bot.discord_bot.club_texts.sheet_text`).
    Raises :class:`ScoresheetError` or :class:`ClubError` with a message for the user."""
    problem = sheet_size_problem(sheet.size)
    if problem is not None:
        raise ScoresheetError(problem)
    try:
        data = await sheet.read()
    except discord.HTTPException as exc:
        log.warning("could not download report sheet %s: %s", sheet.url, exc)
        raise ClubError("the file could not be downloaded from Discord; try again") from None
    return sheet_text(data)


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (ReportButton,)
