"""Lobby operations of the table service: open, seat, leave, arrange, options, start, abandon.

Every change runs under the table's lock and writes the table row by compare-and-set
(:meth:`~bot.service.rowsync.RowSync.write`): when another writer changed the row meanwhile
nothing is written, the table holds the stored row and the caller gets
:class:`~bot.service.errors.TableChanged`. Bad requests raise
:class:`~bot.service.errors.LobbyError` with a sentence and change nothing. Each change
publishes a ``lobby`` event and restarts the lobby's 30-minute idle deadline.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.i18n import N_
from bot.service.context import TableContext
from bot.service.deadlines import plan_deadline
from bot.service.errors import CLOSED, NO_SEAT, LobbyError, TableChanged
from bot.service.events import AbandonedData, StartedData, TableEvent
from bot.service.live import LOBBY_IDLE, LiveTable, TableSettings
from bot.service.results import MatchResults
from bot.service.rowsync import RowSync
from bot.service.seats import Seat, seat_of
from bot.setting_ranges import in_force
from games.ai import LEVELS
from games.registry import GAMES
from storage import ChannelLocation, LocationBusy
from storage.models import Location

log = logging.getLogger(__name__)


class Lobby:
    """The lobby half of the table service (no state of its own: tables live in the
    context's :class:`~bot.service.registry.TableRegistry`). Rows are written through
    ``rows``, players' names kept through ``results``; ``ai_budget_ms`` is the thinking time
    of ``search`` players at tables opened without one."""

    def __init__(self, ctx: TableContext, rows: RowSync, results: MatchResults, *,
                 ai_budget_ms: float) -> None:
        self._ctx = ctx
        self._rows = rows
        self._results = results
        self._ai_budget_ms = ai_budget_ms

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
        """Open a lobby at ``location`` and return the table id.

        Options and the player count are checked now (a bad one raises LobbyError). The
        turn timeout and AI pace default to the guild's settings (terminal: 120 s, 1.5 s).
        ``seats`` may fill seats at once; ``start=True`` starts the match straight away
        (all seats must then be filled). ``ai_budget_ms`` (the thinking time of its
        ``search`` players) defaults to the service's.
        """
        info = GAMES.get(game)
        if info is None:
            # Translators: {games} lists the games' names to type, e.g. "arbaa_turub, truf".
            raise LobbyError(N_("unknown game {game} (one of {games})"), game=repr(game),
                             games=", ".join(sorted(GAMES)))
        if location in self._ctx.registry.by_location:
            raise LobbyError(N_("there is already an open table here"))
        if self._ctx.registry.owns is not None and not self._ctx.registry.owns(location):
            raise LobbyError(N_("this place is served by another bot process"))
        if standin not in LEVELS:
            # Translators: {levels} lists the AI levels as typed: "random, rules, search".
            raise LobbyError(N_("unknown AI level {level} (one of {levels})"),
                             level=repr(standin), levels=", ".join(LEVELS))
        seed_text = str(seed) if seed is not None else secrets.token_hex(8)
        try:
            match = info.match_type(dict(options or {}), players, first_dealer, seed=seed_text)
        except Exception as exc:  # RecordError, OptionError: the engine says why
            raise LobbyError.engine(exc) from None
        count = match.players
        seat_list: list[Seat | None] = list(seats) if seats is not None else [None] * count
        if len(seat_list) != count:
            # Translators: {count} is the number of players the table needs, {given} the number
            # given.
            raise LobbyError(N_("{game} is played by {count} here, not {given}"),
                             game=info.title, count=count, given=len(seat_list))
        self.check_unique(seat_list)
        if isinstance(location, ChannelLocation):
            gs = in_force(await self._ctx.store.get_guild_settings(location.guild_id))
            timeout_default, pace_default = float(gs.turn_timeout), gs.ai_pace
            ai_rated = gs.ai_matches_rated
        else:
            timeout_default, pace_default, ai_rated = 120.0, 1.5, False
        settings = TableSettings(
            seed=seed_text, first_dealer=first_dealer,
            turn_timeout=float(timeout_default if turn_timeout is None else turn_timeout),
            ai_pace=float(pace_default if ai_pace is None else ai_pace),
            standin=standin,
            ai_budget_ms=self._ai_budget_ms if ai_budget_ms is None else ai_budget_ms,
            rated=ai_rated,
        )
        opts = match.options.to_json()
        lobby_deadline = self._ctx.clock.now() + LOBBY_IDLE
        try:
            row = await self._ctx.store.create_table(
                location, game, options=opts, seats=[None if s is None else s.to_json()
                                                     for s in seat_list],
                status="lobby", meta=settings.to_json(), lobby_deadline=lobby_deadline,
            )
        except LocationBusy as exc:
            raise LobbyError(N_("there is already an open table here (table {table})"),
                             table=exc.table_id) from None
        table = self._ctx.registry.from_row(row)
        self._ctx.registry.index(table)
        self._ctx.registry.publish_lobby(table)
        self._ctx.kick(table)
        await self._results.remember_names(seat_list)
        if start:
            await self.start_match(table.id)
        return table.id

    @staticmethod
    def check_unique(seats: Sequence[Seat | None]) -> None:
        """A user takes at most one seat (LobbyError otherwise)."""
        users = [s.user_id for s in seats if s is not None and s.user_id is not None]
        if len(users) != len(set(users)):
            raise LobbyError(N_("a player can take only one seat"))

    async def _edit_lobby(self, table_id: int, edit: Callable[[LiveTable], None]) -> None:
        """Apply ``edit`` to the seats under the lock, compare-and-set the row, publish."""
        table = self._ctx.registry.get(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError(N_("the match has already started"))
            before = list(table.seats)
            edit(table)
            self.check_unique(table.seats)
            deadline = self._ctx.clock.now() + LOBBY_IDLE
            try:
                await self._rows.write(table, seats=table.seats_json(),
                                       lobby_deadline=deadline)
            except TableChanged:
                raise  # the table now holds the stored seats
            except Exception:
                table.seats = before
                raise
            table.lobby_deadline = deadline
            self._ctx.registry.publish_lobby(table)
        self._ctx.kick(table)

    @staticmethod
    def _free_seat(table: LiveTable, seat: int | None) -> int:
        """``seat`` if it is free, or the first free seat when ``None`` (else LobbyError)."""
        if seat is None:
            for i, s in enumerate(table.seats):
                if s is None:
                    return i
            raise LobbyError(N_("every seat is taken"))
        if not 0 <= seat < table.players:
            # Translators: {last} is the number of the table's last seat (seats count from 0).
            raise LobbyError(N_("there is no seat {seat} at this table (0-{last})"), seat=seat,
                             last=table.players - 1)
        if table.seats[seat] is not None:
            raise LobbyError(N_("seat {seat} is taken"), seat=seat)
        return seat

    async def join(self, table_id: int, user_id: int, name: str,
                   seat: int | None = None) -> int:
        """Seat a human (at ``seat`` or the first free one); returns the seat."""
        chosen: list[int] = []

        def edit(t: LiveTable) -> None:
            if seat_of(t.seats, user_id) is not None:
                raise LobbyError(N_("you already have a seat at this table"))
            i = self._free_seat(t, seat)
            t.seats[i] = Seat.human(user_id, name)
            chosen.append(i)

        await self._edit_lobby(table_id, edit)
        await self._results.remember_names([Seat.human(user_id, name)])
        return chosen[0]

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
        ``set_away``)."""

        def edit(t: LiveTable) -> None:
            i = seat_of(t.seats, user_id)
            if i is None:
                raise LobbyError(NO_SEAT)
            t.seats[i] = None

        await self._edit_lobby(table_id, edit)

    async def clear_seat(self, table_id: int, seat: int) -> None:
        """Empty a seat of the lobby (an AI, or a human removed by the host)."""

        def edit(t: LiveTable) -> None:
            if not 0 <= seat < t.players or t.seats[seat] is None:
                raise LobbyError(N_("seat {seat} is empty"), seat=seat)
            t.seats[seat] = None

        await self._edit_lobby(table_id, edit)

    async def set_options(self, table_id: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Replace a lobby's rule options (checked by the engine as at ``create_table``: a
        bad value raises LobbyError with the engine's reason and changes nothing); returns
        the options in force."""
        table = self._ctx.registry.get(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError(N_("the match has already started"))
            try:
                match = table.info.match_type(dict(options), table.players,
                                              table.settings.first_dealer, seed="check")
            except Exception as exc:  # OptionError: the engine says why
                raise LobbyError.engine(exc) from None
            opts = match.options.to_json()
            await self._rows.write(table, options=opts)
            table.options, table._teams = opts, None
            self._ctx.registry.publish_lobby(table)
        return dict(opts)

    async def arrange(self, table_id: int, order: Sequence[int]) -> None:
        """Rearrange the lobby: new seat ``i`` gets whoever sat at ``order[i]`` (so
        ``arrange(t, [0, 2, 1, 3])`` swaps seats 1 and 2, changing the partnerships)."""

        def edit(t: LiveTable) -> None:
            if sorted(order) != list(range(t.players)):
                # Translators: {last} is the number of the table's last seat (seats count from
                # 0).
                raise LobbyError(N_("an arrangement lists every seat 0-{last} once"),
                                 last=t.players - 1)
            t.seats = [t.seats[i] for i in order]

        await self._edit_lobby(table_id, edit)

    async def start_match(self, table_id: int) -> None:
        """Start the match (every seat must be taken): lobby → playing."""
        table = self._ctx.registry.get(table_id)
        async with table.lock:
            if table.status != "lobby":
                raise LobbyError(N_("the match has already started"))
            empty = [i for i, s in enumerate(table.seats) if s is None]
            if empty:
                raise LobbyError(N_("seats {seats} are still empty"),
                                 seats=", ".join(map(str, empty)))
            table.status = "playing"
            started: StartedData = {
                "seats": table.seats_json(), "players": table.players,
                "teams": table.teams(), "options": table.options,
            }
            events = [TableEvent(table.id, "started", started)]
            events.extend(table.begin())
            table.lobby_deadline = None
            plan_deadline(table, self._ctx.clock)
            table.meta = {**table.meta, "started_at": self._ctx.clock.now().isoformat()}
            try:
                await self._rows.write(
                    table, status="playing", seats=table.seats_json(), meta=table.meta,
                    lobby_deadline=None, turn_deadline=table.turn_deadline,
                )
            except TableChanged:
                raise  # the table now is what the store holds
            except Exception:
                table.status, table.match, table.version = "lobby", None, 0
                raise
            events.append(self._ctx.registry.turn_event(table))
            self._ctx.registry.publish(table, events)
        self._ctx.kick(table)

    async def abandon(self, table_id: int, reason: str = CLOSED, *,
                      by: str | None = None) -> None:
        """Close the table without a result (lobby or playing). ``reason`` is an English
        message id marked with ``N_`` (front ends translate it); ``by``: who closed it,
        the ``{player}`` of a reason that names them (``CLOSED_BY``). Both travel in the
        ``abandoned`` event's data."""
        table = self._ctx.registry.get(table_id)
        async with table.lock:
            await self.abandon_locked(table, reason, by=by)

    async def abandon_locked(self, table: LiveTable, reason: str, *,
                             by: str | None = None) -> None:
        """:meth:`abandon` under the table's lock (a lobby's expiry holds it already)."""
        await self._rows.write(table, status="abandoned", turn_deadline=None,
                               lobby_deadline=None)
        table.status = "abandoned"
        data: AbandonedData = {"reason": reason}
        if by is not None:
            data["by"] = by
        self._ctx.registry.publish(table, [TableEvent(
            table.id, "abandoned", data, None, table.version)])
        self._ctx.registry.unload(table)
