"""Conversions between API values and column values, shared by both backends.

JSON is stored as text produced by :func:`encode_json`, on SQLite and on PostgreSQL alike,
so a value reads back exactly as written (key order, number spelling, NUL escapes) whatever
the backend. Timestamps are given to the drivers as aware UTC datetimes; the SQLite driver
turns them into fixed-width ISO-8601 text (which sorts chronologically) and
:func:`to_datetime` reads either form back.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Callable
from typing import Any, cast

from storage.models import MAX_KEY_LENGTH, JsonObject

Clock = Callable[[], dt.datetime]
"""A function returning the current time as an aware UTC datetime."""


def utcnow() -> dt.datetime:
    """The default clock."""
    return dt.datetime.now(dt.UTC)


def encode_json(value: object, what: str = "value") -> str:
    """Serialise a JSON value; NaN and infinities are refused (JSON has no spelling for them)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON-serialisable: {exc}") from exc


def encode_object(value: object, what: str) -> str:
    """Serialise a value that must be a JSON object (a dict with string keys)."""
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a JSON object (dict), not {type(value).__name__}")
    return encode_json(value, what)


def encode_list(value: object, what: str) -> str:
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a JSON array (list), not {type(value).__name__}")
    return encode_json(value, what)


def decode_json(text: str) -> Any:
    return json.loads(text)


def decode_object(text: str) -> JsonObject:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError(f"stored JSON is not an object: {text[:80]!r}")
    return value


def decode_objects(texts: list[str]) -> list[JsonObject]:
    """Decode many stored JSON objects at once (one parse of ``[a,b,…]``: far cheaper than
    one ``json.loads`` per value when recovering thousands of log entries)."""
    values = json.loads("[" + ",".join(texts) + "]") if texts else []
    for value in values:
        if not isinstance(value, dict):
            raise ValueError(f"stored JSON is not an object: {json.dumps(value)[:80]}")
    return cast(list[JsonObject], values)


def text(value: object, what: str) -> str:
    """Check a free-text value: a string without NUL (PostgreSQL text cannot hold NUL)."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise ValueError(f"{what} must not contain NUL characters")
    return value


def key(value: object, what: str) -> str:
    """Check a key value: non-empty text of at most ``MAX_KEY_LENGTH`` characters."""
    checked = text(value, what)
    if not checked:
        raise ValueError(f"{what} must not be empty")
    if len(checked) > MAX_KEY_LENGTH:
        raise ValueError(f"{what} is longer than {MAX_KEY_LENGTH} characters")
    return checked


def integer(value: object, what: str, *, minimum: int | None = None) -> int:
    """Check an integer (``bool`` is refused: ``True`` is not a sequence number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be an integer, not {type(value).__name__}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{what} must be at least {minimum}, not {value}")
    return value


def optional_integer(value: object, what: str) -> int | None:
    return None if value is None else integer(value, what)


def finite(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a number, not {type(value).__name__}")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{what} must be finite")
    return result


def aware(value: object, what: str) -> dt.datetime:
    """Check a timezone-aware datetime and return it converted to UTC."""
    if not isinstance(value, dt.datetime):
        raise ValueError(f"{what} must be a datetime, not {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (UTC), got a naive datetime")
    return value.astimezone(dt.UTC)


def optional_aware(value: object, what: str) -> dt.datetime | None:
    return None if value is None else aware(value, what)


def timestamp_text(value: dt.datetime) -> str:
    """Fixed-width ISO-8601 UTC text, e.g. ``2025-01-31T18:05:00.000000+00:00``."""
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def to_datetime(value: object) -> dt.datetime:
    """Read a timestamp column (a datetime from asyncpg, ISO text from SQLite) as aware UTC."""
    if isinstance(value, str):
        result = dt.datetime.fromisoformat(value)
    elif isinstance(value, dt.datetime):
        result = value
    else:
        raise TypeError(f"not a timestamp: {value!r}")
    if result.tzinfo is dt.UTC:  # what both drivers give back for what the store wrote
        return result
    if result.tzinfo is None:
        return result.replace(tzinfo=dt.UTC)
    return result.astimezone(dt.UTC)


def to_optional_datetime(value: object) -> dt.datetime | None:
    return None if value is None else to_datetime(value)
