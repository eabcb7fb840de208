"""The deadline rules of a table: when a turn deadline runs, and what is due next.

A deadline runs while a human who is not away is to act (it restarts when such a seat's
turn starts; a turn timeout of 0 s disables it). At half time the late seats get a
``reminder``; a lobby has its idle deadline. These are pure rules on a
:class:`~bot.service.live.LiveTable`; the timer task that waits for them and acts is
:class:`bot.service.timers.TurnTimers`.
"""

from __future__ import annotations

import datetime as dt

from bot.service.clock import Clock
from bot.service.live import LiveTable


def waiting_humans(table: LiveTable) -> list[int]:
    """The seats to act held by humans who are not away (a deadline waits for them)."""
    out = []
    for s in table.to_act:
        seat = table.seats[s]
        if seat is not None and not seat.auto:
            out.append(s)
    return out


def plan_deadline(table: LiveTable, clock: Clock) -> bool:
    """Set the turn deadline for the state reached; True when it changed.

    A deadline runs while a human (not away) is to act. It restarts when such a
    seat's turn starts now, and otherwise keeps running (in Truf's secret bids, one
    player's bid does not give the others more time)."""
    old = table.turn_deadline
    waiting = waiting_humans(table)
    timeout = table.settings.turn_timeout
    if not waiting or timeout <= 0:
        new = None
    elif old is None or any(table.turn_start.get(s) == table.version for s in waiting):
        new = clock.now() + dt.timedelta(seconds=timeout)
    else:
        new = old
    if new != old:
        table.turn_deadline = new
        table.reminded = False
        return True
    return False


def next_due(table: LiveTable) -> tuple[dt.datetime, str] | None:
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
