"""The ``/league`` commands of the league's director (Manage Server): ``create`` (an open
league hosted in this channel), ``schedule`` (start it: the weekly round robin) and
``close`` (void what is unplayed, show the final table)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Final, Literal

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, guild_of, require_admin
from bot.discord_bot.club.club_texts import WEEKDAYS, clip, standings_lines
from bot.discord_bot.club.league_base import LEAGUE, LeagueCommandBase
from bot.discord_bot.club.league_embeds import created_embed, paged_embed, started_embed
from bot.discord_bot.club.league_support import LeagueChoices
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import Option
from bot.leagues.service import (
    CLOSED,
    LeagueSetup,
    close_league,
    create_league,
    league_formats,
    league_view,
    start_league,
)
from games.registry import GAMES

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
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.h]([0-5]\d)$")


def parse_time(text: str) -> dt.time:
    m = _TIME.match(text.strip())
    if m is None:
        raise ClubError(N_("cannot read the time {time}: write it as HH:MM, e.g. 19:30"),
                        time=safe_name(repr(clip(text, 20))))
    return dt.time(int(m[1]), int(m[2]))


class DirectorCommands(LeagueCommandBase):
    """``/league create``, ``schedule`` and ``close`` (mixed into
    :class:`bot.discord_bot.club.league_commands.LeagueCog`)."""

    @LEAGUE.command(name=pgettext_noop("command name", "create"),
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
            return Reply(embeds=[created_embed(league, view, size, t)])
        await self._public(interaction, work)

    create.autocomplete("timezone")(LeagueChoices.time_zones)

    @LEAGUE.command(name=pgettext_noop("command name", "schedule"),
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
            return Reply(embeds=[started_embed(chosen, view, fixtures, t)])
        await self._public(interaction, work)

    schedule.autocomplete("league")(LeagueChoices.league_names)

    @LEAGUE.command(name=pgettext_noop("command name", "close"),
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
