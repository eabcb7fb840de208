"""Contract: players, guild settings, tables, action logs and recovery (both backends)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import pytest

from storage import (
    ChannelLocation,
    DuplicateAction,
    GuildSettings,
    LocationBusy,
    NotFound,
    SequenceGap,
    SqlStore,
    TableClosed,
    TableStatus,
    TerminalLocation,
)
from storage.driver import Connection, Database, Row
from storage.sql import Dialect, Params

UTC = dt.UTC
HERE = ChannelLocation(guild_id=10, channel_id=20)


def aware_utc(value: dt.datetime) -> bool:
    return value.tzinfo is not None and value.utcoffset() == dt.timedelta(0)


# -- players -----------------------------------------------------------------------------


async def test_player_upsert_keeps_last_name(store: SqlStore) -> None:
    assert await store.get_player(1) is None
    first = await store.upsert_player(1, "Ana")
    second = await store.upsert_player(1, "Ana B.")
    assert second.display_name == "Ana B."
    assert second.created_at == first.created_at
    assert second.updated_at >= first.updated_at
    assert await store.get_player(1) == second
    assert aware_utc(second.created_at)


async def test_snowflake_sized_ids_round_trip(store: SqlStore) -> None:
    big = 2**63 - 1
    await store.upsert_player(big, "max")
    player = await store.get_player(big)
    assert player is not None and player.user_id == big
    table = await store.create_table(ChannelLocation(big, big - 1), "truf")
    assert table.location == ChannelLocation(big, big - 1)


# -- guild settings ----------------------------------------------------------------------


async def test_guild_settings_defaults_and_updates(store: SqlStore) -> None:
    assert await store.get_guild_settings(5) == GuildSettings()
    changed = await store.update_guild_settings(5, {"turn_timeout": 45, "images": False})
    assert changed == GuildSettings(turn_timeout=45, images=False)
    assert await store.get_guild_settings(5) == changed
    changed = await store.update_guild_settings(5, {"ai_pace": 0, "ai_matches_rated": True})
    assert changed == GuildSettings(
        turn_timeout=45, images=False, ai_pace=0.0, ai_matches_rated=True
    )
    # None restores the default; other guilds are untouched.
    assert (await store.update_guild_settings(5, {"turn_timeout": None})).turn_timeout == 120
    assert await store.get_guild_settings(6) == GuildSettings()


@pytest.mark.parametrize(
    "changes",
    [
        {"colour": "red"},
        {"turn_timeout": 0},
        {"turn_timeout": "30"},
        {"turn_timeout": True},
        {"ai_pace": -1},
        {"ai_pace": float("nan")},
        {"images": 1},
    ],
)
async def test_guild_settings_reject_bad_changes(
    store: SqlStore, changes: dict[str, object]
) -> None:
    with pytest.raises(ValueError):
        await store.update_guild_settings(5, changes)
    assert await store.get_guild_settings(5) == GuildSettings()


async def test_concurrent_settings_updates_all_apply(store: SqlStore) -> None:
    await asyncio.gather(
        store.update_guild_settings(7, {"turn_timeout": 33}),
        store.update_guild_settings(7, {"images": False}),
        store.update_guild_settings(7, {"ai_pace": 3.0}),
        store.update_guild_settings(7, {"ai_matches_rated": True}),
    )
    assert await store.get_guild_settings(7) == GuildSettings(33, 3.0, False, True)


# -- tables ------------------------------------------------------------------------------


async def test_create_and_get_table(store: SqlStore) -> None:
    deadline = dt.datetime(2030, 5, 6, 7, 8, 9, 123456, tzinfo=dt.timezone(dt.timedelta(hours=5)))
    table = await store.create_table(
        HERE,
        "tarabish",
        options={"target": 501, "z": 1, "a": [1.5, None, True]},
        seats=[{"user": 1}, None, {"ai": "strong"}, None],
        meta={"seed": 42},
        lobby_deadline=deadline,
    )
    assert table.status == "lobby"
    assert table.location == HERE
    assert list(table.options) == ["target", "z", "a"]
    assert table.seats == [{"user": 1}, None, {"ai": "strong"}, None]
    assert table.lobby_deadline == deadline and table.lobby_deadline.tzinfo == UTC
    assert table.turn_deadline is None
    assert aware_utc(table.created_at) and table.created_at == table.updated_at
    assert await store.get_table(table.id) == table
    assert await store.get_table(table.id + 1000) is None


async def test_naive_datetimes_are_refused(store: SqlStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.create_table(HERE, "truf", turn_deadline=dt.datetime(2030, 1, 1))
    table = await store.create_table(HERE, "truf")
    with pytest.raises(ValueError, match="timezone-aware"):
        await store.update_table(table.id, lobby_deadline=dt.datetime(2030, 1, 1))


async def test_one_unfinished_table_per_location(store: SqlStore) -> None:
    first = await store.create_table(HERE, "turup")
    with pytest.raises(LocationBusy) as info:
        await store.create_table(HERE, "truf")
    assert info.value.table_id == first.id
    other = await store.create_table(ChannelLocation(10, 21), "truf")
    await store.create_table(ChannelLocation(11, 20), "truf")  # (guild, channel) is the key
    assert await store.find_open_table(HERE) == first
    assert await store.find_open_table(ChannelLocation(10, 22)) is None
    await store.update_table(first.id, status="finished")
    assert await store.find_open_table(HERE) is None
    again = await store.create_table(HERE, "truf")
    assert again.id not in (first.id, other.id)


async def test_terminal_locations(store: SqlStore) -> None:
    where = TerminalLocation("local:alice")
    table = await store.create_table(where, "albastini")
    assert table.location == where
    assert await store.find_open_table(where) == table
    with pytest.raises(LocationBusy):
        await store.create_table(where, "albastini")
    with pytest.raises(ValueError):
        await store.create_table(TerminalLocation(""), "albastini")


async def test_update_table_fields(store: SqlStore) -> None:
    table = await store.create_table(
        HERE, "truf", lobby_deadline=dt.datetime(2030, 1, 1, tzinfo=UTC)
    )
    deadline = dt.datetime(2031, 2, 3, 4, 5, 6, tzinfo=UTC)
    updated = await store.update_table(
        table.id,
        status="playing",
        seats=[1, 2, 3, 4],
        meta={"message": 123},
        turn_deadline=deadline,
        lobby_deadline=None,
    )
    assert (updated.status, updated.seats, updated.meta) == (
        "playing",
        [1, 2, 3, 4],
        {"message": 123},
    )
    assert updated.turn_deadline == deadline and updated.lobby_deadline is None
    assert updated.options == table.options and updated.game == "truf"
    assert updated.updated_at >= table.updated_at
    assert await store.get_table(table.id) == updated
    unchanged = await store.update_table(table.id)
    assert unchanged.seats == [1, 2, 3, 4]
    with pytest.raises(NotFound):
        await store.update_table(table.id + 99, status="playing")
    with pytest.raises(ValueError):
        await store.update_table(table.id, status="paused")  # type: ignore[arg-type]


async def test_finished_and_abandoned_are_final(store: SqlStore) -> None:
    finals: tuple[TableStatus, ...] = ("finished", "abandoned")
    for channel, final in enumerate(finals):
        table = await store.create_table(ChannelLocation(1, channel), "truf")
        await store.append_action(table.id, 1, {"a": 1})
        await store.update_table(table.id, status=final)
        with pytest.raises(TableClosed):
            await store.update_table(table.id, status="playing")
        with pytest.raises(TableClosed):
            await store.append_action(table.id, 2, {"a": 2})
        # Other fields stay editable (e.g. the id of the final message).
        edited = await store.update_table(table.id, meta={"final": True}, status=final)
        assert edited.meta == {"final": True} and edited.status == final
        assert [e.seq for e in await store.load_actions(table.id)] == [1]


# -- the action log ----------------------------------------------------------------------


async def test_append_and_load_actions(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    assert await store.load_actions(table.id) == []
    await store.append_action(table.id, 1, {"type": "join", "seat": 0})
    await store.append_actions(table.id, 2, [{"type": "bid", "n": i} for i in range(3)])
    log = await store.load_actions(table.id)
    assert [e.seq for e in log] == [1, 2, 3, 4]
    assert log[0].action == {"type": "join", "seat": 0}
    assert log[3].action == {"type": "bid", "n": 2}
    assert all(aware_utc(e.created_at) for e in log)
    assert [e.seq for e in await store.load_actions(table.id, after_seq=2)] == [3, 4]
    touched = await store.get_table(table.id)
    assert touched is not None and touched.updated_at >= table.updated_at


async def test_duplicate_append_raises_and_changes_nothing(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    await store.append_actions(table.id, 1, [{"n": 1}, {"n": 2}])
    before_log = await store.load_actions(table.id)
    before_table = await store.get_table(table.id)
    with pytest.raises(DuplicateAction) as info:
        await store.append_action(table.id, 2, {"n": "retry"})
    assert info.value.seq == 2 and info.value.table_id == table.id
    assert info.value.existing is not None and info.value.existing.action == {"n": 2}
    with pytest.raises(DuplicateAction):  # a batch overlapping the log writes nothing
        await store.append_actions(table.id, 2, [{"n": "x"}, {"n": "y"}])
    assert await store.load_actions(table.id) == before_log
    assert await store.get_table(table.id) == before_table


async def test_appends_must_be_contiguous(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    with pytest.raises(SequenceGap) as info:
        await store.append_action(table.id, 2, {})
    assert info.value.expected == 1
    with pytest.raises(ValueError):
        await store.append_action(table.id, 0, {})
    with pytest.raises(ValueError):
        await store.append_actions(table.id, 1, [])
    await store.append_action(table.id, 1, {})
    with pytest.raises(SequenceGap):
        await store.append_action(table.id, 3, {})
    assert [e.seq for e in await store.load_actions(table.id)] == [1]


async def test_append_checks_its_arguments_before_writing(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    with pytest.raises(ValueError):
        await store.append_actions(table.id, 1, [{"ok": 1}, ["not", "an", "object"]])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        await store.append_action(table.id, 1, {"nan": float("nan")})
    with pytest.raises(ValueError):
        await store.append_action(table.id, 1, {"set": {1, 2}})
    assert await store.load_actions(table.id) == []


async def test_unknown_table(store: SqlStore) -> None:
    with pytest.raises(NotFound):
        await store.append_action(12345, 1, {})
    with pytest.raises(NotFound):
        await store.load_actions(12345)


async def test_action_log_is_append_only_in_the_database(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    await store.append_action(table.id, 1, {"n": 1})
    for sql in (
        "UPDATE table_actions SET action = '{}' WHERE table_id = :id",
        "DELETE FROM table_actions WHERE table_id = :id",
    ):
        with pytest.raises(Exception, match="append-only"):
            async with store.database.write() as connection:
                await connection.execute(sql, {"id": table.id})
    assert [e.action for e in await store.load_actions(table.id)] == [{"n": 1}]


async def test_json_reads_back_exactly(store: SqlStore) -> None:
    value: dict[str, Any] = {
        "z": 1,
        "a": 2,
        "m": {"y": [1, 2.5, -0.0, 1e300, 2**70, None, True, False]},
        "nul": "a\x00b",
        "esc": "\\u0000 \" ' \n",
        "": "empty key",
    }
    table = await store.create_table(HERE, "truf", options=value, meta=value, seats=[value])
    await store.append_action(table.id, 1, value)
    loaded = await store.get_table(table.id)
    assert loaded is not None
    (entry,) = await store.load_actions(table.id)
    for got in (loaded.options, loaded.meta, loaded.seats[0], entry.action):
        assert json.dumps(got) == json.dumps(value)  # same keys, order and numbers


# -- recovery ----------------------------------------------------------------------------


async def test_load_unfinished_tables(store: SqlStore) -> None:
    lobby = await store.create_table(ChannelLocation(1, 1), "truf")
    playing = await store.create_table(ChannelLocation(1, 2), "turup", status="playing")
    finished = await store.create_table(ChannelLocation(1, 3), "truf")
    abandoned = await store.create_table(TerminalLocation("t"), "truf")
    await store.append_actions(playing.id, 1, [{"n": i} for i in range(1, 6)])
    await store.append_actions(finished.id, 1, [{"n": 1}])
    await store.append_actions(abandoned.id, 1, [{"n": 1}])
    await store.update_table(finished.id, status="finished")
    await store.update_table(abandoned.id, status="abandoned")
    recovered = await store.load_unfinished_tables()
    assert [r.table.id for r in recovered] == [lobby.id, playing.id]
    assert recovered[0].actions == []
    assert [e.action["n"] for e in recovered[1].actions] == [1, 2, 3, 4, 5]
    assert recovered[1].table == await store.get_table(playing.id)
    assert recovered[1].actions == await store.load_actions(playing.id)


class CountingDatabase:
    """Wraps a Database and counts the statements run through it."""

    def __init__(self, inner: Database) -> None:
        self.inner = inner
        self.statements: list[str] = []

    @property
    def dialect(self) -> Dialect:
        return self.inner.dialect

    @property
    def migration_lock_sql(self) -> str | None:
        return self.inner.migration_lock_sql

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Connection]:
        async with self.inner.write() as connection:
            yield CountingConnection(connection, self.statements)

    async def write_one(self, sql: str, params: Params | None = None) -> list[Row]:
        self.statements.append(sql)
        return await self.inner.write_one(sql, params)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self.inner.read() as connection:
            yield CountingConnection(connection, self.statements)

    async def close(self) -> None:
        await self.inner.close()


class CountingConnection:
    def __init__(self, inner: Connection, log: list[str]) -> None:
        self.inner = inner
        self.log = log

    async def execute(self, sql: str, params: Params | None = None) -> None:
        self.log.append(sql)
        await self.inner.execute(sql, params)

    async def executemany(self, sql: str, params: Sequence[Params]) -> None:
        self.log.append(sql)
        await self.inner.executemany(sql, params)

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        self.log.append(sql)
        return await self.inner.fetch(sql, params)

    async def fetchrow(self, sql: str, params: Params | None = None) -> Row | None:
        self.log.append(sql)
        return await self.inner.fetchrow(sql, params)


async def test_recovery_uses_two_queries_whatever_the_number_of_tables(store: SqlStore) -> None:
    for channel in range(40):
        table = await store.create_table(ChannelLocation(2, channel), "truf")
        await store.append_actions(table.id, 1, [{"c": channel, "i": i} for i in range(5)])
    counting = CountingDatabase(store.database)
    recovered = await SqlStore(counting).load_unfinished_tables()
    assert len(recovered) == 40 and all(len(r.actions) == 5 for r in recovered)
    assert len(counting.statements) <= 2


# -- concurrency -------------------------------------------------------------------------


async def test_concurrent_appends_to_many_tables(store: SqlStore) -> None:
    tables = [await store.create_table(ChannelLocation(3, c), "truf") for c in range(25)]

    async def play(table_id: int) -> None:
        for seq in range(1, 21):
            await store.append_action(table_id, seq, {"table": table_id, "seq": seq})

    await asyncio.gather(*(play(t.id) for t in tables))
    for table in tables:
        log = await store.load_actions(table.id)
        assert [e.seq for e in log] == list(range(1, 21))
        assert all(e.action == {"table": table.id, "seq": e.seq} for e in log)


async def test_racing_appends_of_one_seq_store_exactly_one(store: SqlStore) -> None:
    table = await store.create_table(HERE, "truf")
    results = await asyncio.gather(
        *(store.append_action(table.id, 1, {"writer": i}) for i in range(10)),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, DuplicateAction) for r in results if r is not None)
    (entry,) = await store.load_actions(table.id)
    assert results[entry.action["writer"]] is None
