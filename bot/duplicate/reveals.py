"""What an entrant may see of a board, and when: only after finishing it.

:meth:`BoardReveals.reveal` (traveller so far, hand record, the AI's result from the
entrant's seat, the record for the Review) answers only a member of an entrant that
finished the board; before the close nobody else sees anything of a board. The AI's
reference play of a board and direction (every seat the event's AI) is computed once, in a
thread, and stored.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot.duplicate.boards import play_with_ai
from bot.duplicate.context import (
    DuplicateContext,
    DuplicateError,
    board_of,
    hands_of,
    method_of,
)
from bot.duplicate.records import Tag, board_result
from bot.duplicate.results import EventScorer
from bot.duplicate.scoring import BoardResult, EventScore, Traveller
from bot.i18n import N_
from storage.duplicate import DuplicateBoard, DuplicateEntrant, DuplicateEvent, DuplicatePlay


@dataclass(frozen=True)
class Reveal:
    """What an entrant learns after finishing a board: the board's results so far (its
    traveller is ``score.travellers[board - 1]``), its own play and record, the hands as
    dealt, and the AI's record and result from the same direction."""

    event: DuplicateEvent
    board: int
    entrant: DuplicateEntrant
    play: DuplicatePlay
    score: EventScore
    hands: list[list[str]]
    ai_record: dict[str, Any]
    ai_result: BoardResult

    @property
    def traveller(self) -> Traveller:
        """The board's traveller so far."""
        return self.score.travellers[self.board - 1]

    @property
    def own(self) -> BoardResult | None:
        """The entrant's own result on the board (from its traveller)."""
        return next((r.result for r in self.traveller.rows
                     if r.result.entrant == self.entrant.name), None)


class BoardReveals:
    """Reveals finished boards and keeps the AI's reference plays (see the module
    docstring)."""

    def __init__(self, context: DuplicateContext, scorer: EventScorer) -> None:
        self.context = context
        self.scorer = scorer
        self._ai_locks: dict[tuple[int, int, int], asyncio.Lock] = {}
        """One lock per (event, board, direction): one reference play computed at once."""

    async def reveal(self, event_id: int, guild_id: int, user_id: int, board: int) -> Reveal:
        """The traveller, hand record and AI result of a board, for a member of an entrant
        that finished it (anyone after the close); DuplicateError otherwise."""
        store = self.context.store
        event = await self.context.event(event_id, guild_id)
        entrant = await store.duplicate_entrant_of(event.id, user_id)
        play = None if entrant is None else await store.get_duplicate_play(entrant.id, board)
        if entrant is None or play is None or play.status != "finished":
            raise DuplicateError(N_("you see a board's results once you have finished it"))
        return await self.reveal_play(event, entrant, play)

    async def reveal_at_table(self, table_id: int, user_id: int) -> Reveal | None:
        """The reveal of the board played at ``table_id`` for ``user_id`` when they belong to
        an entrant whose play of it there is finished; None otherwise (not a duplicate
        table, the board not over, or the user no member of an entrant that played it
        there): the rule of :meth:`reveal`, found from the table (the web table's)."""
        store = self.context.store
        for play in await store.duplicate_plays_of_table(table_id):
            if play.status != "finished":
                continue
            entrant = await store.duplicate_entrant_of(play.event_id, user_id)
            if entrant is None or entrant.id != play.entrant_id:
                continue
            event = await store.get_duplicate_event(play.event_id)
            if event is not None:
                return await self.reveal_play(event, entrant, play)
        return None

    async def reveal_play(self, event: DuplicateEvent, entrant: DuplicateEntrant,
                          play: DuplicatePlay) -> Reveal:
        """The reveal of a finished play, checking nobody's rights (the caller has)."""
        boards = await self.context.boards(event.id)
        results = await self.scorer.results(event, boards=[play.board])
        assert play.record is not None
        ai, ai_result = await self.ai_result(event, boards[play.board], play.direction)
        return Reveal(event, play.board, entrant, play, results.score,
                      hands_of(play.record), ai, ai_result)

    async def ai_record(self, event: DuplicateEvent, board: DuplicateBoard,
                        direction: int) -> dict[str, Any]:
        """The AI's play of a board (every seat the event's AI), computed once per board
        and direction and stored; the direction names the seeds of its players, so the two
        directions are two independent plays."""
        context = self.context
        stored = await context.store.get_duplicate_ai(event.id, board.number, direction)
        if stored is not None:
            return stored
        key = (event.id, board.number, direction)
        lock = self._ai_locks.setdefault(key, asyncio.Lock())
        async with lock:
            stored = await context.store.get_duplicate_ai(event.id, board.number, direction)
            if stored is None:
                record = await asyncio.to_thread(play_with_ai, board_of(event, board),
                                                 context.ai_level, context.budget,
                                                 f"ai:{direction}")
                stored = await context.store.put_duplicate_ai(event.id, board.number,
                                                              direction, record)
        return stored

    async def ai_result(self, event: DuplicateEvent, board: DuplicateBoard,
                        direction: int) -> tuple[dict[str, Any], BoardResult]:
        """The AI's record of a board and direction and its result (net score)."""
        record = await self.ai_record(event, board, direction)
        tag = Tag(str(event.id), board.number, event.boards, "AI", direction,
                  method_of(event))
        return record, await asyncio.to_thread(board_result, record, tag)
