"""Clocks for the table service: the real one, and a fake one that tests move by hand.

The service never reads the time or sleeps except through a :class:`Clock`, so every timer
(turn reminders, AI stand-ins, lobby expiry, AI pace) runs on a fake clock in tests.
Times are timezone-aware UTC datetimes, the form the store keeps deadlines in.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import heapq
import itertools
from typing import Protocol


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    """A UTC datetime (a convenience for tests and the fake clock's start)."""
    return dt.datetime(year, month, day, hour, minute, tzinfo=dt.UTC)


class Clock(Protocol):
    def now(self) -> dt.datetime:
        """The current time (aware, UTC)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (0 or less: just yield to the event loop once)."""
        ...

    async def sleep_until(self, when: dt.datetime) -> None:
        """Wait until ``when`` (returns at once, after one yield, when it is past)."""
        ...


class SystemClock:
    """The wall clock and ``asyncio.sleep``."""

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    async def sleep_until(self, when: dt.datetime) -> None:
        await asyncio.sleep(max(0.0, (when - self.now()).total_seconds()))


class FakeClock:
    """A clock that moves only when :meth:`advance` is called.

    Sleepers wake, in deadline order, when the clock is advanced to or past their deadline.
    ``sleep(0)`` only yields, so an AI pace of 0 needs no advancing.
    """

    def __init__(self, start: dt.datetime | None = None) -> None:
        self._now = start or utc(2026, 1, 1, 12)
        self._sleepers: list[tuple[dt.datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> dt.datetime:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        await self.sleep_until(self._now + dt.timedelta(seconds=seconds))

    async def sleep_until(self, when: dt.datetime) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many sleepers wait for a future time (cancelled ones excluded)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    def next_deadline(self) -> dt.datetime | None:
        """The earliest time a sleeper waits for, if any."""
        live = [when for when, _, f in self._sleepers if not f.done()]
        return min(live) if live else None

    async def advance(self, seconds: float = 0.0, *, to: dt.datetime | None = None) -> None:
        """Move the clock forward and wake every sleeper whose deadline has come, then
        yield so that they run."""
        target = to if to is not None else self._now + dt.timedelta(seconds=seconds)
        if target < self._now:
            raise ValueError("a clock does not go backwards")
        self._now = target
        while self._sleepers and self._sleepers[0][0] <= target:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        await asyncio.sleep(0)
