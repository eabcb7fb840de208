"""Duplicate events on the Store and the table service (``docs/duplicate.md``): one facade,
:class:`DuplicateService`, over the parts that hold each concern. Nothing here imports
``discord``: the Discord cog is a thin layer over it, and the tests drive it directly.

The parts, each with its rules in its module's docstring:

* :mod:`bot.duplicate.context` — the shared dependencies and lookups (an event of the
  guild, its window, a ready entrant, a board's deal, a play's tag) and
  :class:`DuplicateError`;
* :mod:`bot.duplicate.director` — create (formats, scoring, a league's round), list,
  status;
* :mod:`bot.duplicate.entries` — enter alone or as a pair, the partner's confirmation;
* :mod:`bot.duplicate.seating` — an entrant's boards at tables of its own;
* :mod:`bot.duplicate.meetings` — two pairs at one table, the invitations stored;
* :mod:`bot.duplicate.board_end` — a board's end: the plays stored, the table closed
  without a match, ``on_board``;
* :mod:`bot.duplicate.reveals` — what a member sees of a board they finished, and the
  AI's reference plays;
* :mod:`bot.duplicate.results` — the scoring from the stored records, the leaderboard;
* :mod:`bot.duplicate.closing` — the close, a league round's outcomes, ``on_close``.

This module watches the tables and the clock (:meth:`DuplicateService.run`,
:meth:`DuplicateService.reconcile`): a board is finished when its table scores its deal
(or, after a restart, when its deal ended while nobody watched), and an event is closed at
its window's end.
"""

from __future__ import annotations

import asyncio
import logging

from bot.duplicate.board_end import BoardFinisher, OnBoard
from bot.duplicate.closing import EventCloser, OnClose
from bot.duplicate.context import (
    AI_LEVEL,
    BOARD_OVER,
    MAX_BOARDS,
    DuplicateContext,
    DuplicateError,
    board_of,
    directions_of,
    tag_of,
)
from bot.duplicate.director import EventDirector, EventStatus
from bot.duplicate.entries import EntryDesk
from bot.duplicate.meetings import Invitation, Meetings
from bot.duplicate.results import EventResults, EventScorer, LeaderRow
from bot.duplicate.reveals import BoardReveals, Reveal
from bot.duplicate.seating import BoardTables, PlayStart
from bot.service.clock import Clock, SystemClock
from bot.service.tables import TableService
from games.ai import DEFAULT_BUDGET, Budget
from storage.base import Store

__all__ = [
    "AI_LEVEL", "BOARD_OVER", "MAX_BOARDS", "DuplicateError", "DuplicateService",
    "EventResults", "EventStatus", "Invitation", "LeaderRow", "PlayStart", "Reveal",
    "board_of", "directions_of", "tag_of",
]

log = logging.getLogger(__name__)


class DuplicateService:
    """Duplicate events of every guild this process serves: the parts (see the module
    docstring) wired to one store, table service and clock, and their methods offered
    under one name for the front ends.

    ``on_board(event, entrant, board)`` is awaited each time an entrant finishes a board
    (the front end sends the reveal); ``on_close(event)`` at every close (the front end
    posts the results, each piece once). The AI's reference plays run in a thread."""

    def __init__(self, store: Store, tables: TableService, *, clock: Clock | None = None,
                 budget: Budget = DEFAULT_BUDGET, on_board: OnBoard | None = None,
                 on_close: OnClose | None = None, ai_level: str = AI_LEVEL,
                 ai_pace: float | None = None) -> None:
        self.context = DuplicateContext(store, tables, clock or SystemClock(), budget,
                                        ai_level, ai_pace)
        self.store = store
        self.tables = tables
        self.clock = self.context.clock
        self.director = EventDirector(self.context)
        self.entries = EntryDesk(self.context)
        self.seating = BoardTables(self.context)
        self.meetings = Meetings(self.context, self.seating)
        self.finisher = BoardFinisher(self.context, on_board)
        self.scorer = EventScorer(self.context)
        self.reveals = BoardReveals(self.context, self.scorer)
        self.closer = EventCloser(self.context, self.finisher, self.scorer, on_close)
        # The front ends' entry points, each the method of the part that holds it.
        self.event = self.context.event
        self.create_event = self.director.create_event
        self.list_events = self.director.list_events
        self.status = self.director.status
        self.enter = self.entries.enter
        self.confirm = self.entries.confirm
        self.play = self.seating.play
        self.play_board = self.seating.play_board
        self.meet = self.meetings.meet
        self.board_over = self.finisher.board_over
        self.reveal = self.reveals.reveal
        self.reveal_at_table = self.reveals.reveal_at_table
        self.ai_record = self.reveals.ai_record
        self.ai_result = self.reveals.ai_result
        self.results = self.scorer.results
        self.leaderboard = self.scorer.leaderboard
        self.close = self.closer.close

    @staticmethod
    def of_tables(store: Store, tables: TableService) -> DuplicateService:
        """The duplicate service of a process's table service: its clock, and its AI
        players' time budget for the reference plays (what the bot builds in its
        ``setup_hook``)."""
        return DuplicateService(store, tables, clock=tables.clock,
                                budget=Budget(ms=tables.ai_budget_ms))

    def report_to(self, on_board: OnBoard, on_close: OnClose) -> None:
        """Tell ``on_board(event, entrant, board)`` of every board an entrant finishes and
        ``on_close(event)`` of every close, from now on (the front end that posts them: the
        Discord cog, :mod:`bot.discord_bot.club.duplicate_commands`); replaces earlier
        ones."""
        self.finisher.on_board = on_board
        self.closer.on_close = on_close

    async def reconcile(self) -> None:
        """After a restart: finish every board whose deal ended while nobody watched, and
        close the events whose window has closed."""
        for table_id in self.tables.table_ids():
            await self.board_over(table_id)
        for event in await self.store.due_duplicate_events(self.clock.now()):
            await self.close(event.id, event.guild_id)

    async def run(self, poll_seconds: float = 60.0) -> None:
        """Watch the tables for finished boards and close events at their window's end
        (looked for every ``poll_seconds`` of real time; the end is judged by the service's
        clock)."""
        watcher = self.tables.watch()
        await self.reconcile()

        async def closer() -> None:
            while True:
                # Real time between passes: a sleeper on the service's clock would be one
                # more for whoever drives a fake clock (the window is judged by its now).
                await asyncio.sleep(poll_seconds)
                for event in await self.store.due_duplicate_events(self.clock.now()):
                    try:
                        await self.close(event.id, event.guild_id)
                    except Exception:
                        log.exception("duplicate event %s: the close failed", event.id)

        task = asyncio.create_task(closer())
        try:
            async for ev in watcher:
                if ev.type == "resync":
                    await self.reconcile()
                elif ev.type == "deal_scored":
                    try:
                        await self.board_over(ev.table_id)
                    except Exception:
                        log.exception("table %s: finishing the duplicate board failed",
                                      ev.table_id)
        finally:
            task.cancel()
