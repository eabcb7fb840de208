"""Closing a duplicate event (the director, or the window's end seen by the service).

Unfinished boards are left unfinished (the scoring averages them) and their tables closed;
a board whose deal has just ended still counts. The results are scored from the stored
records (:class:`~bot.duplicate.results.EventScorer`). A league's round stores its ranking
as the league's outcomes (:func:`bot.leagues.standings.field_outcomes`). ``on_close`` is
awaited at every close: the front end posts the results, claiming each piece once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from bot.duplicate.board_end import BoardFinisher
from bot.duplicate.context import BOARD_OVER, DuplicateContext
from bot.duplicate.results import EventResults, EventScorer
from bot.leagues.service import league_season
from bot.leagues.standings import ROUND_POST, field_outcomes, round_value
from storage.duplicate import DuplicateEvent

OnClose = Callable[[DuplicateEvent], Awaitable[None]]
"""``on_close(event)``: awaited at every close of an event."""


class EventCloser:
    """Closes events (see the module docstring)."""

    def __init__(self, context: DuplicateContext, finisher: BoardFinisher,
                 scorer: EventScorer, on_close: OnClose | None = None) -> None:
        self.context = context
        self.finisher = finisher
        self.scorer = scorer
        self.on_close = on_close

    async def close(self, event_id: int, guild_id: int) -> EventResults:
        """Close the event (idempotent): boards under way stay unfinished and their tables
        are closed; ``on_close`` is awaited (the front end posts the results, each piece
        claimed once)."""
        store, tables = self.context.store, self.context.tables
        event = await self.context.event(event_id, guild_id)
        if event.status != "closed":
            event = await store.close_duplicate_event(event.id)
        for p in await store.list_duplicate_plays(event.id):
            if p.status == "playing" and p.table_id is not None and tables.holds(p.table_id):
                await self.finisher.board_over(p.table_id)  # a board that just ended counts
                with contextlib.suppress(Exception):
                    await tables.abandon(p.table_id, BOARD_OVER)
        results = await self.scorer.results(event)
        if event.league_id is not None:
            await self._league_outcomes(event, results)
        if self.on_close is not None:
            await self.on_close(event)
        return results

    async def _league_outcomes(self, event: DuplicateEvent, results: EventResults) -> None:
        """Store the closed round's outcomes for the league's standings (each league
        entrant by its members; written again, the same, at every close)."""
        store = self.context.store
        assert event.league_id is not None
        league = await store.get_league(event.league_id)
        if league is None:
            return
        by_members = {frozenset(e.members): e.id for e in await store.list_entrants(
            (await league_season(store, league)).id)}
        ranks: dict[int, int | None] = {}
        for row in results.score.ranking:
            entrant = results.entrants.get(row.entrant)
            league_entrant = None if entrant is None else by_members.get(
                frozenset(entrant.members))
            if league_entrant is not None:
                ranks[league_entrant] = row.rank
        await store.claim_duplicate_post(event.id, ROUND_POST)
        await store.set_duplicate_post_value(event.id, ROUND_POST,
                                             round_value(field_outcomes(ranks)))
