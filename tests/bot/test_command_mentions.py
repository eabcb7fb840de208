"""Sentences name slash commands by command mentions (``</history:ID>``) with the ids
Discord gave the synced commands, so every client shows them in its own language: the
bot learns the ids from a sync and, at start-up, from Discord's list of its commands.
Without them (never synced) the sentence still names the command, as plain text."""

from __future__ import annotations

from pathlib import Path

import discord
from app_fixture import start_app
from club_app import MONDAY
from club_history import post_buttons, store_matches
from fakediscord import Harness

from bot.i18n import translator
from bot.i18n.commands import Command, Option
from bot.service import FakeClock


def synced_id(harness: Harness, name: str) -> str:
    return next(str(c["id"]) for c in harness.server.global_commands if c["name"] == name)


async def test_sentences_mention_the_synced_commands(fake_discord: Harness,
                                                     tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path, clock=FakeClock(MONDAY))
    alice = fake_discord.user("alice")
    try:
        before = await alice.slash("league", "list")
        assert "`/league create`" in before.content  # nothing synced yet: the plain name
        await app.bot.tree.sync()
        listed = await alice.slash("league", "list")
        assert f"</league create:{synced_id(fake_discord, 'league')}>" in listed.content

        await store_matches(app.store, fake_discord.guild.id, 3)
        message = await post_buttons(app, fake_discord, ["club:hi:garbage"])  # type: ignore[arg-type]
        refused = await alice.click(message, "club:hi:garbage")
        assert refused.ephemeral
        assert f"run </history:{synced_id(fake_discord, 'history')}> again" in refused.content
        assert "`/history`" not in refused.content
    finally:
        await app.stop()


async def test_a_restarted_bot_asks_discord_for_the_command_ids(fake_discord: Harness,
                                                                tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path, clock=FakeClock(MONDAY))
    try:
        await app.bot.tree.sync()  # e.g. `tricktable sync`, then the bot (re)starts
        app = await app.restart()
        listed = await fake_discord.user("alice").slash("league", "list")
        assert f"</league create:{synced_id(fake_discord, 'league')}>" in listed.content
    finally:
        await app.stop()
    # a stopped bot's ids are no longer used
    assert Command("league create").text(translator("en")) == "`/league create`"


async def test_guild_synced_ids_serve_until_the_commands_are_synced_globally(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path, clock=FakeClock(MONDAY))
    alice = fake_discord.user("alice")
    guild = discord.Object(fake_discord.guild.id)
    try:
        app.bot.tree.copy_global_to(guild=guild)
        await app.bot.tree.sync(guild=guild)  # `tricktable sync --guild ID`
        local = next(str(c["id"]) for c in fake_discord.server.guild_commands[guild.id]
                     if c["name"] == "league")
        assert f"</league create:{local}>" in (await alice.slash("league", "list")).content
        app.bot.tree.clear_commands(guild=guild)
        await app.bot.tree.sync()
        await app.bot.tree.sync(guild=guild)  # the copies removed: global commands only
        listed = await alice.slash("league", "list")
        assert f"</league create:{synced_id(fake_discord, 'league')}>" in listed.content
    finally:
        await app.stop()


def test_without_mentions_commands_and_options_read_as_the_readers_client_shows_them() -> None:
    indonesian, somali = translator("id"), translator("so")
    assert Command("history").text(indonesian) == "`/riwayat`"
    assert Command("history").text(somali) == "`/history`"  # Discord has no Somali client
    assert Option("result").text(indonesian) == "`hasil`"
    assert Option("result").text(somali) == "`result`"


def test_the_client_languages_are_the_discord_locales_we_speak() -> None:
    import discord

    from bot.i18n import SUPPORTED
    from bot.i18n.commands import CLIENT_LANGUAGES

    locales = {locale.value for locale in discord.Locale}
    assert {code for code in SUPPORTED if code in locales} == CLIENT_LANGUAGES
