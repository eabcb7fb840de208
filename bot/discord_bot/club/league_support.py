"""What the ``/league`` cog has besides its commands: the fixture reminders it runs, the
autocomplete of leagues, fixtures and time zones, and its answer helper (public in the
server's language, refusals in the member's). Mixed into
:class:`bot.discord_bot.club.league_commands.LeagueCog`."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import zoneinfo
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club.club_common import Reply, answer_publicly, is_admin
from bot.discord_bot.club.club_texts import (
    LEAGUE_STATUS,
    clip,
    fixture_choice_name,
    fixture_line,
    game_title,
    result_sentence,
)
from bot.discord_bot.drawing.safe import clean_text, pings, safe_name
from bot.discord_bot.languages import Languages
from bot.i18n import Translator
from bot.leagues.reminders import ReminderScheduler
from bot.leagues.service import CLOSED, LeagueView, Withdrawal, league_view
from bot.service.clock import Clock
from storage.base import Store
from storage.models import Fixture, League


def league_status(status: str, t: Translator) -> str:
    """A league's status in words."""
    return t.gettext(LEAGUE_STATUS[status]) if status in LEAGUE_STATUS else status


def withdrawal_lines(view: LeagueView, league: League, label: str, done: Withdrawal,
                     t: Translator) -> list[str]:
    """What became of a withdrawn entrant's fixtures, in ``t``'s language: before the
    start it is just left out; after it, unplayed fixtures are forfeits won by the opponent
    and its byes are void."""
    lines = [t.gettext("{team} withdrew from league **{league}**.").format(
        team=label, league=safe_name(league.name))]
    if league.status == "open":
        lines.append(t.gettext("The league has not started: it is simply left out of the "
                               "schedule."))
        return lines
    if done.forfeited:
        lines.append(t.ngettext(
            "{count} unplayed fixture becomes a forfeit won by the opponent (0–0, a win's "
            "points):",
            "{count} unplayed fixtures become forfeits won by the opponent (0–0, a win's "
            "points):", len(done.forfeited)).format(count=t.number(len(done.forfeited))))
        lines += [fixture_line(view, f, t) for f in done.forfeited]
    if done.voided:
        lines.append(t.ngettext("{count} bye of theirs is void.",
                                "{count} byes of theirs are void.", len(done.voided)).format(
                                    count=t.number(len(done.voided))))
    if not done.forfeited and not done.voided:
        lines.append(t.gettext("No unplayed fixture was left; results already played stand."))
    else:
        lines.append(t.gettext("Results already played stand."))
    return lines


def report_announcement(view: LeagueView, done: Fixture, reporter: int,
                        confirmers: Sequence[int], from_record: bool, t: Translator) -> str:
    """The public post of a reported result: who reports what over how many deals, and
    who is asked to confirm it."""
    deals = len((done.result or {}).get("record", {}).get("deals", []))
    fields = {"league": safe_name(view.league.name), "fixture": done.id, "round": done.round,
              "player": f"<@{reporter}>", "result": result_sentence(view, done, t),
              "count": t.number(deals)}
    if from_record:
        head = t.ngettext(
            "📋 **{league}**, fixture #{fixture} (round {round}): {player} reports {result} "
            "over {count} deal of a game record.",
            "📋 **{league}**, fixture #{fixture} (round {round}): {player} reports {result} "
            "over {count} deals of a game record.", deals)
    else:
        head = t.ngettext(
            "📋 **{league}**, fixture #{fixture} (round {round}): {player} reports {result} "
            "over {count} deal.",
            "📋 **{league}**, fixture #{fixture} (round {round}): {player} reports {result} "
            "over {count} deals.", deals)
    ask = t.gettext("{players}: confirm or reject it (or an admin does) — it counts once "
                    "confirmed.").format(players=" ".join(f"<@{m}>" for m in confirmers))
    return clip(f"{head.format(**fields)}\n{ask}", 2000)


class LeagueReminders:
    """The fixture reminders of the process's guilds (needs ``bot`` and ``reminders``)."""

    bot: commands.Bot
    reminders: ReminderScheduler
    run_reminders: bool
    _task: asyncio.Task[None] | None

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

    async def send_reminder(self, channel_id: int, text: str, members: tuple[int, ...]
                            ) -> None:
        """Post a fixture reminder that pings exactly the fixture's ``members``."""
        channel = self.bot.get_partial_messageable(channel_id)
        await channel.send(clip(text, 2000), allowed_mentions=pings(members))



class LeagueChoices:
    """Autocomplete and the answer helper of the league commands."""

    store: Store
    clock: Clock
    languages: Languages

    def now(self) -> dt.datetime:
        return self.clock.now()

    async def _public(self, interaction: discord.Interaction[Any],
                      work: Callable[[Translator], Awaitable[Reply]]) -> None:
        await answer_publicly(interaction, self.languages, work)

    # -- autocomplete -------------------------------------------------------------------

    async def league_names(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        leagues = await self.store.list_leagues(interaction.guild_id)
        t = await self.languages.reader(interaction)
        out = []
        for league in sorted(leagues, key=lambda lg: (lg.status == CLOSED, -lg.id)):
            if current.lower() in league.name.lower() or current == str(league.id):
                out.append(app_commands.Choice(
                    name=clip(f"{clean_text(league.name)} ({game_title(league.game)}, "
                              f"{league_status(league.status, t)})", 100),
                    value=str(league.id)))
        return out[:25]

    async def fixture_choices(self, interaction: discord.Interaction[Any], current: str,
                              statuses: tuple[str, ...]) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        admin = is_admin(interaction)
        t = await self.languages.reader(interaction)
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
                name = fixture_choice_name(view, f, t)
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
