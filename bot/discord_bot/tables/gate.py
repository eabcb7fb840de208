"""The most urgent message first when Discord holds the bot back: :class:`Gate`.

Every request of a :class:`~bot.discord_bot.tables.delivery.LiveMessage` (a table message, a DM
panel, an ephemeral panel) passes the process's gate: at most :data:`UNDER_WAY` of them
are under way at once. In normal play a request takes a fraction of a second and the gate
never fills. It fills when Discord holds the bot's requests — the global limit of 50 REST
requests per second reached (discord.py holds every request after a global 429; a shared
REST proxy holds them until the budget has room), or Discord slow to answer. Then the
requests waiting at the gate go **most urgent first** (then in the order they came):

* :data:`TO_ACT` — the live panel of a seat that is to act: the player is waiting for
  their controls;
* :data:`TABLE` — a table's public message (the default);
* :data:`LATER` — every other panel (a seat that is not to act, a DM kept current beside
  a live ephemeral panel).

A message waits with its drawing not yet made: when its turn comes it draws the newest
state, so a backlog costs one request per message, never one per change. Interaction
answers (a click's answer) do not pass the gate: Discord does not count them.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import weakref
from collections.abc import AsyncIterator
from typing import Final

TO_ACT: Final = 0
TABLE: Final = 1
LATER: Final = 2

UNDER_WAY: Final = 32
"""Live-message requests of a process under way at once: room for the bot's whole budget
of 50 requests per second at 0.6 s per request (Discord answers in a fraction of that), so
the gate fills only when Discord holds the bot back."""


class Gate:
    """At most ``size`` requests under way; the waiting ones get in by urgency (lowest
    first), then in the order they came (see the module docstring)."""

    def __init__(self, size: int = UNDER_WAY) -> None:
        self.size = size
        self.under_way = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, f in self._waiting if not f.done())

    @contextlib.asynccontextmanager
    async def turn(self, urgency: int) -> AsyncIterator[bool]:
        """Hold one place under way for the body (waiting for it by ``urgency``); yields
        whether it waited."""
        waited = await self._enter(urgency)
        try:
            yield waited
        finally:
            self._leave()

    async def _enter(self, urgency: int) -> bool:
        if self.under_way < self.size and not self.waiting:
            self.under_way += 1
            return False
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (urgency, next(self._order), place))
        try:
            await place  # handed over by _leave: under_way already counts it
        except asyncio.CancelledError:
            if place.done() and not place.cancelled():
                self._leave()  # handed over, then cancelled before it went: pass it on
            raise
        return True

    def _leave(self) -> None:
        while self._waiting:
            _, _, place = heapq.heappop(self._waiting)
            if not place.done():
                place.set_result(None)
                return
        self.under_way -= 1


_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Gate] = (
    weakref.WeakKeyDictionary())


def process_gate() -> Gate:
    """The gate of this process (of the running event loop)."""
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = Gate()
    return gate
