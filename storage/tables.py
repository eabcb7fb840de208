"""Players, guild settings, game tables and their append-only action logs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any, Final, cast

from storage import codec
from storage.core import StoreCore
from storage.driver import Connection, Row
from storage.errors import (
    DuplicateAction,
    LocationBusy,
    NotFound,
    SequenceGap,
    StaleTable,
    StorageError,
    TableClosed,
)
from storage.languages import language_code
from storage.models import (
    OPEN_STATUSES,
    TABLE_STATUSES,
    ActionEntry,
    ChannelLocation,
    GuildSettings,
    JsonObject,
    Location,
    Player,
    RecoveredTable,
    Table,
    TableStatus,
    TerminalLocation,
    Unset,
)
from storage.signals import GUILD_SETTINGS_CHANNEL


def _check_bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {type(value).__name__}")
    return value


def _check_timeout(value: object, what: str) -> int:
    return codec.integer(value, what, minimum=1)


def _check_pace(value: object, what: str) -> float:
    pace = codec.finite(value, what)
    if pace < 0:
        raise ValueError(f"{what} must not be negative")
    return pace


_SETTING_CHECKS: Final[dict[str, Callable[[object, str], object]]] = {
    "turn_timeout": _check_timeout,
    "ai_pace": _check_pace,
    "images": _check_bool,
    "ai_matches_rated": _check_bool,
    "language": language_code,
}
"""One check per field of GuildSettings; each returns the value to store."""
if set(_SETTING_CHECKS) != {f.name for f in fields(GuildSettings)}:
    raise AssertionError("_SETTING_CHECKS must cover exactly the fields of GuildSettings")


def settings_from_stored(stored: Mapping[str, Any]) -> GuildSettings:
    """Defaults, overridden by every stored setting that is known and valid."""
    values: dict[str, Any] = {}
    for name, check in _SETTING_CHECKS.items():
        if name in stored:
            try:
                values[name] = check(stored[name], name)
            except ValueError:
                continue  # a value this code cannot use falls back to the default
    return replace(GuildSettings(), **values)


def _player(row: Row) -> Player:
    return Player(
        user_id=int(row["user_id"]),
        display_name=row["display_name"],
        created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]),
    )


def _location(row: Row) -> Location:
    if row["terminal"] is not None:
        return TerminalLocation(row["terminal"])
    return ChannelLocation(int(row["guild_id"]), int(row["channel_id"]))


def table_from_row(row: Row) -> Table:
    return Table(
        id=int(row["id"]),
        location=_location(row),
        game=row["game"],
        options=codec.decode_object(row["options"]),
        seats=codec.decode_json(row["seats"]),
        status=cast(TableStatus, row["status"]),
        meta=codec.decode_object(row["meta"]),
        turn_deadline=codec.to_optional_datetime(row["turn_deadline"]),
        lobby_deadline=codec.to_optional_datetime(row["lobby_deadline"]),
        created_at=codec.to_datetime(row["created_at"]),
        updated_at=codec.to_datetime(row["updated_at"]),
        row_version=int(row["row_version"]),
    )


def _entries(rows: list[Row]) -> list[ActionEntry]:
    """Log entries of many rows, their JSON decoded in one pass."""
    actions = codec.decode_objects([row["action"] for row in rows])
    to_datetime = codec.to_datetime
    return [
        ActionEntry(int(row["seq"]), action, to_datetime(row["created_at"]))
        for row, action in zip(rows, actions, strict=True)
    ]


def _location_params(location: Location) -> dict[str, object]:
    if isinstance(location, ChannelLocation):
        return {
            "guild_id": codec.integer(location.guild_id, "guild_id"),
            "channel_id": codec.integer(location.channel_id, "channel_id"),
            "terminal": None,
        }
    if isinstance(location, TerminalLocation):
        return {
            "guild_id": None,
            "channel_id": None,
            "terminal": codec.key(location.name, "terminal location"),
        }
    raise ValueError(f"not a location: {location!r}")


def _status(value: object) -> TableStatus:
    if value not in TABLE_STATUSES:
        raise ValueError(f"table status must be one of {', '.join(TABLE_STATUSES)}: {value!r}")
    return value


# Recovery: two queries whatever the number of tables. Both start from the partial index
# game_tables_unfinished (the predicate must match its WHERE clause), and the actions of
# each unfinished table are read in primary-key order, never scanning finished history.
RECOVERY_TABLES_SQL: Final = (
    "SELECT * FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
)
RECOVERY_ACTIONS_SQL: Final = """
SELECT a.table_id, a.seq, a.action, a.created_at
FROM table_actions a
WHERE a.table_id IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'playing'))
ORDER BY a.table_id, a.seq
"""

# An append is one guarded statement: it inserts only into an unfinished table and only the
# next sequence number of its log, so a retry or a race can never leave a duplicate or a
# hole. When it inserts nothing, _explain_refused_append finds out why.
_APPEND_SQL: Final = """
INSERT INTO table_actions (table_id, seq, action, created_at)
SELECT t.id, :seq, :action, :now FROM game_tables t
WHERE t.id = :table_id AND t.status IN ('lobby', 'playing')
  AND :seq = (SELECT COALESCE(MAX(a.seq), 0) + 1 FROM table_actions a
              WHERE a.table_id = :table_id)
ON CONFLICT DO NOTHING
RETURNING seq
"""
_INSERT_ACTION_SQL: Final = (
    "INSERT INTO table_actions (table_id, seq, action, created_at)"
    " VALUES (:table_id, :seq, :action, :now)"
)

_FIND_OPEN_CHANNEL = """
SELECT * FROM game_tables
WHERE guild_id = :guild_id AND channel_id = :channel_id AND status IN ('lobby', 'playing')
"""
_FIND_OPEN_TERMINAL = """
SELECT * FROM game_tables WHERE terminal = :terminal AND status IN ('lobby', 'playing')
"""


class TablesMixin(StoreCore):
    # -- players -----------------------------------------------------------------------

    async def upsert_player(self, user_id: int, display_name: str) -> Player:
        params = {
            "user_id": codec.integer(user_id, "user_id"),
            "display_name": codec.text(display_name, "display_name"),
            "now": self._now(),
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO players (user_id, display_name, created_at, updated_at)
                VALUES (:user_id, :display_name, :now, :now)
                ON CONFLICT (user_id) DO UPDATE
                SET display_name = excluded.display_name, updated_at = excluded.updated_at
                RETURNING *
                """,
                params,
            )
        assert row is not None
        return _player(row)

    async def get_player(self, user_id: int) -> Player | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM players WHERE user_id = :user_id", {"user_id": user_id}
            )
        return None if row is None else _player(row)

    # -- guild settings ----------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT settings FROM guilds WHERE guild_id = :guild_id", {"guild_id": guild_id}
            )
        return settings_from_stored({} if row is None else codec.decode_object(row["settings"]))

    async def update_guild_settings(
        self, guild_id: int, changes: Mapping[str, object]
    ) -> GuildSettings:
        checked: dict[str, object] = {}
        for name, value in changes.items():
            if name not in _SETTING_CHECKS:
                known = ", ".join(_SETTING_CHECKS)
                raise ValueError(f"unknown guild setting {name!r} (known: {known})")
            checked[name] = None if value is None else _SETTING_CHECKS[name](value, name)
        params = {"guild_id": codec.integer(guild_id, "guild_id"), "now": self._now()}
        async with self._db.write() as connection:
            # Create the row if needed, then lock it for the read-modify-write.
            await connection.execute(
                """
                INSERT INTO guilds (guild_id, settings, created_at, updated_at)
                VALUES (:guild_id, '{}', :now, :now) ON CONFLICT (guild_id) DO NOTHING
                """,
                params,
            )
            row = await connection.fetchrow(
                "UPDATE guilds SET updated_at = :now WHERE guild_id = :guild_id RETURNING settings",
                params,
            )
            assert row is not None
            stored = codec.decode_object(row["settings"])
            for name, value in checked.items():
                if value is None:
                    stored.pop(name, None)
                else:
                    stored[name] = value
            await connection.execute(
                "UPDATE guilds SET settings = :settings WHERE guild_id = :guild_id",
                {**params, "settings": codec.encode_object(stored, "settings")},
            )
            await self._notify(connection, GUILD_SETTINGS_CHANNEL, str(params["guild_id"]))
        return settings_from_stored(stored)

    # -- tables ------------------------------------------------------------------------

    async def create_table(
        self,
        location: Location,
        game: str,
        *,
        options: JsonObject | None = None,
        seats: list[Any] | None = None,
        status: TableStatus = "lobby",
        meta: JsonObject | None = None,
        turn_deadline: dt.datetime | None = None,
        lobby_deadline: dt.datetime | None = None,
    ) -> Table:
        now = self._now()
        params: dict[str, object] = {
            **_location_params(location),
            "game": codec.key(game, "game"),
            "options": codec.encode_object({} if options is None else options, "options"),
            "seats": codec.encode_list([] if seats is None else seats, "seats"),
            "status": _status(status),
            "meta": codec.encode_object({} if meta is None else meta, "meta"),
            "turn_deadline": codec.optional_aware(turn_deadline, "turn_deadline"),
            "lobby_deadline": codec.optional_aware(lobby_deadline, "lobby_deadline"),
            "now": now,
        }
        async with self._db.write() as connection:
            row = await connection.fetchrow(
                """
                INSERT INTO game_tables (guild_id, channel_id, terminal, game, options, seats,
                    status, meta, turn_deadline, lobby_deadline, created_at, updated_at)
                VALUES (:guild_id, :channel_id, :terminal, :game, :options, :seats,
                    :status, :meta, :turn_deadline, :lobby_deadline, :now, :now)
                ON CONFLICT DO NOTHING
                RETURNING *
                """,
                params,
            )
            if row is None:
                existing = await self._find_open(connection, location)
                raise LocationBusy(location, None if existing is None else existing.id)
        return table_from_row(row)

    async def get_table(self, table_id: int) -> Table | None:
        async with self._db.read() as connection:
            row = await connection.fetchrow(
                "SELECT * FROM game_tables WHERE id = :id", {"id": table_id}
            )
        return None if row is None else table_from_row(row)

    async def find_open_table(self, location: Location) -> Table | None:
        async with self._db.read() as connection:
            return await self._find_open(connection, location)

    async def _find_open(self, connection: Connection, location: Location) -> Table | None:
        params = _location_params(location)
        if isinstance(location, ChannelLocation):
            row = await connection.fetchrow(_FIND_OPEN_CHANNEL, params)
        else:
            row = await connection.fetchrow(_FIND_OPEN_TERMINAL, params)
        return None if row is None else table_from_row(row)

    async def update_table(
        self,
        table_id: int,
        *,
        status: TableStatus | Unset = Unset.UNSET,
        options: JsonObject | Unset = Unset.UNSET,
        seats: list[Any] | Unset = Unset.UNSET,
        meta: JsonObject | Unset = Unset.UNSET,
        turn_deadline: dt.datetime | Unset | None = Unset.UNSET,
        lobby_deadline: dt.datetime | Unset | None = Unset.UNSET,
        expected_version: int | None = None,
    ) -> Table:
        values: dict[str, object] = {}
        if not isinstance(status, Unset):
            values["status"] = _status(status)
        if not isinstance(options, Unset):
            values["options"] = codec.encode_object(options, "options")
        if not isinstance(seats, Unset):
            values["seats"] = codec.encode_list(seats, "seats")
        if not isinstance(meta, Unset):
            values["meta"] = codec.encode_object(meta, "meta")
        if not isinstance(turn_deadline, Unset):
            values["turn_deadline"] = codec.optional_aware(turn_deadline, "turn_deadline")
        if not isinstance(lobby_deadline, Unset):
            values["lobby_deadline"] = codec.optional_aware(lobby_deadline, "lobby_deadline")
        async with self._db.write() as connection:
            current = await self._touch(connection, "game_tables", table_id, "table")
            version = int(current["row_version"])
            if expected_version is not None and version != expected_version:
                raise StaleTable(table_id, expected_version, table_from_row(current))
            values["row_version"] = version + 1
            closed = current["status"] not in OPEN_STATUSES
            if closed and values.get("status", current["status"]) != current["status"]:
                raise TableClosed(table_id, current["status"])
            row = await self._update(connection, "game_tables", table_id, values, "table")
        return table_from_row(row)

    # -- action log --------------------------------------------------------------------

    async def append_action(self, table_id: int, seq: int, action: JsonObject) -> None:
        await self.append_actions(table_id, seq, [action])

    async def append_actions(
        self, table_id: int, first_seq: int, actions: Sequence[JsonObject]
    ) -> None:
        codec.integer(first_seq, "seq", minimum=1)
        if not actions:
            raise ValueError("append_actions needs at least one action")
        now = self._now()
        rows = [
            {
                "table_id": table_id,
                "seq": first_seq + i,
                "action": codec.encode_object(action, "action"),
                "now": now,
            }
            for i, action in enumerate(actions)
        ]
        for _ in range(3):
            if len(rows) == 1:  # the hot path: one statement, one round trip
                appended = bool(await self._db.write_one(_APPEND_SQL, rows[0]))
            else:
                async with self._db.write() as connection:
                    appended = bool(await connection.fetch(_APPEND_SQL, rows[0]))
                    if appended:  # the rest follow on contiguously
                        await connection.executemany(_INSERT_ACTION_SQL, rows[1:])
            if appended:
                return
            await self._explain_refused_append(table_id, first_seq)
        raise StorageError(f"table {table_id}: appends keep racing with another writer")

    async def _explain_refused_append(self, table_id: int, seq: int) -> None:
        """Raise the reason why the guarded insert of ``seq`` inserted nothing. Returns
        only if there is none any more (a concurrent writer changed things meanwhile)."""
        async with self._db.read() as connection:
            table = await connection.fetchrow(
                """
                SELECT status,
                    (SELECT COALESCE(MAX(seq), 0) FROM table_actions WHERE table_id = :id) AS last
                FROM game_tables WHERE id = :id
                """,
                {"id": table_id},
            )
            if table is None:
                raise NotFound(f"table {table_id} does not exist")
            if table["status"] not in OPEN_STATUSES:
                raise TableClosed(table_id, table["status"])
            last = int(table["last"])
            if seq <= last:
                existing = await connection.fetchrow(
                    "SELECT seq, action, created_at FROM table_actions"
                    " WHERE table_id = :id AND seq = :seq",
                    {"id": table_id, "seq": seq},
                )
                raise DuplicateAction(
                    table_id, seq, None if existing is None else _entries([existing])[0]
                )
            if seq > last + 1:
                raise SequenceGap(table_id, seq, last + 1)

    async def load_actions(self, table_id: int, *, after_seq: int = 0) -> list[ActionEntry]:
        async with self._db.read() as connection:
            rows = await connection.fetch(
                "SELECT seq, action, created_at FROM table_actions"
                " WHERE table_id = :id AND seq > :after ORDER BY seq",
                {"id": table_id, "after": after_seq},
            )
            if not rows:
                exists = await connection.fetchrow(
                    "SELECT id FROM game_tables WHERE id = :id", {"id": table_id}
                )
                if exists is None:
                    raise NotFound(f"table {table_id} does not exist")
        return _entries(rows)

    async def load_unfinished_tables(self) -> list[RecoveredTable]:
        async with self._db.read() as connection:
            table_rows = await connection.fetch(RECOVERY_TABLES_SQL)
            action_rows = await connection.fetch(RECOVERY_ACTIONS_SQL)
        logs: dict[int, list[ActionEntry]] = {}
        for row, entry in zip(action_rows, _entries(action_rows), strict=True):
            logs.setdefault(row["table_id"], []).append(entry)
        result = []
        for row in table_rows:
            table = table_from_row(row)
            result.append(RecoveredTable(table, logs.get(table.id, [])))
        return result
