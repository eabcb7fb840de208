"""Language choices in storage: a server's language (a guild setting) and each player's own
language (``player_settings``), on SQLite and PostgreSQL, surviving a reopen."""

from __future__ import annotations

import asyncio

import pytest

from storage import GuildSettings, SqlStore, open_store


async def test_a_player_without_a_choice_has_none(store: SqlStore) -> None:
    assert await store.get_player_language(42) is None
    assert await store.get_player_languages([42, 43]) == {}


async def test_player_language_set_changed_and_cleared(store: SqlStore) -> None:
    await store.set_player_language(42, "so")
    assert await store.get_player_language(42) == "so"
    await store.set_player_language(42, "sw")
    assert await store.get_player_language(42) == "sw"
    await store.set_player_language(42, None)
    assert await store.get_player_language(42) is None
    assert await store.get_player_languages([42]) == {}


async def test_player_languages_in_one_call(store: SqlStore) -> None:
    big = 2**63 - 1  # a snowflake-sized id
    await store.set_player_language(1, "id")
    await store.set_player_language(big, "sw")
    await store.set_player_language(3, "so")
    await store.set_player_language(3, None)
    assert await store.get_player_languages([1, 2, 3, big]) == {1: "id", big: "sw"}
    assert await store.get_player_languages([]) == {}


@pytest.mark.parametrize("bad", ["", "SO", "somali", "s", "so-SO", "s1", 7])
async def test_a_bad_player_language_is_refused_and_changes_nothing(
    store: SqlStore, bad: object
) -> None:
    await store.set_player_language(42, "id")
    with pytest.raises(ValueError, match="language code"):
        await store.set_player_language(42, bad)  # type: ignore[arg-type]
    assert await store.get_player_language(42) == "id"


async def test_concurrent_choices_of_different_players_all_land(store: SqlStore) -> None:
    codes = ["en", "so", "id", "sw"] * 5
    await asyncio.gather(*(store.set_player_language(n, c) for n, c in enumerate(codes)))
    assert await store.get_player_languages(range(len(codes))) == dict(enumerate(codes))


async def test_server_language_is_a_guild_setting(store: SqlStore) -> None:
    assert (await store.get_guild_settings(9)).language is None
    changed = await store.update_guild_settings(9, {"language": "so", "turn_timeout": 60})
    assert changed == GuildSettings(turn_timeout=60, language="so")
    assert await store.get_guild_settings(9) == changed
    assert (await store.get_guild_settings(10)).language is None
    # None restores the default (no choice); the other settings stay.
    cleared = await store.update_guild_settings(9, {"language": None})
    assert cleared == GuildSettings(turn_timeout=60)


@pytest.mark.parametrize("bad", ["Somali", "so_SO", "", True, 3])
async def test_a_bad_server_language_is_refused_and_changes_nothing(
    store: SqlStore, bad: object
) -> None:
    await store.update_guild_settings(9, {"language": "sw"})
    with pytest.raises(ValueError, match="language code"):
        await store.update_guild_settings(9, {"language": bad, "images": False})
    assert await store.get_guild_settings(9) == GuildSettings(language="sw")


async def test_language_choices_survive_a_restart(store_url: str) -> None:
    first = await open_store(store_url)
    try:
        await first.update_guild_settings(5, {"language": "id"})
        await first.set_player_language(77, "so")
    finally:
        await first.close()
    second = await open_store(store_url)
    try:
        assert (await second.get_guild_settings(5)).language == "id"
        assert await second.get_player_language(77) == "so"
    finally:
        await second.close()


async def test_a_stored_language_this_code_cannot_read_falls_back(store: SqlStore) -> None:
    await store.update_guild_settings(3, {"language": "so", "turn_timeout": 90})
    async with store.database.write() as connection:
        await connection.execute(
            "UPDATE guilds SET settings = :s WHERE guild_id = 3",
            {"s": '{"language": "Somali!", "turn_timeout": 90}'},
        )
    assert await store.get_guild_settings(3) == GuildSettings(turn_timeout=90)
