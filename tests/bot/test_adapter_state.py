"""Where the Discord adapter shows a table (``storage/adapter_state.py``), on SQLite and
PostgreSQL: upserts of the fields passed, the seat panels of a table, the reminder claimed
once per deadline."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from pgtest import Schemas, require_postgres

from storage import UNSET, ChannelLocation, open_store, upgrade


@pytest.fixture(scope="module")
def adapter_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttadapt")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'adapter.db'}"
    schemas: Schemas = request.getfixturevalue("adapter_schemas")
    return schemas.fresh_url()


async def test_messages_and_seat_panels_round_trip(url: str) -> None:
    await upgrade(url)
    async with await open_store(url) as store:
        table = await store.create_table(ChannelLocation(1, 2), "turup", seats=[None] * 4)
        assert await store.get_table_messages(table.id) is None
        await store.save_table_message(table.id, channel_id=2, creator=7)
        await store.save_table_message(table.id, channel_id=2, message_id=99)
        await store.save_seat_panel(table.id, 1, deal=0, channel_id=50, message_id=51)
        await store.save_seat_panel(table.id, 1, deal=1, channel_id=50, message_id=52)
        await store.save_seat_panel(table.id, 3, dm_closed=True)
        await store.save_seat_panel(table.id, 1, deal=UNSET, message_id=53)
        got = await store.get_table_messages(table.id)
        assert got is not None
        assert (got.channel_id, got.message_id, got.creator) == (2, 99, 7)
        assert sorted(got.seats) == [1, 3]
        one = got.seats[1]
        assert (one.deal, one.channel_id, one.message_id, one.dm_closed) == (1, 50, 53, False)
        assert got.seats[3].dm_closed and got.seats[3].message_id is None


async def test_a_reminder_is_claimed_once_per_deadline(url: str) -> None:
    await upgrade(url)
    async with await open_store(url) as store:
        table = await store.create_table(ChannelLocation(1, 3), "turup", seats=[None] * 4)
        first = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)
        later = first + dt.timedelta(minutes=2)
        assert await store.mark_seat_reminded(table.id, 2, first)
        assert not await store.mark_seat_reminded(table.id, 2, first)
        assert await store.mark_seat_reminded(table.id, 2, later)
        assert not await store.mark_seat_reminded(table.id, 2, later)
        assert await store.mark_seat_reminded(table.id, 0, first)  # another seat
        got = await store.get_table_messages(table.id)
        assert got is not None and got.seats[2].reminded == later
        assert got.message_id is None
