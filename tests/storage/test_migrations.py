"""Migrations and schema versions (both backends, each test on a never-migrated database)."""

from __future__ import annotations

import asyncio
import re

import pytest

from storage import (
    LATEST_VERSION,
    SchemaOutdated,
    SchemaTooNew,
    SqlStore,
    migrations,
    open_store,
    upgrade,
)
from storage.codec import utcnow
from storage.factory import open_database
from storage.migrations import MIGRATIONS, Migration, Step, render
from storage.sql import Dialect


async def schema_versions(url: str) -> list[int]:
    database = await open_database(url)
    try:
        async with database.read() as connection:
            rows = await connection.fetch("SELECT version FROM schema_version ORDER BY version")
        return [int(r["version"]) for r in rows]
    finally:
        await database.close()


async def version_of(url: str) -> int:
    database = await open_database(url)
    try:
        return await migrations.current_version(database)
    finally:
        await database.close()


async def test_upgrade_from_empty_then_nothing_to_do(fresh_url: str) -> None:
    assert await upgrade(fresh_url) == (0, LATEST_VERSION)
    assert await upgrade(fresh_url) == (LATEST_VERSION, LATEST_VERSION)
    assert await schema_versions(fresh_url) == list(range(1, LATEST_VERSION + 1))


async def test_open_store_migrates(fresh_url: str) -> None:
    store = await open_store(fresh_url)
    try:
        assert await store.schema_version() == LATEST_VERSION
    finally:
        await store.close()


async def test_concurrent_upgrades_apply_once(fresh_url: str) -> None:
    results = await asyncio.gather(*(upgrade(fresh_url) for _ in range(4)))
    assert sorted(results) == [(0, LATEST_VERSION)] + [(LATEST_VERSION, LATEST_VERSION)] * 3
    assert await schema_versions(fresh_url) == list(range(1, LATEST_VERSION + 1))


async def test_database_newer_than_code_is_refused(fresh_url: str) -> None:
    await upgrade(fresh_url)
    database = await open_database(fresh_url)
    try:
        async with database.write() as connection:
            await connection.execute(
                "INSERT INTO schema_version (version, description, applied_at)"
                " VALUES (:v, 'from the future', :at)",
                {"v": LATEST_VERSION + 5, "at": utcnow()},
            )
    finally:
        await database.close()
    newer = LATEST_VERSION + 5
    for attempt in (open_store(fresh_url), upgrade(fresh_url)):
        with pytest.raises(SchemaTooNew) as info:
            await attempt
        message = str(info.value)
        assert re.search(rf"\b{newer}\b", message) and re.search(rf"\b{LATEST_VERSION}\b", message)
        assert (info.value.database_version, info.value.code_version) == (newer, LATEST_VERSION)
    with pytest.raises(SchemaTooNew):
        await open_store(fresh_url, migrate_schema=False)
    assert (await schema_versions(fresh_url))[-1] == newer  # never downgraded


async def test_open_without_migrating_refuses_an_old_schema(fresh_url: str) -> None:
    with pytest.raises(SchemaOutdated, match="tricktable db upgrade"):
        await open_store(fresh_url, migrate_schema=False)
    await upgrade(fresh_url)
    store = await open_store(fresh_url, migrate_schema=False)
    await store.close()


async def test_a_later_migration_applies_on_top(
    fresh_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await upgrade(fresh_url) == (0, LATEST_VERSION)
    extra = Migration(
        LATEST_VERSION + 1,
        "test: notes",
        (
            "CREATE TABLE notes (id ${pk}, body ${json} NOT NULL, at ${ts} NOT NULL)",
            Step(sqlite="CREATE INDEX notes_at ON notes (at)", postgres=None),
            "ALTER TABLE players ADD COLUMN locale TEXT NOT NULL DEFAULT 'en'",
        ),
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, extra))
    assert await upgrade(fresh_url) == (LATEST_VERSION, LATEST_VERSION + 1)
    store = await open_store(fresh_url)
    try:
        assert isinstance(store, SqlStore)
        await store.upsert_player(1, "Ana")
        async with store.database.write() as connection:
            await connection.execute(
                "INSERT INTO notes (body, at) VALUES (:body, :at)",
                {"body": '{"b":1,"a":2}', "at": utcnow()},
            )
            row = await connection.fetchrow("SELECT id, body FROM notes")
            locale = await connection.fetchrow("SELECT locale FROM players WHERE user_id = 1")
        assert row is not None and (row["id"], row["body"]) == (1, '{"b":1,"a":2}')
        assert locale is not None and locale["locale"] == "en"
    finally:
        await store.close()
    monkeypatch.setattr(migrations, "MIGRATIONS", MIGRATIONS)
    with pytest.raises(SchemaTooNew):  # the old code now meets a newer database
        await open_store(fresh_url)


async def test_a_failing_migration_changes_nothing(
    fresh_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = Migration(LATEST_VERSION + 1, "broken", ("CREATE TABLE ok (x INTEGER)", "NOT SQL"))
    monkeypatch.setattr(migrations, "MIGRATIONS", (*MIGRATIONS, broken))
    with pytest.raises(Exception):  # noqa: B017 - each driver has its own syntax error type
        await upgrade(fresh_url)
    assert await version_of(fresh_url) == 0  # not even version 1: one transaction
    monkeypatch.setattr(migrations, "MIGRATIONS", MIGRATIONS)
    assert await upgrade(fresh_url) == (0, LATEST_VERSION)


@pytest.mark.parametrize("dialect", list(Dialect))
def test_every_statement_renders_without_leftover_tokens(dialect: Dialect) -> None:
    for migration in MIGRATIONS:
        for step in migration.steps:
            text = render(step, dialect)
            assert text is None or "${" not in text
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))


def test_unknown_type_token_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown dialect token"):
        render("CREATE TABLE x (a ${uuid})", Dialect.SQLITE)


async def test_version_7_gives_older_matches_their_tables_channel(fresh_url: str) -> None:
    """Matches stored before version 7 take the channel of their table (a terminal table
    has none): ``/history`` then shows them to whoever may read that channel."""
    database = await open_database(fresh_url)
    try:
        assert await migrations.migrate(database, 6) == (0, 6)
        now = utcnow()
        async with database.write() as connection:
            for table_id, guild, channel, terminal in ((1, 10, 20, None),
                                                       (2, None, None, "tty1")):
                await connection.execute(
                    "INSERT INTO game_tables (id, guild_id, channel_id, terminal, game,"
                    " options, seats, status, meta, created_at, updated_at)"
                    " VALUES (:id, :guild, :channel, :terminal, 'turup', '{}', '[]',"
                    " 'finished', '{}', :now, :now)",
                    {"id": table_id, "guild": guild, "channel": channel,
                     "terminal": terminal, "now": now})
                await connection.execute(
                    "INSERT INTO matches (id, table_id, guild_id, game, rated, result,"
                    " deal_count, finished_at, created_at)"
                    " VALUES (:id, :id, :guild, 'turup', FALSE, '{}', 0, :now, :now)",
                    {"id": table_id, "guild": guild, "now": now})
        assert await migrations.migrate(database) == (6, LATEST_VERSION)
    finally:
        await database.close()
    store = await open_store(fresh_url)
    try:
        first, second = await store.get_match(1), await store.get_match(2)
        assert first is not None and first.channel_id == 20
        assert second is not None and second.channel_id is None
    finally:
        await store.close()
