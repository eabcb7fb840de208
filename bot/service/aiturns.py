"""AI turns of the table service: automatic seats (AI players, away humans) act by themselves.

After the table's AI pace the seat's level (or the table's stand-in level for an away
human) chooses a move, seeded from (table seed, seat, version), and submits it like any
other action. At most ``ai_concurrency`` AI turns (choice and submission) run at once (the
time a turn waits for one of these slots counts against the AI pool's overload limit);
a turn whose table moved on meanwhile is dropped, and after five failures in a row the
table's AI turns pause (logged). A table held back by a store error or a pause
(:mod:`bot.service.outages`) runs no AI turn; they start again when it is back.
"""

from __future__ import annotations

import asyncio
import logging

from bot.service.ai import Pool, choose_action, decision_seed
from bot.service.context import TableContext
from bot.service.errors import Rejected, SaveFailed, StaleAction
from bot.service.live import LiveTable
from bot.service.outages import Outages
from bot.service.play import ActionPath
from games.actions import Action

log = logging.getLogger(__name__)


class AITurns:
    """The AI turns of one table service; holds the semaphore that bounds how many run at
    once. Every AI decision (here and at a timeout) is asked through :meth:`choose`, on
    ``pool`` when there is one (:mod:`bot.service.ai`), and submitted through ``play``;
    a table ``outages`` holds back runs no AI turn."""

    def __init__(self, ctx: TableContext, play: ActionPath, outages: Outages, *,
                 pool: Pool | None, concurrency: int) -> None:
        self._ctx = ctx
        self._play = play
        self._outages = outages
        self._pool = pool
        self.slots = asyncio.Semaphore(max(1, concurrency))

    @staticmethod
    def auto_seats(table: LiveTable) -> list[int]:
        """The seats to act that play by themselves (AI players, away humans)."""
        out = []
        for s in table.to_act:
            seat = table.seats[s]
            if seat is not None and seat.auto:
                out.append(s)
        return out

    async def run(self, table: LiveTable) -> None:
        """The table's AI task: play every automatic seat to act, each after the AI pace."""
        failures = 0
        while table.status == "playing" and not self._ctx.registry.closed:
            seats = self.auto_seats(table)
            if not seats:
                return
            seat, version = seats[0], table.version
            table.ai_parked = True
            try:
                await self._ctx.clock.sleep(table.settings.ai_pace)
            finally:
                table.ai_parked = False
            if table.version != version or table.status != "playing":
                continue
            if seat not in self.auto_seats(table):
                continue
            asked_at = asyncio.get_running_loop().time()
            try:
                async with self.slots:
                    if table.version != version or table.status != "playing":
                        continue
                    action = await self.choose(table, seat, table.settings.standin,
                                               asked_at=asked_at)
                    await self._play.submit(table, seat, action, version, "ai")
                failures = 0
            except StaleAction:
                continue
            except (SaveFailed, Rejected) as exc:
                if self._outages.held(table):
                    return  # held back: bringing the table back starts its AI turns again
                failures += 1
                log.warning("table %s: AI turn failed (%s)", table.id, exc)
                if failures >= 5:
                    log.error("table %s: AI turns keep failing; pausing them", table.id)
                    return
                await self._ctx.clock.sleep(min(30.0, 0.5 * 2 ** failures))

    async def choose(self, table: LiveTable, seat: int, standin: str,
                     asked_at: float | None = None) -> Action:
        """The move of ``seat``: its AI level, else ``standin``; seeded (seed, seat, version).
        ``asked_at``: the event loop's time when the turn began waiting for a slot. The
        observer's ``on_ai_choice`` gets the time from then (else from this call) to the
        move."""
        observed = self._ctx.observer.on_ai_choice
        since = (asyncio.get_running_loop().time() if observed is not None and asked_at is None
                 else asked_at)
        deal = table.deal
        assert deal is not None
        s = table.seats[seat]
        level = s.level if s is not None and s.level is not None else standin
        waited_ms = 0.0 if asked_at is None else \
            1000.0 * (asyncio.get_running_loop().time() - asked_at)
        action = await choose_action(
            table.game, level, deal.view(seat), deal.legal_actions(seat),
            seed=decision_seed(table.settings.seed, seat, table.version),
            options=table.options, budget_ms=table.settings.ai_budget_ms, pool=self._pool,
            waited_ms=waited_ms,
        )
        if observed is not None and since is not None:
            observed(asyncio.get_running_loop().time() - since)
        return action
