"""Opening a store from a database URL, and upgrading a database's schema.

URL forms (``DATABASE_URL``; default ``sqlite:///tricktable.db``, a file in the working
directory):

* ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, ``sqlite:///:memory:``;
  option ``?synchronous=normal`` trades power-loss durability for speed (default ``full``).
* ``postgresql://user:password@host:port/database`` (or ``postgres://``); option
  ``?schema=NAME`` keeps every table in that schema (created if missing); any other query
  parameter goes to asyncpg as is.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final, cast
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from storage.base import Store
from storage.driver import Database
from storage.errors import SchemaOutdated, SchemaTooNew, UnsupportedURL
from storage.migrations import current_version, latest, migrate
from storage.postgres import PostgresDatabase
from storage.sqlite import SqliteDatabase, Synchronous
from storage.sqlstore import SqlStore

DEFAULT_URL: Final = "sqlite:///tricktable.db"
ENV_VAR: Final = "DATABASE_URL"


@dataclass(frozen=True, slots=True)
class SqliteTarget:
    path: str
    synchronous: Synchronous = "FULL"


@dataclass(frozen=True, slots=True)
class PostgresTarget:
    dsn: str
    """The URL without the ``schema`` parameter, as asyncpg takes it."""
    schema: str | None = None


def resolve_url(url: str | None = None) -> str:
    """``url``, else ``$DATABASE_URL``, else the default SQLite file."""
    return url or os.environ.get(ENV_VAR) or DEFAULT_URL


def redact(url: str) -> str:
    """The URL with its password hidden, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def parse_url(url: str) -> SqliteTarget | PostgresTarget:
    """Check a database URL and say which backend opens it. Raises UnsupportedURL."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if parts.scheme == "sqlite":
        if parts.netloc or not parts.path.startswith("/") or len(parts.path) < 2:
            raise UnsupportedURL(
                f"SQLite URLs look like sqlite:///relative.db or sqlite:////absolute.db,"
                f" not {url!r}"
            )
        options = dict(query)
        synchronous = options.pop("synchronous", "full").upper()
        if options or synchronous not in ("FULL", "NORMAL"):
            raise UnsupportedURL(
                f"SQLite URLs accept only ?synchronous=full|normal, not {parts.query!r}"
            )
        return SqliteTarget(unquote(parts.path[1:]), cast(Synchronous, synchronous))
    if parts.scheme in ("postgresql", "postgres"):
        schema = None
        rest = []
        for name, value in query:
            if name == "schema":
                schema = value
            else:
                rest.append((name, value))
        dsn = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(rest)))
        return PostgresTarget(dsn, schema)
    raise UnsupportedURL(
        f"unsupported database URL {redact(url)!r}: use sqlite:///path or postgresql://…"
    )


async def open_database(url: str | None = None) -> Database:
    """Open the backend for ``url`` (see :func:`resolve_url`) without touching the schema."""
    target = parse_url(resolve_url(url))
    if isinstance(target, SqliteTarget):
        return await SqliteDatabase.open(target.path, target.synchronous)
    return await PostgresDatabase.open(target.dsn, schema=target.schema)


async def open_store(url: str | None = None, *, migrate_schema: bool = True) -> Store:
    """Open the store at ``url`` (else ``$DATABASE_URL``, else ``sqlite:///tricktable.db``).

    Pending migrations are applied first. With ``migrate_schema=False`` an older schema
    raises SchemaOutdated instead. A schema newer than the code always raises SchemaTooNew.
    """
    database = await open_database(url)
    try:
        if migrate_schema:
            await migrate(database)
        else:
            version, newest = await current_version(database), latest()
            if version > newest:
                raise SchemaTooNew(version, newest)
            if version < newest:
                raise SchemaOutdated(version, newest)
    except BaseException:
        await database.close()
        raise
    return SqlStore(database)


async def upgrade(url: str | None = None) -> tuple[int, int]:
    """Apply pending migrations (``tricktable db upgrade``): returns (before, after).

    Raises SchemaTooNew, changing nothing, when the database is newer than the code.
    """
    database = await open_database(url)
    try:
        return await migrate(database)
    finally:
        await database.close()
