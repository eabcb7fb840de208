"""URLs, the default database, SQL compilation and SQLite-specific guarantees."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]
import pytest
from pgtest import PG_URL, require_postgres

from storage import (
    DEFAULT_URL,
    ChannelLocation,
    SqlStore,
    UnsupportedURL,
    open_store,
    parse_url,
    resolve_url,
)
from storage.factory import HIDDEN, CannotOpen, PostgresTarget, SqliteTarget, redact
from storage.postgres import PostgresDatabase
from storage.results import LEADERBOARD_SQL
from storage.sql import Dialect, bind, compile_sql
from storage.sqlite import SqliteDatabase
from storage.tables import RECOVERY_ACTIONS_SQL, RECOVERY_TABLES_SQL

# -- URLs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "target"),
    [
        ("sqlite:///tricktable.db", SqliteTarget("tricktable.db")),
        ("sqlite:///data/my%20bot.db", SqliteTarget("data/my bot.db")),
        ("sqlite:////var/lib/tt.db", SqliteTarget("/var/lib/tt.db")),
        ("sqlite:///:memory:", SqliteTarget(":memory:")),
        ("sqlite:///x.db?synchronous=normal", SqliteTarget("x.db", "NORMAL")),
        ("postgresql://u:p@h:5433/db", PostgresTarget("postgresql://u:p@h:5433/db")),
        ("postgres://h/db?schema=tt_a", PostgresTarget("postgresql://h/db", "tt_a")),
        (
            "postgresql://h/db?sslmode=require&schema=s",
            PostgresTarget("postgresql://h/db?sslmode=require", "s"),
        ),
    ],
)
def test_parse_url(url: str, target: object) -> None:
    assert parse_url(url) == target


@pytest.mark.parametrize(
    "url",
    ["mysql://h/db", "sqlite://host/x.db", "sqlite:///", "sqlite:///x.db?journal=off", "x.db"],
)
def test_unsupported_urls(url: str) -> None:
    with pytest.raises(UnsupportedURL):
        parse_url(url)


def test_passwords_are_redacted_in_messages() -> None:
    assert redact("postgresql://bot:s3cret@db/tt") == "postgresql://bot:***@db/tt"
    with pytest.raises(UnsupportedURL) as info:
        parse_url("mysql://bot:s3cret@db/tt")
    assert "s3cret" not in str(info.value)


SECRET = "Pw0rdNeverLogged"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"postgresql://bot:{SECRET}@db/tt?password={SECRET}&sslmode=require",
         "postgresql://bot:***@db/tt?password=***&sslmode=require"),
        (f"postgresql://bot@db/tt?sslpassword={SECRET}", "postgresql://bot@db/tt?sslpassword=***"),
        (f"postgres://db/tt?PassWord={SECRET}", "postgres://db/tt?PassWord=***"),
        ("postgresql://bot@db:5433/tt?schema=s", "postgresql://bot@db:5433/tt?schema=s"),
        (f"sqlite://bot:{SECRET}@localhost/x.db", "sqlite://bot:***@localhost/x.db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
        # shapes whose secret could be anywhere: hidden whole
        (f"postgresql//bot:{SECRET}@db:5432/tt", HIDDEN),
        (f"bot:{SECRET}@db:5432/tt", HIDDEN),
        (f"postgresql:/bot:{SECRET}@127.0.0.1:1/tt", HIDDEN),
        (f"postgresql://bot:{SECRET}/x@db/tt", HIDDEN),
        (f"postgresql://bot:pa#{SECRET}@db/tt", HIDDEN),
        (f"postgresql://db/tt?password={SECRET}@x", HIDDEN),
    ],
)
def test_redact_hides_passwords_and_secret_parameters(url: str, shown: str) -> None:
    assert redact(url) == shown and SECRET not in redact(url)


@pytest.mark.parametrize(
    ("url", "part"),
    [
        (f"postgresql//bot:{SECRET}@db:5432/tt", "':' after 'postgresql'"),
        (f"bot:{SECRET}@db:5432/tt", "scheme"),
        (f"postgresql:/bot:{SECRET}@127.0.0.1:1/tt", "no host"),
        (f"postgresql:bot:{SECRET}@127.0.0.1:1/tt", "no host"),
        (f"sqlite://bot:{SECRET}@localhost/x.db", "no user, password or host"),
        (f"sqlite:///x.db?password={SECRET}", "only the option ?synchronous"),
        (f"postgresql://bot:{SECRET}/x@db/tt", "port"),
        (f"postgresql://bot:pw@db/{SECRET}@x", "database name"),
        (f"postgresql://bot:pw@db/tt#{SECRET}", "'#'"),
        (f"mysql://bot:{SECRET}@db/tt", "scheme"),
    ],
)
def test_a_malformed_url_is_refused_naming_the_part_never_the_url(url: str, part: str) -> None:
    with pytest.raises(UnsupportedURL) as info:
        parse_url(url)
    assert part in str(info.value) and SECRET not in str(info.value)


def test_a_server_refusal_never_quotes_the_password() -> None:
    """The driver's own text (here PostgreSQL's "database … does not exist") is scrubbed
    of the URL's secrets."""
    require_postgres()
    base = urlsplit(PG_URL)
    url = urlunsplit(base._replace(netloc=f"{base.username or 'postgres'}:{SECRET}@"
                                          f"{base.hostname}:{base.port or 5432}",
                                   path=f"/no_such_db_{SECRET.lower()}_{SECRET}",
                                   query=f"sslpassword={SECRET}"))
    with pytest.raises(CannotOpen) as info:
        asyncio.run(open_store(url))
    assert SECRET not in str(info.value) and "does not exist" in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_resolve_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert resolve_url() == DEFAULT_URL == "sqlite:///tricktable.db"
    monkeypatch.setenv("DATABASE_URL", "postgresql://h/db")
    assert resolve_url() == "postgresql://h/db"
    assert resolve_url("sqlite:///a.db") == "sqlite:///a.db"


async def test_default_database_is_a_file_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    store = await open_store()
    await store.upsert_player(1, "Ana")
    await store.close()
    assert (tmp_path / "tricktable.db").exists()


async def test_database_url_from_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
    store = await open_store()
    await store.close()
    assert (tmp_path / "env.db").exists()


def test_bad_schema_names_are_refused() -> None:
    with pytest.raises(ValueError, match="schema name"):
        asyncio.run(PostgresDatabase.open("postgresql://127.0.0.1/x", schema='a"; DROP'))


# -- named parameters --------------------------------------------------------------------


def test_named_parameters_compile_per_dialect() -> None:
    sql = "SELECT * FROM t WHERE a = :a AND (CAST(:b AS BIGINT) IS NULL OR b = :b) AND c = ':x'"
    assert compile_sql(sql, Dialect.SQLITE) == (
        "SELECT * FROM t WHERE a = ?1 AND (CAST(?2 AS BIGINT) IS NULL OR b = ?2) AND c = ':x'",
        ("a", "b"),
    )
    assert compile_sql(sql, Dialect.POSTGRES)[0].startswith("SELECT * FROM t WHERE a = $1 AND")
    assert compile_sql('SELECT x::text, ":no" -- :nor\nFROM t', Dialect.POSTGRES) == (
        'SELECT x::text, ":no" -- :nor\nFROM t',
        (),
    )
    assert bind("SELECT :b, :a, :b", Dialect.POSTGRES, {"a": 1, "b": 2, "c": 3}) == (
        "SELECT $1, $2, $1",
        [2, 1],
    )
    with pytest.raises(KeyError, match="missing SQL parameter 'a'"):
        bind("SELECT :a", Dialect.SQLITE, {})


# -- SQLite specifics --------------------------------------------------------------------


async def test_sqlite_durability_settings(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'p.db'}")
    assert isinstance(store, SqlStore) and isinstance(store.database, SqliteDatabase)
    pragmas = await store.database.pragmas()
    await store.close()
    # WAL, synchronous=FULL (2), foreign keys on, a busy timeout.
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 2,
        "foreign_keys": 1,
        "busy_timeout": 10000,
    }
    normal = await open_store(f"sqlite:///{tmp_path / 'p.db'}?synchronous=normal")
    assert isinstance(normal, SqlStore) and isinstance(normal.database, SqliteDatabase)
    assert (await normal.database.pragmas())["synchronous"] == 1
    await normal.close()


async def test_store_is_an_async_context_manager(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cm.db'}"
    async with await open_store(url) as store:
        await store.upsert_player(1, "Ana")
    async with await open_store(url) as store:
        player = await store.get_player(1)
        assert player is not None and player.display_name == "Ana"


async def test_sqlite_in_memory() -> None:
    store = await open_store("sqlite:///:memory:")
    table = await store.create_table(ChannelLocation(1, 1), "truf")
    await store.append_action(table.id, 1, {"a": 1})
    assert [r.table.id for r in await store.load_unfinished_tables()] == [table.id]
    await store.close()


async def test_sqlite_write_cancelled_in_its_begin_leaves_no_transaction_open(
        tmp_path: Path) -> None:
    """A task cancelled while its ``BEGIN IMMEDIATE`` is in the SQLite thread (a table
    closing cancels its tasks) must not leave the writer inside that transaction: the next
    write would fail with "cannot start a transaction within a transaction"."""
    db = await SqliteDatabase.open(str(tmp_path / "x.db"))
    try:
        await db.write_one("CREATE TABLE t (x INTEGER)")

        async def write(value: int) -> None:
            async with db.write() as connection:
                await connection.execute("INSERT INTO t VALUES (:x)", {"x": value})

        async def read() -> list[int]:
            async with db.read() as connection:
                return [int(r["x"]) for r in await connection.fetch("SELECT x FROM t")]

        for step in (write(1), read()):
            task: asyncio.Task[object] = asyncio.create_task(step)
            await asyncio.sleep(0)  # it holds the lock and awaits its BEGIN
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        await write(2)
        assert await read() == [2]
    finally:
        await db.close()


@pytest.mark.parametrize(
    ("sql", "index"),
    [
        (LEADERBOARD_SQL, "ratings_leaderboard"),
        (RECOVERY_TABLES_SQL, "game_tables_unfinished"),
        (RECOVERY_ACTIONS_SQL, "game_tables_unfinished"),
        ("SELECT * FROM participants WHERE user_id = :u", "participants_user"),
        ("SELECT * FROM fixtures WHERE status = :s AND scheduled_at <= :t", "fixtures_due"),
    ],
)
async def test_queries_use_their_indexes(tmp_path: Path, sql: str, index: str) -> None:
    path = tmp_path / "plan.db"
    await (await open_store(f"sqlite:///{path}")).close()
    text, names = compile_sql(sql, Dialect.SQLITE)
    connection = sqlite3.connect(path)
    try:
        plan = " | ".join(
            str(row[3])
            for row in connection.execute(f"EXPLAIN QUERY PLAN {text}", [0] * len(names))
        )
    finally:
        connection.close()
    assert index in plan, plan
    assert "TEMP B-TREE" not in plan, plan  # no sort step: the index gives the order


async def test_postgres_close_does_not_wait_forever_for_a_held_connection(
    postgres_run: object, caplog: pytest.LogCaptureFixture
) -> None:
    """A connection a stuck task still holds would make asyncpg's close wait forever: the
    database closes it by force after the timeout, and says so."""
    from pgtest import PG_URL

    db = await PostgresDatabase.open(PG_URL, min_size=1, max_size=2)
    held = asyncio.Event()
    release = asyncio.Event()

    async def stuck() -> None:
        async with db.write() as connection:
            await connection.fetch("SELECT 1")
            held.set()
            await release.wait()  # never set: the task holds its connection

    task = asyncio.create_task(stuck())
    await held.wait()
    await asyncio.wait_for(db.close(timeout=0.3), 10.0)  # without the limit: forever
    assert "closing them by force" in caplog.text
    with pytest.raises(asyncpg.InterfaceError, match="pool"):
        async with db.write() as connection:
            await connection.fetch("SELECT 1")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_postgres_close_is_graceful_when_nothing_is_held(
    postgres_run: object, caplog: pytest.LogCaptureFixture
) -> None:
    from pgtest import PG_URL

    db = await PostgresDatabase.open(PG_URL, min_size=1, max_size=2)
    async with db.write() as connection:
        assert await connection.fetch("SELECT 1")
    await db.close(timeout=30.0)
    assert "by force" not in caplog.text
    with pytest.raises(asyncpg.InterfaceError, match="pool"):
        async with db.write() as connection:
            await connection.fetch("SELECT 1")
