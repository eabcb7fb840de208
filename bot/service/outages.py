"""Tables held back: after a store error, or while the process is unsure of its shards.

A table is **held back** while this process may not drive it:

* **stranded** — a store error left its state unsure (an append that failed: was it stored
  or not? the table in memory has moved on either way), or its finished match could not
  be recorded (it is recorded when the table is back). The table is kept — a store error
  never unloads a table — and brought back from the store as soon as the database answers:
  tried at once, then again after :data:`RETRY_FIRST` seconds, doubling up to
  :data:`RETRY_MAX`.
* **paused** — the process is not sure it holds its shards' start lock
  (:mod:`bot.cluster.node`): every table is held until the lock is taken again
  (:meth:`Outages.pause`), then every table is brought back from the store, where another
  process may have driven it meanwhile (:meth:`Outages.resume`).

A held-back table refuses every action with the reason in player words
(:class:`~bot.service.errors.SaveFailed`: :data:`DB_AWAY` or :data:`ON_HOLD`) and runs no
AI turn and no timer, so nothing of its play is published (its front ends do not redraw
it). Lobby changes are not held: each is a compare-and-set on the table's row. Bringing it
back adopts the stored row and log (:meth:`bot.service.rowsync.RowSync.reload`): its front
ends get a ``turn`` (or ``lobby``) event with the stored state, and its AI turns and timers
resume. Nothing is lost (what the store holds is the truth) and nothing is doubled (an
action refused meanwhile was not stored; one stored just before the error is in the log,
and a repeat of its click is stale).
"""

from __future__ import annotations

import asyncio
import logging

from bot.i18n import N_
from bot.service.context import TableContext
from bot.service.events import TableEvent
from bot.service.live import LiveTable
from bot.service.results import MatchResults
from bot.service.rowsync import RowSync

log = logging.getLogger(__name__)

DB_AWAY = N_("the table could not save that move: the database is not answering. Try "
             "again in a moment.")
"""Why a stranded table refuses an action."""
ON_HOLD = N_("the table is on hold for a moment: its bot process is making sure it still "
             "runs it. Try again in a moment.")
"""Why a table of a paused process refuses an action."""
RETRY_FIRST = 0.25
"""Seconds before the second try to bring a stranded table back (then doubled)."""
RETRY_MAX = 5.0
"""The longest wait between two tries."""


class Outages:
    """The held-back tables of one table service (module docstring) and the task that
    brings the stranded ones back: it reloads them through ``rows`` and records a match
    that finished meanwhile through ``results``."""

    def __init__(self, ctx: TableContext, rows: RowSync, results: MatchResults) -> None:
        self._ctx = ctx
        self._rows = rows
        self._results = results
        self.stranded: set[int] = set()
        self.paused = False
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def reason(self, table: LiveTable) -> str | None:
        """Why ``table`` may not be driven now (a message id), or None."""
        if self.paused:
            return ON_HOLD
        return DB_AWAY if table.id in self.stranded else None

    def held(self, table: LiveTable) -> bool:
        return self.reason(table) is not None

    def strand(self, table: LiveTable) -> None:
        """A store error left ``table`` unsure: hold it and bring it back from the store
        as soon as the database answers."""
        if table.id not in self.stranded:
            log.warning("table %s: the store did not answer; holding the table until it"
                        " does", table.id)
        self.stranded.add(table.id)
        _halt(table)
        self._start()

    def pause(self) -> None:
        """Stop driving every table at once (no action accepted, no AI turn, no timer)
        until :meth:`resume`: this process is not sure it still holds its shards
        (:mod:`bot.cluster.node`). A refused action says why (:data:`ON_HOLD`). Lobby
        changes stay open: each is a compare-and-set on the table's row."""
        self.paused = True
        for table in list(self._ctx.registry.tables.values()):
            _halt(table)

    async def resume(self) -> None:
        """Drive again after :meth:`pause`: every table is rebuilt from the store (another
        process may have driven it meanwhile), its front ends get a ``turn`` event, and its
        AI turns and timers resume. Returns after one try for every table; those the store
        did not answer for are tried again with the backoff."""
        self.stranded.update(self._ctx.registry.tables)
        for table_id in sorted(self.stranded):
            await self._bring_back(table_id, resuming=True)
        self.paused = False  # held until every table had its try
        for table in list(self._ctx.registry.tables.values()):
            self._ctx.kick(table)
        if self.stranded:
            self._start()
            self._wake.set()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    def _start(self) -> None:
        if (self._task is None or self._task.done()) and not self._ctx.registry.closed:
            self._task = asyncio.create_task(self._recover(), name="tables-recovery")

    async def _recover(self) -> None:
        """Try to bring every stranded table back until none is left (module docstring)."""
        delay = RETRY_FIRST
        while self.stranded and not self._ctx.registry.closed:
            if not self.paused:
                for table_id in sorted(self.stranded):
                    if await self._bring_back(table_id):
                        delay = RETRY_FIRST
            if not self.stranded:
                return
            self._wake.clear()
            try:
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            except TimeoutError:
                delay = min(RETRY_MAX, delay * 2)

    async def _bring_back(self, table_id: int, *, resuming: bool = False) -> bool:
        """One try for one stranded table; True once it is back (or gone). A paused
        service brings nothing back, but for :meth:`resume` (``resuming``)."""
        table = self._ctx.registry.tables.get(table_id)
        if table is None:
            self.stranded.discard(table_id)
            return True
        async with table.lock:
            if self.paused and not resuming:
                return False
            if table_id not in self.stranded:
                return True  # brought back meanwhile
            try:
                await self._rows.reload(table)
                if table.status == "playing" and table.match is not None \
                        and table.match.over:  # its result could not be recorded
                    events: list[TableEvent] = []
                    await self._results.finish(table, events)
                    self._ctx.registry.publish(table, events)
            except Exception as exc:
                log.info("table %s: the store is still not answering (%s)", table_id, exc)
                return False
            self.stranded.discard(table_id)
        log.warning("table %s: the store answers again; the table is back", table_id)
        return True


def _halt(table: LiveTable) -> None:
    """Stop the table's AI turns and timers (not the calling task: it sees the hold)."""
    current = asyncio.current_task()
    for task in (table.ai_task, table.timer_task):
        if task is not None and task is not current and not task.done():
            task.cancel()
