"""Writing a live table's row from the service, and adopting the store's copy when it moved.

:func:`bot.service.rows.write_row` does the compare-and-set; :class:`RowSync` decides what
a failure means: in a lobby request it is the caller's (``TableChanged``), after an
accepted action it is only logged (the action is stored; a lost deadline or timeout count
is recomputed on recovery). Either way a stale copy adopts the stored table, tells its
front ends (``lobby``, ``turn`` or ``abandoned``) and resumes timers and AI turns.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot.service.errors import CLOSED_ELSEWHERE, TableChanged
from bot.service.events import TableEvent
from bot.service.live import LiveTable
from bot.service.rows import refresh, write_row
from storage import StaleTable, Table

if TYPE_CHECKING:
    from bot.service.tables import TableService

log = logging.getLogger(__name__)


class RowSync:
    """Row writes and reloads of :class:`~bot.service.tables.TableService` (no state of its
    own)."""

    def __init__(self, hub: TableService) -> None:
        self._hub = hub

    async def save(self, table: LiveTable, **changes: Any) -> None:
        """Update the table row; a failure is logged, not raised (the action is stored;
        a lost deadline or timeout count is recomputed on recovery)."""
        try:
            await write_row(self._hub.store, table, **changes)
        except StaleTable as exc:
            await self.adopt(table, exc.current)
        except Exception:
            log.exception("table %s: could not update the table row", table.id)

    async def write(self, table: LiveTable, **changes: Any) -> None:
        """Compare-and-set the table row; when another writer changed it meanwhile, adopt
        the stored table and raise TableChanged (nothing of this change was written)."""
        try:
            await write_row(self._hub.store, table, **changes)
        except StaleTable as exc:
            await self.adopt(table, exc.current)
            raise TableChanged() from None

    async def adopt(self, table: LiveTable, row: Table) -> None:
        """Another writer (another process holding this table) changed its row: take the
        store's table as the truth, tell the front ends, and resume its timers and AI."""
        log.warning("table %s: its row was changed by another writer; reloading it",
                    table.id)
        if row.status not in ("lobby", "playing"):
            table.status = row.status
            self._hub.registry.publish(table, [TableEvent(table.id, "abandoned", {
                "reason": CLOSED_ELSEWHERE}, None,
                table.version)])
            self._hub.registry.unload(table)
            return
        entries = (await self._hub.store.load_actions(table.id) if row.status == "playing"
                   else None)
        refresh(table, row, None if entries is None else [e.action for e in entries])
        if table.match is None:
            self._hub.registry.publish_lobby(table)
        else:
            self._hub.registry.publish(table, [self._hub.registry.turn_event(table)])
        asyncio.get_running_loop().call_soon(self._hub._kick, table)

    async def reload(self, table: LiveTable) -> None:
        """Rebuild a table's match from its stored log (after a failed append)."""
        try:
            entries = await self._hub.store.load_actions(table.id)
            table.replay([e.action for e in entries])
        except Exception:
            log.exception("table %s: could not reload; unloading it", table.id)
            self._hub.registry.unload(table)
