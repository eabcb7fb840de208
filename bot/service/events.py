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

**The bound.** A subscription holds at most ``bound`` events (:data:`SUBSCRIPTION_BOUND`
unless the subscriber asks for another). An event that finds the queue full *overflows*
it: every queued event is discarded and replaced by one ``resync`` event, and the arriving
event is queued after it; later events are queued after them as usual. So memory stays
bounded for a front end that stopped reading, the table is never blocked, and the
reader always learns that it fell behind: it gets ``resync`` first, then every event
published since the overflow, in order (the last event of any burst, e.g. a seat's newest
``state`` or the final ``match_over``, is never lost). At most one ``resync`` is pending:
another overflow before the reader took it discards it too and its count carries over. A
reader that takes a ``resync`` must re-read what it shows (``service.state``,
``service.info``): the dropped events are gone, and the events that follow it may already
be reflected in what it re-reads (their ``version`` is at most the version it read).

Event types (``data`` keys in brackets):

* ``lobby`` [status, seats, players, lobby_deadline] — a lobby changed.
* ``started`` [seats, players, teams, options] — the match began.
* ``deal_started`` [deal, dealer] — a deal began; it is followed by ``state``.
* the game's own events (``play``, ``trick``, ``trump``, ``hand``, ``bid``, …,
  ``deal_over`` [summary]) exactly as the engine emitted them, with their ``to``.
* ``deal_scored`` [deal, summary, match] — the match totals after a deal.
* ``turn`` [to_act, version, deadline] — who is to act now (public).
* ``state`` [view, legal, version, to_act, deadline, seats] — for a seat subscription: the seat's
  whole ``view`` and (when it is to act) its legal actions (``Action`` values: serialised
  only where they leave the process); for a spectator the public view and no legal
  actions. Sent after every change.
* ``reminder`` [seat, deadline] — to the seat only: half of the turn time has passed.
* ``timeout`` [seat] — the turn time ran out; an AI played for this seat.
* ``away`` [seat] / ``returned`` [seat] — an AI took over a seat after repeated
  timeouts / its player is back.
* ``match_over`` [summary, match_id, record_id] — the match ended and was recorded.
* ``abandoned`` [reason] — the table was closed without a result.
* ``resync`` [dropped] — this subscription fell behind and events were dropped; re-read
  the table (``service.state``, ``service.info``). Made by the subscription itself, never
  published by a table: ``dropped`` counts the discarded events (only events this
  subscription was allowed to see), ``version`` is the newest discarded event's, ``to``
  is the subscription's own seat (``None`` for a spectator or a watcher). It carries no
  other information, hidden or not.

Each type's ``data`` is typed (:class:`StateData`, :class:`TurnData`, …; the views
:mod:`games.view_types`): a front end reads it with :func:`data_of` (``data_of(event,
"state")`` is a :class:`StateData`), an engine event's with :func:`game_data` (``game_data(
event, "play")`` is a :class:`~games.event_types.PlayData`: :mod:`games.event_types` types
each engine event kind's data and the deal and match summaries). These types are the
published contract (``python -m bot.contract``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict, overload

from games.actions import Action
from games.base import Event
from games.event_types import DealSummary, GameEventData, MatchSummary
from games.event_types import game_data as game_data  # re-exported: front ends read it here
from games.view_types import GameView

log = logging.getLogger(__name__)

WATCH_BOUND = 16384
"""The default bound of :meth:`~bot.service.tables.TableService.watch`: one watcher carries
the public events of every table of the process (hundreds of tables finishing tricks at
once), so it gets a larger bound than a one-table subscription."""

SUBSCRIPTION_BOUND = 256
"""How many events a subscription holds at most (the ``resync`` that replaces dropped
events counts as one). A reader that keeps up never has more than a few queued; a full
queue means the front end stopped reading, and the subscription overflows (see the module
docstring). Read when a subscription is made, so a test may lower it for every
subscription it causes; ``Subscription(bound=...)`` / ``service.subscribe(bound=...)`` set
it for one."""

MIN_BOUND = 2
"""The smallest bound: an overflow leaves the ``resync`` and the arriving event queued."""

RESYNC: Literal["resync"] = "resync"
"""The type of the event a subscription queues in place of the events it dropped."""


# -- the data of each event type (the contract every front end reads) ------------------
class SeatJSON(TypedDict):
    """An occupied seat (``kind`` human or ai; ``level`` of an AI; ``timeouts`` in a row;
    ``away``: an AI plays it while its player is away)."""

    kind: Literal["human", "ai"]
    name: str
    user_id: NotRequired[int]
    level: NotRequired[str]
    timeouts: NotRequired[int]
    away: NotRequired[bool]


class LobbyData(TypedDict):
    status: str
    game: str
    players: int
    seats: list[SeatJSON | None]
    teams: list[list[int]]
    lobby_deadline: str | None


class StartedData(TypedDict):
    seats: list[SeatJSON | None]
    players: int
    teams: list[list[int]]
    options: dict[str, object]


class DealStartedData(TypedDict):
    deal: int
    dealer: int


class DealScoredData(TypedDict):
    deal: int
    summary: DealSummary
    match: MatchSummary


class TurnData(TypedDict):
    to_act: list[int]
    version: int
    deadline: str | None


class StateData(TypedDict):
    """A seat's whole table: its ``view`` (absent in no match; ``None`` between the last
    deal and the result) and, when it is to act, its ``legal`` actions (``Action`` values
    in process: serialised only where they leave it)."""

    version: int
    to_act: list[int]
    deadline: str | None
    status: str
    deal: int
    seats: list[SeatJSON | None]
    view: NotRequired[GameView | None]
    legal: list[Action]
    match: NotRequired[MatchSummary]


class ReminderData(TypedDict):
    seat: int
    deadline: str | None


class SeatData(TypedDict):
    """``timeout``, ``away`` and ``returned``: the seat concerned."""

    seat: int


class MatchOverData(TypedDict):
    summary: MatchSummary
    match_id: int


class AbandonedData(TypedDict):
    reason: str
    by: NotRequired[str]


class ResyncData(TypedDict):
    dropped: int


ServiceEventData = (LobbyData | StartedData | DealStartedData | DealScoredData | TurnData
                    | StateData | ReminderData | SeatData | MatchOverData | AbandonedData
                    | ResyncData)
"""The ``data`` of an event the service makes (each type's: :func:`data_of`)."""

EventData = ServiceEventData | GameEventData
"""The ``data`` of any event."""


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One event of one table (see the module docstring for the types)."""

    table_id: int
    type: str
    data: EventData
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
        return TableEvent(table_id, event.type, event.data.copy(), event.to, version,
                          frozenset(event.exclude))


@overload
def data_of(event: TableEvent, kind: Literal["lobby"]) -> LobbyData: ...
@overload
def data_of(event: TableEvent, kind: Literal["started"]) -> StartedData: ...
@overload
def data_of(event: TableEvent, kind: Literal["deal_started"]) -> DealStartedData: ...
@overload
def data_of(event: TableEvent, kind: Literal["deal_scored"]) -> DealScoredData: ...
@overload
def data_of(event: TableEvent, kind: Literal["turn"]) -> TurnData: ...
@overload
def data_of(event: TableEvent, kind: Literal["state"]) -> StateData: ...
@overload
def data_of(event: TableEvent, kind: Literal["reminder"]) -> ReminderData: ...
@overload
def data_of(event: TableEvent, kind: Literal["timeout", "away", "returned"]) -> SeatData: ...
@overload
def data_of(event: TableEvent, kind: Literal["match_over"]) -> MatchOverData: ...
@overload
def data_of(event: TableEvent, kind: Literal["abandoned"]) -> AbandonedData: ...
@overload
def data_of(event: TableEvent, kind: Literal["resync"]) -> ResyncData: ...
def data_of(event: TableEvent, kind: str) -> EventData:
    """``event``'s data as the type of ``kind`` (the service's publishers build each
    event's data as that type); raises ``ValueError`` when ``event`` is of another type.
    An engine event's data: :func:`game_data`."""
    if event.type != kind:
        raise ValueError(f"a {event.type!r} event read as {kind!r}")
    return event.data


class Subscription:
    """A bounded queue of one table's events for one seat (or a spectator: ``seat`` None).

    Iterate it (``async for event in sub``) or call :meth:`get`; :meth:`close` (or leaving
    an ``async with`` block) ends it. A closed subscription's iteration stops after the
    events already queued.

    The contract of the bound (module docstring): at most :attr:`bound` events are queued
    (``bound`` at least :data:`MIN_BOUND`; ``None`` takes :data:`SUBSCRIPTION_BOUND` as it
    is now). :meth:`deliver` never blocks and never raises: an event that finds the queue
    full replaces everything queued by one ``resync`` and is queued after it. Events are
    taken in the order they were delivered; at most one ``resync`` is queued, and it is
    always the first queued event. ``bound`` may be changed on a live subscription (a
    lower one applies from the next delivery). :attr:`overflows` and :attr:`dropped`
    count the overflows and the discarded events over the subscription's life.
    """

    def __init__(self, table_id: int, seat: int | None,
                 on_close: Callable[[Subscription], None], *,
                 bound: int | None = None) -> None:
        self.table_id = table_id
        self.seat = seat
        self._bound = MIN_BOUND
        self.bound = SUBSCRIPTION_BOUND if bound is None else bound  # checked by the setter
        self._events: deque[TableEvent] = deque()
        self._ready = asyncio.Event()
        """Set when an event was queued or the subscription closed; cleared by a reader
        that found nothing to take."""
        self._on_close = on_close
        self.closed = False
        self.overflows = 0
        self.dropped = 0

    @property
    def bound(self) -> int:
        """The most events this subscription holds (see the class docstring)."""
        return self._bound

    @bound.setter
    def bound(self, value: int) -> None:
        if value < MIN_BOUND:
            raise ValueError(f"a subscription's bound must be at least {MIN_BOUND}")
        self._bound = value

    @property
    def queued(self) -> int:
        """How many events are queued now (never more than :attr:`bound`)."""
        return len(self._events)

    def peek(self) -> list[TableEvent]:
        """The events queued now, oldest first, without taking them."""
        return list(self._events)

    def deliver(self, event: TableEvent) -> None:
        """Queue ``event`` if this seat may see it (the only way events get in); when the
        queue is full, overflow first (see the class docstring). Never blocks."""
        if self.closed or not event.visible_to(self.seat):
            return
        if len(self._events) >= self._bound:
            self._overflow()
        self._events.append(event)
        self._ready.set()

    def _overflow(self) -> None:
        """Replace every queued event by one ``resync`` (which takes over the count of a
        ``resync`` it replaces)."""
        dropped = 0
        newest = 0
        for old in self._events:
            if old.type == RESYNC:
                dropped += data_of(old, RESYNC)["dropped"]
            else:
                dropped += 1
            newest = max(newest, old.version)
        first = not (self._events and self._events[0].type == RESYNC)
        self.dropped += sum(1 for e in self._events if e.type != RESYNC)
        self.overflows += 1
        self._events.clear()
        to = None if self.seat is None else frozenset({self.seat})
        data: ResyncData = {"dropped": dropped}
        self._events.append(TableEvent(self.table_id, RESYNC, data, to, newest))
        (log.warning if first else log.debug)(
            "subscription to table %s (seat %s) fell behind: %d events dropped, resync queued",
            self.table_id, self.seat, dropped)

    async def get(self) -> TableEvent | None:
        """The next event (waits); ``None`` once closed and drained."""
        while not self._events:
            if self.closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        return self._events.popleft()

    def get_nowait(self) -> TableEvent | None:
        """The next queued event, or ``None`` when none is queued."""
        return self._events.popleft() if self._events else None

    def drain(self) -> list[TableEvent]:
        """Every event queued now."""
        out = list(self._events)
        self._events.clear()
        return out

    def close(self) -> None:
        """End the subscription: nothing more is queued; a waiting :meth:`get` returns
        what is still queued, then ``None``."""
        if not self.closed:
            self.closed = True
            self._ready.set()
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
