"""The table service: the async engine between the games and the front ends.

See :mod:`bot.service.tables` for the promises and ``docs/service.md`` for the guide.
Nothing here imports ``discord``: the Discord adapter, the terminal and the tests drive the
same code.
"""

from bot.service.clock import Clock, FakeClock, SystemClock
from bot.service.errors import (
    LobbyError,
    NoSuchTable,
    Rejected,
    RuleRefusal,
    SaveFailed,
    ServiceError,
    StaleAction,
    TableChanged,
)
from bot.service.events import Subscription, TableEvent
from bot.service.hooks import FinishedMatch, NoRatings, Observer, RatingsHook
from bot.service.live import LOBBY_IDLE, TableSettings
from bot.service.seats import AWAY_AFTER, Seat
from bot.service.tables import TableInfo, TableService

__all__ = [
    "AWAY_AFTER",
    "LOBBY_IDLE",
    "Clock",
    "FakeClock",
    "FinishedMatch",
    "LobbyError",
    "NoRatings",
    "NoSuchTable",
    "Observer",
    "RatingsHook",
    "Rejected",
    "RuleRefusal",
    "SaveFailed",
    "Seat",
    "ServiceError",
    "StaleAction",
    "Subscription",
    "SystemClock",
    "TableChanged",
    "TableEvent",
    "TableInfo",
    "TableService",
    "TableSettings",
]
