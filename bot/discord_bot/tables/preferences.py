"""Forced plays, a per-player choice: "play my only legal card for me".

A player turns it on or off with ``/autoplay`` (stored per user, off by default:
:mod:`storage.preferences`). When it is on and a seat's newest state leaves that player
exactly one legal card play and no other choice (a forced follow, the last card of a
hand), the adapter plays it for them as soon as the state arrives — as online bridge rooms
offer. Anything with a choice in it (several cards, a trump call, a bid) is left to the
player; Tarabish's concession, offered at every turn, does not count as a choice (a
referee's choice: a player who wants forced plays made is not asking to concede then).
The play goes through the table service like a click (same version check), so a state
that is no longer current is simply refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.answer import Reply, answer
from bot.discord_bot.languages import Languages
from bot.discord_bot.tables.hand_panel import SeatState
from bot.i18n import pgettext_noop
from bot.service import ServiceError, TableService
from games.actions import Action
from storage import Store

log = logging.getLogger(__name__)

Interaction = discord.Interaction[discord.Client]


class ForcedPlays:
    """The players' preference, read once per player and process, kept when changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._wanted: dict[int, bool] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def wanted(self, user_id: int) -> bool:
        if user_id not in self._wanted:
            self._wanted[user_id] = await self.store.get_play_only_card(user_id)
        return self._wanted[user_id]

    async def choose(self, user_id: int, on: bool) -> None:
        await self.store.set_play_only_card(user_id, on)
        self._wanted[user_id] = on

    def consider(self, service: TableService, table_id: int, user_id: int, seat: int,
                 state: SeatState) -> None:
        """Play the seat's only legal card if its player wants that (module docstring)."""
        card = only_card(state)
        if state.status != "playing" or seat not in state.to_act or card is None:
            return
        s = state.seats[seat] if seat < len(state.seats) else None
        if s is None or s.away or s.user_id != user_id:
            return

        async def play() -> None:
            if not await self.wanted(user_id):
                return
            with contextlib.suppress(ServiceError):  # no longer current: nothing to do
                await service.act(table_id, user_id, card, state.version)

        task = asyncio.get_running_loop().create_task(play())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def only_card(state: SeatState) -> Action | None:
    """The seat's one legal card play when it has no other choice (a concession offered
    beside it does not count: Tarabish offers one at every turn), else None."""
    plays = [a for a in state.legal if a.type == "play"]
    others = [a for a in state.legal if a.type not in ("play", "concede")]
    return plays[0] if len(plays) == 1 and not others else None


_BY_STORE: weakref.WeakKeyDictionary[Store, ForcedPlays] = weakref.WeakKeyDictionary()


def forced_plays(store: Store) -> ForcedPlays:
    """The process's :class:`ForcedPlays` of ``store``."""
    found = _BY_STORE.get(store)
    if found is None:
        found = _BY_STORE[store] = ForcedPlays(store)
    return found


class PreferencesCog(commands.Cog, name="PlayerPreferences"):
    """``/autoplay``: the forced-play preference."""

    def __init__(self, store: Store, languages: Languages) -> None:
        self.plays = forced_plays(store)
        self.languages = languages

    @app_commands.command(
        name=pgettext_noop("command name", "autoplay"),
        description=pgettext_noop("command description",
                                  "Play my only legal card for me (forced plays)"))
    @app_commands.describe(enabled=pgettext_noop(
        "command description", "on: your only legal card is played for you; off (the default): "
                             "you play every card"))
    @app_commands.rename(enabled=pgettext_noop("command name", "enabled"))
    async def autoplay(self, interaction: Interaction, enabled: bool) -> None:
        t = await self.languages.reader(interaction)

        async def run() -> Reply:
            await self.plays.choose(interaction.user.id, enabled)
            if enabled:
                return Reply(t.gettext("Forced plays are **on**: when you have only one card "
                                       "you may play, it is played for you."), ephemeral=True)
            return Reply(t.gettext("Forced plays are **off**: you play every card yourself."),
                         ephemeral=True)
        await answer(interaction, run, t=t, private_wait=True)
