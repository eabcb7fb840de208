"""The web server's budgets (``docs/web.md``, "Limits"): token buckets, the same per key
(a client address, a user), a bounded memory of refused secrets, and a log filter that
turns a flood of identical complaints into a line a minute.

Pure bookkeeping on a monotonic clock the caller may replace (tests move it); no I/O.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]


@dataclass
class Bucket:
    """``burst`` requests at once, refilled at ``rate`` per second."""

    rate: float
    burst: float
    clock: Clock = time.monotonic
    tokens: float = -1.0
    at: float = 0.0

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst
        self.at = self.clock()

    def take(self) -> bool:
        """Spend one request; False (nothing spent) when the bucket is empty."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def give_back(self) -> None:
        """Return a request taken for something that turned out not to count (a token
        Discord accepted: only refusals are budgeted)."""
        self.tokens = min(self.burst, self.tokens + 1)


@dataclass
class Buckets:
    """One :class:`Bucket` per key (a client address, a user), at most ``keys`` of them: the
    least recently used is forgotten first (a forgotten key starts full again, so ``keys``
    is set well above the number of clients a process serves at once)."""

    rate: float
    burst: float
    keys: int = 10_000
    clock: Clock = time.monotonic
    _held: OrderedDict[object, Bucket] = field(default_factory=OrderedDict)

    def take(self, key: object) -> bool:
        bucket = self._held.get(key)
        if bucket is None:
            bucket = self._held[key] = Bucket(self.rate, self.burst, self.clock)
            while len(self._held) > self.keys:
                self._held.popitem(last=False)
        else:
            self._held.move_to_end(key)
        return bucket.take()


@dataclass
class Recent:
    """Secrets seen lately — tokens Discord refused, relay passes used — kept as SHA-256
    digests (never the secret) for ``ttl`` seconds, at most ``size`` of them."""

    ttl: float
    size: int = 10_000
    clock: Clock = time.monotonic
    _held: OrderedDict[bytes, float] = field(default_factory=OrderedDict)

    @staticmethod
    def _digest(secret: str) -> bytes:
        return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).digest()

    def add(self, secret: str) -> None:
        digest = self._digest(secret)
        self._held.pop(digest, None)
        self._held[digest] = self.clock() + self.ttl
        while len(self._held) > self.size:
            self._held.popitem(last=False)

    def __contains__(self, secret: object) -> bool:
        if not isinstance(secret, str):
            return False
        digest = self._digest(secret)
        until = self._held.get(digest)
        if until is None:
            return False
        if until <= self.clock():
            del self._held[digest]
            return False
        return True


class Throttle(logging.Filter):
    """At most ``lines`` records a ``period`` per logger and level; what it holds back is
    counted and said in the next record let through. Records of ``aiohttp.server`` (a
    malformed request, a client gone) lose their traceback: one line each."""

    def __init__(self, lines: int = 10, period: float = 60.0, clock: Clock = time.monotonic
                 ) -> None:
        super().__init__()
        self.lines = lines
        self.period = period
        self.clock = clock
        self._windows: dict[tuple[str, int], tuple[float, int, int]] = {}
        """(logger, level) → (window start, records let through, records held back)."""

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno)
        now = self.clock()
        start, passed, held = self._windows.get(key, (now, 0, 0))
        if now - start >= self.period:
            start, passed = now, 0
        if passed >= self.lines:
            self._windows[key] = (start, passed, held + 1)
            return False
        self._windows[key] = (start, passed + 1, 0)
        if record.name.startswith("aiohttp") and record.exc_info:
            exc = record.exc_info[1]
            record.msg = f"{record.getMessage()}: {exc!r}"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        if held:
            record.msg = f"{record.getMessage()} ({held} similar lines held back)"
            record.args = None
        return True


THROTTLED = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "bot.web.viewer",
             "bot.web.activity", "bot.web.relay", "bot.web.server")
"""The loggers a client can make write (:func:`throttle_logs`; a logger's filter does not
apply to its children, so each is named)."""

_throttle = Throttle()


def throttle_logs() -> Throttle:
    """Put the one :class:`Throttle` on every logger of :data:`THROTTLED` (once)."""
    for name in THROTTLED:
        logger = logging.getLogger(name)
        if _throttle not in logger.filters:
            logger.addFilter(_throttle)
    return _throttle
