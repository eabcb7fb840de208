"""The end of a duplicate board.

When the table scores the board's deal (a ``deal_scored`` event seen by the service's
watcher, or its reconcile after a restart), the play (both plays of a meeting: the one deal
is each one's result from its direction) is stored finished with its tagged record and
result, and the table is closed without a match: an event's deals never reach
``/history``, ``/stats``, ratings or anyone else's ``/table export``. Then each entrant is
told (``on_board``), after the store has everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.duplicate.context import BOARD_OVER, DuplicateContext, tag_of
from bot.duplicate.records import board_result, tagged
from storage.duplicate import DuplicateEntrant, DuplicateEvent, DuplicatePlay

log = logging.getLogger(__name__)

OnBoard = Callable[[DuplicateEvent, DuplicateEntrant, int], Awaitable[None]]
"""``on_board(event, entrant, board)``: awaited when an entrant has finished a board."""


class BoardFinisher:
    """Finishes the plays of tables whose board is over (see the module docstring)."""

    def __init__(self, context: DuplicateContext, on_board: OnBoard | None = None) -> None:
        self.context = context
        self.on_board = on_board
        self._finishing: set[int] = set()
        """Tables being finished now (a second call meanwhile does nothing)."""

    async def board_over(self, table_id: int) -> list[DuplicatePlay]:
        """Finish the plays of a table whose board deal is over (one entrant's, or the two
        of a meeting: the one deal is each one's result from its direction): store each
        record and result, close the table, tell the entrants. Idempotent; empty when the
        table is not a duplicate table or its board is not over."""
        store, tables = self.context.store, self.context.tables
        plays = [p for p in await store.duplicate_plays_of_table(table_id)
                 if p.status != "finished"]
        if not plays or table_id in self._finishing:
            return []
        live = tables.registry.tables.get(table_id)
        if live is None or live.match is None or not live.deals_done:
            return []
        record = live.match.record()  # the board's deal (after any automatic redeals)
        self._finishing.add(table_id)
        told: list[tuple[DuplicateEvent, DuplicateEntrant, DuplicatePlay]] = []
        try:
            for play in plays:
                event = await store.get_duplicate_event(play.event_id)
                entrant = await store.get_duplicate_entrant(play.entrant_id)
                assert event is not None and entrant is not None
                tag = tag_of(event, entrant, play)
                board_record = tagged(dict(record), tag)
                result = await asyncio.to_thread(board_result, board_record, tag)
                told.append((event, entrant, await store.finish_duplicate_play(
                    entrant.id, play.board, board_record,
                    {"score": str(result.score), "finished": result.finished})))
            with contextlib.suppress(Exception):  # already closed: nothing to do
                await tables.abandon(table_id, BOARD_OVER)
        finally:
            self._finishing.discard(table_id)
        for event, entrant, finished in told:
            if self.on_board is not None:
                try:
                    await self.on_board(event, entrant, finished.board)
                except Exception:
                    log.exception("duplicate event %s: telling entrant %s failed", event.id,
                                  entrant.id)
        return [finished for _, _, finished in told]
