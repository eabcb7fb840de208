"""A live table's stored row: written by compare-and-set, refreshed when another writer won.

Every change of a table row (seats, options, status, deadlines, meta) is written with
``expected_version`` = the row version this process last read or wrote, so two processes
holding the same table can never overwrite each other's lobby changes (the action log has
its own guard: the next sequence number). A writer whose version is stale gets
:class:`storage.StaleTable` with the current row, takes that row as the truth
(:func:`refresh`) and tells its caller to try again.
"""

from __future__ import annotations

from typing import Any

from bot.service.live import LiveTable, TableSettings
from bot.service.seats import seats_from_json
from storage import Store, Table


async def write_row(store: Store, table: LiveTable, *, cas: bool = True,
                    **changes: Any) -> Table:
    """Store ``changes`` of ``table``'s row, only if the row is still at the version this
    copy knows (``cas=False``: unconditionally, for a change derived from the action log
    alone, such as "finished"). Raises StaleTable, writing nothing, when another writer
    changed the row meanwhile."""
    row = await store.update_table(
        table.id, expected_version=table.row_version if cas else None, **changes
    )
    table.row_version = row.row_version
    return row


def refresh(table: LiveTable, row: Table, log: list[dict[str, Any]] | None) -> None:
    """Make ``table`` what the store holds: the row's fields, and for a ``playing`` table
    the match rebuilt from ``log`` (its whole action log). A lobby has no match."""
    table.seats = seats_from_json(row.seats)
    table.status = row.status
    table.meta = dict(row.meta)
    table.settings = TableSettings.from_json(row.meta)
    table.turn_deadline = row.turn_deadline
    table.lobby_deadline = row.lobby_deadline
    table.row_version = row.row_version
    table.reminded = False
    if row.status == "playing" and log is not None:
        table.replay(log)
    elif row.status == "lobby":
        table.match, table.version, table.turn_start = None, 0, {}
