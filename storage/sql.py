"""SQL text shared by both backends: dialects and named parameters.

Queries are written once with named parameters (``:table_id``) and compiled, once per
dialect and cached, to numbered placeholders: ``?1`` for SQLite, ``$1`` for asyncpg. A name
used twice maps to the same number, so PostgreSQL infers one type for it.

The compiler skips quoted strings, quoted identifiers and ``--`` comments, and leaves the
PostgreSQL cast operator ``::`` alone (shared SQL uses ``CAST(... AS ...)`` instead).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Mapping

Params = Mapping[str, object]


class Dialect(enum.Enum):
    SQLITE = "sqlite"
    POSTGRES = "postgresql"


_TOKEN = re.compile(
    r"""
      '(?:[^']|'')*'          # string literal
    | "(?:[^"]|"")*"          # quoted identifier
    | --[^\n]*                # comment
    | ::                      # PostgreSQL cast
    | :(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    """,
    re.VERBOSE,
)


@functools.lru_cache(maxsize=2048)
def compile_sql(sql: str, dialect: Dialect) -> tuple[str, tuple[str, ...]]:
    """Return the dialect's SQL text and the parameter names in placeholder order."""
    names: list[str] = []
    prefix = "?" if dialect is Dialect.SQLITE else "$"

    def replace(match: re.Match[str]) -> str:
        name = match.group("name")
        if name is None:
            return match.group(0)
        if name not in names:
            names.append(name)
        return f"{prefix}{names.index(name) + 1}"

    return _TOKEN.sub(replace, sql), tuple(names)


def bind(sql: str, dialect: Dialect, params: Params) -> tuple[str, list[object]]:
    """Compile ``sql`` and order ``params`` to match; a missing parameter is a KeyError."""
    compiled, names = compile_sql(sql, dialect)
    try:
        return compiled, [params[name] for name in names]
    except KeyError as exc:
        raise KeyError(f"missing SQL parameter {exc.args[0]!r} for: {sql.strip()[:120]}") from None


def placeholders(prefix: str, count: int) -> tuple[str, list[str]]:
    """Names and ``:name`` list text for an ``IN (...)`` of ``count`` values."""
    names = [f"{prefix}{i}" for i in range(count)]
    return ", ".join(f":{name}" for name in names), names
