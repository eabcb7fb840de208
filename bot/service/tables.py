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
  table is rebuilt from the store and the caller gets :class:`SaveFailed`.
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
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot.service.ai import Pool, choose_action, decision_seed
from bot.service.clock import Clock, SystemClock
from bot.service.errors import (
    LobbyError,
    NoSuchTable,
    Rejected,
    SaveFailed,
    StaleAction,
    TableChanged,
)
from bot.service.events import WATCH_BOUND, Subscription, TableEvent
from bot.service.hooks import FinishedMatch, NoRatings, RatingsHook
from bot.service.live import LOBBY_IDLE, LiveTable, TableSettings
from bot.service.rows import refresh, write_row
from bot.service.seats import Seat, seat_of, seats_from_json
from games.actions import Action, action_from_json
from games.ai import LEVELS
from games.errors import IllegalAction
from games.registry import GAMES
from storage import (
    ChannelLocation,
    DealRecord,
    LocationBusy,
    MatchRecord,
    Participant,
    StaleTable,
    Store,
    Table,
)
from storage.models import Location, Outcome

log = logging.getLogger(__name__)

By = Literal["human", "ai", "timeout"]


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
    submission) run at once, so a burst of AI tables cannot flood the event loop.
    """

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        ratings: RatingsHook | None = None,
        ai_pool: Pool | None = None,
        ai_concurrency: int = 32,
    ) -> None:
        self.store = store
        self.ai_pool = ai_pool
        self._ai_slots = asyncio.Semaphore(max(1, ai_concurrency))
        self.clock: Clock = clock or SystemClock()
        self.ratings: RatingsHook = ratings or NoRatings()
        self._tables: dict[int, LiveTable] = {}
        self._by_location: dict[Location, int] = {}
        self._watchers: list[Subscription] = []
        self._closed = False
        self._owns: Callable[[Location], bool] | None = None

    # == life of the service ==========================================================
    async def start(self, owns: Callable[[Location], bool] | None = None) -> list[int]:
        """Rebuild every unfinished table of the store (those ``owns`` accepts, when given:
        a process serving some shards takes only its guilds) and resume timers and AI
        turns. Returns the ids of the tables loaded.

        Timers and AI turns start only once every table is loaded, and nothing is awaited
        after that: a front end that subscribes to the tables as soon as ``start`` returns
        (before its own first ``await``) misses no event, not even a reminder that fell due
        while the process was down (it fires at once)."""
        self._owns = owns
        loaded: list[int] = []
        resumed: list[LiveTable] = []
        for rec in await self.store.load_unfinished_tables():
            if owns is not None and not owns(rec.table.location):
                continue
            if rec.table.id in self._tables:
                continue
            table = self._from_row(rec.table)
            if table.status == "playing":
                table.replay([e.action for e in rec.actions])
            self._index(table)
            loaded.append(table.id)
            if table.match is not None and table.match.over:
                async with table.lock:
                    events: list[TableEvent] = []
                    await self._finish(table, events)
                    self._publish(table, events)
                continue
            if table.status == "playing" and table.turn_deadline is None:
                async with table.lock:
                    if self._plan_deadline(table):
                        await self._save_row(table, turn_deadline=table.turn_deadline)
            resumed.append(table)
        for table in resumed:
            self._kick(table)
        return loaded

    async def close(self) -> None:
        """Stop every task of the service (the store stays open: its owner closes it).
        Nothing is lost: whatever was accepted is in the store."""
        self._closed = True
        tasks = []
        for table in self._tables.values():
            for task in (table.ai_task, table.timer_task):
                if task is not None:
                    task.cancel()
                    tasks.append(task)
        # return_exceptions: collect what each task ended with (cancelled, or dead of an
        # error already logged) without raising it here.
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tables.clear()
        self._by_location.clear()

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until no table has work in progress: no AI turn running, no action being
        applied, every timer parked on a future deadline. For tests and tools."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            if all(self._quiet(t) for t in list(self._tables.values())):
                await asyncio.sleep(0)
                if all(self._quiet(t) for t in list(self._tables.values())):
                    return
            if loop.time() > end:
                raise TimeoutError("the tables did not settle")
            await asyncio.sleep(0.001)

    @staticmethod
    def _quiet(table: LiveTable) -> bool:
        if table.lock.locked() or table.busy:
            return False
        if table.ai_task is not None and not table.ai_task.done() and not table.ai_parked:
            return False
        timer = table.timer_task
        return timer is None or timer.done() or table.timer_parked

    # == lookups ======================================================================
    def table_ids(self) -> list[int]:
        return sorted(self._tables)

    def holds(self, table_id: int) -> bool:
        """Whether this process holds the open table ``table_id`` (a process serving some
        shards holds only its own: a click for another table is forwarded to its owner)."""
        return table_id in self._tables

    def find(self, location: Location) -> int | None:
        """The id of the open table at ``location``, if this process has one."""
        return self._by_location.get(location)

    def _table(self, table_id: int) -> LiveTable:
        table = self._tables.get(table_id)
        if table is None:
            raise NoSuchTable(f"there is no open table {table_id}")
        return table

    def info(self, table_id: int) -> TableInfo:
        t = self._table(table_id)
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
        table = self._tables.get(table_id)
        return None if table is None else dict(table.meta)

    async def update_meta(self, table_id: int, **changes: Any) -> None:
        """Merge ``changes`` into the table's ``meta`` and store it. Under the table's lock,
        so a concurrent write by the service cannot lose the change; a table this process
        does not hold is updated in the store directly."""
        table = self._tables.get(table_id)
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
                    await self._adopt(table, exc.current)
        raise TableChanged()

    def view(self, table_id: int, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees now (``None``: the public view); the lobby has no view."""
        deal = self._table(table_id).deal
        if deal is None:
            raise NoSuchTable("the match has not started")
        return deal.view(seat)

    def legal(self, table_id: int, seat: int) -> list[Action]:
        """The actions ``seat`` may take now (empty when it is not to act)."""
        t = self._table(table_id)
        deal = t.deal
        if deal is None or seat not in t.to_act:
            return []
        return deal.legal_actions(seat)

    def state(self, table_id: int, seat: int | None) -> TableEvent:
        """The ``state`` event ``seat`` would receive now (for a front end that starts or
        redraws)."""
        t = self._table(table_id)
        if t.match is None:
            return TableEvent(t.id, "lobby", self._lobby_data(t), None, t.version)
        return t.state_event(seat)

    def seat_of(self, table_id: int, user_id: int) -> int | None:
        return seat_of(self._table(table_id).seats, user_id)

    async def record(self, table_id: int) -> dict[str, Any]:
        """The match record (``records.md``): of the live match, or of the recorded one
        once the table is finished."""
        table = self._tables.get(table_id)
        if table is not None and table.match is not None:
            return table.match.record()
        match = await self.store.get_match_for_table(table_id)
        if match is None:
            raise NoSuchTable(f"table {table_id} has no match record")
        deals = await self.store.load_deals(match.id)
        head = dict(match.result.get("record_head", {}))
        return {**head, "deals": [d.record for d in deals]}

    # == subscriptions ================================================================
    def subscribe(self, table_id: int, seat: int | None = None, *,
                  bound: int | None = None) -> Subscription:
        """Events of one table for ``seat`` (``None``: public events only). The current
        ``state`` (or ``lobby``) is queued first, so a new subscriber can draw at once.

        At most ``bound`` events are held (default
        :data:`~bot.service.events.SUBSCRIPTION_BOUND`); a reader that falls further
        behind gets a ``resync`` in place of the dropped events and must re-read the table
        (:meth:`state`, :meth:`info`). See :class:`~bot.service.events.Subscription`."""
        table = self._table(table_id)
        if seat is not None and not 0 <= seat < table.players:
            raise LobbyError(f"there is no seat {seat} at this table")
        sub = Subscription(table_id, seat, self._unsubscribe, bound=bound)
        table.subs.append(sub)
        sub.deliver(self.state(table_id, seat))
        return sub

    def watch(self, *, bound: int | None = None) -> Subscription:
        """Public events of every table (lobby, started, match_over, abandoned, …), for a
        front end that must notice tables it did not open (recovered ones). Bounded like
        :meth:`subscribe`, by default to :data:`~bot.service.events.WATCH_BOUND` events:
        after a ``resync`` (its ``table_id`` is 0) the watcher must re-read every table it
        shows (:meth:`table_ids`, :meth:`info`; a table that is gone was finished or
        abandoned meanwhile)."""
        sub = Subscription(0, None, self._unsubscribe,
                           bound=WATCH_BOUND if bound is None else bound)
        self._watchers.append(sub)
        return sub

    def subscriptions(self, table_id: int) -> list[Subscription]:
        """The open subscriptions of one table (a copy; for tests and diagnostics, e.g. to
        lower one subscription's ``bound``). Empty for a table this process does not
        hold."""
        table = self._tables.get(table_id)
        return [] if table is None else list(table.subs)

    def _unsubscribe(self, sub: Subscription) -> None:
        if sub in self._watchers:
            self._watchers.remove(sub)
        table = self._tables.get(sub.table_id)
        if table is not None and sub in table.subs:
            table.subs.remove(sub)

    def _publish(self, table: LiveTable, events: Sequence[TableEvent]) -> None:
        """Deliver events (already stored) and a fresh ``state`` per subscribed seat."""
        if not events:
            return
        subs = list(table.subs)
        for event in events:
            for sub in subs:
                sub.deliver(event)
            if event.to is None:
                for watcher in self._watchers:
                    watcher.deliver(event)
        if table.match is None or table.status != "playing" or not subs:
            return
        states: dict[int | None, TableEvent] = {}
        for sub in subs:
            if sub.seat not in states:
                states[sub.seat] = table.state_event(sub.seat)
            sub.deliver(states[sub.seat])

    # == lobby ========================================================================
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
        ai_budget_ms: float = 200.0,
        start: bool = False,
    ) -> int:
        """Open a lobby at ``location`` and return the table id.

        Options and the player count are checked now (a bad one raises LobbyError). The
        turn timeout and AI pace default to the guild's settings (terminal: 120 s, 1.5 s).
        ``seats`` may fill seats at once; ``start=True`` starts the match straight away
        (all seats must then be filled).
        """
        info = GAMES.get(game)
        if info is None:
            raise LobbyError(f"unknown game {game!r} (one of {', '.join(sorted(GAMES))})")
        if location in self._by_location:
            raise LobbyError("there is already an open table here")
        if self._owns is not None and not self._owns(location):
            raise LobbyError("this place is served by another bot process")
        if standin not in LEVELS:
            raise LobbyError(f"unknown AI level {standin!r} (one of {', '.join(LEVELS)})")
        seed_text = str(seed) if seed is not None else secrets.token_hex(8)
        try:
            match = info.match_type(dict(options or {}), players, first_dealer, seed=seed_text)
        except Exception as exc:  # RecordError, OptionError: the engine says why
            raise LobbyError(str(exc)) from None
        count = match.players
        seat_list: list[Seat | None] = list(seats) if seats is not None else [None] * count
        if len(seat_list) != count:
            raise LobbyError(f"{info.title} is played by {count} here, not {len(seat_list)}")
        self._check_unique(seat_list)
        if isinstance(location, ChannelLocation):
            gs = await self.store.get_guild_settings(location.guild_id)
            timeout_default, pace_default = float(gs.turn_timeout), gs.ai_pace
            ai_rated = gs.ai_matches_rated
        else:
            timeout_default, pace_default, ai_rated = 120.0, 1.5, False
        settings = TableSettings(
            seed=seed_text, first_dealer=first_dealer,
            turn_timeout=float(timeout_default if turn_timeout is None else turn_timeout),
            ai_pace=float(pace_default if ai_pace is None else ai_pace),
            standin=standin, ai_budget_ms=ai_budget_ms, rated=ai_rated,
        )
        opts = match.options.to_json()
        lobby_deadline = self.clock.now() + LOBBY_IDLE
        try:
            row = await self.store.create_table(
                location, game, options=opts, seats=[None if s is None else s.to_json()
                                                     for s in seat_list],
                status="lobby", meta=settings.to_json(), lobby_deadline=lobby_deadline,
            )
        except LocationBusy as exc:
            raise LobbyError(f"there is already an open table here (table {exc.table_id})"
                             ) from None
        table = self._from_row(row)
        self._index(table)
        self._publish(table, [TableEvent(table.id, "lobby", self._lobby_data(table))])
        self._kick(table)
        await self._remember_names(seat_list)
        if start:
            await self.start_match(table.id)
        return table.id

    @staticmethod
    def _check_unique(seats: Sequence[Seat | None]) -> None:
        users = [s.user_id for s in seats if s is not None and s.user_id is not None]
        if len(users) != len(set(users)):
            raise LobbyError("a player can take only one seat")

    def _lobby_data(self, table: LiveTable) -> dict[str, Any]:
        return {
            "status": table.status,
            "game": table.game,
            "players": table.players,
            "seats": table.seats_json(),
            "teams": table.teams(),
            "lobby_deadline": None if table.lobby_deadline is None
            else table.lobby_deadline.isoformat(),
        }

    async def _edit_lobby(self, table_id: int, edit: Callable[[LiveTable], None]) -> None:
        table = self._table(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError("the match has already started")
            before = list(table.seats)
            edit(table)
            self._check_unique(table.seats)
            deadline = self.clock.now() + LOBBY_IDLE
            try:
                await self._write_row(table, seats=table.seats_json(),
                                      lobby_deadline=deadline)
            except TableChanged:
                raise  # the table now holds the stored seats
            except Exception:
                table.seats = before
                raise
            table.lobby_deadline = deadline
            self._publish(table, [TableEvent(table.id, "lobby", self._lobby_data(table))])
        self._kick(table)

    @staticmethod
    def _free_seat(table: LiveTable, seat: int | None) -> int:
        if seat is None:
            for i, s in enumerate(table.seats):
                if s is None:
                    return i
            raise LobbyError("every seat is taken")
        if not 0 <= seat < table.players:
            raise LobbyError(f"there is no seat {seat} at this table (0-{table.players - 1})")
        if table.seats[seat] is not None:
            raise LobbyError(f"seat {seat} is taken")
        return seat

    async def join(self, table_id: int, user_id: int, name: str,
                   seat: int | None = None) -> int:
        """Seat a human (at ``seat`` or the first free one); returns the seat."""
        chosen: list[int] = []

        def edit(t: LiveTable) -> None:
            if seat_of(t.seats, user_id) is not None:
                raise LobbyError("you already have a seat at this table")
            i = self._free_seat(t, seat)
            t.seats[i] = Seat.human(user_id, name)
            chosen.append(i)

        await self._edit_lobby(table_id, edit)
        await self._remember_names([Seat.human(user_id, name)])
        return chosen[0]

    async def _remember_names(self, seats: Sequence[Seat | None]) -> None:
        """Write the display names of the human seats to ``players`` (leaderboards,
        ``/stats`` and ``/history`` read them there); a failure is logged, never raised: the
        seat or the match it follows is already saved."""
        for s in seats:
            if s is None or s.is_ai or s.user_id is None:
                continue
            try:
                await self.store.upsert_player(s.user_id, s.name)
            except Exception:
                log.exception("could not save the display name of user %s", s.user_id)

    async def add_ai(self, table_id: int, level: str = "rules", seat: int | None = None) -> int:
        """Seat an AI player of ``level``; returns the seat."""
        chosen: list[int] = []

        def edit(t: LiveTable) -> None:
            try:
                player = Seat.ai(level)
            except ValueError as exc:
                raise LobbyError(str(exc)) from None
            i = self._free_seat(t, seat)
            t.seats[i] = player
            chosen.append(i)

        await self._edit_lobby(table_id, edit)
        return chosen[0]

    async def leave(self, table_id: int, user_id: int) -> None:
        """A human leaves the lobby (during play, a seat is never emptied: see
        :meth:`set_away`)."""

        def edit(t: LiveTable) -> None:
            i = seat_of(t.seats, user_id)
            if i is None:
                raise LobbyError("you have no seat at this table")
            t.seats[i] = None

        await self._edit_lobby(table_id, edit)

    async def clear_seat(self, table_id: int, seat: int) -> None:
        """Empty a seat of the lobby (an AI, or a human removed by the host)."""

        def edit(t: LiveTable) -> None:
            if not 0 <= seat < t.players or t.seats[seat] is None:
                raise LobbyError(f"seat {seat} is empty")
            t.seats[seat] = None

        await self._edit_lobby(table_id, edit)

    async def set_options(self, table_id: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Replace a lobby's rule options (checked by the engine as at ``create_table``: a
        bad value raises LobbyError with the engine's reason and changes nothing); returns
        the options in force."""
        table = self._table(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError("the match has already started")
            try:
                match = table.info.match_type(dict(options), table.players,
                                              table.settings.first_dealer, seed="check")
            except Exception as exc:  # OptionError: the engine says why
                raise LobbyError(str(exc)) from None
            opts = match.options.to_json()
            await self._write_row(table, options=opts)
            table.options, table._teams = opts, None
            self._publish(table, [TableEvent(table.id, "lobby", self._lobby_data(table))])
        return dict(opts)

    async def arrange(self, table_id: int, order: Sequence[int]) -> None:
        """Rearrange the lobby: new seat ``i`` gets whoever sat at ``order[i]`` (so
        ``arrange(t, [0, 2, 1, 3])`` swaps seats 1 and 2, changing the partnerships)."""

        def edit(t: LiveTable) -> None:
            if sorted(order) != list(range(t.players)):
                raise LobbyError(f"an arrangement lists every seat 0-{t.players - 1} once")
            t.seats = [t.seats[i] for i in order]

        await self._edit_lobby(table_id, edit)

    async def start_match(self, table_id: int) -> None:
        """Start the match (every seat must be taken): lobby → playing."""
        table = self._table(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError("the match has already started")
            empty = [i for i, s in enumerate(table.seats) if s is None]
            if empty:
                raise LobbyError(f"seats {', '.join(map(str, empty))} are still empty")
            table.status = "playing"
            events = [TableEvent(table.id, "started", {
                "seats": table.seats_json(), "players": table.players,
                "teams": table.teams(), "options": table.options,
            })]
            events.extend(table.begin())
            table.lobby_deadline = None
            self._plan_deadline(table)
            table.meta = {**table.meta, "started_at": self.clock.now().isoformat()}
            try:
                await self._write_row(
                    table, status="playing", seats=table.seats_json(), meta=table.meta,
                    lobby_deadline=None, turn_deadline=table.turn_deadline,
                )
            except TableChanged:
                raise  # the table now is what the store holds
            except Exception:
                table.status, table.match, table.version = "lobby", None, 0
                raise
            events.append(self._turn_event(table))
            self._publish(table, events)
        self._kick(table)

    async def abandon(self, table_id: int, reason: str = "the table was closed") -> None:
        """Close the table without a result (lobby or playing)."""
        table = self._table(table_id)
        async with table.lock:
            await self._abandon(table, reason)

    async def _abandon(self, table: LiveTable, reason: str) -> None:
        await self._write_row(table, status="abandoned", turn_deadline=None,
                              lobby_deadline=None)
        table.status = "abandoned"
        self._publish(table, [TableEvent(table.id, "abandoned", {"reason": reason}, None,
                                         table.version)])
        self._unload(table)

    # == play =========================================================================
    async def act(self, table_id: int, user_id: int, action: Action | Mapping[str, Any],
                  version: int) -> None:
        """Play ``action`` for the seat of ``user_id``, chosen at table ``version``.

        ``action`` is an :class:`Action` or its JSON form (``{"type": "play", "card":
        "AS"}``). Raises StaleAction when the choice is no longer current, Rejected with
        the rule's reason when the action is not allowed, SaveFailed when the store
        failed (nothing changed). A player who was ``away`` is back by acting.
        """
        table = self._table(table_id)
        seat = seat_of(table.seats, user_id)
        if seat is None:
            raise Rejected("you have no seat at this table")
        if not isinstance(action, Action):
            try:
                _, action = action_from_json({**action, "seat": seat}, "action")
            except Exception as exc:
                raise Rejected(str(exc)) from None
        await self._submit(table, seat, action, version, "human")

    async def rejoin(self, table_id: int, user_id: int) -> None:
        """A player whose seat an AI took over is back (their next turns are theirs)."""
        table = self._table(table_id)
        async with table.lock:
            seat = seat_of(table.seats, user_id)
            if seat is None:
                raise Rejected("you have no seat at this table")
            old = table.seats[seat]
            assert old is not None
            if not old.away and not old.timeouts:
                return
            table.seats[seat] = old.returned()
            events = [TableEvent(table.id, "returned", {"seat": seat}, None, table.version)]
            changes: dict[str, Any] = {"seats": table.seats_json()}
            if self._plan_deadline(table):
                changes["turn_deadline"] = table.turn_deadline
            await self._save_row(table, **changes)
            self._publish(table, events)
        self._kick(table)

    async def set_away(self, table_id: int, seat: int) -> None:
        """Hand a human's seat to the stand-in AI until the player returns."""
        table = self._table(table_id)
        if not 0 <= seat < table.players:
            raise Rejected(f"there is no seat {seat} at this table")
        async with table.lock:
            old = table.seats[seat]
            if old is None or old.is_ai or old.away:
                return
            table.seats[seat] = replace(old, away=True)
            self._plan_deadline(table)
            await self._save_row(table, seats=table.seats_json(),
                                 turn_deadline=table.turn_deadline)
            self._publish(table, [TableEvent(table.id, "away", {"seat": seat}, None,
                                             table.version)])
        self._kick(table)

    async def _submit(self, table: LiveTable, seat: int, action: Action, version: int,
                      by: By) -> None:
        async with table.lock:
            if table.status != "playing" or table.match is None:
                raise Rejected("the match is not in progress")
            if not table.is_current(seat, version):
                raise StaleAction()
            entry = table.log_entry(seat, action, by)
            try:
                events = table.advance(seat, action)
            except IllegalAction as exc:
                raise Rejected(str(exc)) from None
            try:
                await self.store.append_action(table.id, table.version, entry)
            except Exception as exc:
                await self._reload(table)
                raise SaveFailed("the action could not be saved; please try again") from exc
            changes: dict[str, Any] = {}
            old = table.seats[seat]
            assert old is not None
            new = old
            if by == "human" and (old.away or old.timeouts):
                new = old.returned()
                if old.away:
                    events.append(TableEvent(table.id, "returned", {"seat": seat}, None,
                                             table.version))
            elif by == "timeout":
                new = old.with_timeout()
                events.append(TableEvent(table.id, "timeout", {"seat": seat}, None,
                                         table.version))
                if new.away and not old.away:
                    events.append(TableEvent(table.id, "away", {"seat": seat}, None,
                                             table.version))
            if new != old:
                table.seats[seat] = new
                changes["seats"] = table.seats_json()
            if table.match.over:
                await self._finish(table, events)
            else:
                if self._plan_deadline(table):
                    changes["turn_deadline"] = table.turn_deadline
                if changes:
                    await self._save_row(table, **changes)
                events.append(self._turn_event(table))
            self._publish(table, events)
        self._kick(table)

    async def _save_row(self, table: LiveTable, **changes: Any) -> None:
        """Update the table row; a failure is logged, not raised (the action is stored;
        a lost deadline or timeout count is recomputed on recovery)."""
        try:
            await write_row(self.store, table, **changes)
        except StaleTable as exc:
            await self._adopt(table, exc.current)
        except Exception:
            log.exception("table %s: could not update the table row", table.id)

    async def _write_row(self, table: LiveTable, **changes: Any) -> None:
        """Compare-and-set the table row; when another writer changed it meanwhile, adopt
        the stored table and raise TableChanged (nothing of this change was written)."""
        try:
            await write_row(self.store, table, **changes)
        except StaleTable as exc:
            await self._adopt(table, exc.current)
            raise TableChanged() from None

    async def _adopt(self, table: LiveTable, row: Table) -> None:
        """Another writer (another process holding this table) changed its row: take the
        store's table as the truth, tell the front ends, and resume its timers and AI."""
        log.warning("table %s: its row was changed by another writer; reloading it",
                    table.id)
        if row.status not in ("lobby", "playing"):
            table.status = row.status
            self._publish(table, [TableEvent(table.id, "abandoned", {
                "reason": "the table was closed by another bot process"}, None,
                table.version)])
            self._unload(table)
            return
        entries = (await self.store.load_actions(table.id) if row.status == "playing"
                   else None)
        refresh(table, row, None if entries is None else [e.action for e in entries])
        if table.match is None:
            self._publish(table, [TableEvent(table.id, "lobby", self._lobby_data(table))])
        else:
            self._publish(table, [self._turn_event(table)])
        asyncio.get_running_loop().call_soon(self._kick, table)

    async def _reload(self, table: LiveTable) -> None:
        """Rebuild a table's match from its stored log (after a failed append)."""
        try:
            entries = await self.store.load_actions(table.id)
            table.replay([e.action for e in entries])
        except Exception:
            log.exception("table %s: could not reload; unloading it", table.id)
            self._unload(table)

    def _turn_event(self, table: LiveTable) -> TableEvent:
        deadline = table.turn_deadline
        return TableEvent(table.id, "turn", {
            "to_act": list(table.to_act), "version": table.version,
            "deadline": None if deadline is None else deadline.isoformat(),
        }, None, table.version)

    async def _finish(self, table: LiveTable, events: list[TableEvent]) -> None:
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
        guild_id = table.location.guild_id if isinstance(table.location,
                                                         ChannelLocation) else None
        has_ai = any(s is not None and s.is_ai for s in table.seats)
        rated = guild_id is not None and (not has_ai or table.settings.rated)
        head = {k: v for k, v in record.items() if k != "deals"}
        started = table.meta.get("started_at")
        result = {"summary": summary, "seats": table.seats_json(), "teams": teams,
                  "record_head": head}
        stored = await self.store.record_match(MatchRecord(
            table_id=table.id, game=table.game, guild_id=guild_id,
            finished_at=self.clock.now(), result=result, participants=tuple(participants),
            deals=tuple(DealRecord(i, d) for i, d in enumerate(record["deals"])),
            rated=rated,
            started_at=None if started is None else dt.datetime.fromisoformat(started),
        ))
        await self._remember_names(table.seats)
        recorded = await self.store.get_match_for_table(table.id)
        assert recorded is not None
        try:
            await self.ratings.match_finished(FinishedMatch(
                table_id=table.id, match_id=recorded.id, game=table.game,
                location=table.location, guild_id=guild_id, rated=rated,
                participants=tuple(participants), summary=summary,
            ))
        except Exception:
            log.exception("table %s: the ratings hook failed", table.id)
        table.meta = {**table.meta, "match_id": recorded.id}
        await write_row(self.store, table, cas=False, status="finished", turn_deadline=None,
                        meta=table.meta)
        table.status = "finished"
        table.turn_deadline = None
        if not stored:
            log.info("table %s: match was already recorded (recovery)", table.id)
        events.append(TableEvent(table.id, "match_over", {
            "summary": summary, "match_id": recorded.id,
        }, None, table.version))
        self._unload_later(table)

    def _unload_later(self, table: LiveTable) -> None:
        """Forget a closed table once the current publish is done."""
        asyncio.get_running_loop().call_soon(self._unload, table)

    def _unload(self, table: LiveTable) -> None:
        self._tables.pop(table.id, None)
        if self._by_location.get(table.location) == table.id:
            del self._by_location[table.location]
        current = asyncio.current_task()
        for task in (table.ai_task, table.timer_task):
            if task is not None and task is not current and not task.done():
                task.cancel()
        for sub in list(table.subs):
            sub.close()

    # == AI turns =====================================================================
    def _kick(self, table: LiveTable) -> None:
        """Start what the table's state needs: the AI task when an automatic seat is to
        act, the timer task when a deadline is set."""
        if self._closed or table.id not in self._tables:
            return
        if (table.ai_task is None or table.ai_task.done()) and self._auto_seats(table):
            table.ai_task = asyncio.create_task(self._run_ai(table),
                                                name=f"table-{table.id}-ai")
        self._restart_timer(table)

    @staticmethod
    def _auto_seats(table: LiveTable) -> list[int]:
        out = []
        for s in table.to_act:
            seat = table.seats[s]
            if seat is not None and seat.auto:
                out.append(s)
        return out

    async def _run_ai(self, table: LiveTable) -> None:
        failures = 0
        while table.status == "playing" and not self._closed:
            seats = self._auto_seats(table)
            if not seats:
                return
            seat, version = seats[0], table.version
            table.ai_parked = True
            try:
                await self.clock.sleep(table.settings.ai_pace)
            finally:
                table.ai_parked = False
            if table.version != version or table.status != "playing":
                continue
            if seat not in self._auto_seats(table):
                continue
            try:
                async with self._ai_slots:
                    if table.version != version or table.status != "playing":
                        continue
                    action = await self._choose(table, seat, table.settings.standin)
                    await self._submit(table, seat, action, version, "ai")
                failures = 0
            except StaleAction:
                continue
            except (SaveFailed, Rejected) as exc:
                failures += 1
                log.warning("table %s: AI turn failed (%s)", table.id, exc)
                if failures >= 5:
                    log.error("table %s: AI turns keep failing; pausing them", table.id)
                    return
                await self.clock.sleep(min(30.0, 0.5 * 2 ** failures))

    async def _choose(self, table: LiveTable, seat: int, standin: str) -> Action:
        deal = table.deal
        assert deal is not None
        s = table.seats[seat]
        level = s.level if s is not None and s.level is not None else standin
        return await choose_action(
            table.game, level, deal.view(seat), deal.legal_actions(seat),
            seed=decision_seed(table.settings.seed, seat, table.version),
            options=table.options, budget_ms=table.settings.ai_budget_ms, pool=self.ai_pool,
        )

    # == timers =======================================================================
    def _waiting_humans(self, table: LiveTable) -> list[int]:
        out = []
        for s in table.to_act:
            seat = table.seats[s]
            if seat is not None and not seat.auto:
                out.append(s)
        return out

    def _plan_deadline(self, table: LiveTable) -> bool:
        """Set the turn deadline for the state reached; True when it changed.

        A deadline runs while a human (not away) is to act. It restarts when such a
        seat's turn starts now, and otherwise keeps running (in Truf's secret bids, one
        player's bid does not give the others more time)."""
        old = table.turn_deadline
        waiting = self._waiting_humans(table)
        timeout = table.settings.turn_timeout
        if not waiting or timeout <= 0:
            new = None
        elif old is None or any(table.turn_start.get(s) == table.version for s in waiting):
            new = self.clock.now() + dt.timedelta(seconds=timeout)
        else:
            new = old
        if new != old:
            table.turn_deadline = new
            table.reminded = False
            return True
        return False

    def _restart_timer(self, table: LiveTable) -> None:
        current = asyncio.current_task()
        task = table.timer_task
        if task is not None and not task.done():
            if task is current or not table.timer_parked:
                return  # a running timer task re-reads the deadlines when it loops
            task.cancel()
        table.timer_task = None
        table.timer_parked = False
        if self._next_timer(table) is not None:
            table.timer_task = asyncio.create_task(self._run_timers(table),
                                                   name=f"table-{table.id}-timers")

    def _next_timer(self, table: LiveTable) -> tuple[dt.datetime, str] | None:
        if table.status == "lobby" and table.lobby_deadline is not None:
            return table.lobby_deadline, "lobby"
        if table.status == "playing" and table.turn_deadline is not None:
            deadline = table.turn_deadline
            if not table.reminded:
                half = dt.timedelta(seconds=table.settings.turn_timeout / 2)
                return deadline - half, "reminder"
            return deadline, "turn"
        return None

    async def _run_timers(self, table: LiveTable) -> None:
        while table.id in self._tables and not self._closed:
            due = self._next_timer(table)
            if due is None:
                return
            when, kind = due
            if when > self.clock.now():
                table.timer_parked = True
                try:
                    await self.clock.sleep_until(when)
                finally:
                    table.timer_parked = False
                continue
            if kind == "lobby":
                async with table.lock:
                    if table.status == "lobby" and table.lobby_deadline == when:
                        try:
                            await self._abandon(table,
                                                "the lobby expired after 30 idle minutes")
                        except TableChanged:
                            continue  # another writer touched it: its deadline holds
                return
            if kind == "reminder":
                table.reminded = True
                events = [TableEvent(table.id, "reminder", {
                    "seat": s, "deadline": table.turn_deadline.isoformat()
                    if table.turn_deadline else None,
                }, frozenset({s}), table.version) for s in self._waiting_humans(table)]
                self._publish(table, events)
                continue
            await self._expire(table, when)

    async def _expire(self, table: LiveTable, deadline: dt.datetime) -> None:
        """The turn time ran out: the stand-in AI plays for every late human."""
        table.busy += 1
        try:
            acted = False
            for seat in self._waiting_humans(table):
                if table.turn_deadline != deadline or seat not in table.to_act:
                    continue
                version = table.version
                try:
                    action = await self._choose(table, seat, table.settings.standin)
                    await self._submit(table, seat, action, version, "timeout")
                    acted = True
                except (StaleAction, Rejected, SaveFailed) as exc:
                    log.info("table %s: timeout play for seat %s skipped (%s)",
                             table.id, seat, exc)
            if not acted and table.turn_deadline == deadline and table.id in self._tables:
                # Nothing could be played: give the players another period.
                table.turn_deadline = self.clock.now() + dt.timedelta(
                    seconds=max(1.0, table.settings.turn_timeout))
                table.reminded = False
        finally:
            table.busy -= 1

    # == rows =========================================================================
    def _from_row(self, row: Table) -> LiveTable:
        return LiveTable(
            id=row.id, location=row.location, game=row.game, options=dict(row.options),
            players=len(row.seats), seats=seats_from_json(row.seats), status=row.status,
            settings=TableSettings.from_json(row.meta), meta=dict(row.meta),
            turn_deadline=row.turn_deadline, lobby_deadline=row.lobby_deadline,
            row_version=row.row_version, reminded=False,
        )

    def _index(self, table: LiveTable) -> None:
        self._tables[table.id] = table
        self._by_location[table.location] = table.id
