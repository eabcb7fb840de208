"""What the table service tells its front ends: events, and the subscriptions that carry
them.

Every :class:`TableEvent` names its table, its type, its JSON-able ``data``, the table
``version`` it was published at, and who may receive it (``to``: ``None`` for everybody,
else a set of seats; ``exclude``: seats left out of an otherwise public event), exactly
like :class:`games.base.Event`. Spectators receive exactly the events with ``to`` None.

A front end subscribes to a table for one seat (``seat=N``: that seat's private events as
well as the public ones) or as a spectator (``seat=None``: public events only). The
service checks ``visible_to`` before queueing an event, so a subscription can never
receive what its seat may not see. Events are queued without blocking the table: a slow
front end delays only itself.

Event types (``data`` keys in brackets):

* ``lobby`` [status, seats, players, lobby_deadline] — a lobby changed.
* ``started`` [seats, players, teams, options] — the match began.
* ``deal_started`` [deal, dealer] — a deal began; it is followed by ``state``.
* the game's own events (``play``, ``trick``, ``trump``, ``hand``, ``bid``, …,
  ``deal_over`` [summary]) exactly as the engine emitted them, with their ``to``.
* ``deal_scored`` [deal, summary, match] — the match totals after a deal.
* ``turn`` [to_act, version, deadline] — who is to act now (public).
* ``state`` [view, legal, version, to_act, deadline] — for a seat subscription: the seat's
  whole ``view`` and (when it is to act) its legal actions as JSON; for a spectator the
  public view and no legal actions. Sent after every change.
* ``reminder`` [seat, deadline] — to the seat only: half of the turn time has passed.
* ``timeout`` [seats] — the turn time ran out; an AI played for these seats.
* ``away`` [seat] / ``returned`` [seat] — an AI took over a seat after repeated
  timeouts / its player is back.
* ``match_over`` [summary, match_id, record_id] — the match ended and was recorded.
* ``abandoned`` [reason] — the table was closed without a result.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import Event


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One event of one table (see the module docstring for the types)."""

    table_id: int
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None
    version: int = 0
    exclude: frozenset[int] = frozenset()
    """Seats left out of an event everybody else may see (as :class:`games.base.Event`:
    Truf's face-down trump reaches the others as ``??``; its player gets his own event)."""

    def visible_to(self, seat: int | None) -> bool:
        if seat is not None and seat in self.exclude:
            return False
        return self.to is None or (seat is not None and seat in self.to)

    @staticmethod
    def from_game(table_id: int, event: Event, version: int) -> TableEvent:
        return TableEvent(table_id, event.type, dict(event.data), event.to, version,
                          frozenset(event.exclude))


class Subscription:
    """A queue of one table's events for one seat (or a spectator: ``seat`` None).

    Iterate it (``async for event in sub``) or call :meth:`get`; :meth:`close` (or leaving
    an ``async with`` block) ends it. A closed subscription's iteration stops after the
    events already queued.
    """

    def __init__(self, table_id: int, seat: int | None,
                 on_close: Callable[[Subscription], None]) -> None:
        self.table_id = table_id
        self.seat = seat
        self._queue: asyncio.Queue[TableEvent | None] = asyncio.Queue()
        self._on_close = on_close
        self.closed = False

    def deliver(self, event: TableEvent) -> None:
        """Queue ``event`` if this seat may see it (the only way events get in)."""
        if not self.closed and event.visible_to(self.seat):
            self._queue.put_nowait(event)

    async def get(self) -> TableEvent | None:
        """The next event (waits); ``None`` once closed and drained."""
        if self.closed and self._queue.empty():
            return None
        return await self._queue.get()

    def get_nowait(self) -> TableEvent | None:
        """The next queued event, or ``None`` when none is queued."""
        try:
            return self._queue.get_nowait()
        except asyncio.QueueEmpty:
            return None

    def drain(self) -> list[TableEvent]:
        """Every event queued now."""
        out: list[TableEvent] = []
        while (event := self.get_nowait()) is not None:
            out.append(event)
        return out

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put_nowait(None)
            self._on_close(self)

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def __aiter__(self) -> AsyncIterator[TableEvent]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[TableEvent]:
        while True:
            event = await self.get()
            if event is None:
                return
            yield event
