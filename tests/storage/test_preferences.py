"""The players' forced-play preference (``player_settings.play_only_card``) on SQLite and
PostgreSQL: off by default, set and cleared, independent of the language choice."""

from __future__ import annotations

from storage import SqlStore


async def test_play_only_card_is_off_until_turned_on(store: SqlStore) -> None:
    assert await store.get_play_only_card(42) is False
    await store.set_play_only_card(42, True)
    assert await store.get_play_only_card(42) is True
    assert await store.get_play_only_card(43) is False
    await store.set_play_only_card(42, False)
    assert await store.get_play_only_card(42) is False


async def test_the_preference_and_the_language_are_kept_apart(store: SqlStore) -> None:
    await store.set_player_language(7, "so")
    await store.set_play_only_card(7, True)
    assert await store.get_player_language(7) == "so"
    await store.set_player_language(7, "sw")
    assert await store.get_play_only_card(7) is True
    assert await store.get_player_language(7) == "sw"
