"""The director's ``/duplicate`` commands (Manage Server, refused server-side to others):
``create`` an event in this channel (optionally a round of a running league) and ``close``
it now. The times a director writes are read by :func:`parse_when`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord
from discord import app_commands

from bot.discord_bot.club.club_common import ClubError, Reply, guild_of, require_admin
from bot.discord_bot.club.club_texts import clip
from bot.discord_bot.club.duplicate_base import (
    DUPLICATE,
    GAME_CHOICES,
    DuplicateCommandBase,
    event_line,
    event_option,
)
from bot.discord_bot.club.league_lookups import LeagueLookups
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.tables.table_commands import checked_options
from bot.duplicate.text import rules_line
from bot.i18n import N_, Translator, pgettext_noop
from bot.i18n.commands import command
from games.registry import GAMES

SCORING_CHOICES: Final = [
    app_commands.Choice(name=pgettext_noop("command description", "matchpoints"),
                        value="matchpoints"),
    app_commands.Choice(name=pgettext_noop("command description", "IMPs (Tarabish)"),
                        value="imps")]


def parse_when(text: str, zone: ZoneInfo) -> dt.datetime:
    """``YYYY-MM-DD HH:MM`` in ``zone`` as an aware datetime (ClubError otherwise)."""
    try:
        local = dt.datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    except ValueError:
        raise ClubError(N_("cannot read the time {time}: write it as YYYY-MM-DD HH:MM"),
                        time=safe_name(repr(clip(text, 30)))) from None
    return local.replace(tzinfo=zone).astimezone(dt.UTC)


class DirectorCommands(DuplicateCommandBase, LeagueLookups):
    """``/duplicate create`` and ``/duplicate close``; each checks Manage Server itself."""

    @DUPLICATE.command(name=pgettext_noop("command name", "create"),
                       description=pgettext_noop("command description",
                                                 "Create a duplicate event in this channel "
                                                 "(Manage Server)"))
    @app_commands.describe(
        name=pgettext_noop("command description", "The event's name"),
        game=pgettext_noop("command description", "The game played"),
        boards=pgettext_noop("command description", "Number of boards (deals), 1 to 36"),
        closes=pgettext_noop("command description", "When it closes: YYYY-MM-DD HH:MM"),
        opens=pgettext_noop("command description",
                            "When it opens: YYYY-MM-DD HH:MM (default now)"),
        timezone=pgettext_noop("command description",
                               "IANA time zone of the times, e.g. Europe/Berlin (default UTC)"),
        scoring=pgettext_noop("command description", "Matchpoints, or IMPs for Tarabish"),
        leaderboard=pgettext_noop("command description",
                                  "Whether results count for the duplicate leaderboard"),
        players=pgettext_noop("command description", "Players at a table where the game "
                                                     "allows several"),
        league=pgettext_noop("command description",
                             "Make it a round of this running league (its number or name)"),
        options=pgettext_noop("command description", 'rule options as JSON, e.g. {"target": 1}'))
    @app_commands.rename(name=pgettext_noop("command name", "name"),
                         game=pgettext_noop("command name", "game"),
                         boards=pgettext_noop("command name", "boards"),
                         closes=pgettext_noop("command name", "closes"),
                         opens=pgettext_noop("command name", "opens"),
                         timezone=pgettext_noop("command name", "timezone"),
                         scoring=pgettext_noop("command name", "scoring"),
                         leaderboard=pgettext_noop("command name", "leaderboard"),
                         players=pgettext_noop("command name", "players"),
                         league=pgettext_noop("command name", "league"),
                         options=pgettext_noop("command name", "options"))
    @app_commands.choices(game=GAME_CHOICES, scoring=SCORING_CHOICES)
    async def create(self, interaction: discord.Interaction[Any],
                     name: app_commands.Range[str, 1, 80], game: str,
                     boards: app_commands.Range[int, 1, 36], closes: str,
                     opens: str | None = None, timezone: str | None = None,
                     scoring: Literal["matchpoints", "imps"] = "matchpoints",
                     leaderboard: bool = False, players: int | None = None,
                     league: str | None = None, options: str | None = None) -> None:
        async def work(t: Translator) -> Reply:
            guild_id = guild_of(interaction)
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may create a duplicate event"))
            zone_name = (timezone or "UTC").strip()
            try:
                zone = ZoneInfo(zone_name)
            except (ZoneInfoNotFoundError, ValueError):
                raise ClubError(N_("unknown time zone {zone}"),
                                zone=safe_name(repr(clip(zone_name, 40)))) from None
            info = GAMES.get(game)
            if info is None:
                raise ClubError(N_("Unknown game {game}."), game=safe_name(clip(game, 30)))
            if options and league is not None and league.strip():
                raise ClubError(N_("a round of a league plays the league's rule options"))
            rules = checked_options(info, options, players)  # as /table new reads them
            start = (self.service.clock.now() if opens is None
                     else parse_when(opens, zone))
            assert interaction.channel_id is not None
            round_of = (None if league is None or not league.strip()
                        else await self.find_league(interaction, league))
            event = await self.service.create_event(
                guild_id, interaction.channel_id, name, game, boards=boards, opens_at=start,
                closes_at=parse_when(closes, zone), time_zone=zone_name,
                created_by=interaction.user.id, scoring=scoring, leaderboard=leaderboard,
                players=players, league_id=None if round_of is None else round_of.id,
                options=rules or None)
            if round_of is not None:
                # Translators: {league} is a league's name; {play} a command shown as a link.
                how = t.gettext("A round of the league {league}: its teams are entered; "
                                "they play their boards with {play}.").format(
                    league=safe_name(round_of.name), play=command("duplicate play", t))
            else:
                # Translators: {enter} and {play} are commands shown as links.
                how = t.gettext("Enter with {enter}, then play your boards with "
                                "{play}.").format(enter=command("duplicate enter", t),
                                                  play=command("duplicate play", t))
            in_force = rules_line(event.game, event.options, t)
            return Reply(f"{event_line(event, t)}\n{in_force}\n{how}")
        await self._public(interaction, work)

    @DUPLICATE.command(name=pgettext_noop("command name", "close"),
                       description=pgettext_noop("command description",
                                                 "Close a duplicate event now (Manage Server)"))
    @event_option
    async def close(self, interaction: discord.Interaction[Any],
                    event: int | None = None) -> None:
        async def work(t: Translator) -> Reply:
            require_admin(interaction, N_("only members with the Manage Server permission "
                                          "may close a duplicate event"))
            chosen = await self._event(interaction, event)
            await self.service.close(chosen.id, chosen.guild_id)
            return Reply(t.gettext("{event} is closed; the results are posted in a "
                                   "thread.").format(event=safe_name(chosen.name)))
        await self._public(interaction, work)
