"""Signed links to the web table: a key bound to one user and one table, expiring.

A key is ``<payload>.<signature>`` (both base64url, no padding): the payload is
``table.user.role.expires`` (``role`` ``seat``: the user's seat, whichever it is when the
page connects; ``watch``: the public view), the signature HMAC-SHA256 of the payload under
the web secret. The key travels in the page URL's fragment (``/#k=KEY``), which a browser
never sends to a server or in a ``Referer``, and reaches the server in the socket's first
frame. :func:`verify` checks the signature in constant time, then the expiry; the caller
checks that the user still sits at the table (a player who left or was removed has no
seat, so their link opens nothing).

The secret (:func:`secret_from`) is ``TRICKTABLE_WEB_SECRET`` when set (at least 32
characters), else one generated for the process.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from typing import Literal

Role = Literal["seat", "watch"]
ROLES: tuple[Role, ...] = ("seat", "watch")
SECRET_ENV = "TRICKTABLE_WEB_SECRET"
MIN_SECRET = 32
DEFAULT_TTL = 12 * 3600
"""Seconds a link works (renewed whenever the bot hands out a new one)."""
MAX_KEY = 256
_KEY = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", re.ASCII)
"""A key's shape (base64url payload and signature); anything else is forged, checked
before any decoding (a non-ASCII key never reaches the HMAC)."""


class BadLink(Exception):
    """The key is not one this server signed, or it expired (``code`` says which)."""

    def __init__(self, code: Literal["forged", "expired"]) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Pass:
    """What a verified key admits: ``user`` at ``table`` as ``role`` until ``expires``
    (seconds since the epoch)."""

    table: int
    user: int
    role: Role
    expires: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, payload: str) -> str:
    return _b64(hmac.new(secret, payload.encode("ascii"), hashlib.sha256).digest())


def sign(secret: bytes, p: Pass) -> str:
    """The key of ``p``."""
    payload = _b64(f"{p.table}.{p.user}.{p.role}.{p.expires}".encode("ascii"))
    return f"{payload}.{_mac(secret, payload)}"


def issue(secret: bytes, table: int, user: int, role: Role, now: float,
          ttl: int = DEFAULT_TTL) -> str:
    """A key for ``user`` at ``table`` working ``ttl`` seconds from ``now``."""
    return sign(secret, Pass(table, user, role, int(now) + ttl))


def verify(secret: bytes, key: object, now: float) -> Pass:
    """The pass of a key this server signed and that has not expired; else
    :class:`BadLink`."""
    if not isinstance(key, str) or len(key) > MAX_KEY or not _KEY.fullmatch(key):
        raise BadLink("forged")
    payload, mac = key.split(".")
    if not hmac.compare_digest(_mac(secret, payload), mac):
        raise BadLink("forged")
    try:
        table, user, role, expires = _unb64(payload).decode("ascii").split(".")
        p = Pass(int(table), int(user), role, int(expires))  # type: ignore[arg-type]
    except (ValueError, UnicodeError):  # signed by us: only a change of format gets here
        raise BadLink("forged") from None
    if p.role not in ROLES:
        raise BadLink("forged")
    if p.expires <= now:
        raise BadLink("expired")
    return p


def secret_from(environ: dict[str, str] | None = None) -> bytes:
    """``TRICKTABLE_WEB_SECRET`` (ValueError when shorter than :data:`MIN_SECRET`), else a
    new random secret (links then work until the process stops)."""
    value = (os.environ if environ is None else environ).get(SECRET_ENV, "")
    if value:
        if len(value) < MIN_SECRET:
            raise ValueError(f"{SECRET_ENV} must be at least {MIN_SECRET} characters")
        return value.encode("utf-8")
    return secrets.token_bytes(32)
