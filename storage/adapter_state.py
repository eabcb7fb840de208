"""Where a front end shows a table: the Discord adapter's message ids and reminder marks.

Two small tables, kept apart from the table service's ``meta`` so that they are typed:

* ``table_messages`` — per game table: the channel and id of its public message and the
  member who opened it.
* ``seat_panels`` — per game table and seat: the DM panel of the deal in play (deal
  number, DM channel, message id), whether the player's DMs are closed, and the turn
  deadline the seat was last reminded of (so a reminder is posted at most once per turn,
  across restarts).

Every write is an upsert of the fields passed (:data:`~storage.models.UNSET` leaves a field
as it is). Rows go away with their game table (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import datetime as dt

from storage import codec
from storage.core import StoreCore
from storage.driver import Row
from storage.models import UNSET, SeatPanelRecord, TableMessages, Unset


def _seat(row: Row) -> SeatPanelRecord:
    return SeatPanelRecord(
        seat=int(row["seat"]),
        deal=None if row["deal"] is None else int(row["deal"]),
        channel_id=None if row["channel_id"] is None else int(row["channel_id"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        dm_closed=bool(row["dm_closed"]),
        reminded=codec.to_optional_datetime(row["reminded"]),
    )


class AdapterStateMixin(StoreCore):
    """The ``table_messages`` / ``seat_panels`` part of the store (see the module
    docstring)."""

    async def get_table_messages(self, table_id: int) -> TableMessages | None:
        async with self._db.read() as connection:
            head = await connection.fetchrow(
                "SELECT channel_id, message_id, creator FROM table_messages"
                " WHERE table_id = :id", {"id": table_id})
            rows = await connection.fetch(
                "SELECT * FROM seat_panels WHERE table_id = :id ORDER BY seat",
                {"id": table_id})
        if head is None and not rows:
            return None

        def opt(name: str) -> int | None:
            return None if head is None or head[name] is None else int(head[name])

        return TableMessages(table_id=table_id, channel_id=opt("channel_id"),
                             message_id=opt("message_id"), creator=opt("creator"),
                             seats={int(r["seat"]): _seat(r) for r in rows})

    async def save_table_message(
        self,
        table_id: int,
        *,
        channel_id: int | Unset = UNSET,
        message_id: int | Unset | None = UNSET,
        creator: int | Unset | None = UNSET,
    ) -> None:
        values: dict[str, object] = {}
        for name, value in (("channel_id", channel_id), ("message_id", message_id),
                            ("creator", creator)):
            if not isinstance(value, Unset):
                values[name] = None if value is None else codec.integer(value, name)
        await self._upsert("table_messages", ("table_id",), {"table_id": table_id}, values)

    async def save_seat_panel(
        self,
        table_id: int,
        seat: int,
        *,
        deal: int | Unset | None = UNSET,
        channel_id: int | Unset | None = UNSET,
        message_id: int | Unset | None = UNSET,
        dm_closed: bool | Unset = UNSET,
    ) -> None:
        values: dict[str, object] = {}
        for name, value in (("deal", deal), ("channel_id", channel_id),
                            ("message_id", message_id)):
            if not isinstance(value, Unset):
                values[name] = None if value is None else codec.integer(value, name)
        if not isinstance(dm_closed, Unset):
            values["dm_closed"] = 1 if dm_closed else 0
        keys: dict[str, object] = {"table_id": table_id,
                                   "seat": codec.integer(seat, "seat", minimum=0)}
        await self._upsert("seat_panels", ("table_id", "seat"), keys, values)

    async def mark_seat_reminded(self, table_id: int, seat: int,
                                 deadline: dt.datetime) -> bool:
        """Record that ``seat`` was reminded of the turn ending at ``deadline``; False
        (changing nothing) when that deadline was recorded already."""
        params = {"table_id": table_id, "seat": codec.integer(seat, "seat", minimum=0),
                  "reminded": codec.aware(deadline, "deadline"), "now": self._now()}
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO seat_panels (table_id, seat, dm_closed, reminded, updated_at)
                VALUES (:table_id, :seat, 0, :reminded, :now)
                ON CONFLICT (table_id, seat) DO UPDATE
                SET reminded = excluded.reminded, updated_at = excluded.updated_at
                WHERE seat_panels.reminded IS NULL OR seat_panels.reminded <> excluded.reminded
                RETURNING seat
                """,
                params,
            )
        return row is not None

    async def _upsert(self, table: str, key: tuple[str, ...], keys: dict[str, object],
                      values: dict[str, object]) -> None:
        """Insert the row or set ``values`` on it (``table`` and the column names are
        literals of this module)."""
        columns = [*keys, *values, "updated_at"]
        params = {**keys, **values, "updated_at": self._now()}
        sets = ", ".join(f"{c} = excluded.{c}" for c in [*values, "updated_at"])
        sql = (f"INSERT INTO {table} ({', '.join(columns)})"
               f" VALUES ({', '.join(':' + c for c in columns)})"
               f" ON CONFLICT ({', '.join(key)}) DO UPDATE SET {sets}")
        async with self._db.write() as connection:
            await connection.execute(sql, params)
