"""The bot is its process's one composition root (``bot/app.py``): the table service, the
duplicate service and, with ``web`` settings, the web table's server are built in
``setup_hook`` from the constructor's arguments and stopped by ``close``; nothing is
patched onto the bot and no service is taken out of a cog."""

from __future__ import annotations

import time
from pathlib import Path

import aiohttp
import pytest
from app_fixture import start_app
from fakediscord import Harness

from bot.app import NotSetUp, create_bot
from bot.discord_bot.club.duplicate_commands import DuplicateCog
from bot.discord_bot.tables.web_table import opener_of
from bot.settings import Settings
from bot.web import links
from bot.web.run import WebSettings, web_secret
from bot.web_duplicate import WebReveals


def test_the_parts_are_asked_for_only_once_set_up() -> None:
    bot = create_bot(Settings(token="x"))
    for part in ("store", "service", "duplicate"):
        with pytest.raises(NotSetUp):
            getattr(bot, part)
    assert bot.web_server is None


async def test_a_bot_with_web_settings_serves_the_page(fake_discord: Harness,
                                                       tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_CLIENT_SECRET", raising=False)
    monkeypatch.delenv(links.SECRET_ENV, raising=False)
    app = await start_app(fake_discord, tmp_path,
                          web=WebSettings(0, "127.0.0.1", "https://tables.example"))
    bot = app.bot
    server = bot.web_server
    assert server is not None and server.port > 0
    assert server.service is bot.service
    assert server.activity is None  # no DISCORD_CLIENT_SECRET: no Activity routes
    # The duplicate service the cog answers with is the one the web reveals.
    cog = bot.get_cog("ClubDuplicate")
    assert isinstance(cog, DuplicateCog) and cog.service is bot.duplicate
    reveals = server.config.reveals
    assert isinstance(reveals, WebReveals) and reveals.duplicate is bot.duplicate
    # A public address: the table message's Open table links are bound to this server.
    opener = opener_of(bot)
    assert opener is not None and opener.links is server
    key = server.link(5, 9, "watch").split("#k=")[1]
    assert links.verify(await web_secret(bot.store, {}), key, time.time()).user == 9
    async with aiohttp.ClientSession() as http:
        page = await http.get(f"http://127.0.0.1:{server.port}/")
        assert page.status == 200
    await app.stop()
    assert server.runner is None and bot.web_server is None


async def test_a_bot_without_web_settings_serves_none(fake_discord: Harness,
                                                      tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    assert app.bot.web_server is None and opener_of(app.bot) is None
    assert app.bot.duplicate is not None
    await app.stop()
