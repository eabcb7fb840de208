"""Duplicate events: their boards, entrants, plays, the AI's reference plays and what the
close has posted (migration 8), and the meeting invitations pending between pairs (migration
11). The rules (windows, who may enter, scoring) live above the
store (``bot/duplicate``); the store keeps the promises that need the database:

* a board is played once by an entrant: ``(entrant, board)`` is the plays' primary key,
  and :meth:`DuplicateMixin.start_duplicate_play` refuses a second start;
* two entrants meeting at one table start the board together or not at all
  (:meth:`DuplicateMixin.start_duplicate_meeting`), from the board's two directions;
* directions are assigned under the event row's lock, so two entrants starting one board
  at once see each other's direction (the least-played direction is taken);
* a member belongs to at most one entrant of an event (``(event, user)`` primary key);
* the AI's reference play of a board and direction is stored once (first writer wins);
* each piece the close posts is claimed once (:meth:`DuplicateMixin.claim_duplicate_post`);
* an entrant has at most one pending meeting invitation per event (a new one replaces it),
  kept until it is taken or either entrant is removed: a restart keeps it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage import codec
from storage.core import StoreCore
from storage.driver import Row
from storage.errors import ConstraintViolation, NotFound, StorageError
from storage.models import JsonObject

EVENT_STATUSES = ("open", "closed")
PLAY_STATUSES = ("playing", "finished")


class AlreadyPlayed(StorageError):
    """The entrant (``entrant_id``) has already started (or finished) this board."""

    def __init__(self, message: str, entrant_id: int | None = None) -> None:
        self.entrant_id = entrant_id
        super().__init__(message)


class AlreadyEntered(StorageError):
    """A member is already in an entrant of this event."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        super().__init__(f"user {user_id} is already entered")


@dataclass(frozen=True)
class DuplicateEvent:
    id: int
    guild_id: int
    channel_id: int
    name: str
    game: str
    options: JsonObject
    players: int
    boards: int
    format: str
    scoring: str
    opens_at: dt.datetime
    closes_at: dt.datetime
    time_zone: str
    leaderboard: bool
    league_id: int | None
    status: str
    created_by: int
    created_at: dt.datetime
    updated_at: dt.datetime


@dataclass(frozen=True)
class DuplicateBoard:
    event_id: int
    number: int
    seed: str
    dealer: int


@dataclass(frozen=True)
class DuplicateEntrant:
    """An entrant: one member (individual or a pair against AI opponents) or a pair;
    ``members`` in entry order, ``confirmed`` the members who confirmed (the one who
    entered confirms by entering)."""

    id: int
    event_id: int
    name: str
    members: tuple[int, ...]
    confirmed: tuple[int, ...]
    created_at: dt.datetime

    @property
    def ready(self) -> bool:
        """Every member confirmed: the entrant may play."""
        return set(self.members) == set(self.confirmed)


@dataclass(frozen=True)
class DuplicatePlay:
    """One entrant's play of one board: its direction, its table while playing, the record
    and result (a JSON object from the scoring layer) once finished."""

    event_id: int
    entrant_id: int
    board: int
    direction: int
    status: str
    table_id: int | None
    record: JsonObject | None
    result: JsonObject | None
    started_at: dt.datetime
    finished_at: dt.datetime | None


@dataclass(frozen=True)
class DuplicateInvitation:
    """A pending meeting invitation: entrant ``entrant_id`` asked entrant ``invited_id`` to
    meet at one table, for ``board`` or (None) the lowest board neither has started. It
    has no expiry of its own: it lapses with the event's window."""

    event_id: int
    entrant_id: int
    invited_id: int
    board: int | None
    created_at: dt.datetime


def _event(row: Row) -> DuplicateEvent:
    league = row["league_id"]
    return DuplicateEvent(
        id=int(row["id"]), guild_id=int(row["guild_id"]), channel_id=int(row["channel_id"]),
        name=row["name"], game=row["game"], options=codec.decode_object(row["options"]),
        players=int(row["players"]), boards=int(row["boards"]), format=row["format"],
        scoring=row["scoring"], opens_at=codec.to_datetime(row["opens_at"]),
        closes_at=codec.to_datetime(row["closes_at"]), time_zone=row["time_zone"],
        leaderboard=bool(row["leaderboard"]),
        league_id=None if league is None else int(league), status=row["status"],
        created_by=int(row["created_by"]), created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]))


def _play(row: Row) -> DuplicatePlay:
    record, result, table = row["record"], row["result"], row["table_id"]
    return DuplicatePlay(
        event_id=int(row["event_id"]), entrant_id=int(row["entrant_id"]),
        board=int(row["board"]), direction=int(row["direction"]), status=row["status"],
        table_id=None if table is None else int(table),
        record=None if record is None else codec.decode_object(record),
        result=None if result is None else codec.decode_object(result),
        started_at=codec.to_datetime(row["started_at"]),
        finished_at=codec.to_optional_datetime(row["finished_at"]))


def _invitation(row: Row) -> DuplicateInvitation:
    board = row["board"]
    return DuplicateInvitation(
        event_id=int(row["event_id"]), entrant_id=int(row["entrant_id"]),
        invited_id=int(row["invited_id"]), board=None if board is None else int(board),
        created_at=codec.to_datetime(row["created_at"]))


def _choice(value: object, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


class DuplicateMixin(StoreCore):
    """Duplicate events (see the module docstring)."""

    async def create_duplicate_event(
        self, guild_id: int, channel_id: int, name: str, game: str, *,
        boards: Sequence[tuple[str, int]], players: int, opens_at: dt.datetime,
        closes_at: dt.datetime, time_zone: str, created_by: int,
        options: JsonObject | None = None, format: str = "pairs",
        scoring: str = "matchpoints", leaderboard: bool = False, league_id: int | None = None,
    ) -> DuplicateEvent:
        """Create an event (status ``open``) with its boards, each ``(seed, dealer)``."""
        if not boards:
            raise ValueError("an event needs at least one board")
        opens, closes = codec.aware(opens_at, "opens_at"), codec.aware(closes_at, "closes_at")
        if closes <= opens:
            raise ValueError("closes_at must be after opens_at")
        params = {
            "guild_id": codec.integer(guild_id, "guild_id"),
            "channel_id": codec.integer(channel_id, "channel_id"),
            "name": codec.text(name, "name"), "game": codec.key(game, "game"),
            "options": codec.encode_object({} if options is None else options, "options"),
            "players": codec.integer(players, "players", minimum=2),
            "boards": len(boards), "format": _choice(format, ("pairs", "individual"), "format"),
            "scoring": _choice(scoring, ("matchpoints", "imps"), "scoring"),
            "opens_at": opens, "closes_at": closes,
            "time_zone": codec.text(time_zone, "time_zone"),
            "leaderboard": 1 if leaderboard else 0,
            "league_id": codec.optional_integer(league_id, "league_id"),
            "created_by": codec.integer(created_by, "created_by"), "now": self._now(),
        }
        board_rows = [{"number": i + 1, "seed": codec.text(seed, "seed"),
                       "dealer": codec.integer(dealer, "dealer", minimum=0)}
                      for i, (seed, dealer) in enumerate(boards)]
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO duplicate_events (guild_id, channel_id, name, game, options,
                    players, boards, format, scoring, opens_at, closes_at, time_zone,
                    leaderboard, league_id, status, created_by, created_at, updated_at)
                VALUES (:guild_id, :channel_id, :name, :game, :options, :players, :boards,
                    :format, :scoring, :opens_at, :closes_at, :time_zone, :leaderboard,
                    :league_id, 'open', :created_by, :now, :now)
                RETURNING *
                """, params)
            assert row is not None
            await connection.executemany(
                "INSERT INTO duplicate_boards (event_id, number, seed, dealer)"
                " VALUES (:event_id, :number, :seed, :dealer)",
                [{**b, "event_id": int(row["id"])} for b in board_rows])
        return _event(row)

    async def get_duplicate_event(self, event_id: int) -> DuplicateEvent | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow("SELECT * FROM duplicate_events WHERE id = :id",
                                            {"id": event_id})
        return None if row is None else _event(row)

    async def list_duplicate_events(self, guild_id: int, *,
                                    status: str | None = None) -> list[DuplicateEvent]:
        """The guild's events, newest first (``status``: only those)."""
        sql = "SELECT * FROM duplicate_events WHERE guild_id = :guild_id"
        params: dict[str, object] = {"guild_id": guild_id}
        if status is not None:
            sql += " AND status = :status"
            params["status"] = status
        async with self._db.read() as connection:
            rows = await connection.fetch(sql + " ORDER BY id DESC", params)
        return [_event(r) for r in rows]

    async def due_duplicate_events(self, until: dt.datetime) -> list[DuplicateEvent]:
        """Every open event whose window closed at or before ``until``."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT * FROM duplicate_events WHERE status = 'open'"
                " AND closes_at <= :until ORDER BY id",
                {"until": codec.aware(until, "until")})
        return [_event(r) for r in rows]

    async def close_duplicate_event(self, event_id: int) -> DuplicateEvent:
        """Mark the event closed (idempotent)."""
        async with self._db.write() as connection:
            row = await self._update(connection, "duplicate_events", event_id,
                                     {"status": "closed"}, "duplicate event")
        return _event(row)

    async def list_duplicate_boards(self, event_id: int) -> list[DuplicateBoard]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT * FROM duplicate_boards WHERE event_id = :id ORDER BY number",
                {"id": event_id})
        return [DuplicateBoard(int(r["event_id"]), int(r["number"]), r["seed"],
                               int(r["dealer"])) for r in rows]

    # -- entrants ----------------------------------------------------------------------

    async def add_duplicate_entrant(self, event_id: int, name: str, members: Sequence[int],
                                    *, confirmed: Sequence[int] = ()) -> DuplicateEntrant:
        """Enter ``members`` as one entrant; raise :class:`AlreadyEntered` naming a member
        already in an entrant of the event."""
        checked = [codec.integer(m, "member") for m in members]
        if not checked or len(set(checked)) != len(checked):
            raise ValueError("an entrant needs one or more distinct members")
        if not set(confirmed) <= set(checked):
            raise ValueError("only members confirm")
        now = self._now()
        async with self._db.write() as connection:
            await self._touch(connection, "duplicate_events", event_id, "duplicate event")
            taken = await connection.fetch(
                "SELECT user_id FROM duplicate_members WHERE event_id = :event_id",
                {"event_id": event_id})
            for row in taken:
                if int(row["user_id"]) in checked:
                    raise AlreadyEntered(int(row["user_id"]))
            inserted = await connection.fetchrow(
                "INSERT INTO duplicate_entrants (event_id, name, created_at)"
                " VALUES (:event_id, :name, :now) RETURNING *",
                {"event_id": event_id, "name": codec.text(name, "name"), "now": now})
            assert inserted is not None
            entrant_id = int(inserted["id"])
            await connection.executemany(
                "INSERT INTO duplicate_members (event_id, user_id, entrant_id, position,"
                " confirmed) VALUES (:event_id, :user_id, :entrant_id, :position, :confirmed)",
                [{"event_id": event_id, "user_id": m, "entrant_id": entrant_id,
                  "position": i, "confirmed": 1 if m in confirmed else 0}
                 for i, m in enumerate(checked)])
        entrant = await self.get_duplicate_entrant(entrant_id)
        assert entrant is not None
        return entrant

    async def confirm_duplicate_member(self, event_id: int, user_id: int) -> DuplicateEntrant:
        """The member confirms their entrant; raise :class:`NotFound` when not entered."""
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                "UPDATE duplicate_members SET confirmed = 1 WHERE event_id = :event_id"
                " AND user_id = :user_id RETURNING entrant_id",
                {"event_id": event_id, "user_id": user_id})
        if row is None:
            raise NotFound(f"user {user_id} is in no entrant of event {event_id}")
        entrant = await self.get_duplicate_entrant(int(row["entrant_id"]))
        assert entrant is not None
        return entrant

    async def remove_duplicate_entrant(self, entrant_id: int) -> None:
        """Remove an entrant that has started no board (a pair whose partner declined)."""
        async with self._db.write() as connection:
            played = await connection.fetchrow(
                "SELECT 1 AS x FROM duplicate_plays WHERE entrant_id = :id", {"id": entrant_id})
            if played is not None:
                raise AlreadyPlayed(f"entrant {entrant_id} has started a board")
            await connection.execute("DELETE FROM duplicate_invitations WHERE entrant_id = :id"
                                     " OR invited_id = :id", {"id": entrant_id})
            await connection.execute("DELETE FROM duplicate_members WHERE entrant_id = :id",
                                     {"id": entrant_id})
            await connection.execute("DELETE FROM duplicate_entrants WHERE id = :id",
                                     {"id": entrant_id})

    async def get_duplicate_entrant(self, entrant_id: int) -> DuplicateEntrant | None:
        entrants = await self._duplicate_entrants("e.id = :id", {"id": entrant_id})
        return entrants[0] if entrants else None

    async def list_duplicate_entrants(self, event_id: int) -> list[DuplicateEntrant]:
        return await self._duplicate_entrants("e.event_id = :id", {"id": event_id})

    async def duplicate_entrant_of(self, event_id: int,
                                   user_id: int) -> DuplicateEntrant | None:
        """The entrant ``user_id`` belongs to in the event (confirmed or not)."""
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT entrant_id FROM duplicate_members WHERE event_id = :event_id"
                " AND user_id = :user_id", {"event_id": event_id, "user_id": user_id})
        return None if row is None else await self.get_duplicate_entrant(int(row["entrant_id"]))

    async def _duplicate_entrants(self, where: str,
                                  params: dict[str, object]) -> list[DuplicateEntrant]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT e.id, e.event_id, e.name, e.created_at, m.user_id, m.confirmed"
                " FROM duplicate_entrants e JOIN duplicate_members m ON m.entrant_id = e.id"
                f" WHERE {where} ORDER BY e.id, m.position", params)
        out: dict[int, dict[str, Any]] = {}
        for r in rows:
            e = out.setdefault(int(r["id"]), {
                "id": int(r["id"]), "event_id": int(r["event_id"]), "name": r["name"],
                "members": [], "confirmed": [],
                "created_at": codec.to_datetime(r["created_at"])})
            e["members"].append(int(r["user_id"]))
            if int(r["confirmed"]):
                e["confirmed"].append(int(r["user_id"]))
        return [DuplicateEntrant(e["id"], e["event_id"], e["name"], tuple(e["members"]),
                                 tuple(e["confirmed"]), e["created_at"]) for e in out.values()]

    # -- plays -------------------------------------------------------------------------

    async def start_duplicate_play(self, event_id: int, entrant_id: int, board: int,
                                   directions: int) -> DuplicatePlay:
        """Start the entrant's play of ``board`` from the direction (0 … ``directions`` − 1)
        played least so far on that board (ties: the entrant's turn in the rotation,
        ``(entrant_id + board) mod directions`` first). Raise :class:`AlreadyPlayed` when
        the entrant has started this board before."""
        [play] = await self._start_plays(event_id, (entrant_id,), board, directions)
        return play

    async def start_duplicate_meeting(self, event_id: int, entrants: tuple[int, int],
                                      board: int) -> tuple[DuplicatePlay, DuplicatePlay]:
        """Start two entrants' plays of ``board`` at one table, in one transaction: the
        first from the less-played of the board's two directions (the rotation as in
        :meth:`start_duplicate_play`), the second from the other. Raise
        :class:`AlreadyPlayed` (naming the entrant) when either started this board before;
        then neither play is started."""
        first, second = await self._start_plays(event_id, entrants, board, 2)
        return first, second

    async def _start_plays(self, event_id: int, entrants: Sequence[int], board: int,
                           directions: int) -> list[DuplicatePlay]:
        """Start one play (the least-played direction) or a meeting of two entrants (the
        first the least-played direction, the second the other one)."""
        if len(set(entrants)) != len(entrants) or not 1 <= len(entrants) <= directions:
            raise ValueError("one entrant, or two distinct entrants for two directions")
        now = self._now()
        plays: list[DuplicatePlay] = []
        async with self._db.write() as connection:
            await self._touch(connection, "duplicate_events", event_id, "duplicate event")
            for entrant_id in entrants:
                mine = await connection.fetchrow(
                    "SELECT 1 AS x FROM duplicate_plays WHERE entrant_id = :entrant_id"
                    " AND board = :board", {"entrant_id": entrant_id, "board": board})
                if mine is not None:
                    raise AlreadyPlayed(f"entrant {entrant_id} has started board {board}",
                                        entrant_id)
            rows = await connection.fetch(
                "SELECT direction, COUNT(*) AS n FROM duplicate_plays WHERE event_id = :event_id"
                " AND board = :board GROUP BY direction", {"event_id": event_id, "board": board})
            counts = {int(r["direction"]): int(r["n"]) for r in rows}
            first = (entrants[0] + board) % directions
            order = [(first + i) % directions for i in range(directions)]
            direction = min(order, key=lambda d: counts.get(d, 0))
            for n, entrant_id in enumerate(entrants):
                try:
                    row = await connection.fetchrow(
                        """
                        INSERT INTO duplicate_plays (event_id, entrant_id, board, direction,
                            status, started_at)
                        VALUES (:event_id, :entrant_id, :board, :direction, 'playing', :now)
                        RETURNING *
                        """, {"event_id": event_id, "entrant_id": entrant_id, "board": board,
                              "direction": (direction + n) % directions, "now": now})
                except ConstraintViolation:
                    raise AlreadyPlayed(f"entrant {entrant_id} has started board {board}",
                                        entrant_id) from None
                assert row is not None
                plays.append(_play(row))
        return plays

    async def set_duplicate_play_table(self, entrant_id: int, board: int,
                                       table_id: int) -> DuplicatePlay:
        return await self._set_play(entrant_id, board, "table_id = :table_id",
                                    {"table_id": table_id})

    async def finish_duplicate_play(self, entrant_id: int, board: int, record: JsonObject,
                                    result: JsonObject) -> DuplicatePlay:
        """Store the finished board's record and result (idempotent: a second call keeps
        the first)."""
        return await self._set_play(
            entrant_id, board,
            "status = 'finished', record = COALESCE(record, :record),"
            " result = COALESCE(result, :result), finished_at = COALESCE(finished_at, :now)",
            {"record": codec.encode_object(record, "record"),
             "result": codec.encode_object(result, "result"), "now": self._now()})

    async def _set_play(self, entrant_id: int, board: int, assignments: str,
                        params: dict[str, object]) -> DuplicatePlay:
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                f"UPDATE duplicate_plays SET {assignments} WHERE entrant_id = :entrant_id"
                " AND board = :board RETURNING *",
                {**params, "entrant_id": entrant_id, "board": board})
        if row is None:
            raise NotFound(f"entrant {entrant_id} has not started board {board}")
        return _play(row)

    async def get_duplicate_play(self, entrant_id: int, board: int) -> DuplicatePlay | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM duplicate_plays WHERE entrant_id = :entrant_id AND board = :board",
                {"entrant_id": entrant_id, "board": board})
        return None if row is None else _play(row)

    async def duplicate_plays_of_table(self, table_id: int) -> list[DuplicatePlay]:
        """The plays a table was opened for: one, or two when two entrants met there."""
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT * FROM duplicate_plays WHERE table_id = :table_id ORDER BY direction",
                {"table_id": table_id})
        return [_play(r) for r in rows]

    async def last_finished_duplicate_table(self, guild_id: int, channel_id: int,
                                            user_id: int, since: dt.datetime) -> int | None:
        """The table of the board finished last (at or after ``since``) at a table of the
        channel by an entrant ``user_id`` belongs to; None when there is none (plays still
        playing, other entrants' plays and other channels' tables never count)."""
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT p.table_id FROM duplicate_plays p"
                " JOIN duplicate_members m ON m.event_id = p.event_id"
                " AND m.entrant_id = p.entrant_id"
                " JOIN game_tables t ON t.id = p.table_id"
                " WHERE m.user_id = :user_id AND p.status = 'finished'"
                " AND p.finished_at >= :since"
                " AND t.guild_id = :guild_id AND t.channel_id = :channel_id"
                " ORDER BY p.finished_at DESC, p.table_id DESC LIMIT 1",
                {"user_id": user_id, "since": codec.aware(since, "since"),
                 "guild_id": guild_id, "channel_id": channel_id})
        return None if row is None else int(row["table_id"])

    async def list_duplicate_plays(self, event_id: int, *,
                                   board: int | None = None) -> list[DuplicatePlay]:
        sql = "SELECT * FROM duplicate_plays WHERE event_id = :event_id"
        params: dict[str, object] = {"event_id": event_id}
        if board is not None:
            sql += " AND board = :board"
            params["board"] = board
        async with self._db.read() as connection:
            rows = await connection.fetch(sql + " ORDER BY board, started_at, entrant_id",
                                          params)
        return [_play(r) for r in rows]

    # -- meeting invitations -----------------------------------------------------------

    async def put_duplicate_invitation(self, event_id: int, entrant_id: int, invited_id: int,
                                       board: int | None) -> DuplicateInvitation:
        """Store ``entrant_id``'s invitation to ``invited_id`` (``board``: the board named,
        or None), replacing any invitation ``entrant_id`` made before in the event."""
        params = {"e": codec.integer(event_id, "event_id"),
                  "by": codec.integer(entrant_id, "entrant_id"),
                  "to": codec.integer(invited_id, "invited_id"),
                  "board": None if board is None else codec.integer(board, "board", minimum=1),
                  "now": self._now()}
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO duplicate_invitations (event_id, entrant_id, invited_id, board,
                    created_at)
                VALUES (:e, :by, :to, :board, :now)
                ON CONFLICT (event_id, entrant_id) DO UPDATE SET invited_id = :to,
                    board = :board, created_at = :now
                RETURNING *
                """, params)
        assert row is not None
        return _invitation(row)

    async def get_duplicate_invitation(self, event_id: int,
                                       entrant_id: int) -> DuplicateInvitation | None:
        """The invitation ``entrant_id`` has pending in the event, if any."""
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM duplicate_invitations WHERE event_id = :e AND entrant_id = :by",
                {"e": event_id, "by": entrant_id})
        return None if row is None else _invitation(row)

    async def take_duplicate_invitation(
            self, event_id: int, entrant_id: int,
            expected: DuplicateInvitation | None = None) -> DuplicateInvitation | None:
        """Remove and return ``entrant_id``'s pending invitation (None when there is none:
        only one caller takes it). With ``expected``, only while it is still that
        invitation (the same invited entrant and board): one the pair replaced after it was
        read is left alone (None)."""
        sql = "DELETE FROM duplicate_invitations WHERE event_id = :e AND entrant_id = :by"
        params: dict[str, object] = {"e": event_id, "by": entrant_id}
        if expected is not None:
            # boards are numbered from 1: 0 stands for "the lowest board neither started"
            sql += " AND invited_id = :to AND COALESCE(board, 0) = :board"
            params |= {"to": expected.invited_id, "board": expected.board or 0}
        async with self._db.write() as connection:
            row = await connection.fetchrow(sql + " RETURNING *", params)
        return None if row is None else _invitation(row)

    # -- the AI's reference plays and the close's posts -----------------------------------

    async def get_duplicate_ai(self, event_id: int, board: int,
                               direction: int) -> JsonObject | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT record FROM duplicate_ai WHERE event_id = :e AND board = :b"
                " AND direction = :d", {"e": event_id, "b": board, "d": direction})
        return None if row is None else codec.decode_object(row["record"])

    async def put_duplicate_ai(self, event_id: int, board: int, direction: int,
                               record: JsonObject) -> JsonObject:
        """Store the AI's record of a board and direction unless one is stored; return the
        stored one (first writer wins)."""
        async with self._db.write() as connection:
            await connection.execute(
                "INSERT INTO duplicate_ai (event_id, board, direction, record, created_at)"
                " VALUES (:e, :b, :d, :record, :now)"
                " ON CONFLICT (event_id, board, direction) DO NOTHING",
                {"e": event_id, "b": board, "d": direction,
                 "record": codec.encode_object(record, "record"), "now": self._now()})
        stored = await self.get_duplicate_ai(event_id, board, direction)
        assert stored is not None
        return stored

    async def claim_duplicate_post(self, event_id: int, key: str) -> bool:
        """Claim one piece of the close's posting (``thread``, ``card:<entrant>`` …): true
        the first time only, in any process. A post that fails after its claim is not
        retried (as reminders)."""
        async with self._db.write() as connection:
            rows = await connection.fetch(
                "INSERT INTO duplicate_posts (event_id, post_key, posted_at)"
                " VALUES (:e, :k, :now) ON CONFLICT (event_id, post_key) DO NOTHING"
                " RETURNING event_id",
                {"e": event_id, "k": codec.key(key, "key"), "now": self._now()})
        return bool(rows)

    async def set_duplicate_post_value(self, event_id: int, key: str, value: str) -> None:
        """Remember what a claimed post made (the results thread's id)."""
        async with self._db.write() as connection:
            await connection.execute(
                "UPDATE duplicate_posts SET value = :v WHERE event_id = :e AND post_key = :k",
                {"v": value, "e": event_id, "k": key})

    async def duplicate_post_value(self, event_id: int, key: str) -> str | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT value FROM duplicate_posts WHERE event_id = :e AND post_key = :k",
                {"e": event_id, "k": key})
        return None if row is None else row["value"]
