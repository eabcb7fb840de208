"""Turn deadlines, half-time reminders and lobby expiry of the table service.

A deadline runs while a human who is not away is to act (it restarts when such a seat's
turn starts; 0 s disables it). At half time the late seats get a ``reminder``; at the
deadline the stand-in AI plays for every late human (``by: "timeout"``); if nothing
could be played the players get another period. A lobby idle for 30 minutes is
abandoned. One timer task per table sleeps on the injectable clock until the next due time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import TYPE_CHECKING

from bot.service.errors import LOBBY_EXPIRED, Rejected, SaveFailed, StaleAction, TableChanged
from bot.service.events import ReminderData, TableEvent
from bot.service.live import LiveTable

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger(__name__)


class TurnTimers:
    """The timer tasks of :class:`~bot.service.tables.TableService` (their state is on each
    :class:`~bot.service.live.LiveTable`: ``turn_deadline``, ``reminded``, ``timer_task``)."""

    def __init__(self, hub: TableService) -> None:
        self._hub = hub

    def waiting_humans(self, table: LiveTable) -> list[int]:
        """The seats to act held by humans who are not away (a deadline waits for them)."""
        out = []
        for s in table.to_act:
            seat = table.seats[s]
            if seat is not None and not seat.auto:
                out.append(s)
        return out

    def plan_deadline(self, table: LiveTable) -> bool:
        """Set the turn deadline for the state reached; True when it changed.

        A deadline runs while a human (not away) is to act. It restarts when such a
        seat's turn starts now, and otherwise keeps running (in Truf's secret bids, one
        player's bid does not give the others more time)."""
        old = table.turn_deadline
        waiting = self.waiting_humans(table)
        timeout = table.settings.turn_timeout
        if not waiting or timeout <= 0:
            new = None
        elif old is None or any(table.turn_start.get(s) == table.version for s in waiting):
            new = self._hub.clock.now() + dt.timedelta(seconds=timeout)
        else:
            new = old
        if new != old:
            table.turn_deadline = new
            table.reminded = False
            return True
        return False

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
        if self.next_due(table) is not None:
            table.timer_task = asyncio.create_task(self._run(table),
                                                   name=f"table-{table.id}-timers")

    def next_due(self, table: LiveTable) -> tuple[dt.datetime, str] | None:
        """The next due time and its kind (``lobby``, ``reminder`` or ``turn``), if any."""
        if table.status == "lobby" and table.lobby_deadline is not None:
            return table.lobby_deadline, "lobby"
        if table.status == "playing" and table.turn_deadline is not None:
            deadline = table.turn_deadline
            if not table.reminded:
                half = dt.timedelta(seconds=table.settings.turn_timeout / 2)
                return deadline - half, "reminder"
            return deadline, "turn"
        return None

    async def _run(self, table: LiveTable) -> None:
        """The table's timer task: sleep until the next due time, then act on it."""
        while table.id in self._hub.registry.tables and not self._hub.registry.closed:
            due = self.next_due(table)
            if due is None:
                return
            when, kind = due
            if when > self._hub.clock.now():
                table.timer_parked = True
                try:
                    await self._hub.clock.sleep_until(when)
                finally:
                    table.timer_parked = False
                continue
            if kind == "lobby":
                async with table.lock:
                    if table.status == "lobby" and table.lobby_deadline == when:
                        try:
                            await self._hub.lobby.abandon_locked(table,
                                                LOBBY_EXPIRED)
                        except TableChanged:
                            continue  # another writer touched it: its deadline holds
                return
            if kind == "reminder":
                table.reminded = True
                events = [TableEvent(table.id, "reminder", ReminderData(
                    seat=s, deadline=table.turn_deadline.isoformat()
                    if table.turn_deadline else None,
                ), frozenset({s}), table.version) for s in self.waiting_humans(table)]
                self._hub.registry.publish(table, events)
                continue
            await self._expire(table, when)

    async def _expire(self, table: LiveTable, deadline: dt.datetime) -> None:
        """The turn time ran out: the stand-in AI plays for every late human."""
        table.busy += 1
        try:
            acted = False
            for seat in self.waiting_humans(table):
                if table.turn_deadline != deadline or seat not in table.to_act:
                    continue
                version = table.version
                try:
                    action = await self._hub._choose(table, seat, table.settings.standin)
                    await self._hub._submit(table, seat, action, version, "timeout")
                    acted = True
                except (StaleAction, Rejected, SaveFailed) as exc:
                    log.info("table %s: timeout play for seat %s skipped (%s)",
                             table.id, seat, exc)
            if (not acted and table.turn_deadline == deadline
                    and table.id in self._hub.registry.tables):
                # Nothing could be played: give the players another period.
                table.turn_deadline = self._hub.clock.now() + dt.timedelta(
                    seconds=max(1.0, table.settings.turn_timeout))
                table.reminded = False
        finally:
            table.busy -= 1
