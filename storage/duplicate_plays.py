"""The play side of duplicate events (:mod:`storage.duplicate`, whose module docstring states
the promises): entrants' plays of boards, two entrants meeting at one table, the meeting
invitations pending between pairs, the AI's reference plays and what the close has posted."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from storage import codec
from storage.core import StoreCore
from storage.driver import Row
from storage.duplicate import (
    AlreadyPlayed,
    DuplicateInvitation,
    DuplicatePlay,
)
from storage.errors import ConstraintViolation, NotFound
from storage.models import JsonObject


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


class DuplicatePlaysMixin(StoreCore):
    """Plays, meetings, invitations, the AI's reference plays and the close's posts of
    duplicate events."""

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
