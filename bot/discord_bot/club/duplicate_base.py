"""What every ``/duplicate`` command shares (``bot/discord_bot/club/duplicate_commands.py``
puts them together in one cog): the command group, the ``event`` option, how a command
answers (publicly or privately, the duplicate service's refusals told as the club's), which
event a command is about, and an event's line in a list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.club.club_common import (
    ClubError,
    Reply,
    answer,
    answer_publicly,
    guild_of,
)
from bot.discord_bot.club.club_texts import stamp
from bot.discord_bot.club.duplicate_posts import DuplicatePosts
from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.languages import Languages
from bot.duplicate.service import DuplicateError, DuplicateService
from bot.i18n import N_, Translator, pgettext_noop
from games.registry import GAMES
from storage.base import Store
from storage.duplicate import DuplicateEvent

DUPLICATE: Final = app_commands.Group(
    name=pgettext_noop("command name", "duplicate"),
    description=pgettext_noop("command description", "Club duplicate nights"),
    guild_only=True)
"""The ``/duplicate`` group: the director's and the members' commands are its children, the
cog holds it (``DuplicateCog.duplicate``)."""

GAME_CHOICES: Final = [app_commands.Choice(name=info.title, value=name)
                       for name, info in GAMES.items()]


def event_line(event: DuplicateEvent, t: Translator) -> str:
    """``#3 Friday night · Turup · 12 boards · open until <t:…>``."""
    # Translators: A duplicate event in a list: {number} its number, {name} its name,
    # {game} the game, {boards} the number of boards, {closes} a date and time.
    text = (t.gettext("#{number} **{name}** · {game} · boards: {boards} · open until {closes}")
            if event.status == "open" else
            t.gettext("#{number} **{name}** · {game} · boards: {boards} · closed"))
    return text.format(number=event.id, name=safe_name(event.name),
                       game=GAMES[event.game].title, boards=t.number(event.boards),
                       closes=stamp(event.closes_at))


_F = TypeVar("_F", bound=Callable[..., Any])
EVENT_HELP: Final = pgettext_noop("command description",
                                  "The event's number (default: the open one)")
EVENT_NAME: Final = pgettext_noop("command name", "event")


def event_option(command: _F) -> _F:
    """Name and describe a command's optional ``event`` option (an event's number, the open
    event by default) the one way every ``/duplicate`` command does."""
    return app_commands.rename(event=EVENT_NAME)(app_commands.describe(event=EVENT_HELP)(command))


class DuplicateCommandBase(commands.Cog):
    """The state the ``/duplicate`` commands read (set by :class:`DuplicateCog
    <bot.discord_bot.club.duplicate_commands.DuplicateCog>`) and how they answer. A cog
    class only so that its subclasses may hold children of :data:`DUPLICATE`; the one cog
    added to the bot is ``DuplicateCog``."""

    bot: commands.Bot
    store: Store
    languages: Languages
    service: DuplicateService
    posts: DuplicatePosts

    async def _public(self, interaction: discord.Interaction[Any],
                      work: Callable[[Translator], Awaitable[Reply]]) -> None:
        await answer_publicly(interaction, self.languages, lambda t: _refusing(work(t)))

    async def _private(self, interaction: discord.Interaction[Any],
                       work: Callable[[Translator], Awaitable[Reply]]) -> None:
        reader = await self.languages.reader(interaction)

        async def run() -> Reply:
            reply = await _refusing(work(reader))
            reply.ephemeral = True
            return reply
        await answer(interaction, run, t=reader, private_wait=True)

    async def _event(self, interaction: discord.Interaction[Any],
                     number: int | None) -> DuplicateEvent:
        guild_id = guild_of(interaction)
        if number is not None:
            return await self.service.event(number, guild_id)
        open_events = await self.store.list_duplicate_events(guild_id, status="open")
        if len(open_events) == 1:
            return open_events[0]
        if not open_events:
            raise ClubError(N_("there is no open duplicate event on this server"))
        raise ClubError(N_("several duplicate events are open: name one by its number"))


async def _refusing(work: Awaitable[Reply]) -> Reply:
    """``work``'s reply; the duplicate service's refusal becomes the club's (told to the
    member privately, in their language)."""
    try:
        return await work
    except DuplicateError as exc:
        raise ClubError(exc.said.message, **exc.said.fields) from None
