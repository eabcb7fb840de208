"""Security review L3, the leftover: a server setting stored out of range by older code
(``/settings ai_pace:1e308`` was stored before the command checked its numbers) stays in
the database. A new table reads the settings through :func:`bot.setting_ranges.in_force`:
such a number gives way to the setting's default, the other settings are kept, and the
table plays — its AI seats do not wait forever, a turn gets a deadline that exists.

The rows are written straight into the SQLite file, as the old code left them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import math
from pathlib import Path

import aiosqlite
import pytest

from bot.service import FakeClock, Seat, SystemClock, TableService
from storage import ChannelLocation, GuildSettings, Store

GUILD, CHANNEL = 7, 70
DEFAULT = GuildSettings()


async def store_raw(store: Store, tmp_path: Path, settings: dict[str, object]) -> None:
    """The guild's stored settings are exactly ``settings`` (written as older code did)."""
    await store.update_guild_settings(GUILD, {"images": False})  # the row exists
    async with aiosqlite.connect(tmp_path / "service.db") as db:
        await db.execute("UPDATE guilds SET settings = ? WHERE guild_id = ?",
                         (json.dumps(settings), GUILD))
        await db.commit()


@pytest.mark.parametrize("pace", [1e308, 31.0, math.nan, math.inf, -1.5])
async def test_a_stored_ai_pace_out_of_range_is_not_used_and_ai_seats_play(
        store: Store, tmp_path: Path, pace: float) -> None:
    await store_raw(store, tmp_path, {"ai_pace": pace, "turn_timeout": 45})
    service = TableService(store, clock=SystemClock())
    try:
        table_id = await service.create_table(
            ChannelLocation(GUILD, CHANNEL), "turup", seed=3, seats=[Seat.ai("random")] * 4,
            start=True)
        settings = service.info(table_id).settings
        assert (settings.ai_pace, settings.turn_timeout) == (DEFAULT.ai_pace, 45.0)
        started = service.info(table_id).version

        async def ai_played_twice() -> None:
            while service.info(table_id).version < started + 2:
                await asyncio.sleep(0.05)

        # two AI turns at the default pace (1.5 s each); a generous bound for liveness
        await asyncio.wait_for(ai_played_twice(), timeout=30)
    finally:
        await service.close()


@pytest.mark.parametrize("timeout", [10**12, 3, 0, -30])
async def test_a_stored_turn_timeout_out_of_range_is_not_used(
        store: Store, tmp_path: Path, timeout: int) -> None:
    await store_raw(store, tmp_path, {"turn_timeout": timeout, "ai_pace": 0})
    clock = FakeClock()
    service = TableService(store, clock=clock)
    try:
        table_id = await service.create_table(
            ChannelLocation(GUILD, CHANNEL), "turup", seed=3,
            seats=[Seat.human(11, "Ann"), *[Seat.ai("random")] * 3], start=True)
        await service.settle()
        info = service.info(table_id)
        assert (info.settings.turn_timeout, info.settings.ai_pace) == (
            DEFAULT.turn_timeout, 0.0)
        assert info.to_act == (0,)  # the AI seats played up to Ann's turn
        assert info.turn_deadline == clock.now() + dt.timedelta(seconds=DEFAULT.turn_timeout)
    finally:
        await service.close()
