"""The club commands: ``/leaderboard``, ``/stats``, ``/history`` and ``/league …``.

:func:`setup` is what ``bot.app`` calls once the store and the table service are up: it
adds the two cogs (:class:`bot.discord_bot.leaderboard.StatsCog`,
:class:`bot.discord_bot.league_commands.LeagueCog`), registers their persistent components
(dynamic items: leaderboard paging, the history's paging buttons and record menu, a
report's confirm/reject buttons) and starts the fixture reminders, stopped again in the
league cog's ``cog_unload``.

The commands are a thin layer on the discord-free domain code (``docs/leagues.md``); this
module holds what both cogs share:

* :func:`answer` — runs a command's work and answers the interaction: directly when the
  work takes less than :data:`DEFER_AFTER` seconds (so a refusal can be ephemeral), else
  after a deferral that keeps the interaction inside Discord's 3-second window.
* :func:`update_in_place` — the same for a component click that replaces its own message
  (``/history`` paging).
* user-facing refusals (:class:`bot.leagues.service.LeagueError`, :class:`ClubError`,
  :class:`bot.discord_bot.club_texts.ScoresheetError`) are answered ephemerally with their
  message and change nothing; anything else is logged and answered with a short apology.
* :func:`is_admin` — Manage Server, read from the member's permissions in the interaction
  (so a server that re-grants a command to other roles still cannot bypass the check).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import discord
from discord.ext import commands

from bot.discord_bot.club_texts import CONTENT_LIMIT, ScoresheetError, clip
from bot.leagues.service import LeagueError
from bot.service import TableService
from storage.base import Store

log = logging.getLogger(__name__)

DEFER_AFTER: Final = 2.0
"""Seconds of work after which the interaction is deferred (Discord allows 3)."""

NO_PINGS: Final = discord.AllowedMentions.none()


class ClubError(Exception):
    """A club command refused, with a message for the user."""


USER_ERRORS: Final = (ClubError, LeagueError, ScoresheetError)


@dataclass
class Reply:
    """What a command answers with."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    view: discord.ui.View | None = None
    ephemeral: bool = False
    ping: tuple[int, ...] = ()
    """Users whose mentions in ``content`` notify them (nobody else is ever pinged)."""

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "embeds": self.embeds,
            "files": [discord.File(io.BytesIO(data), filename=name)
                      for name, data in self.files],
            "allowed_mentions": (discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in self.ping])
                if self.ping else NO_PINGS),
        }
        if self.content is not None:
            out["content"] = clip(self.content, CONTENT_LIMIT)
        if self.view is not None:
            out["view"] = self.view
        return out


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may run admin club commands (Manage Server)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def require_admin(interaction: discord.Interaction[Any], what: str) -> None:
    if not is_admin(interaction):
        raise ClubError(f"only members with the Manage Server permission may {what}")


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise ClubError("this command works in a server channel only")
    return interaction.guild_id


async def send_error(interaction: discord.Interaction[Any], message: str) -> None:
    """Tell the user, privately where Discord allows: ephemeral when nothing was answered
    yet; after a public deferral the loading message itself shows the refusal."""
    text = clip(f"⚠️ {message}", CONTENT_LIMIT)
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=NO_PINGS)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)
    else:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def _run(
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[Reply]],
    defer_after: float | None,
    what: str,
    defer: Callable[[], Awaitable[Any]],
) -> tuple[Reply | None, bool]:
    """Run ``work``, calling ``defer`` if it is still running after ``defer_after`` seconds
    (default :data:`DEFER_AFTER`, read at call time; 0 or less: at once). Returns its
    :class:`Reply` and whether the interaction was deferred; ``None`` when the work failed,
    after telling the user (:func:`send_error`; a failure other than a user error is
    also logged, as a failed club ``what``)."""
    wait = DEFER_AFTER if defer_after is None else defer_after
    task = asyncio.ensure_future(work())
    deferred = False
    if wait <= 0 or not (await asyncio.wait({task}, timeout=wait))[0]:
        await defer()
        deferred = True
    try:
        return await task, deferred
    except USER_ERRORS as exc:
        await send_error(interaction, str(exc))
    except Exception:
        log.exception("club %s %s failed", what, _name(interaction))
        await send_error(interaction, "something went wrong; the error was logged")
    return None, deferred


async def answer(
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[Reply]],
    *,
    defer_after: float | None = None,
) -> None:
    """Run ``work`` and answer with its :class:`Reply`; user errors answer ephemerally.

    The interaction is deferred (publicly, "thinking") if the work is still running after
    ``defer_after`` seconds (default :data:`DEFER_AFTER`, read at call time)."""
    reply, deferred = await _run(interaction, work, defer_after, "command",
                                 lambda: interaction.response.defer(thinking=True))
    if reply is None:
        return
    if deferred:
        kwargs = reply.kwargs()
        kwargs["wait"] = True
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(ephemeral=reply.ephemeral, **reply.kwargs())


async def update_in_place(
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[Reply]],
    *,
    defer_after: float | None = None,
) -> None:
    """Run ``work`` for a component click and replace the clicked message's content,
    embeds, attachments and view with its :class:`Reply` (``content`` None keeps the
    content; ``ephemeral`` and ``ping`` are ignored: the message stays what it was).

    Answered in one request (an update) when the work takes less than ``defer_after``
    seconds (default :data:`DEFER_AFTER`, read at call time), else after a deferred update
    and then an edit. A user error (:data:`USER_ERRORS`) or any other failure leaves the
    message unchanged and tells the clicker privately (an ephemeral message, or an
    ephemeral follow-up after a deferral); other failures are also logged."""
    reply, deferred = await _run(interaction, work, defer_after, "component",
                                 interaction.response.defer)
    if reply is None:
        return
    kwargs: dict[str, Any] = {
        "embeds": reply.embeds,
        "attachments": [discord.File(io.BytesIO(data), filename=name)
                        for name, data in reply.files],
        "view": reply.view,
        "allowed_mentions": NO_PINGS,
    }
    if reply.content is not None:
        kwargs["content"] = clip(reply.content, CONTENT_LIMIT)
    if deferred:
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


def _name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    return command.qualified_name if command is not None else str(interaction.data)


async def setup(bot: commands.Bot, *, store: Store, service: TableService,
                reminders: bool = True, reminder_poll_seconds: float = 60.0) -> None:
    """Add the club cogs and persistent components to ``bot`` and start the reminders.

    ``service`` gives the clock ("now" for league commands and reminders); the reminder
    task runs until the league cog is removed (``cog_unload``) or the bot closes. With
    ``reminders=False`` the scheduler is built but not run (tests drive its ``tick``)."""
    from bot.discord_bot.leaderboard import StatsCog
    from bot.discord_bot.leaderboard import dynamic_items as stats_items
    from bot.discord_bot.league_commands import LeagueCog
    from bot.discord_bot.league_commands import dynamic_items as league_items

    await bot.add_cog(StatsCog(bot, store))
    await bot.add_cog(LeagueCog(bot, store, service.clock, run_reminders=reminders,
                                poll_seconds=reminder_poll_seconds))
    bot.add_dynamic_items(*stats_items(), *league_items())

