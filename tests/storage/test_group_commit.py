"""SQLite's group commit (storage/sqlite.py): single statements that arrive together are
committed in one transaction — one fsync — each with its own rows or its own error, and
none returns before the commit; a caller cancelled while waiting writes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from storage import ConstraintViolation
from storage.sqlite import SqliteDatabase


async def _database(tmp_path: Path) -> SqliteDatabase:
    db = await SqliteDatabase.open(str(tmp_path / "g.db"))
    async with db.write() as c:
        await c.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)")
    return db


def _count_commits(db: SqliteDatabase) -> list[str]:
    """Every COMMIT the writer connection runs (a spy on its ``execute``)."""
    seen: list[str] = []
    writer: Any = db._writer
    execute = writer.execute

    def spy(sql: str, *args: Any) -> Any:
        if sql.strip().upper() == "COMMIT":
            seen.append(sql)
        return execute(sql, *args)

    writer.execute = spy
    return seen


async def test_statements_arriving_together_share_one_commit(tmp_path: Path) -> None:
    db = await _database(tmp_path)
    commits = _count_commits(db)
    try:
        rows = await asyncio.gather(*(
            db.write_one("INSERT INTO t (a) VALUES (:a) RETURNING a", {"a": i})
            for i in range(50)))
        assert [r[0][0] for r in rows] == list(range(50))  # each its own rows, in order
        assert 1 <= len(commits) <= 2  # the first alone, then the 49 waiting together
        async with db.read() as c:
            assert (await c.fetch("SELECT count(*) FROM t"))[0][0] == 50
    finally:
        await db.close()


async def test_a_failing_statement_fails_alone(tmp_path: Path) -> None:
    db = await _database(tmp_path)
    try:
        await db.write_one("INSERT INTO t (a) VALUES (1)")
        results = await asyncio.gather(
            db.write_one("INSERT INTO t (a) VALUES (2)"),
            db.write_one("INSERT INTO t (a) VALUES (3)"),
            db.write_one("INSERT INTO t (a) VALUES (1)"),  # the key exists
            db.write_one("INSERT INTO t (a) VALUES (4)"), return_exceptions=True)
        assert isinstance(results[2], ConstraintViolation)
        assert [r for i, r in enumerate(results) if i != 2] == [[], [], []]
        async with db.read() as c:
            assert [r[0] for r in await c.fetch("SELECT a FROM t ORDER BY a")] == [1, 2, 3, 4]
    finally:
        await db.close()


async def test_a_caller_cancelled_while_waiting_writes_nothing(tmp_path: Path) -> None:
    db = await _database(tmp_path)
    try:
        async with db.write() as c:  # holds the connection: the next statements wait
            waiting = asyncio.ensure_future(db.write_one("INSERT INTO t (a) VALUES (7)"))
            kept = asyncio.ensure_future(db.write_one("INSERT INTO t (a) VALUES (8)"))
            while len(db._pending) < 2:  # both queued behind the open transaction
                await asyncio.sleep(0)
            waiting.cancel()
            await c.execute("INSERT INTO t (a) VALUES (6)")
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await kept == []
        async with db.read() as c:
            assert [r[0] for r in await c.fetch("SELECT a FROM t ORDER BY a")] == [6, 8]
    finally:
        await db.close()
