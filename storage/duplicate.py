"""Duplicate events: their boards, entrants, plays, the AI's reference plays and what the
close has posted (migration 8), and the meeting invitations pending between pairs (migration
11). The events, boards and entrants are :class:`DuplicateMixin`'s; the plays, meetings,
invitations, AI plays and posts :class:`storage.duplicate_plays.DuplicatePlaysMixin`'s
(the methods named below). The rules (windows, who may enter, scoring) live above the
store (``bot/duplicate``); the store keeps the promises that need the database:

* a board is played once by an entrant: ``(entrant, board)`` is the plays' primary key,
  and ``start_duplicate_play`` refuses a second start;
* two entrants meeting at one table start the board together or not at all
  (``start_duplicate_meeting``), from the board's two directions;
* directions are assigned under the event row's lock, so two entrants starting one board
  at once see each other's direction (the least-played direction is taken);
* a member belongs to at most one entrant of an event (``(event, user)`` primary key);
* the AI's reference play of a board and direction is stored once (first writer wins);
* each piece the close posts is claimed once (``claim_duplicate_post``);
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
from storage.errors import NotFound, StorageError
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


def _choice(value: object, allowed: Sequence[str], what: str) -> str:
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)


class DuplicateMixin(StoreCore):
    """Duplicate events, their boards and entrants (see the module docstring); the plays,
    invitations, AI plays and posts are :class:`storage.duplicate_plays.DuplicatePlaysMixin`'s."""

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
