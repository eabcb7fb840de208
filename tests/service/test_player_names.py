"""Display names reach the ``players`` table: when a player joins a table (or is seated
when it opens) and when a match is recorded, so leaderboards, ``/stats`` and ``/history``
show names (issue 16). Real SQLite, the real ratings hook."""

from __future__ import annotations

import pytest

from bot.ratings import MatchResultsHook
from bot.service import FakeClock, LobbyError, Seat, TableService
from storage import ChannelLocation, Store


async def test_join_writes_the_display_name_and_a_later_join_refreshes_it(
        store: Store) -> None:
    service = TableService(store, clock=FakeClock())
    first = await service.create_table(ChannelLocation(1, 10), "turup")
    assert await store.get_player(21) is None
    await service.join(first, 21, "Ann")
    player = await store.get_player(21)
    assert player is not None and player.display_name == "Ann"
    second = await service.create_table(ChannelLocation(1, 11), "tarabish")
    await service.join(second, 21, "Ann the Bold")
    player = await store.get_player(21)
    assert player is not None and player.display_name == "Ann the Bold"
    await service.close()


async def test_a_refused_join_writes_nothing(store: Store) -> None:
    service = TableService(store, clock=FakeClock())
    table_id = await service.create_table(ChannelLocation(1, 12), "turup")
    for _ in range(4):
        await service.add_ai(table_id, "random")
    with pytest.raises(LobbyError, match="every seat is taken"):
        await service.join(table_id, 22, "Late")
    assert await store.get_player(22) is None
    await service.close()


async def test_a_recorded_match_refreshes_names_and_the_leaderboard_shows_them(
        store: Store) -> None:
    service = TableService(store, clock=FakeClock(), ratings=MatchResultsHook(store))
    seats = [Seat.human(31, "Ann"), Seat.human(32, "Bob"), Seat.human(33, "Cy"),
             Seat.human(34, "Di")]
    table_id = await service.create_table(ChannelLocation(5, 6), "turup", seed=3,
                                          seats=seats, ai_pace=0, turn_timeout=0,
                                          options={"target": 1})
    # The names were written when the table opened; make one stale, as if the member
    # renamed elsewhere: the recorded match brings the name at the table back.
    assert (await store.get_player(33)) is not None
    await store.upsert_player(33, "Old name")
    await service.start_match(table_id)
    for seat in range(4):
        await service.set_away(table_id, seat)
    await service.settle(timeout=60)
    await service.close()
    assert await store.get_match_for_table(table_id) is not None
    player = await store.get_player(33)
    assert player is not None and player.display_name == "Cy"
    board = await store.leaderboard(5, "turup")
    assert sorted(row.display_name or "" for row in board.entries) == ["Ann", "Bob", "Cy", "Di"]
    stats = await store.player_stats(31, guild_id=5)
    assert stats.display_name == "Ann" and stats.matches == 1
