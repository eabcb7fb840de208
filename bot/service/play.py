"""The action path of the table service: check, apply, store, then publish.

An action is accepted only under the table's lock, when the seat is to act and its choice
is current (else :class:`~bot.service.errors.StaleAction`), and when the engine allows it
(else :class:`~bot.service.errors.Rejected` with the rule's reason). It is appended to the
action log before anything is published; if the append fails, nothing is published about
it, the caller gets :class:`~bot.service.errors.SaveFailed` (the database is not answering)
and the table is rebuilt from the store — at once, or, when the store does not answer
either, held until it does (:meth:`bot.service.rowsync.RowSync.rebuild`,
:meth:`bot.service.outages.Outages.strand`). A held-back table refuses every action with
its reason. Seat changes (away, returned, timeouts) and the turn deadline are then saved in
the row, a finished match is recorded, and only then are the events published.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any, Literal

from bot.i18n import N_
from bot.service.context import TableContext
from bot.service.deadlines import plan_deadline
from bot.service.errors import NO_SEAT, Rejected, RuleRefusal, SaveFailed, StaleAction
from bot.service.events import TableEvent
from bot.service.live import LiveTable
from bot.service.outages import DB_AWAY, Outages
from bot.service.results import MatchResults
from bot.service.rowsync import RowSync
from bot.service.seats import seat_of
from games.actions import Action
from games.errors import IllegalAction

By = Literal["human", "ai", "timeout"]

log = logging.getLogger(__name__)


class ActionPath:
    """Actions, ``away`` and ``rejoin`` of the table service (no state of its own). Human,
    AI and timeout actions all go through :meth:`submit`, which the observer's
    ``on_action`` times. It writes the row through ``rows``, records a finished match
    through ``results`` and refuses actions at a table ``outages`` holds back."""

    def __init__(self, ctx: TableContext, rows: RowSync, results: MatchResults,
                 outages: Outages) -> None:
        self._ctx = ctx
        self._rows = rows
        self._results = results
        self._outages = outages

    async def act(self, table_id: int, user_id: int, action: Action, version: int) -> None:
        """Play ``action`` for the seat of ``user_id``, chosen at table ``version``.

        Every front end parses what it received into an :class:`Action` first (the web
        in :mod:`bot.web.inbound`, a forwarded click in :mod:`bot.cluster.inbox`).
        Raises StaleAction when the choice is no longer current, Rejected with the rule's
        reason when the action is not allowed, SaveFailed when the store failed (nothing
        changed). A player who was ``away`` is back by acting.
        """
        table = self._ctx.registry.get(table_id)
        seat = seat_of(table.seats, user_id)
        if seat is None:
            raise Rejected(NO_SEAT)
        await self.submit(table, seat, action, version, "human")

    async def rejoin(self, table_id: int, user_id: int) -> None:
        """A player whose seat an AI took over is back (their next turns are theirs)."""
        table = self._ctx.registry.get(table_id)
        async with table.lock:
            seat = seat_of(table.seats, user_id)
            if seat is None:
                raise Rejected(NO_SEAT)
            old = table.seats[seat]
            assert old is not None
            if not old.away and not old.timeouts:
                return
            table.seats[seat] = old.returned()
            events = [TableEvent(table.id, "returned", {"seat": seat}, None, table.version)]
            changes: dict[str, Any] = {"seats": table.seats_json()}
            if plan_deadline(table, self._ctx.clock):
                changes["turn_deadline"] = table.turn_deadline
            await self._rows.save(table, **changes)
            self._ctx.registry.publish(table, events)
        self._ctx.kick(table)

    async def set_away(self, table_id: int, seat: int) -> None:
        """Hand a human's seat to the stand-in AI until the player returns."""
        table = self._ctx.registry.get(table_id)
        if not 0 <= seat < table.players:
            raise Rejected(N_("there is no seat {seat} at this table"), seat=seat)
        async with table.lock:
            old = table.seats[seat]
            if old is None or old.is_ai or old.away:
                return
            table.seats[seat] = replace(old, away=True)
            plan_deadline(table, self._ctx.clock)
            await self._rows.save(table, seats=table.seats_json(),
                                  turn_deadline=table.turn_deadline)
            self._ctx.registry.publish(table, [TableEvent(table.id, "away", {"seat": seat},
                                                          None, table.version)])
        self._ctx.kick(table)

    async def submit(self, table: LiveTable, seat: int, action: Action, version: int,
                     by: By) -> None:
        """Every action (human, AI, timeout): check, apply, store, then publish (module
        docstring); the observer's ``on_action`` gets the seconds an accepted one took."""
        observed = self._ctx.observer.on_action
        if observed is None:
            await self._submit(table, seat, action, version, by)
            return
        start = time.perf_counter()
        await self._submit(table, seat, action, version, by)
        observed(time.perf_counter() - start)

    async def _submit(self, table: LiveTable, seat: int, action: Action, version: int,
                      by: By) -> None:
        async with table.lock:
            if table.status != "playing" or table.match is None:
                raise Rejected(N_("the match is not in progress"))
            held = self._outages.reason(table)
            if held is not None:
                raise SaveFailed(held)
            if not table.is_current(seat, version):
                raise StaleAction()
            entry = table.log_entry(seat, action, by)
            try:
                events = table.advance(seat, action)
            except IllegalAction as exc:
                raise RuleRefusal.of(exc) from None
            try:
                await self._ctx.store.append_action(table.id, table.version, entry)
            except Exception as exc:
                log.warning("table %s: the action could not be stored (%r)", table.id, exc)
                if not await self._rows.rebuild(table, version):
                    self._outages.strand(table)
                raise SaveFailed(DB_AWAY) from exc
            changes: dict[str, Any] = {}
            old = table.seats[seat]
            assert old is not None
            new = old
            if by == "human" and (old.away or old.timeouts):
                new = old.returned()
                if old.away:
                    events.append(TableEvent(table.id, "returned", {"seat": seat}, None,
                                             table.version))
            elif by == "timeout":
                new = old.with_timeout()
                events.append(TableEvent(table.id, "timeout", {"seat": seat}, None,
                                         table.version))
                if new.away and not old.away:
                    events.append(TableEvent(table.id, "away", {"seat": seat}, None,
                                             table.version))
            if new != old:
                table.seats[seat] = new
                changes["seats"] = table.seats_json()
            if table.match.over:
                try:
                    await self._results.finish(table, events)
                except Exception as exc:
                    # The action is stored; its match's result is recorded (and the
                    # events published) when the table is brought back.
                    log.warning("table %s: the finished match could not be recorded (%r)",
                                table.id, exc)
                    self._outages.strand(table)
                    return
            else:
                if plan_deadline(table, self._ctx.clock):
                    changes["turn_deadline"] = table.turn_deadline
                if changes:
                    await self._rows.save(table, **changes)
                events.append(self._ctx.registry.turn_event(table))
            self._ctx.registry.publish(table, events)
        self._ctx.kick(table)
