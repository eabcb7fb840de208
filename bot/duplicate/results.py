"""A duplicate event's results, scored from its stored records with
:func:`~bot.duplicate.scoring.score_event`, exactly as ``tricktable duplicate score`` scores
the exported records; and the guild's duplicate leaderboard over its closed events.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bot.duplicate.context import DuplicateContext, hands_of, method_of, tag_of
from bot.duplicate.records import board_result
from bot.duplicate.scoring import BoardResult, EventScore, score_event
from games.errors import RecordError
from storage.duplicate import DuplicateEntrant, DuplicateEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EventResults:
    """A scored event: entrants by their tag name, each board's records by entrant name."""

    event: DuplicateEvent
    score: EventScore
    entrants: Mapping[str, DuplicateEntrant]
    records: Mapping[tuple[str, int], dict[str, Any]]
    hands: Mapping[int, list[list[str]]]


@dataclass(frozen=True)
class LeaderRow:
    """A member on the duplicate leaderboard: ``percent`` is the mean matchpoint
    percentage over the ``boards`` finished in ``events`` closed leaderboard events."""

    rank: int
    user_id: int
    percent: Fraction
    boards: int
    events: int


class EventScorer:
    """Scores events from the store; keeps each closed event's leaderboard score (a closed
    event never changes). It checks nobody's rights: who may see what is the caller's."""

    def __init__(self, context: DuplicateContext) -> None:
        self.context = context
        self._closed: dict[int, tuple[EventScore, Mapping[str, DuplicateEntrant]]] = {}

    async def results(self, event: DuplicateEvent,
                      boards: Sequence[int] | None = None) -> EventResults:
        """The event scored from its stored records (``boards``: only those boards'
        plays, for a traveller), with the same code as ``tricktable duplicate score``.
        Unfinished plays count as unfinished (the scoring averages them); a stored record
        that does not replay is logged and left out."""
        store = self.context.store
        entrants = {e.id: e for e in await store.list_duplicate_entrants(event.id)}
        plays = await store.list_duplicate_plays(event.id)
        wanted = [p for p in plays if boards is None or p.board in boards]

        def score() -> tuple[list[BoardResult], dict[tuple[str, int], dict[str, Any]]]:
            results, records = [], {}
            for p in wanted:
                e = entrants[p.entrant_id]
                if p.status != "finished" or p.record is None:
                    results.append(BoardResult(p.board, p.direction, e.name, finished=False))
                    continue
                try:
                    results.append(board_result(p.record, tag_of(event, e, p)))
                except RecordError:
                    log.exception("duplicate event %s: a stored record does not replay",
                                  event.id)
                    continue
                records[(e.name, p.board)] = p.record
            return results, records

        results, records = await asyncio.to_thread(score)
        scored = score_event(results, event.boards, method_of(event),
                             entrants=[e.name for e in entrants.values()])
        hands: dict[int, list[list[str]]] = {}
        for (_, board), record in records.items():
            hands.setdefault(board, hands_of(record))
        return EventResults(event, scored, {e.name: e for e in entrants.values()}, records,
                            hands)

    async def leaderboard(self, guild_id: int, game: str | None = None,
                          min_boards: int = 1) -> list[LeaderRow]:
        """The duplicate leaderboard: every member of the guild's closed events that count
        for it (``leaderboard``), by the mean matchpoint percentage of the boards they
        finished (an IMP event is scored in matchpoints for it), then more boards; members
        with fewer than ``min_boards`` boards are left out. Equal percentage and boards
        share a rank."""
        sums: dict[int, tuple[Fraction, int, set[int]]] = {}
        for event in await self.context.store.list_duplicate_events(guild_id,
                                                                     status="closed"):
            if not event.leaderboard or (game is not None and event.game != game):
                continue
            scored = self._closed.get(event.id)
            if scored is None:
                results = await self.results(event)
                scored = (score_event(_results_of(results), event.boards, "matchpoints",
                                      entrants=list(results.entrants)), results.entrants)
                self._closed[event.id] = scored  # a closed event never changes
            score, entrants = scored
            for row in score.ranking:
                done = [b.value for b in row.boards if b.finished]
                for member in entrants[row.entrant].members:
                    total, boards, events = sums.get(member, (Fraction(0), 0, set()))
                    sums[member] = (total + sum(done, Fraction(0)), boards + len(done),
                                    events | {event.id} if done else events)
        rows = sorted(((total / count, count, len(played), user)
                       for user, (total, count, played) in sums.items()
                       if count >= max(1, min_boards)),
                      key=lambda r: (-r[0], -r[1], r[3]))
        out: list[LeaderRow] = []
        for i, (percent, count, n_events, user) in enumerate(rows):
            prev = out[-1] if out else None
            same = prev is not None and (prev.percent, prev.boards) == (percent, count)
            out.append(LeaderRow(prev.rank if same and prev else i + 1, user, percent,
                                 count, n_events))
        return out


def _results_of(results: EventResults) -> list[BoardResult]:
    """The finished results of a scored event (for scoring it again another way)."""
    return [row.result for travel in results.score.travellers for row in travel.rows]
