"""The player to act always has controls (issue 35): many seeded Albastini deals of one
human and two AI players (AI pace 0), played from the human's private panel — the deal's
DM, or a **My hand** panel — and at every turn of the human, the panel they play from
offers that turn's controls within a second, without pressing anything."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from app_fixture import App, start_app
from discord_helpers import my_hand, take_turn, versions
from fakediscord import Harness, SimulatedUser
from fakediscord.models import StoredMessage

from bot.service import NoSuchTable, Seat
from storage import ChannelLocation

DEALS = 24
CONTROLS_WITHIN = 1.0
"""Seconds within which the player to act has the turn's controls on their panel."""

T = TypeVar("T")


async def poll(condition: Callable[[], T | None], timeout: float, what: str) -> T:
    """``condition()`` once it is truthy (checked every 5 ms); fails after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (result := condition()) is None or result is False:
        if loop.time() > deadline:
            raise AssertionError(f"{what} (waited {timeout} s)")
        await asyncio.sleep(0.005)
    return result


def turn_or_end(app: App, table_id: int, seat: int) -> int | None:
    """The table's version when ``seat`` is to act in the first deal, -1 once that deal
    is over, else None."""
    try:
        info = app.service.info(table_id)
    except NoSuchTable:
        return -1
    if info.deal > 0 or info.status != "playing":
        return -1
    return info.version if seat in info.to_act else None


async def play_one_deal(app: App, ann: SimulatedUser, n: int, rng: random.Random) -> int:
    """Deal ``n``: ann at seat ``n % 3``, from the DM (even ``n``) or a **My hand** panel
    (odd ``n``); returns the number of her turns checked."""
    h = app.harness
    channel = h.server.add_text_channel(h.guild, f"albastini-{n}")
    seat = n % 3
    seats: list[Seat | None] = [Seat.ai("rules"), Seat.ai("rules")]
    seats.insert(seat, Seat.human(ann.id, "ann"))
    table_id = await app.service.create_table(
        ChannelLocation(int(h.guild.id), int(channel.id)), "albastini", players=3, seats=seats,
        seed=f"turns-{n}", start=True)
    panel: StoredMessage | None = None
    turns = 0
    while (version := await poll(lambda: turn_or_end(app, table_id, seat), 20.0,
                                 f"deal {n}: ann's turn or the deal's end")) >= 0:
        if panel is None:
            if n % 2 == 0:
                panel = await ann.wait_for_dm(lambda m: f"table {table_id}," in m.content)
            else:
                posted = await poll(lambda: (p := app.tables.presenters.get(table_id))
                                    and p.message_id, 5.0, "the table message")
                public = h.server.message(posted)
                panel = await my_hand(ann, public, table_id)
        await poll(lambda v=version, m=panel.id: versions(h.server.message(m)) == {v},
                   CONTROLS_WITHIN,
                   f"deal {n}, version {version}: ann is to act but her panel shows no "
                   f"controls: {h.server.message(panel.id).content!r}")
        await take_turn(ann, h.server.message(panel.id), rng)
        turns += 1
    await app.service.abandon(table_id)
    return turns


async def test_the_player_to_act_has_controls_at_every_turn_of_many_deals(
        fake_discord: Harness, tmp_path: Path) -> None:
    app = await start_app(fake_discord, tmp_path)
    ann = fake_discord.user("ann")
    rng = random.Random(35)
    turns = 0
    for n in range(DEALS):
        turns += await play_one_deal(app, ann, n, rng)
    assert turns >= DEALS * 10, turns
