"""The tables this process holds, their subscriptions and the one way events go out.

:class:`TableRegistry` is the state of :class:`~bot.service.tables.TableService` that lives
as long as the service: the open tables by id and by location, the watchers, whether the
service is closed, and which places it owns. It publishes events (to the table's
subscriptions, public ones also to the watchers, then a fresh ``state`` per subscribed
seat) and forgets a table that closed (cancelling its tasks, closing its subscriptions).
It does no I/O: everything here is synchronous.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from bot.i18n import N_
from bot.service.errors import LobbyError, NoSuchTable
from bot.service.events import WATCH_BOUND, LobbyData, Subscription, TableEvent, TurnData
from bot.service.live import LiveTable, TableSettings
from bot.service.seats import seats_from_json
from storage import Table
from storage.models import Location

log = logging.getLogger(__name__)


class TableRegistry:
    """The open tables of one service, by id and by location, and their subscribers.

    ``closed`` is set once by :meth:`TableService.close`; ``owns`` is the ownership test
    given to :meth:`TableService.start` (``None``: every place). The service exposes
    :meth:`state`, :meth:`subscribe`, :meth:`watch` and :meth:`subscriptions` to the front
    ends as its own."""

    def __init__(self) -> None:
        self.tables: dict[int, LiveTable] = {}
        self.by_location: dict[Location, int] = {}
        self.watchers: list[Subscription] = []
        self.closed = False
        self.owns: Callable[[Location], bool] | None = None

    @staticmethod
    def quiet(table: LiveTable) -> bool:
        """No work in progress at ``table``: lock free, no AI turn running, the timer parked."""
        if table.lock.locked() or table.busy:
            return False
        if table.ai_task is not None and not table.ai_task.done() and not table.ai_parked:
            return False
        timer = table.timer_task
        return timer is None or timer.done() or table.timer_parked

    def get(self, table_id: int) -> LiveTable:
        """The open table ``table_id``; NoSuchTable when this process does not hold it."""
        table = self.tables.get(table_id)
        if table is None:
            raise NoSuchTable(N_("there is no open table {table}"), table=table_id)
        return table

    def state(self, table_id: int, seat: int | None) -> TableEvent:
        """The ``state`` event ``seat`` would receive now (for a front end that starts or
        redraws)."""
        t = self.get(table_id)
        if t.match is None:
            return TableEvent(t.id, "lobby", self.lobby_data(t), None, t.version)
        return t.state_event(seat)

    def subscribe(self, table_id: int, seat: int | None = None, *,
                  bound: int | None = None) -> Subscription:
        """Events of one table for ``seat`` (``None``: public events only). The current
        ``state`` (or ``lobby``) is queued first, so a new subscriber can draw at once.

        At most ``bound`` events are held (default
        :data:`~bot.service.events.SUBSCRIPTION_BOUND`); a reader that falls further
        behind gets a ``resync`` in place of the dropped events and must re-read the table
        (``state``, ``TableService.info``). See :class:`~bot.service.events.Subscription`."""
        table = self.get(table_id)
        if seat is not None and not 0 <= seat < table.players:
            raise LobbyError(N_("there is no seat {seat} at this table"), seat=seat)
        sub = Subscription(table_id, seat, self.unsubscribe, bound=bound)
        table.subs.append(sub)
        sub.deliver(self.state(table_id, seat))
        return sub

    def watch(self, *, bound: int | None = None) -> Subscription:
        """Public events of every table (lobby, started, match_over, abandoned, …), for a
        front end that must notice tables it did not open (recovered ones). Bounded like
        :meth:`subscribe`, by default to :data:`~bot.service.events.WATCH_BOUND` events:
        after a ``resync`` (its ``table_id`` is 0) the watcher must re-read every table it
        shows (``TableService.table_ids``, ``TableService.info``; a table that is gone was
        finished or abandoned meanwhile)."""
        sub = Subscription(0, None, self.unsubscribe,
                           bound=WATCH_BOUND if bound is None else bound)
        self.watchers.append(sub)
        return sub

    def subscriptions(self, table_id: int) -> list[Subscription]:
        """The open subscriptions of one table (a copy; for tests and diagnostics, e.g. to
        lower one subscription's ``bound``). Empty for a table this process does not
        hold."""
        table = self.tables.get(table_id)
        return [] if table is None else list(table.subs)

    def unsubscribe(self, sub: Subscription) -> None:
        """Forget a closed subscription (of a table or a watcher)."""
        if sub in self.watchers:
            self.watchers.remove(sub)
        table = self.tables.get(sub.table_id)
        if table is not None and sub in table.subs:
            table.subs.remove(sub)

    def publish(self, table: LiveTable, events: Sequence[TableEvent]) -> None:
        """Deliver events (already stored) and a fresh ``state`` per subscribed seat."""
        if not events:
            return
        subs = list(table.subs)
        for event in events:
            for sub in subs:
                sub.deliver(event)
            if event.to is None:
                for watcher in self.watchers:
                    watcher.deliver(event)
        if table.match is None or table.status != "playing" or not subs:
            return
        states: dict[int | None, TableEvent] = {}
        for sub in subs:
            if sub.seat not in states:
                states[sub.seat] = table.state_event(sub.seat)
            sub.deliver(states[sub.seat])

    def publish_lobby(self, table: LiveTable) -> None:
        """Publish the table's ``lobby`` event (its seats, teams and idle deadline)."""
        self.publish(table, [TableEvent(table.id, "lobby", self.lobby_data(table))])

    def lobby_data(self, table: LiveTable) -> LobbyData:
        """The data of a ``lobby`` event: status, game, seats, teams, idle deadline."""
        return {
            "status": table.status,
            "game": table.game,
            "players": table.players,
            "seats": table.seats_json(),
            "teams": table.teams(),
            "lobby_deadline": None if table.lobby_deadline is None
            else table.lobby_deadline.isoformat(),
        }

    def turn_event(self, table: LiveTable) -> TableEvent:
        """The public ``turn`` event: who is to act, at which version, until when."""
        deadline = table.turn_deadline
        data: TurnData = {
            "to_act": list(table.to_act), "version": table.version,
            "deadline": None if deadline is None else deadline.isoformat(),
        }
        return TableEvent(table.id, "turn", data, None, table.version)

    def unload_later(self, table: LiveTable) -> None:
        """Forget a closed table once the current publish is done."""
        asyncio.get_running_loop().call_soon(self.unload, table)

    def unload(self, table: LiveTable) -> None:
        """Forget ``table`` now: cancel its tasks (not the calling one), close its subscriptions."""
        self.tables.pop(table.id, None)
        if self.by_location.get(table.location) == table.id:
            del self.by_location[table.location]
        current = asyncio.current_task()
        for task in (table.ai_task, table.timer_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        for sub in list(table.subs):
            sub.close()

    def from_row(self, row: Table) -> LiveTable:
        """A live table for a stored row (a playing table then replays its log)."""
        return LiveTable(
            id=row.id, location=row.location, game=row.game, options=dict(row.options),
            players=len(row.seats), seats=seats_from_json(row.seats), status=row.status,
            settings=TableSettings.from_json(row.meta), meta=dict(row.meta),
            turn_deadline=row.turn_deadline, lobby_deadline=row.lobby_deadline,
            row_version=row.row_version, reminded=False,
        )

    def index(self, table: LiveTable) -> None:
        """Hold ``table``: by id and by location."""
        self.tables[table.id] = table
        self.by_location[table.location] = table.id
