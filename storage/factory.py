"""Opening a store from a database URL, and upgrading a database's schema.

URL forms (``DATABASE_URL``; default ``sqlite:///tricktable.db``, a file in the working
directory):

* ``sqlite:///relative/path.db``, ``sqlite:////absolute/path.db``, ``sqlite:///:memory:``;
  option ``?synchronous=normal`` trades power-loss durability for speed (default ``full``).
* ``postgresql://user:password@host:port/database`` (or ``postgres://``); option
  ``?schema=NAME`` keeps every table in that schema (created if missing); any other query
  parameter goes to asyncpg as is.

A malformed URL is refused with a message naming the wrong part, never quoting the URL
(a typo can put the password anywhere); logs show URLs through :func:`redact` only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final, cast
from urllib.parse import SplitResult, parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from storage.base import Store
from storage.driver import Database
from storage.errors import SchemaOutdated, SchemaTooNew, StorageError, UnsupportedURL
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


HIDDEN: Final = "<database URL hidden: it is not well formed>"
"""What :func:`redact` shows of a URL whose secrets it cannot locate for sure."""

SECRET_PARAMETERS: Final = frozenset({"password", "sslpassword"})
"""Query parameters whose value is a secret (libpq's and asyncpg's names)."""

_ENCODE_HINT: Final = (
    "; characters such as / : @ ? # in the user name or password must be percent-encoded"
    " (%2F %3A %40 %3F %23)"
)


def redact(url: str) -> str:
    """The URL with its password and secret query values hidden, for messages and logs.

    A URL that does not split into the usual parts (no scheme, an ``@`` outside the host
    part, a port that is not a number, a fragment) may hold a secret anywhere: it is
    hidden whole (:data:`HIDDEN`)."""
    try:
        parts = urlsplit(url)
        password, _port = parts.password, parts.port
    except ValueError:
        return HIDDEN
    if not parts.scheme or parts.fragment or "@" in parts.path:
        return HIDDEN
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any("@" in name or "@" in value for name, value in query):
        return HIDDEN
    shown, _, _ = url.partition("?")
    if password is not None:
        shown = shown.replace(f":{password}@", ":***@", 1)
    if parts.query:
        hidden = [(name, "***" if name.lower() in SECRET_PARAMETERS else value)
                  for name, value in query]
        shown += "?" + urlencode(hidden, safe="*/")
    return shown


def parse_url(url: str) -> SqliteTarget | PostgresTarget:
    """Check a database URL and say which backend opens it.

    Raises UnsupportedURL naming the part that is wrong; the message never holds the URL
    or any part of it a secret could hide in (a mistyped URL can put its password
    anywhere)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsupportedURL(
            "the database URL's host or port is not valid (the port must be a number)"
            + _ENCODE_HINT) from None
    if not parts.scheme:
        scheme_part = url.split("/", 1)[0].lower()
        if scheme_part in ("sqlite", "postgresql", "postgres"):
            raise UnsupportedURL(
                f"unsupported database URL: the ':' after {scheme_part!r} is missing"
                " (sqlite:///path.db or postgresql://user:password@host/database)")
        raise UnsupportedURL(
            "unsupported database URL: it has no scheme; it must begin with sqlite:/// or"
            " postgresql://")
    scheme = parts.scheme.lower()
    if parts.fragment:
        raise UnsupportedURL("the database URL has a '#' part" + _ENCODE_HINT)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if scheme == "sqlite":
        return _sqlite_target(parts.netloc, parts.path, query)
    if scheme in ("postgresql", "postgres"):
        return _postgres_target(parts, port, query)
    raise UnsupportedURL(
        "unsupported database URL: its scheme (the part before the first ':') must be"
        " sqlite or postgresql (sqlite:///path.db or postgresql://…)")


def _sqlite_target(netloc: str, path: str, query: list[tuple[str, str]]) -> SqliteTarget:
    if netloc:
        raise UnsupportedURL(
            "SQLite URLs have no user, password or host: they look like"
            " sqlite:///relative.db or sqlite:////absolute.db (three or four slashes)")
    if not path.startswith("/") or len(path) < 2:
        raise UnsupportedURL(
            "the SQLite URL has no file path: it looks like sqlite:///relative.db or"
            " sqlite:////absolute.db")
    options = dict(query)
    synchronous = options.pop("synchronous", "full").upper()
    if options or synchronous not in ("FULL", "NORMAL"):
        raise UnsupportedURL("SQLite URLs accept only the option ?synchronous=full|normal")
    return SqliteTarget(unquote(path[1:]), cast(Synchronous, synchronous))


def _postgres_target(parts: SplitResult, port: int | None,
                     query: list[tuple[str, str]]) -> PostgresTarget:
    """A PostgreSQL URL of the form ``postgresql://[user[:password]@]host[:port][/database]``
    (a Unix socket directory goes percent-encoded in the host: ``%2Frun%2Fpostgresql``)."""
    shape = " (postgresql://user:password@host:port/database)"
    if not parts.hostname:
        raise UnsupportedURL(
            "the PostgreSQL URL has no host: it needs two slashes after 'postgresql:' and a"
            " host before the database name" + shape + _ENCODE_HINT)
    if port == 0:
        raise UnsupportedURL("the PostgreSQL URL's port must be a number from 1 to 65535")
    database = unquote(parts.path[1:]) if parts.path.startswith("/") else parts.path
    if any(c in database for c in "/@:?#") or (parts.path and not parts.path.startswith("/")):
        raise UnsupportedURL(
            "the PostgreSQL URL's database name (after the host's '/') holds '/', ':' or '@'"
            + shape + _ENCODE_HINT)
    schema = None
    rest = []
    for name, value in query:
        if name == "schema":
            schema = value
        else:
            rest.append((name, value))
    dsn = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(rest)))
    return PostgresTarget(dsn, schema)


class CannotOpen(StorageError):
    """The database server refused or could not be reached; the message holds the
    driver's reason with the URL's secrets (password, secret query values) and the URL
    itself removed."""


def scrub(text: str, url: str) -> str:
    """``text`` without ``url``, its password (as typed and decoded) or its secret query
    values."""
    secrets = [url]
    try:
        parts = urlsplit(url)
        if parts.password:
            secrets += [parts.password, unquote(parts.password)]
        secrets += [value for name, value in parse_qsl(parts.query)
                    if name.lower() in SECRET_PARAMETERS and value]
    except ValueError:
        pass
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


async def open_database(url: str | None = None) -> Database:
    """Open the backend for ``url`` (see :func:`resolve_url`) without touching the schema."""
    url = resolve_url(url)
    target = parse_url(url)
    if isinstance(target, SqliteTarget):
        return await SqliteDatabase.open(target.path, target.synchronous)
    try:
        return await PostgresDatabase.open(target.dsn, schema=target.schema)
    except Exception as exc:  # the driver's text may quote the DSN: never pass it on raw
        reason = scrub(f"{type(exc).__name__}: {exc}", url)
        raise CannotOpen(f"cannot open the PostgreSQL database: {reason}") from None


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
