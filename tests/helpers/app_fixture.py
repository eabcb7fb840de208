"""The whole bot against the fake Discord, for end-to-end tests of the adapter.

``app = await start_app(fake_discord, tmp_path, **settings)`` builds the real bot
(:func:`bot.app.create_bot`) on a SQLite store in ``tmp_path`` (the bot opens and closes
it), starts it on the harness and sets the test guild's table settings (AI pace 0, images
off, unless ``guild_settings`` says otherwise). ``await app.restart()`` stops the bot and
starts a new one on the same store and fake Discord: a process restart.
``await app.stop()`` then ``await app.start()`` is the same restart with time to act in
between (e.g. to move the fake clock while the bot is down).

Test defaults: AI decisions in a thread (``ai_workers=0``), a fast table editor
(``edit_delay=0.01``, ``edit_interval=ai_edit_interval=0.05``) and answers in one request
unless the work takes 2 s (``defer_after=2.0``; the deferred path has its own test), and a
REST budget no test world nears (``rest_budget=1e6``: the budget has tests of its own,
with the fake Discord's global limit on); any :class:`bot.settings.Settings` field can
be passed; ``web`` serves the web table too (:class:`bot.web.run.WebSettings`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fakediscord import Harness

from bot.app import TricktableBot, create_bot
from bot.discord_bot.table_hub import TableHub
from bot.service import Clock, TableService
from bot.settings import Settings
from bot.web.run import WebSettings
from storage import Store

TEST_GUILD_SETTINGS: dict[str, object] = {"ai_pace": 0.0, "images": False}


@dataclass
class App:
    harness: Harness
    settings: Settings
    bot: TricktableBot
    clock: Clock | None = None
    guild_settings: dict[str, object] = field(default_factory=dict)
    web: WebSettings | None = None

    @property
    def store(self) -> Store:
        return self.bot.store

    @property
    def service(self) -> TableService:
        return self.bot.service

    @property
    def tables(self) -> TableHub:
        """The Discord adapter's tables (presenters and seat panels per table)."""
        assert self.bot.hub is not None
        return self.bot.hub

    async def restart(self) -> App:
        """Stop the bot as a process would stop, and start a fresh one on the same store."""
        await self.harness.stop_bot(self.bot)
        self.bot = create_bot(self.settings, clock=self.clock, web=self.web)
        await self.harness.start_bot(self.bot)
        return self

    async def stop(self) -> None:
        """Stop the bot as a process would stop; :meth:`start` brings up a fresh one. In
        between the test may act on the world (e.g. move the fake clock: downtime)."""
        await self.harness.stop_bot(self.bot)

    async def start(self) -> App:
        """Start a fresh bot on the same store and fake Discord, after :meth:`stop`."""
        self.bot = create_bot(self.settings, clock=self.clock, web=self.web)
        await self.harness.start_bot(self.bot)
        return self


async def start_app(fake_discord: Harness, tmp_path: Path, *, clock: Clock | None = None,
                    guild_settings: dict[str, object] | None = None,
                    web: WebSettings | None = None, **settings: Any) -> App:
    """Start the real bot on the fake Discord (see the module docstring)."""
    base = Settings(token=fake_discord.server.token,
                    database_url=f"sqlite:///{tmp_path / 'tricktable.db'}",
                    ai_workers=0, edit_delay=0.01, edit_interval=0.05,
                    ai_edit_interval=0.05, defer_after=2.0, rest_budget=1e6)
    conf = replace(base, **settings)
    bot = create_bot(conf, clock=clock, web=web)
    await fake_discord.start_bot(bot)
    gs = {**TEST_GUILD_SETTINGS, **(guild_settings or {})}
    if gs:
        await bot.store.update_guild_settings(int(fake_discord.guild.id), gs)
        if bot.hub is not None:
            bot.hub.forget_guild_settings(int(fake_discord.guild.id))
    return App(fake_discord, conf, bot, clock, gs, web)
