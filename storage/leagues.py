"""Leagues, seasons, entrants, fixtures and sent reminders: the rows the leagues feature
builds on. Create, read, list and update; the scheduling rules live above the store."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import cast

from storage import codec
from storage.core import StoreCore
from storage.driver import Connection, Row
from storage.errors import NotFound
from storage.models import (
    Entrant,
    Fixture,
    JsonObject,
    League,
    NewFixture,
    Rounds,
    Season,
    Unset,
)


def _opt_int(value: object) -> int | None:
    return None if value is None else int(cast(int, value))


def _league(row: Row) -> League:
    return League(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        name=row["name"],
        game=row["game"],
        options=codec.decode_object(row["options"]),
        weekday=int(row["weekday"]),
        start_time=dt.time.fromisoformat(row["start_time"]),
        time_zone=row["time_zone"],
        rounds=cast(Rounds, row["rounds"]),
        points_win=int(row["points_win"]),
        points_draw=int(row["points_draw"]),
        points_loss=int(row["points_loss"]),
        status=row["status"],
        created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]),
    )


def _season(row: Row) -> Season:
    return Season(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        league_id=_opt_int(row["league_id"]),
        name=row["name"],
        status=row["status"],
        starts_at=codec.to_optional_datetime(row["starts_at"]),
        ends_at=codec.to_optional_datetime(row["ends_at"]),
        created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]),
    )


def _fixture(row: Row) -> Fixture:
    result = row["result"]
    return Fixture(
        id=int(row["id"]),
        season_id=int(row["season_id"]),
        round=int(row["round_no"]),
        scheduled_at=codec.to_optional_datetime(row["scheduled_at"]),
        home_entrant_id=int(row["home_entrant_id"]),
        away_entrant_id=_opt_int(row["away_entrant_id"]),
        status=row["status"],
        result=None if result is None else codec.decode_object(result),
        table_id=_opt_int(row["table_id"]),
        match_id=_opt_int(row["match_id"]),
        confirmed_by=_opt_int(row["confirmed_by"]),
        created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]),
    )


def _weekday(value: object) -> int:
    day = codec.integer(value, "weekday", minimum=0)
    if day > 6:
        raise ValueError("weekday must be 0 (Monday) … 6 (Sunday)")
    return day


def _start_time(value: object) -> str:
    if not isinstance(value, dt.time) or value.tzinfo is not None:
        raise ValueError("start_time must be a naive datetime.time (local to time_zone)")
    if value.second or value.microsecond:
        raise ValueError("start_time has minute precision")
    return value.isoformat(timespec="minutes")


def _rounds(value: object) -> Rounds:
    if value not in ("single", "double"):
        raise ValueError(f"rounds must be 'single' or 'double', not {value!r}")
    return value


def _members(members: Sequence[int]) -> list[int]:
    checked = [codec.integer(m, "member user id") for m in members]
    if not checked:
        raise ValueError("an entrant needs at least one member")
    if len(set(checked)) != len(checked):
        raise ValueError("entrant members must be distinct")
    return checked


def _fixture_params(season_id: int, fixture: NewFixture, now: dt.datetime) -> dict[str, object]:
    return {
        "season_id": season_id,
        "round_no": codec.integer(fixture.round, "round", minimum=1),
        "scheduled_at": codec.optional_aware(fixture.scheduled_at, "scheduled_at"),
        "home": codec.integer(fixture.home_entrant_id, "home_entrant_id"),
        "away": codec.optional_integer(fixture.away_entrant_id, "away_entrant_id"),
        "status": codec.key(fixture.status, "status"),
        "now": now,
    }


class LeaguesMixin(StoreCore):
    """Leagues and their seasons."""

    # -- leagues -----------------------------------------------------------------------

    async def create_league(
        self,
        guild_id: int,
        channel_id: int,
        name: str,
        game: str,
        *,
        weekday: int,
        start_time: dt.time,
        time_zone: str,
        options: JsonObject | None = None,
        rounds: Rounds = "single",
        points_win: int = 3,
        points_draw: int = 1,
        points_loss: int = 0,
        status: str = "draft",
    ) -> League:
        params = {
            "guild_id": codec.integer(guild_id, "guild_id"),
            "channel_id": codec.integer(channel_id, "channel_id"),
            "name": codec.text(name, "name"),
            "game": codec.key(game, "game"),
            "options": codec.encode_object({} if options is None else options, "options"),
            "weekday": _weekday(weekday),
            "start_time": _start_time(start_time),
            "time_zone": codec.text(time_zone, "time_zone"),
            "rounds": _rounds(rounds),
            "points_win": codec.integer(points_win, "points_win"),
            "points_draw": codec.integer(points_draw, "points_draw"),
            "points_loss": codec.integer(points_loss, "points_loss"),
            "status": codec.key(status, "status"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO leagues (guild_id, channel_id, name, game, options, weekday,
                    start_time, time_zone, rounds, points_win, points_draw, points_loss,
                    status, created_at, updated_at)
                VALUES (:guild_id, :channel_id, :name, :game, :options, :weekday,
                    :start_time, :time_zone, :rounds, :points_win, :points_draw, :points_loss,
                    :status, :now, :now)
                RETURNING *
                """,
                params,
            )
        assert row is not None
        return _league(row)

    async def get_league(self, league_id: int) -> League | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM leagues WHERE id = :id", {"id": league_id}
            )
        return None if row is None else _league(row)

    async def list_leagues(self, guild_id: int) -> list[League]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT * FROM leagues WHERE guild_id = :guild_id ORDER BY id",
                {"guild_id": guild_id},
            )
        return [_league(r) for r in rows]

    async def update_league(
        self,
        league_id: int,
        *,
        channel_id: int | Unset = Unset.UNSET,
        name: str | Unset = Unset.UNSET,
        game: str | Unset = Unset.UNSET,
        options: JsonObject | Unset = Unset.UNSET,
        weekday: int | Unset = Unset.UNSET,
        start_time: dt.time | Unset = Unset.UNSET,
        time_zone: str | Unset = Unset.UNSET,
        rounds: Rounds | Unset = Unset.UNSET,
        points_win: int | Unset = Unset.UNSET,
        points_draw: int | Unset = Unset.UNSET,
        points_loss: int | Unset = Unset.UNSET,
        status: str | Unset = Unset.UNSET,
    ) -> League:
        values: dict[str, object] = {}
        if not isinstance(channel_id, Unset):
            values["channel_id"] = codec.integer(channel_id, "channel_id")
        if not isinstance(name, Unset):
            values["name"] = codec.text(name, "name")
        if not isinstance(game, Unset):
            values["game"] = codec.key(game, "game")
        if not isinstance(options, Unset):
            values["options"] = codec.encode_object(options, "options")
        if not isinstance(weekday, Unset):
            values["weekday"] = _weekday(weekday)
        if not isinstance(start_time, Unset):
            values["start_time"] = _start_time(start_time)
        if not isinstance(time_zone, Unset):
            values["time_zone"] = codec.text(time_zone, "time_zone")
        if not isinstance(rounds, Unset):
            values["rounds"] = _rounds(rounds)
        for column, points in (
            ("points_win", points_win),
            ("points_draw", points_draw),
            ("points_loss", points_loss),
        ):
            if not isinstance(points, Unset):
                values[column] = codec.integer(points, column)
        if not isinstance(status, Unset):
            values["status"] = codec.key(status, "status")
        async with self._db.write() as connection:
            row = await self._update(connection, "leagues", league_id, values, "league")
        return _league(row)

    # -- seasons -----------------------------------------------------------------------

    async def create_season(
        self,
        guild_id: int,
        name: str,
        *,
        league_id: int | None = None,
        status: str = "planned",
        starts_at: dt.datetime | None = None,
        ends_at: dt.datetime | None = None,
    ) -> Season:
        params = {
            "guild_id": codec.integer(guild_id, "guild_id"),
            "league_id": codec.optional_integer(league_id, "league_id"),
            "name": codec.text(name, "name"),
            "status": codec.key(status, "status"),
            "starts_at": codec.optional_aware(starts_at, "starts_at"),
            "ends_at": codec.optional_aware(ends_at, "ends_at"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO seasons (guild_id, league_id, name, status, starts_at, ends_at,
                    created_at, updated_at)
                VALUES (:guild_id, :league_id, :name, :status, :starts_at, :ends_at, :now, :now)
                RETURNING *
                """,
                params,
            )
        assert row is not None
        return _season(row)

    async def get_season(self, season_id: int) -> Season | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM seasons WHERE id = :id", {"id": season_id}
            )
        return None if row is None else _season(row)

    async def list_seasons(
        self, guild_id: int, *, league_id: int | Unset | None = Unset.UNSET
    ) -> list[Season]:
        """Seasons of a guild; with ``league_id``, only that league's (None: only the
        guild-wide rating seasons)."""
        sql = "SELECT * FROM seasons WHERE guild_id = :guild_id"
        params: dict[str, object] = {"guild_id": guild_id}
        if league_id is None:
            sql += " AND league_id IS NULL"
        elif not isinstance(league_id, Unset):
            sql += " AND league_id = :league_id"
            params["league_id"] = league_id
        async with self._db.read() as connection:
            rows = await connection.fetch(sql + " ORDER BY id", params)
        return [_season(r) for r in rows]

    async def update_season(
        self,
        season_id: int,
        *,
        name: str | Unset = Unset.UNSET,
        status: str | Unset = Unset.UNSET,
        starts_at: dt.datetime | Unset | None = Unset.UNSET,
        ends_at: dt.datetime | Unset | None = Unset.UNSET,
    ) -> Season:
        values: dict[str, object] = {}
        if not isinstance(name, Unset):
            values["name"] = codec.text(name, "name")
        if not isinstance(status, Unset):
            values["status"] = codec.key(status, "status")
        if not isinstance(starts_at, Unset):
            values["starts_at"] = codec.optional_aware(starts_at, "starts_at")
        if not isinstance(ends_at, Unset):
            values["ends_at"] = codec.optional_aware(ends_at, "ends_at")
        async with self._db.write() as connection:
            row = await self._update(connection, "seasons", season_id, values, "season")
        return _season(row)

class FixturesMixin(StoreCore):
    """The entrants, fixtures and fixture reminders of league seasons."""

    # -- entrants ----------------------------------------------------------------------

    async def add_entrant(
        self, season_id: int, members: Sequence[int], *, name: str | None = None
    ) -> Entrant:
        checked = _members(members)
        params = {
            "season_id": codec.integer(season_id, "season_id"),
            "name": None if name is None else codec.text(name, "name"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                "INSERT INTO league_entrants (season_id, name, created_at)"
                " VALUES (:season_id, :name, :now) RETURNING id",
                params,
            )
            assert row is not None
            entrant_id = int(row["id"])
            await self._set_members(connection, entrant_id, checked)
            entrants = await self._entrants(connection, "e.id = :id", {"id": entrant_id})
        return entrants[0]

    async def get_entrant(self, entrant_id: int) -> Entrant | None:
        async with self._db.read() as connection:
            entrants = await self._entrants(connection, "e.id = :id", {"id": entrant_id})
        return entrants[0] if entrants else None

    async def list_entrants(self, season_id: int) -> list[Entrant]:
        async with self._db.read() as connection:
            return await self._entrants(
                connection, "e.season_id = :season_id", {"season_id": season_id}
            )

    async def update_entrant(
        self,
        entrant_id: int,
        *,
        name: str | Unset | None = Unset.UNSET,
        members: Sequence[int] | Unset = Unset.UNSET,
    ) -> Entrant:
        checked = None if isinstance(members, Unset) else _members(members)
        async with self._db.write() as connection:
            exists = await connection.fetchrow(
                "SELECT id FROM league_entrants WHERE id = :id", {"id": entrant_id}
            )
            if exists is None:
                raise NotFound(f"entrant {entrant_id} does not exist")
            if not isinstance(name, Unset):
                value = None if name is None else codec.text(name, "name")
                await connection.execute(
                    "UPDATE league_entrants SET name = :name WHERE id = :id",
                    {"name": value, "id": entrant_id},
                )
            if checked is not None:
                await connection.execute(
                    "DELETE FROM league_entrant_members WHERE entrant_id = :id", {"id": entrant_id}
                )
                await self._set_members(connection, entrant_id, checked)
            entrants = await self._entrants(connection, "e.id = :id", {"id": entrant_id})
        return entrants[0]

    @staticmethod
    async def _set_members(connection: Connection, entrant_id: int, members: list[int]) -> None:
        await connection.executemany(
            "INSERT INTO league_entrant_members (entrant_id, user_id, member_no)"
            " VALUES (:entrant_id, :user_id, :member_no)",
            [
                {"entrant_id": entrant_id, "user_id": user_id, "member_no": i}
                for i, user_id in enumerate(members)
            ],
        )

    @staticmethod
    async def _entrants(
        connection: Connection, where: str, params: dict[str, object]
    ) -> list[Entrant]:
        """Entrants matching ``where`` (a literal of the calling code) with their members."""
        rows = await connection.fetch(
            f"""
            SELECT e.id, e.season_id, e.name, e.created_at, m.user_id
            FROM league_entrants e
            LEFT JOIN league_entrant_members m ON m.entrant_id = e.id
            WHERE {where}
            ORDER BY e.id, m.member_no
            """,
            params,
        )
        found: dict[int, tuple[Row, list[int]]] = {}
        for row in rows:
            _, members = found.setdefault(int(row["id"]), (row, []))
            if row["user_id"] is not None:
                members.append(int(row["user_id"]))
        return [
            Entrant(
                id=int(row["id"]),
                season_id=int(row["season_id"]),
                name=row["name"],
                members=tuple(members),
                created_at=codec.to_datetime(row["created_at"]),
            )
            for row, members in found.values()
        ]

    # -- fixtures ----------------------------------------------------------------------

    async def create_fixtures(
        self, season_id: int, fixtures: Sequence[NewFixture]
    ) -> list[Fixture]:
        now = self._now()
        params = [_fixture_params(season_id, f, now) for f in fixtures]
        created: list[Fixture] = []
        async with self._db.write() as connection:
            for p in params:
                row = await connection.fetchrow(
                    """
                    INSERT INTO fixtures (season_id, round_no, scheduled_at, home_entrant_id,
                        away_entrant_id, status, created_at, updated_at)
                    VALUES (:season_id, :round_no, :scheduled_at, :home, :away, :status,
                        :now, :now)
                    RETURNING *
                    """,
                    p,
                )
                assert row is not None
                created.append(_fixture(row))
        return created

    async def get_fixture(self, fixture_id: int) -> Fixture | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM fixtures WHERE id = :id", {"id": fixture_id}
            )
        return None if row is None else _fixture(row)

    async def list_fixtures(self, season_id: int, *, round: int | None = None) -> list[Fixture]:
        sql = "SELECT * FROM fixtures WHERE season_id = :season_id"
        params: dict[str, object] = {"season_id": season_id}
        if round is not None:
            sql += " AND round_no = :round_no"
            params["round_no"] = round
        async with self._db.read() as connection:
            rows = await connection.fetch(sql + " ORDER BY round_no, id", params)
        return [_fixture(r) for r in rows]

    async def fixtures_due(self, until: dt.datetime, *, status: str = "scheduled") -> list[Fixture]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                """
                SELECT * FROM fixtures
                WHERE status = :status AND scheduled_at <= :until
                ORDER BY scheduled_at, id
                """,
                {"status": status, "until": codec.aware(until, "until")},
            )
        return [_fixture(r) for r in rows]

    async def update_fixture(
        self,
        fixture_id: int,
        *,
        scheduled_at: dt.datetime | Unset | None = Unset.UNSET,
        status: str | Unset = Unset.UNSET,
        result: JsonObject | Unset | None = Unset.UNSET,
        table_id: int | Unset | None = Unset.UNSET,
        match_id: int | Unset | None = Unset.UNSET,
        confirmed_by: int | Unset | None = Unset.UNSET,
    ) -> Fixture:
        values: dict[str, object] = {}
        if not isinstance(scheduled_at, Unset):
            values["scheduled_at"] = codec.optional_aware(scheduled_at, "scheduled_at")
        if not isinstance(status, Unset):
            values["status"] = codec.key(status, "status")
        if not isinstance(result, Unset):
            values["result"] = None if result is None else codec.encode_object(result, "result")
        for column, value in (
            ("table_id", table_id),
            ("match_id", match_id),
            ("confirmed_by", confirmed_by),
        ):
            if not isinstance(value, Unset):
                values[column] = codec.optional_integer(value, column)
        async with self._db.write() as connection:
            row = await self._update(connection, "fixtures", fixture_id, values, "fixture")
        return _fixture(row)

    # -- reminders ---------------------------------------------------------------------

    async def mark_reminder_sent(self, fixture_id: int, kind: str) -> bool:
        params = {
            "fixture_id": codec.integer(fixture_id, "fixture_id"),
            "kind": codec.key(kind, "kind"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO reminders_sent (fixture_id, kind, sent_at)
                VALUES (:fixture_id, :kind, :now)
                ON CONFLICT (fixture_id, kind) DO NOTHING
                RETURNING kind
                """,
                params,
            )
        return row is not None

    async def reminders_sent(self, fixture_id: int) -> dict[str, dt.datetime]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT kind, sent_at FROM reminders_sent WHERE fixture_id = :id ORDER BY kind",
                {"id": fixture_id},
            )
        return {r["kind"]: codec.to_datetime(r["sent_at"]) for r in rows}
