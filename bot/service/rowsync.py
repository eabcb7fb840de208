"""Writing a live table's row from the service, and adopting the store's copy when it moved.

:func:`bot.service.rows.write_row` does the compare-and-set; :class:`RowSync` decides what
a failure means: in a lobby request it is the caller's (``TableChanged``), after an
accepted action it is only logged (the action is stored; a lost deadline or timeout count
is recomputed on recovery). Either way a stale copy adopts the stored table, tells its
front ends (``lobby``, ``turn`` or ``abandoned``) and resumes timers and AI turns. A store
error never unloads a table: :meth:`RowSync.reload` raises it and :meth:`RowSync.rebuild`
says so, and the table is held until the store answers (:mod:`bot.service.outages`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.service.context import TableContext
from bot.service.errors import CLOSED_ELSEWHERE, TableChanged
from bot.service.events import TableEvent
from bot.service.live import LiveTable
from bot.service.rows import refresh, write_row
from storage import StaleTable, Table

log = logging.getLogger(__name__)


class RowSync:
    """Row writes and reloads of the table service (no state of its own)."""

    def __init__(self, ctx: TableContext) -> None:
        self._ctx = ctx

    async def save(self, table: LiveTable, **changes: Any) -> None:
        """Update the table row; a failure is logged, not raised (the action is stored;
        a lost deadline or timeout count is recomputed on recovery)."""
        try:
            await write_row(self._ctx.store, table, **changes)
        except StaleTable as exc:
            await self.adopt(table, exc.current)
        except Exception:
            log.exception("table %s: could not update the table row", table.id)

    async def write(self, table: LiveTable, **changes: Any) -> None:
        """Compare-and-set the table row; when another writer changed it meanwhile, adopt
        the stored table and raise TableChanged (nothing of this change was written)."""
        try:
            await write_row(self._ctx.store, table, **changes)
        except StaleTable as exc:
            await self.adopt(table, exc.current)
            raise TableChanged() from None

    async def adopt(self, table: LiveTable, row: Table | None, *,
                    why: str = "its row was changed by another writer") -> None:
        """Take the store's table (``row``, None: gone) as the truth, tell the front ends
        (``lobby``, ``turn`` or ``abandoned``), and resume its timers and AI turns. Called
        when another writer (another process holding this table) changed its row, and to
        bring a held-back table back (:meth:`reload`). Raises the store's error when it
        cannot read the log; nothing of the table changed then."""
        log.warning("table %s: %s; reloading it", table.id, why)
        if row is None or row.status not in ("lobby", "playing"):
            table.status = "abandoned" if row is None else row.status
            self._ctx.registry.publish(table, [TableEvent(table.id, "abandoned", {
                "reason": CLOSED_ELSEWHERE}, None,
                table.version)])
            self._ctx.registry.unload(table)
            return
        entries = (await self._ctx.store.load_actions(table.id) if row.status == "playing"
                   else None)
        refresh(table, row, None if entries is None else [e.action for e in entries])
        if table.match is None:
            self._ctx.registry.publish_lobby(table)
        else:
            self._ctx.registry.publish(table, [self._ctx.registry.turn_event(table)])
        asyncio.get_running_loop().call_soon(self._ctx.kick, table)

    async def rebuild(self, table: LiveTable, shown: int) -> bool:
        """After a failed append (under the table's lock): rebuild the match from its
        stored log at once; False when the store does not answer that either (the caller
        then holds the table and brings it back as soon as the store answers:
        :meth:`bot.service.outages.Outages.strand` — never unloads it). ``shown``: the
        version the front ends show; a log that holds the action after all (the error came
        after the commit) is published as a ``turn``."""
        try:
            entries = await self._ctx.store.load_actions(table.id)
            table.replay([e.action for e in entries])
        except Exception as exc:
            log.warning("table %s: could not rebuild it from the store (%r)", table.id, exc)
            return False
        if table.version != shown:
            self._ctx.registry.publish(table, [self._ctx.registry.turn_event(table)])
        return True

    async def reload(self, table: LiveTable) -> None:
        """Bring a held-back table back (:mod:`bot.service.outages`): adopt its stored
        row and log. Raises the store's error when the store does not answer: the table
        stays as it was (held) and the caller tries again later. Never unloads a table
        for a store error."""
        await self.adopt(table, await self._ctx.store.get_table(table.id),
                         why="bringing it back from the store")
