"""Errors raised by every Store backend.

All of them derive from :class:`StorageError`, so a caller can catch the family. Invalid
arguments (a naive datetime, a NUL character in a text field, a JSON value that is not an
object where an object is required, an unknown setting) raise :class:`ValueError` before
anything is written; they are programming errors, not storage conditions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.models import ActionEntry, Location, Table


class StorageError(Exception):
    """Base class of every error a Store raises on purpose."""


class UnsupportedURL(StorageError, ValueError):
    """The database URL has a scheme or a form that no backend accepts."""


class SchemaTooNew(StorageError):
    """The database was migrated by newer code than this one; nothing was changed.

    Running old code on a newer schema could corrupt data, so the store refuses to open.
    """

    def __init__(self, database_version: int, code_version: int) -> None:
        self.database_version = database_version
        self.code_version = code_version
        super().__init__(
            f"database schema version {database_version} is newer than the newest version "
            f"this code knows ({code_version}); upgrade tricktable or use another database. "
            "Schemas are never downgraded."
        )


class SchemaOutdated(StorageError):
    """The database schema is older than the code and migrations were not requested."""

    def __init__(self, database_version: int, code_version: int) -> None:
        self.database_version = database_version
        self.code_version = code_version
        super().__init__(
            f"database schema version {database_version} is older than this code's version "
            f"{code_version}; run `tricktable db upgrade`."
        )


class NotFound(StorageError, LookupError):
    """A row the call refers to (a table, a match, a league…) does not exist."""


class DuplicateAction(StorageError):
    """An action with this sequence number is already in the table's log.

    Nothing was written. ``existing`` is the entry already stored under ``seq``, so a caller
    retrying after a lost acknowledgement can check that its own write is the one stored.
    """

    def __init__(self, table_id: int, seq: int, existing: ActionEntry | None) -> None:
        self.table_id = table_id
        self.seq = seq
        self.existing = existing
        super().__init__(f"table {table_id} already has an action with sequence number {seq}")


class SequenceGap(StorageError):
    """An append would leave a hole in the log (``seq`` is past the next free number)."""

    def __init__(self, table_id: int, seq: int, expected: int) -> None:
        self.table_id = table_id
        self.seq = seq
        self.expected = expected
        super().__init__(
            f"table {table_id}: cannot append sequence number {seq}, the next one is {expected}"
        )


class TableClosed(StorageError):
    """The table is finished or abandoned: its log and its status are final."""

    def __init__(self, table_id: int, status: str) -> None:
        self.table_id = table_id
        self.status = status
        super().__init__(f"table {table_id} is {status}; it accepts no more actions")


class StaleTable(StorageError):
    """A compare-and-set update of a table row found another version than the one the
    caller read: someone else changed the row meanwhile. Nothing was written; ``current``
    is the row as it is now (re-read it and decide again)."""

    def __init__(self, table_id: int, expected: int, current: Table) -> None:
        self.table_id = table_id
        self.expected = expected
        self.current = current
        super().__init__(
            f"table {table_id} was changed by another writer (version {current.row_version},"
            f" expected {expected}); re-read it and try again"
        )


class ShardBusy(StorageError):
    """Another process already holds the start lock of this shard."""

    def __init__(self, shard: int) -> None:
        self.shard = shard
        super().__init__(
            f"shard {shard} is already run by another process on this database;"
            " stop that process or run this one with other TRICKTABLE_SHARD_IDS"
        )


class LocationBusy(StorageError):
    """Another unfinished (lobby or playing) table already occupies this location."""

    def __init__(self, location: Location, table_id: int | None) -> None:
        self.location = location
        self.table_id = table_id
        super().__init__(f"{location} already has an unfinished table (id {table_id})")


class ConstraintViolation(StorageError):
    """The database rejected a write that breaks a constraint (e.g. a missing referenced row).

    Both backends translate their native integrity errors into this one.
    """
