"""What the table service stores about people and finished matches.

A finished match is recorded once (``Store.record_match``: summary, seats, teams, every
participant's outcome and rank, every deal's record, the channel it was played in — who may
list it and read its record depends on that), the ratings hook is called (a failing
hook is logged, never raised; on recovery it is called again with the same ``match_id``),
and the table is marked finished. Display names of human seats are kept in ``players``.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence

from bot.service.context import TableContext
from bot.service.events import MatchOverData, TableEvent
from bot.service.hooks import FinishedMatch, RatingsHook
from bot.service.live import LiveTable
from bot.service.rows import write_row
from bot.service.seats import Seat
from storage import ChannelLocation, DealRecord, MatchRecord, Participant
from storage.models import Outcome

log = logging.getLogger(__name__)


class MatchResults:
    """Recording finished matches and player names for the table service (no state of its
    own); ``ratings`` is called for every recorded match."""

    def __init__(self, ctx: TableContext, ratings: RatingsHook) -> None:
        self._ctx = ctx
        self._ratings = ratings

    async def remember_names(self, seats: Sequence[Seat | None]) -> None:
        """Write the display names of the human seats to ``players`` (leaderboards,
        ``/stats`` and ``/history`` read them there); a failure is logged, never raised: the
        seat or the match it follows is already saved."""
        for s in seats:
            if s is None or s.is_ai or s.user_id is None:
                continue
            try:
                await self._ctx.store.upsert_player(s.user_id, s.name)
            except Exception:
                log.exception("could not save the display name of user %s", s.user_id)

    async def finish(self, table: LiveTable, events: list[TableEvent]) -> None:
        """Record the finished match, call the ratings hook, close the table."""
        match = table.match
        assert match is not None
        record = match.record()
        summary = match.summary()
        teams = table.teams()
        # Winners by side: ``winners`` where the game lets several share the win (Truf),
        # else ``winner``; no winner at all is a draw. Ranks follow the totals.
        winner = summary.get("winner")
        winners = summary.get("winners") or ([] if winner is None else [winner])
        totals = summary.get("totals") or []
        participants: list[Participant] = []
        for t_index, team in enumerate(teams):
            outcome: Outcome = ("draw" if not winners
                                else "win" if t_index in winners else "loss")
            rank = (1 + sum(1 for x in totals if x > totals[t_index])
                    if len(totals) == len(teams) else None)
            for seat in team:
                s = table.seats[seat]
                participants.append(Participant(
                    seat=seat, user_id=None if s is None or s.is_ai else s.user_id,
                    team=t_index, outcome=outcome, rank=rank,
                ))
        participants.sort(key=lambda p: p.seat)
        place = table.location if isinstance(table.location, ChannelLocation) else None
        guild_id = None if place is None else place.guild_id
        has_ai = any(s is not None and s.is_ai for s in table.seats)
        rated = guild_id is not None and (not has_ai or table.settings.rated)
        head = {k: v for k, v in record.items() if k != "deals"}
        started = table.meta.get("started_at")
        result = {"summary": summary, "seats": table.seats_json(), "teams": teams,
                  "record_head": head}
        stored = await self._ctx.store.record_match(MatchRecord(
            table_id=table.id, game=table.game, guild_id=guild_id,
            channel_id=None if place is None else place.channel_id,
            finished_at=self._ctx.clock.now(), result=result, participants=tuple(participants),
            deals=tuple(DealRecord(i, d) for i, d in enumerate(record["deals"])),
            rated=rated,
            started_at=None if started is None else dt.datetime.fromisoformat(started),
        ))
        await self.remember_names(table.seats)
        recorded = await self._ctx.store.get_match_for_table(table.id)
        assert recorded is not None
        try:
            await self._ratings.match_finished(FinishedMatch(
                table_id=table.id, match_id=recorded.id, game=table.game,
                location=table.location, guild_id=guild_id, rated=rated,
                participants=tuple(participants), summary=summary,
            ))
        except Exception:
            log.exception("table %s: the ratings hook failed", table.id)
        table.meta = {**table.meta, "match_id": recorded.id}
        await write_row(self._ctx.store, table, cas=False, status="finished", turn_deadline=None,
                        meta=table.meta)
        table.status = "finished"
        table.turn_deadline = None
        if not stored:
            log.info("table %s: match was already recorded (recovery)", table.id)
        over: MatchOverData = {"summary": summary, "match_id": recorded.id}
        events.append(TableEvent(table.id, "match_over", over, None, table.version))
        self._ctx.registry.unload_later(table)
