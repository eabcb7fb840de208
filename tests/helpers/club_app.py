"""A bot with the club cogs (``bot.discord_bot.club.cogs.setup``) on a store in a temporary SQLite
file, a table service on a fake clock, logged in to the fake Discord: the club command
tests' shared setup (``app_fixture.py`` builds the whole app; these tests need only the
club part, wired exactly as ``bot.app`` wires it)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from discord.ext import commands
from fakediscord import Harness, bot_options

from bot.discord_bot.club import cogs as club
from bot.discord_bot.languages import Languages
from bot.duplicate.service import DuplicateService
from bot.ratings import MatchResultsHook
from bot.service import FakeClock, TableService
from storage import Store, open_store

MONDAY = dt.datetime(2026, 3, 16, 12, 0, tzinfo=dt.UTC)
"""The fake clock's start: a Monday, three days before a Thursday league's round 1."""


@dataclass
class ClubApp:
    bot: commands.Bot
    store: Store
    service: TableService
    clock: FakeClock

    def cog(self, name: str) -> Any:
        return self.bot.get_cog(name)


class ClubBot(commands.Bot):
    def __init__(self, store: Store, service: TableService, reminders: bool) -> None:
        super().__init__(**bot_options())
        self.club_store, self.club_service, self.reminders = store, service, reminders

    async def setup_hook(self) -> None:
        self.languages = Languages(self, self.club_store)
        await club.setup(self, store=self.club_store, service=self.club_service,
                         duplicate=DuplicateService.of_tables(self.club_store,
                                                              self.club_service),
                         languages=self.languages, reminders=self.reminders)


async def start_club(harness: Harness, tmp_path: Path, *, reminders: bool = False,
                     store: Store | None = None, clock: FakeClock | None = None) -> ClubApp:
    """Start a bot with the club commands; pass ``store`` (and ``clock``) to restart on the
    same data. The store is closed by the caller (:func:`stop_club`)."""
    if store is None:
        store = await open_store(f"sqlite:///{tmp_path / 'club.db'}")
    clock = clock or FakeClock(MONDAY)
    service = TableService(store, clock=clock, ratings=MatchResultsHook(store))
    bot = ClubBot(store, service, reminders)
    await harness.start_bot(bot)
    return ClubApp(bot, store, service, clock)


async def stop_club(harness: Harness, app: ClubApp) -> None:
    await harness.stop_bot(app.bot)
    await app.service.close()
    await app.store.close()
