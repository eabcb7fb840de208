"""The table service: every open table of this process, driven by actions and timers.

Front ends (the Discord adapter, the terminal, tests) call the public coroutines of
:class:`TableService` and read :mod:`bot.service.events` from subscriptions; they never
touch a match directly. The promises:

* **One lock per table.** Every change of a table (lobby edits, actions, timeouts, AI moves)
  happens under the table's ``asyncio.Lock``, in one order.
* **Current choices only.** An action carries the table version it was chosen at; a stale
  or duplicate one raises :class:`~bot.service.errors.StaleAction` ("that choice is no
  longer current") and changes nothing (see :mod:`bot.service.live` for the rule).
* **Store first.** An accepted action is appended to the table's action log (and the
  table row updated) before any event about it is published. If the append fails, the
  caller gets :class:`SaveFailed` ("the database is not answering").
* **A store error never drops a table.** A table whose append failed is held (it refuses
  actions with the reason, runs no AI turn nor timer) and rebuilt from the store as soon
  as the store answers, retried with backoff; then its front ends get a ``turn`` event and
  play goes on (:mod:`bot.service.outages`). :meth:`TableService.pause` holds every table
  (a process unsure of its shards' lock), :meth:`TableService.resume` brings them back.
* **No lost update.** The table row (seats, options, status, deadlines, meta) is written
  by compare-and-set on its ``row_version`` (:mod:`bot.service.rows`): when another
  writer (another process holding the same table) changed it meanwhile, nothing is
  written, the table is reloaded from the store, its front ends get a ``lobby`` or
  ``turn`` event, and a lobby request raises :class:`~bot.service.errors.TableChanged`
  (try again). ``start(owns=…)`` keeps a process to its own tables, so this is a guard,
  not the normal path; :meth:`TableService.create_table` refuses a place it does not own.
* **Secrecy.** Subscriptions receive only events their seat may see (``visible_to``).
* **Bounded subscriptions.** Publishing never blocks: a subscription that is not read
  holds at most its bound of events, then replaces them by one ``resync`` (re-read the
  table); see :mod:`bot.service.events`.
* **Recovery.** :meth:`TableService.start` rebuilds every unfinished table from the store
  (seed, options and seats from the row; the log re-applied through the engine), resumes
  its stored deadlines and its AI turns, and play continues exactly where it stopped.
* **Timers** (on an injectable clock): a turn deadline per table while a human is to act;
  a ``reminder`` at half time; at expiry an AI (the table's stand-in level) plays for the
  late seats; after three timeouts in a row the seat is ``away`` and the AI plays it until
  its player acts again or calls :meth:`TableService.rejoin`. A lobby idle for 30 minutes
  is abandoned. Deadlines are stored in the table row, so they survive restarts (the
  half-time reminder is not stored: after a restart it is published again, and a front
  end that must not repeat it remembers it, as the Discord adapter does in ``meta``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_
from bot.service.ai import DEFAULT_BUDGET_MS, Pool
from bot.service.aiturns import AITurns
from bot.service.clock import Clock, SystemClock
from bot.service.context import TableContext
from bot.service.deadlines import plan_deadline
from bot.service.errors import CLOSED, NoSuchTable, TableChanged
from bot.service.events import Subscription, TableEvent
from bot.service.hooks import NoRatings, Observer, RatingsHook
from bot.service.live import LiveTable, TableSettings
from bot.service.lobby import Lobby
from bot.service.outages import Outages
from bot.service.play import ActionPath
from bot.service.registry import TableRegistry
from bot.service.results import MatchResults
from bot.service.rows import write_row
from bot.service.rowsync import RowSync
from bot.service.seats import Seat, seat_of
from bot.service.timers import TurnTimers
from games.actions import Action
from games.errors import IllegalAction
from games.view_types import GameView
from storage import StaleTable, Store
from storage.models import Location


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A snapshot of a table for front ends (no hidden information)."""

    id: int
    location: Location
    game: str
    status: str
    players: int
    seats: tuple[Seat | None, ...]
    teams: list[list[int]]
    options: dict[str, Any]
    version: int
    deal: int
    to_act: tuple[int, ...]
    turn_deadline: dt.datetime | None
    lobby_deadline: dt.datetime | None
    settings: TableSettings


class TableService:
    """All open tables of this process (see the module docstring for the promises).

    ``clock`` defaults to the wall clock; ``ratings`` to a hook that does nothing;
    ``ai_pool`` (a :class:`bot.ai_pool.AIPool`) runs AI decisions in worker processes
    (without one they run in a thread); at most ``ai_concurrency`` AI turns (choice and
    submission) run at once, so a burst of AI tables cannot flood the event loop;
    ``observer`` (:class:`~bot.service.hooks.Observer`) sees how long every accepted action
    and every AI decision takes (the benchmarks time them so).

    The service is the front ends' one entry point. It builds its parts and gives each a
    :class:`~bot.service.context.TableContext` (store, clock, registry, a way to wake a
    table, the observer) and the peer parts it calls, never the service: ``registry``
    (:class:`TableRegistry`: the tables and subscriptions, publishing), ``rows``
    (:class:`RowSync`), ``results`` (:class:`MatchResults`), ``outages``
    (:class:`Outages`), ``lobby`` (:class:`Lobby`), ``play`` (:class:`ActionPath`), ``ai``
    (:class:`AITurns`) and ``timers`` (:class:`TurnTimers`). A public method whose work is
    all a part's is a real method here that hands it to the part (the part's docstring
    states the contract), so readers and tools follow ``service.act`` into
    :meth:`ActionPath.act <bot.service.play.ActionPath.act>`: ``state``, ``subscribe``,
    ``watch``, ``subscriptions`` (registry);
    ``create_table``, ``join``, ``add_ai``, ``leave``, ``clear_seat``, ``set_options``,
    ``arrange``, ``start_match``, ``abandon`` (lobby); ``act``, ``rejoin``, ``set_away``
    (play); ``pause``, ``resume`` (outages). The methods written here read or combine the
    parts.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        ratings: RatingsHook | None = None,
        ai_pool: Pool | None = None,
        ai_concurrency: int = 32,
        ai_budget_ms: float = DEFAULT_BUDGET_MS,
        observer: Observer | None = None,
    ) -> None:
        self.store = store
        self.ai_budget_ms = ai_budget_ms
        """Thinking time per move of ``search`` players at tables opened without one."""
        self.ai_pool = ai_pool
        self.clock: Clock = clock or SystemClock()
        self.ratings: RatingsHook = ratings or NoRatings()
        self.registry = TableRegistry()
        ctx = TableContext(store=store, clock=self.clock, registry=self.registry,
                           kick=self._kick, observer=observer or Observer())
        self.rows = RowSync(ctx)
        self.results = MatchResults(ctx, self.ratings)
        self.outages = Outages(ctx, self.rows, self.results)
        self.lobby = Lobby(ctx, self.rows, self.results, ai_budget_ms=ai_budget_ms)
        self.play = ActionPath(ctx, self.rows, self.results, self.outages)
        self.ai = AITurns(ctx, self.play, self.outages, pool=ai_pool,
                          concurrency=ai_concurrency)
        self.timers = TurnTimers(ctx, self.lobby, self.play, self.ai)
        self._table = self.registry.get

    # == the parts' operations (class docstring) ======================================
    def state(self, table_id: int, seat: int | None) -> TableEvent:
        """:meth:`bot.service.registry.TableRegistry.state`."""
        return self.registry.state(table_id, seat)

    def subscribe(self, table_id: int, seat: int | None = None, *,
                  bound: int | None = None) -> Subscription:
        """:meth:`bot.service.registry.TableRegistry.subscribe`."""
        return self.registry.subscribe(table_id, seat, bound=bound)

    def watch(self, *, bound: int | None = None) -> Subscription:
        """:meth:`bot.service.registry.TableRegistry.watch`."""
        return self.registry.watch(bound=bound)

    def subscriptions(self, table_id: int) -> list[Subscription]:
        """:meth:`bot.service.registry.TableRegistry.subscriptions`."""
        return self.registry.subscriptions(table_id)

    async def create_table(
        self,
        location: Location,
        game: str,
        *,
        options: Mapping[str, Any] | None = None,
        players: int | None = None,
        seed: int | str | None = None,
        first_dealer: int = 0,
        seats: Sequence[Seat | None] | None = None,
        turn_timeout: float | None = None,
        ai_pace: float | None = None,
        standin: str = "rules",
        ai_budget_ms: float | None = None,
        start: bool = False,
    ) -> int:
        """:meth:`bot.service.lobby.Lobby.create_table`."""
        return await self.lobby.create_table(
            location, game, options=options, players=players, seed=seed,
            first_dealer=first_dealer, seats=seats, turn_timeout=turn_timeout,
            ai_pace=ai_pace, standin=standin, ai_budget_ms=ai_budget_ms, start=start)

    async def join(self, table_id: int, user_id: int, name: str,
                   seat: int | None = None) -> int:
        """:meth:`bot.service.lobby.Lobby.join`."""
        return await self.lobby.join(table_id, user_id, name, seat)

    async def add_ai(self, table_id: int, level: str = "rules", seat: int | None = None) -> int:
        """:meth:`bot.service.lobby.Lobby.add_ai`."""
        return await self.lobby.add_ai(table_id, level, seat)

    async def leave(self, table_id: int, user_id: int) -> None:
        """:meth:`bot.service.lobby.Lobby.leave`."""
        await self.lobby.leave(table_id, user_id)

    async def clear_seat(self, table_id: int, seat: int) -> None:
        """:meth:`bot.service.lobby.Lobby.clear_seat`."""
        await self.lobby.clear_seat(table_id, seat)

    async def set_options(self, table_id: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`bot.service.lobby.Lobby.set_options`."""
        return await self.lobby.set_options(table_id, options)

    async def arrange(self, table_id: int, order: Sequence[int]) -> None:
        """:meth:`bot.service.lobby.Lobby.arrange`."""
        await self.lobby.arrange(table_id, order)

    async def start_match(self, table_id: int) -> None:
        """:meth:`bot.service.lobby.Lobby.start_match`."""
        await self.lobby.start_match(table_id)

    async def abandon(self, table_id: int, reason: str = CLOSED, *,
                      by: str | None = None) -> None:
        """:meth:`bot.service.lobby.Lobby.abandon`."""
        await self.lobby.abandon(table_id, reason, by=by)

    async def act(self, table_id: int, user_id: int, action: Action, version: int) -> None:
        """:meth:`bot.service.play.ActionPath.act`."""
        await self.play.act(table_id, user_id, action, version)

    async def rejoin(self, table_id: int, user_id: int) -> None:
        """:meth:`bot.service.play.ActionPath.rejoin`."""
        await self.play.rejoin(table_id, user_id)

    async def set_away(self, table_id: int, seat: int) -> None:
        """:meth:`bot.service.play.ActionPath.set_away`."""
        await self.play.set_away(table_id, seat)

    def pause(self) -> None:
        """:meth:`bot.service.outages.Outages.pause`."""
        self.outages.pause()

    async def resume(self) -> None:
        """:meth:`bot.service.outages.Outages.resume`."""
        await self.outages.resume()

    # == life of the service ==========================================================
    async def start(self, owns: Callable[[Location], bool] | None = None) -> list[int]:
        """Rebuild every unfinished table of the store (those ``owns`` accepts, when given:
        a process serving some shards takes only its guilds) and resume timers and AI
        turns. Returns the ids of the tables loaded.

        Timers and AI turns start only once every table is loaded, and nothing is awaited
        after that: a front end that subscribes to the tables as soon as ``start`` returns
        (before its own first ``await``) misses no event, not even a reminder that fell due
        while the process was down (it fires at once)."""
        self.registry.owns = owns
        loaded: list[int] = []
        resumed: list[LiveTable] = []
        for rec in await self.store.load_unfinished_tables():
            if owns is not None and not owns(rec.table.location):
                continue
            if rec.table.id in self.registry.tables:
                continue
            table = self.registry.from_row(rec.table)
            if table.status == "playing":
                table.replay([e.action for e in rec.actions])
            self.registry.index(table)
            loaded.append(table.id)
            if table.match is not None and table.match.over:
                async with table.lock:
                    events: list[TableEvent] = []
                    await self.results.finish(table, events)
                    self.registry.publish(table, events)
                continue
            if table.status == "playing" and table.turn_deadline is None:
                async with table.lock:
                    if plan_deadline(table, self.clock):
                        await self.rows.save(table, turn_deadline=table.turn_deadline)
            resumed.append(table)
        for table in resumed:
            self._kick(table)
        return loaded

    async def close(self) -> None:
        """Stop every task of the service (the store stays open: its owner closes it).
        Nothing is lost: whatever was accepted is in the store."""
        self.registry.closed = True
        await self.outages.close()
        tasks = []
        for table in self.registry.tables.values():
            for task in (table.ai_task, table.timer_task):
                if task is not None:
                    task.cancel()
                    tasks.append(task)
        # return_exceptions: collect what each task ended with (cancelled, or dead of an
        # error already logged) without raising it here.
        await asyncio.gather(*tasks, return_exceptions=True)
        self.registry.tables.clear()
        self.registry.by_location.clear()

    @property
    def paused(self) -> bool:
        """Whether :meth:`pause` holds the tables."""
        return self.outages.paused

    def held(self, table_id: int) -> bool:
        """Whether the open table ``table_id`` is held back now (a store error or a
        pause: :mod:`bot.service.outages`)."""
        table = self.registry.tables.get(table_id)
        return table is not None and self.outages.held(table)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until no table has work in progress: no AI turn running, no action being
        applied, every timer parked on a future deadline. For tests and tools."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            if all(self.registry.quiet(t) for t in list(self.registry.tables.values())):
                await asyncio.sleep(0)
                if all(self.registry.quiet(t) for t in list(self.registry.tables.values())):
                    return
            if loop.time() > end:
                raise TimeoutError("the tables did not settle")
            await asyncio.sleep(0.001)

    # == lookups ======================================================================
    def table_ids(self) -> list[int]:
        return sorted(self.registry.tables)

    def holds(self, table_id: int) -> bool:
        """Whether this process holds the open table ``table_id`` (a process serving some
        shards holds only its own: a click for another table is forwarded to its owner)."""
        return table_id in self.registry.tables

    def find(self, location: Location) -> int | None:
        """The id of the open table at ``location``, if this process has one."""
        return self.registry.by_location.get(location)

    def info(self, table_id: int) -> TableInfo:
        t = self.registry.get(table_id)
        return TableInfo(
            id=t.id, location=t.location, game=t.game, status=t.status, players=t.players,
            seats=tuple(t.seats), teams=t.teams(), options=dict(t.options),
            version=t.version, deal=t.deal_index, to_act=t.to_act,
            turn_deadline=t.turn_deadline, lobby_deadline=t.lobby_deadline,
            settings=t.settings,
        )

    def meta(self, table_id: int) -> dict[str, Any] | None:
        """A copy of the open table's ``meta`` (front ends keep their own keys there, e.g.
        a message id), or ``None`` when this process does not hold the table."""
        table = self.registry.tables.get(table_id)
        return None if table is None else dict(table.meta)

    async def update_meta(self, table_id: int, **changes: Any) -> None:
        """Merge ``changes`` into the table's ``meta`` and store it. Under the table's lock,
        so a concurrent write by the service cannot lose the change; a table this process
        does not hold is updated in the store directly."""
        table = self.registry.tables.get(table_id)
        for _ in range(3):  # compare-and-set: merge again into what another writer stored
            if table is None:
                row = await self.store.get_table(table_id)
                if row is None:
                    return
                try:
                    await self.store.update_table(table_id, meta={**row.meta, **changes},
                                                  expected_version=row.row_version)
                    return
                except StaleTable:
                    continue
            async with table.lock:
                merged = {**table.meta, **changes}
                try:
                    await write_row(self.store, table, meta=merged)
                    table.meta = merged
                    return
                except StaleTable as exc:
                    await self.rows.adopt(table, exc.current)
        raise TableChanged()

    def view(self, table_id: int, seat: int | None) -> GameView:
        """What ``seat`` sees now (``None``: the public view); the lobby has no view."""
        deal = self.registry.get(table_id).deal
        if deal is None:
            raise NoSuchTable(N_("the match has not started"))
        return deal.view(seat)

    def legal(self, table_id: int, seat: int) -> list[Action]:
        """The actions ``seat`` may take now (empty when it is not to act)."""
        t = self.registry.get(table_id)
        deal = t.deal
        if deal is None or seat not in t.to_act:
            return []
        return deal.legal_actions(seat)

    def refusal(self, table_id: int, seat: int, action: Action) -> IllegalAction | None:
        """Why the rules refuse ``action`` by ``seat`` now, or None when they would accept
        it: tried on a copy of the deal, so nothing changes (a page asking why a card is
        not playable)."""
        deal = self.registry.get(table_id).deal
        if deal is None:
            raise NoSuchTable(N_("the match has not started"))
        try:
            deal.copy().apply(seat, action)
        except IllegalAction as exc:
            return exc
        return None

    def seat_of(self, table_id: int, user_id: int) -> int | None:
        return seat_of(self.registry.get(table_id).seats, user_id)

    async def record(self, table_id: int) -> dict[str, Any]:
        """The match record (``records.md``): of the live match, or of the recorded one
        once the table is finished."""
        table = self.registry.tables.get(table_id)
        if table is not None and table.match is not None:
            return table.match.record()
        match = await self.store.get_match_for_table(table_id)
        if match is None:
            raise NoSuchTable(N_("table {table} has no match record"), table=table_id)
        deals = await self.store.load_deals(match.id)
        head = dict(match.result.get("record_head", {}))
        return {**head, "deals": [d.record for d in deals]}

    # == waking a table (the parts' ``kick``) ========================================
    def _kick(self, table: LiveTable) -> None:
        """Start what the table's state needs: the AI task when an automatic seat is to
        act, the timer task when a deadline is set."""
        if (self.registry.closed or table.id not in self.registry.tables
                or self.outages.held(table)):
            return
        if (table.ai_task is None or table.ai_task.done()) and self.ai.auto_seats(table):
            table.ai_task = asyncio.create_task(self.ai.run(table),
                                                name=f"table-{table.id}-ai")
        self.timers.restart(table)
