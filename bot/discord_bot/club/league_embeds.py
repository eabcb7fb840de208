"""The embeds the ``/league`` commands answer with: a created league, a started one (its
first round), and a page of a long list (fixtures, standings, the server's leagues)."""

from __future__ import annotations

from typing import Final

import discord

from bot.discord_bot.club.club_texts import (
    clip,
    fixture_line,
    league_summary,
    pages_of,
    stamp,
)
from bot.discord_bot.drawing.safe import safe_name
from bot.i18n import Translator
from bot.i18n.commands import command, command_name, local_name
from bot.leagues.service import LeagueView
from storage.models import Fixture, League

COLOUR: Final = discord.Colour.dark_green()
FIRST_ROUND_LINES: Final = 20
"""How many fixtures of round 1 the started league's embed lists."""


def created_embed(league: League, view: LeagueView, size: int, t: Translator
                  ) -> discord.Embed:
    """A league just created, open for entries of ``size`` players (teams when more than
    one), and how it is entered and started."""
    # Translators: {enter} and {schedule} are commands (/league team add or
    # /league join, /league schedule), shown as links in the reader's language.
    how = (t.gettext("Open for entries: teams enter with {enter}. An admin starts it "
                     "with {schedule}.") if size > 1 else
           t.gettext("Open for entries: players enter with {enter}. An admin starts "
                     "it with {schedule}.")).format(
        enter=command("league team add" if size > 1 else "league join", t),
        schedule=command("league schedule", t))
    return discord.Embed(
        title=clip(t.gettext("League {league} (#{number})").format(
            league=safe_name(league.name), number=league.id), 256), colour=COLOUR,
        description=clip(f"{league_summary(view, t)}\n\n{how}", 4096))


def started_embed(league: League, view: LeagueView, fixtures: list[Fixture],
                  t: Translator) -> discord.Embed:
    """A league just started: how many weekly rounds from when to when, round 1's
    fixtures (the first :data:`FIRST_ROUND_LINES`) and where the rest is."""
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
            league=safe_name(league.name)), 256), colour=COLOUR,
        description=clip(f"{head}\n\n{round_one}\n" + "\n".join(lines), 4000))
    # Translators: {command} is the command /league fixtures, as plain text.
    embed.set_footer(text=clip(t.gettext(
        "All fixtures: {command} · reminders are posted here 24 h and 1 h "
        "before each fixture").format(command=command_name("league fixtures", t)),
        2048))
    return embed


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
