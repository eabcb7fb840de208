"""The inbox of forwarded actions, and the locks and wake-ups of several processes.

Several bot processes share one PostgreSQL database, each running some shards. A process
that receives a request for a table another process owns (Discord delivers every DM
interaction to shard 0) writes it to ``forwarded_actions`` for the owner's shard; the
owner applies it and stores the outcome. The table is durable, so a request written while
its owner is restarting is applied once the owner is back.

Wake-ups: writing a request notifies the channel :func:`inbox_channel` of its shard, and
completing one notifies :data:`DONE_CHANNEL` with its id, both in the writing transaction
(so the notification arrives only after the commit). Listen with :meth:`InboxMixin.listener`.

Both writes are on a player's path (a forwarded click), so on PostgreSQL each is one
statement — the write and its notification together, one round trip — where a transaction
of its own would take four or five.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final, cast

from storage import codec
from storage.core import StoreCore
from storage.driver import Row
from storage.errors import ConstraintViolation, NotFound, ShardBusy
from storage.models import ForwardedAction, ForwardStatus, JsonObject
from storage.signals import Listener, SessionLock
from storage.sql import Dialect, placeholders

DONE_CHANNEL: Final = "inbox.done"
"""Notified with the id of each forwarded action as it is completed."""
SHARD_LOCK: Final = "shard"
"""Name of the per-shard start locks (:meth:`InboxMixin.lock_shards`)."""


def inbox_channel(shard: int) -> str:
    """The channel notified with the id of each request written for ``shard``."""
    return f"inbox.{shard}"


def _forwarded(row: Row) -> ForwardedAction:
    reply = row["reply_to"]
    outcome = row["outcome"]
    return ForwardedAction(
        id=int(row["id"]),
        request_key=row["request_key"],
        table_id=int(row["table_id"]),
        shard=int(row["shard"]),
        request=codec.decode_object(row["request"]),
        reply_to=None if reply is None else codec.decode_object(reply),
        status=cast(ForwardStatus, row["status"]),
        outcome=None if outcome is None else codec.decode_object(outcome),
        created_at=codec.to_datetime(row["created_at"]),
        done_at=codec.to_optional_datetime(row["done_at"]),
    )


class InboxMixin(StoreCore):
    async def forward_action(
        self,
        table_id: int,
        shard: int,
        request_key: str,
        request: JsonObject,
        *,
        reply_to: JsonObject | None = None,
    ) -> ForwardedAction:
        params = {
            "key": codec.key(request_key, "request_key"),
            "table_id": codec.integer(table_id, "table_id"),
            "shard": codec.integer(shard, "shard", minimum=0),
            "request": codec.encode_object(request, "request"),
            "reply_to": None if reply_to is None else codec.encode_object(reply_to, "reply_to"),
            "now": self._now(),
        }
        if self._db.dialect is Dialect.POSTGRES:
            try:
                rows = await self._db.write_one(
                    """
                    WITH written AS (
                        INSERT INTO forwarded_actions (request_key, table_id, shard, request,
                            reply_to, status, created_at)
                        VALUES (:key, :table_id, :shard, :request, :reply_to, 'pending', :now)
                        ON CONFLICT (request_key) DO NOTHING
                        RETURNING *)
                    SELECT written.*, pg_notify(current_schema() || '.' || :channel,
                                                written.id::text) AS notified
                    FROM written
                    """,
                    {**params, "channel": inbox_channel(shard)},
                )
            except ConstraintViolation:
                raise NotFound(f"table {table_id} does not exist") from None
            if rows:
                return _forwarded(rows[0])
            # written before (the same request, once): read it below
        async with self._db.write() as connection:
            exists = await connection.fetchrow(
                "SELECT id FROM game_tables WHERE id = :table_id", params
            )
            if exists is None:
                raise NotFound(f"table {table_id} does not exist")
            row = await connection.fetchrow(
                """
                INSERT INTO forwarded_actions (request_key, table_id, shard, request,
                    reply_to, status, created_at)
                VALUES (:key, :table_id, :shard, :request, :reply_to, 'pending', :now)
                ON CONFLICT (request_key) DO NOTHING
                RETURNING *
                """,
                params,
            )
            if row is None:  # written before: the same request, once
                row = await connection.fetchrow(
                    "SELECT * FROM forwarded_actions WHERE request_key = :key", params
                )
                assert row is not None
            else:
                await self._notify(connection, inbox_channel(shard), str(row["id"]))
        return _forwarded(row)

    async def get_forward(self, forward_id: int) -> ForwardedAction | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM forwarded_actions WHERE id = :id", {"id": forward_id}
            )
        return None if row is None else _forwarded(row)

    async def pending_forwards(
        self, shards: Sequence[int], *, limit: int = 100
    ) -> list[ForwardedAction]:
        if not shards:
            return []
        marks, names = placeholders("s", len(shards))
        params: dict[str, object] = dict(zip(names, shards, strict=True))
        params["limit"] = codec.integer(limit, "limit", minimum=1)
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT * FROM forwarded_actions WHERE status = 'pending'"
                f" AND shard IN ({marks}) ORDER BY id LIMIT :limit",
                params,
            )
        return [_forwarded(row) for row in rows]

    async def complete_forward(
        self, forward_id: int, outcome: JsonObject
    ) -> ForwardedAction | None:
        params = {
            "id": forward_id,
            "outcome": codec.encode_object(outcome, "outcome"),
            "now": self._now(),
        }
        if self._db.dialect is Dialect.POSTGRES:
            rows = await self._db.write_one(
                """
                WITH done AS (
                    UPDATE forwarded_actions
                    SET status = 'done', outcome = :outcome, reply_to = NULL, done_at = :now
                    WHERE id = :id AND status = 'pending'
                    RETURNING *)
                SELECT done.*, pg_notify(current_schema() || '.' || :channel,
                                         done.id::text) AS notified
                FROM done
                """,
                {**params, "channel": DONE_CHANNEL},
            )
            return _forwarded(rows[0]) if rows else None
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                UPDATE forwarded_actions
                SET status = 'done', outcome = :outcome, reply_to = NULL, done_at = :now
                WHERE id = :id AND status = 'pending'
                RETURNING *
                """,
                params,
            )
            if row is not None:
                await self._notify(connection, DONE_CHANNEL, str(forward_id))
        return None if row is None else _forwarded(row)

    async def purge_forwards(self, done_before: dt.datetime) -> int:
        async with self._db.write() as connection:
            rows = await connection.fetch(
                "DELETE FROM forwarded_actions WHERE status = 'done' AND done_at < :before"
                " RETURNING id",
                {"before": codec.aware(done_before, "done_before")},
            )
        return len(rows)

    def listener(self) -> Listener:
        return self._db.listener()

    async def lock_shards(self, shards: Sequence[int]) -> SessionLock:
        numbers = sorted({codec.integer(s, "shard", minimum=0) for s in shards})
        if not numbers:
            raise ValueError("lock_shards needs at least one shard")
        lock = await self._db.try_lock(SHARD_LOCK, numbers)
        if isinstance(lock, int):
            raise ShardBusy(lock)
        return lock
