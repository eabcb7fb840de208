"""A seat pump that fell behind: its subscription overflows while the seat's turn comes
and its half-time reminder is published, and the seat still gets a live panel and the
reminder (the pump re-reads the seat's state on ``resync``).

The pump is held (its panel refresh waits on a gate, the way a stuck Discord request
would hold it) while the AI players play; the seat's subscription gets a bound of 2
(:meth:`TableService.subscriptions` is the hook), so everything published meanwhile
overflows it: when the pump is released its queue holds only ``resync`` and the seat's
newest ``state`` — the ``reminder`` is gone. The released pump must post the reminder
(once) and bring the DM panel up to date, and the choice made on it must play.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from app_fixture import App, start_app
from discord_helpers import (
    advance_until_turn,
    alice_at_turup,
    channel_texts,
    find,
    live_panel,
    open_table,
    play_until,
    take_turn,
    versions,
)
from fakediscord import Harness

from bot.discord_bot.tables.hand_panel import SeatState
from bot.service import FakeClock, Seat, TableEvent
from bot.service.events import MIN_BOUND, RESYNC
from storage import TerminalLocation

TURN_TIMEOUT = 3600
REMINDER = "it is your turn"



async def test_a_seat_whose_subscription_overflowed_still_gets_a_live_panel(
        fake_discord: Harness, tmp_path: Path) -> None:
    app, clock, alice, table_id, seat = await alice_at_turup(fake_discord, tmp_path,
                                                             TURN_TIMEOUT)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    rng = random.Random(5)
    panels = app.tables.panels[table_id]
    sub = next(s for s in app.service.subscriptions(table_id) if s.seat == seat)
    assert [s.seat for s in app.service.subscriptions(table_id)] == [seat]  # the pump's
    gate, held = asyncio.Event(), asyncio.Event()
    refresh = panels.refresh

    async def held_refresh(s: int, state: SeatState) -> None:
        """The seat pump's panel refresh, held at the gate the way a stuck request would
        hold it."""
        if s == seat and not gate.is_set():
            held.set()
            await gate.wait()
        await refresh(s, state)

    # alice plays on her DM; after one of her turns, the pump is held as the first AI
    # player moves, until that hold comes while the AI players still play the same deal
    for _ in range(20):
        await advance_until_turn(app, clock, table_id, seat)
        await take_turn(alice, await live_panel(app, dm.id, table_id), rng)
        await app.service.settle()
        await fake_discord.settle()
        info = app.service.info(table_id)
        if seat in info.to_act:
            continue
        gate.clear()
        held.clear()
        panels.refresh = held_refresh  # type: ignore[method-assign]
        await clock.advance(1.0)  # one AI move
        await app.service.settle()
        await asyncio.wait_for(held.wait(), 10)
        now = app.service.info(table_id)
        if seat not in now.to_act and now.deal == info.deal:
            break
        gate.set()  # alice's turn came at once (or a new deal): try a later turn
        del panels.refresh
        await fake_discord.settle()
    else:
        raise AssertionError("no turn of the AI players to hold the pump in")
    assert sub.queued == 0  # the pump took the AI move's events and is held

    sub.bound = MIN_BOUND
    try:
        await advance_until_turn(app, clock, table_id, seat)
        assert app.service.info(table_id).deal == info.deal
        assert sub.overflows >= 1
        assert [e.type for e in sub.peek()] == [RESYNC, "state"]
        assert sub.peek()[1].data["legal"]  # alice's turn
        # The half-time reminder and the fresh state published with it overflow the full
        # queue twice: the reminder itself is dropped.
        overflows, dropped = sub.overflows, sub.dropped
        await clock.advance(TURN_TIMEOUT / 2)
        await app.service.settle()
        assert sub.overflows == overflows + 2 and sub.dropped == dropped + 2
        queued = sub.peek()
        assert [e.type for e in queued] == [RESYNC, "state"] and queued[1].data["legal"]
        assert seat in app.service.info(table_id).to_act
        assert versions(fake_discord.server.message(dm.id)) != {
            app.service.info(table_id).version}
        assert not any(REMINDER in t for t in channel_texts(app))
    finally:
        gate.set()

    # The released pump takes the resync: it posts the dropped reminder and makes the DM
    # live.
    panel = await live_panel(app, dm.id, table_id)
    assert "Your turn" in panel.content
    await fake_discord.wait_until(
        lambda: any(REMINDER in t for t in channel_texts(app)) or None, what="the reminder")
    await fake_discord.settle()
    assert sum(REMINDER in t for t in channel_texts(app)) == 1
    assert sub.queued == 0
    version = app.service.info(table_id).version
    r = await take_turn(alice, panel, rng)
    assert r.type == 7 and r.message is not None and r.message.id == dm.id
    assert app.service.info(table_id).version > version


class Hold:
    """Holds the table cog's public pump at its next public event (a gate, as a stuck
    request would hold it), with the watcher's bound lowered to 2 so that whatever the
    tables publish meanwhile overflows it."""

    def __init__(self, app: App) -> None:
        self.hub = app.tables
        self.gate, self.held = asyncio.Event(), asyncio.Event()
        watcher = self.hub._watcher
        assert watcher is not None
        self.watcher = watcher
        on_public = self.hub.on_public

        async def held_on_public(event: TableEvent) -> None:
            if not self.gate.is_set():
                self.held.set()
                await self.gate.wait()
            await on_public(event)

        self.hub.on_public = held_on_public  # type: ignore[method-assign]
        self.watcher.bound = MIN_BOUND

    def release(self) -> None:
        self.gate.set()
        del self.hub.on_public


async def test_a_start_the_public_pump_missed_still_deals_and_plays(
        fake_discord: Harness, tmp_path: Path) -> None:
    """``started`` and ``deal_started`` are dropped from the overflowing watcher: on the
    resync the adapter starts the seat pump, DMs the hand, and the DM becomes live."""
    clock = FakeClock()
    app = await start_app(fake_discord, tmp_path, clock=clock,
                          guild_settings={"ai_pace": 1.0, "turn_timeout": TURN_TIMEOUT})
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=2, start=False)
    hold = Hold(app)
    try:
        await alice.click(public, find(public, ":ai:rules"))  # a lobby event: the pump is held
        await asyncio.wait_for(hold.held.wait(), 10)
        await alice.click(public, find(public, ":start"))
        await app.service.settle()
        queued = [e.type for e in hold.watcher.peek()]
        assert queued[0] == RESYNC and "started" not in queued
        assert "deal_started" not in queued
        assert not alice.dms
    finally:
        hold.release()
    seat = app.service.seat_of(table_id, alice.id)
    assert seat is not None
    # the deal's DM comes with the hand: after an AI eldest named trump
    await advance_until_turn(app, clock, table_id, seat)
    dm = await alice.wait_for_dm(lambda m: "Your hand" in m.content)
    await advance_until_turn(app, clock, table_id, seat)
    panel = await live_panel(app, dm.id, table_id)
    version = app.service.info(table_id).version
    r = await take_turn(alice, panel, random.Random(2))
    assert r.type == 7 and app.service.info(table_id).version > version
    assert len([m for m in alice.dms if "Your hand" in m.content]) == 1


async def test_a_match_that_ended_while_the_public_pump_was_behind_is_reported(
        fake_discord: Harness, tmp_path: Path) -> None:
    """The table's ``match_over`` is dropped from the overflowing watcher (another table's
    events follow it): on the resync the result is posted once, from the store, and the
    table message is closed."""
    app = await start_app(fake_discord, tmp_path)
    alice = fake_discord.user("alice")
    table_id, public = await open_table(app, alice, "turup", ais=3, options='{"target": 1}')
    await app.service.settle()
    await fake_discord.settle()
    hold = Hold(app)
    try:
        await play_until(app, table_id, public, {alice: 0},
                         lambda: hold.held.is_set() and table_id not in app.service.table_ids())
        # Another table's events push the match_over out of the watcher.
        other = await app.service.create_table(
            TerminalLocation("elsewhere"), "turup", seats=[Seat.ai("random")] * 4, ai_pace=0)
        await app.service.abandon(other)
        queued = hold.watcher.peek()
        assert queued[0].type == RESYNC
        assert not any(e.table_id == table_id for e in queued)
        assert not any("The match at table" in t for t in channel_texts(app))
    finally:
        hold.release()
    result = await fake_discord.wait_until(
        lambda: next((t for t in channel_texts(app) if "The match at table" in t), None),
        what="the match result")
    assert f"The match at table {table_id} is over" in result and "the match." in result
    await fake_discord.wait_until(
        lambda: "The match is over" in fake_discord.server.message(public.id).content or None,
        what="the final table message")
    assert fake_discord.server.message(public.id).custom_ids() == []
    await fake_discord.settle()
    assert sum("The match at table" in t for t in channel_texts(app)) == 1
