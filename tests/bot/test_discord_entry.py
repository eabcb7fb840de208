"""Entry points: settings from the environment, `tricktable run` without a token, command
sync, and the token never reaching a log line."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from app_fixture import start_app
from fakediscord import CommandUnavailable, Harness

from bot.app import RedactToken, configure_logging, create_bot, sync_commands
from bot.cli import main
from bot.settings import DEFAULT_DATABASE_URL, Settings, SettingsError


def test_settings_from_env_defaults_and_values() -> None:
    s = Settings.from_env({})
    assert s.token is None and s.database_url == DEFAULT_DATABASE_URL
    assert s.log_level == "INFO" and s.owner_ids == frozenset()
    s = Settings.from_env({"DISCORD_TOKEN": " abc.def ", "DATABASE_URL": "sqlite:///x.db",
                           "TRICKTABLE_LOG_LEVEL": "debug", "TRICKTABLE_OWNER_IDS": "1, 22 3",
                           "TRICKTABLE_DEV_GUILD": "99", "TRICKTABLE_AI_WORKERS": "0",
                           "TRICKTABLE_EDIT_INTERVAL": "2.5"})
    assert s.token == "abc.def" and s.database_url == "sqlite:///x.db"
    assert s.log_level == "DEBUG" and s.owner_ids == frozenset({1, 22, 3})
    assert s.dev_guild == 99 and s.ai_workers == 0 and s.edit_interval == 2.5
    assert "abc.def" not in repr(s)


@pytest.mark.parametrize("env", [{"TRICKTABLE_AI_WORKERS": "two"},
                                 {"TRICKTABLE_OWNER_IDS": "me"},
                                 {"TRICKTABLE_LOG_LEVEL": "LOUD"},
                                 {"TRICKTABLE_EDIT_INTERVAL": "-1"}])
def test_bad_settings_name_the_variable(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match=next(iter(env))):
        Settings.from_env(env)


def test_run_without_token_exits_2_and_says_what_to_do(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "tricktable play" in err and "DATABASE_URL" in err
    assert main(["sync"]) == 2


def test_redaction_filter_hides_the_token_in_messages_and_arguments() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactToken("s3cret-token"))
    logger = logging.getLogger("tricktable.test.redact")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("connecting with %s", "s3cret-token")
        logger.warning("Bot s3cret-token in the message itself")
    finally:
        logger.removeHandler(handler)
    text = stream.getvalue()
    assert "s3cret-token" not in text and text.count("[redacted token]") == 2


async def test_the_token_never_appears_in_a_debug_log(fake_discord: Harness,
                                                      tmp_path: Path) -> None:
    stream = io.StringIO()
    token = fake_discord.server.token
    settings = Settings(token=token, log_level="DEBUG")
    handler = configure_logging(settings, stream)
    try:
        app = await start_app(fake_discord, tmp_path)
        alice = fake_discord.user("alice")
        opened = await alice.slash("table", "new", game="turup")
        await opened.wait_filled()
        await app.restart()
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(logging.WARNING)
    text = stream.getvalue()
    assert "DEBUG" in text and "INFO" in text  # the log did run at debug level
    assert token not in text


async def test_commands_are_synced_only_on_request(fake_discord: Harness,
                                                   tmp_path: Path) -> None:
    server = fake_discord.server
    app = await start_app(fake_discord, tmp_path)
    assert not server.global_commands  # starting the bot synced nothing
    settings = app.settings
    count = await sync_commands(settings, int(fake_discord.guild.id))
    names = {c["name"] for c in server.guild_commands[fake_discord.guild.id]}
    assert {"table", "hand", "rules", "settings", "admin"} <= names
    assert count == len(server.guild_commands[fake_discord.guild.id])
    assert not server.global_commands


async def test_admin_sync_is_for_the_owner_only(fake_discord: Harness, tmp_path: Path) -> None:
    alice = fake_discord.user("alice", manager=True)
    bob, carol = fake_discord.user("bob", manager=True), fake_discord.user("carol")
    await start_app(fake_discord, tmp_path, owner_ids=frozenset({alice.id}))
    with pytest.raises(CommandUnavailable):  # /admin is for Manage Server only
        await carol.slash("admin", "sync")
    r = await bob.slash("admin", "sync")  # a manager, but not the bot's owner
    assert r.ephemeral and "Only the bot's owner" in r.content
    assert not fake_discord.server.global_commands
    assert not fake_discord.server.guild_commands.get(fake_discord.guild.id)
    r = await alice.slash("admin", "sync", here=True)
    done = await r.wait_filled()
    assert "Synced" in done.content
    names = {c["name"] for c in fake_discord.server.guild_commands[fake_discord.guild.id]}
    assert "table" in names and not fake_discord.server.global_commands


def test_create_bot_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "tok")
    monkeypatch.setenv("TRICKTABLE_OWNER_IDS", "5")
    bot = create_bot()
    assert bot.settings.owner_ids == frozenset({5}) and bot.settings.token == "tok"


async def test_admin_status_shows_the_owner_the_rest_budget(fake_discord: Harness,
                                                             tmp_path: Path) -> None:
    """``/admin status`` (the bot's owner only): the bot's REST budget, what this process
    made and its share, how the table messages are edited, the requests that waited."""
    alice = fake_discord.user("alice", manager=True)
    bob = fake_discord.user("bob", manager=True)
    await start_app(fake_discord, tmp_path, owner_ids=frozenset({alice.id}), rest_budget=45)
    r = await bob.slash("admin", "status")  # a manager, but not the bot's owner
    assert r.ephemeral and "Only the bot's owner" in r.content
    r = await alice.slash("admin", "status")
    done = await r.wait_filled()
    assert done.ephemeral
    text = done.content
    assert "Discord allows 50 requests per second per bot" in text
    assert "this bot keeps to 45.0 requests per second" in text
    assert "The bot's 1 process made" in text and "its share now is" in text
    assert "Table messages are edited as the cards are played." in text
