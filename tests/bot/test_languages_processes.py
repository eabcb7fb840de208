"""Two bot processes on one PostgreSQL database follow each other's language choices
(``bot/discord_bot/languages.py``): a ``/language`` handled by one process (a DM reaches
shard 0) redraws the player's panels in the process that owns their table, and a server's
``/settings language`` likewise — through the store's notifications, not a restart. On
SQLite (one process) the same objects simply never hear anything."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from pgtest import Schemas, require_postgres

from bot.discord_bot.languages import LanguageChange, Languages
from storage import open_store, upgrade


@pytest.fixture(scope="module")
def language_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttlang")
    try:
        yield run
    finally:
        run.drop_all()


async def _changes_until(seen: list[LanguageChange], count: int) -> None:
    async with asyncio.timeout(30):  # a liveness bound: NOTIFY is delivered in order
        while len(seen) < count:
            await asyncio.sleep(0.02)


async def test_another_process_hears_player_and_server_changes(
        language_schemas: Schemas) -> None:
    url = language_schemas.fresh_url()
    await upgrade(url)
    async with await open_store(url) as here_store, await open_store(url) as there_store:
        here = Languages(discord.Client(intents=discord.Intents.none()), here_store)
        there = Languages(discord.Client(intents=discord.Intents.none()), there_store)
        heard: list[LanguageChange] = []
        there.on_change(heard.append)
        await here.start()
        await there.start()
        try:
            # The owner has drawn the player's panel and the server's table already.
            assert await there.player_language(7, 100) == "en"
            assert await there.server_language(100) == "en"

            await here.set_player(7, "sw")
            await _changes_until(heard, 1)
            assert heard == [LanguageChange(user_id=7)]
            assert await there.player_language(7, 100) == "sw"

            await here.set_server(100, "so")
            await _changes_until(heard, 2)
            assert heard[1] == LanguageChange(guild_id=100)
            assert await there.server_language(100) == "so"
            assert await there.player_language(7, 100) == "sw"  # their own choice stays
            assert await there.player_language(8, 100) == "so"  # others follow the server

            # A settings change that leaves the language alone tells nobody: the next
            # change heard (notifications arrive in the order they were sent) is the one
            # after it.
            await here_store.update_guild_settings(100, {"images": False})
            await here.set_player(8, "id")
            await _changes_until(heard, 3)
            assert heard[2:] == [LanguageChange(user_id=8)]
        finally:
            await here.close()
            await there.close()


async def test_one_process_on_sqlite_tells_its_own_listeners_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'one.db'}"
    await upgrade(url)
    async with await open_store(url) as store:
        languages = Languages(discord.Client(intents=discord.Intents.none()), store)
        heard: list[LanguageChange] = []
        languages.on_change(heard.append)
        await languages.start()
        try:
            await languages.set_player(7, "id")
            await languages.set_server(100, "sw")
            assert heard == [LanguageChange(user_id=7), LanguageChange(guild_id=100)]
            assert await languages.player_language(7, 100) == "id"
            assert await languages.player_language(8, 100) == "sw"
            await languages.set_player(7, None)
            assert await languages.player_language(7, 100) == "sw"
        finally:
            await languages.close()
