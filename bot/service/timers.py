"""Turn deadlines, half-time reminders and lobby expiry of the table service: the timer tasks.

A deadline runs while a human who is not away is to act (it restarts when such a seat's
turn starts; 0 s disables it; the rules are :mod:`bot.service.deadlines`). At half time
the late seats get a ``reminder``; at the deadline the stand-in AI plays for every late
human (``by: "timeout"``); if nothing could be played the players get another period. A
lobby idle for 30 minutes is abandoned. One timer task per table sleeps on the injectable
clock until the next due time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

from bot.service.aiturns import AITurns
from bot.service.context import TableContext
from bot.service.deadlines import next_due, waiting_humans
from bot.service.errors import LOBBY_EXPIRED, Rejected, SaveFailed, StaleAction, TableChanged
from bot.service.events import ReminderData, TableEvent
from bot.service.live import LiveTable
from bot.service.lobby import Lobby
from bot.service.play import ActionPath

log = logging.getLogger(__name__)


class TurnTimers:
    """The timer tasks of the table service (their state is on each
    :class:`~bot.service.live.LiveTable`: ``turn_deadline``, ``reminded``, ``timer_task``).
    An expired lobby is abandoned through ``lobby``; a late seat's move is chosen by ``ai``
    and submitted through ``play``."""

    def __init__(self, ctx: TableContext, lobby: Lobby, play: ActionPath, ai: AITurns) -> None:
        self._ctx = ctx
        self._lobby = lobby
        self._play = play
        self._ai = ai

    def restart(self, table: LiveTable) -> None:
        """Start the timer task when a deadline is set and none runs (a running one re-reads)."""
        current = asyncio.current_task()
        task = table.timer_task
        if task is not None and not task.done():
            if task is current or not table.timer_parked:
                return  # a running timer task re-reads the deadlines when it loops
            task.cancel()
        table.timer_task = None
        table.timer_parked = False
        if next_due(table) is not None:
            table.timer_task = asyncio.create_task(self._run(table),
                                                   name=f"table-{table.id}-timers")

    async def _run(self, table: LiveTable) -> None:
        """The table's timer task: sleep until the next due time, then act on it."""
        while table.id in self._ctx.registry.tables and not self._ctx.registry.closed:
            due = next_due(table)
            if due is None:
                return
            when, kind = due
            if when > self._ctx.clock.now():
                table.timer_parked = True
                try:
                    await self._ctx.clock.sleep_until(when)
                finally:
                    table.timer_parked = False
                continue
            if kind == "lobby":
                async with table.lock:
                    if table.status == "lobby" and table.lobby_deadline == when:
                        try:
                            await self._lobby.abandon_locked(table, LOBBY_EXPIRED)
                        except TableChanged:
                            continue  # another writer touched it: its deadline holds
                return
            if kind == "reminder":
                table.reminded = True
                events = [TableEvent(table.id, "reminder", ReminderData(
                    seat=s, deadline=table.turn_deadline.isoformat()
                    if table.turn_deadline else None,
                ), frozenset({s}), table.version) for s in waiting_humans(table)]
                self._ctx.registry.publish(table, events)
                continue
            await self._expire(table, when)

    async def _expire(self, table: LiveTable, deadline: dt.datetime) -> None:
        """The turn time ran out: the stand-in AI plays for every late human."""
        table.busy += 1
        try:
            acted = False
            for seat in waiting_humans(table):
                if table.turn_deadline != deadline or seat not in table.to_act:
                    continue
                version = table.version
                try:
                    action = await self._ai.choose(table, seat, table.settings.standin)
                    await self._play.submit(table, seat, action, version, "timeout")
                    acted = True
                except (StaleAction, Rejected, SaveFailed) as exc:
                    log.info("table %s: timeout play for seat %s skipped (%s)",
                             table.id, seat, exc)
            if (not acted and table.turn_deadline == deadline
                    and table.id in self._ctx.registry.tables):
                # Nothing could be played: give the players another period.
                table.turn_deadline = self._ctx.clock.now() + dt.timedelta(
                    seconds=max(1.0, table.settings.turn_timeout))
                table.reminded = False
        finally:
            table.busy -= 1
