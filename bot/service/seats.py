"""Who sits where: human players by user id, AI players by level.

A table's seats are a list indexed by seat number; ``None`` is an empty seat (lobby only).
Seats are stored in the table row as JSON (:meth:`Seat.to_json`), with the state that
timers need across restarts: the count of turn timeouts in a row and whether an AI has
taken the seat over while its player is away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from bot.service.events import SeatJSON
from games.ai import LEVELS

SeatKind = Literal["human", "ai"]

AWAY_AFTER = 3
"""Turn timeouts in a row after which an AI takes the seat over until its player returns."""


def default_ai_name(level: str) -> str:
    """The stored name of an AI seat added without a name (``AI (rules)``): not for players'
    eyes; :func:`bot.words.players.player_name` words such a seat ``AI n (level)``."""
    return f"AI ({level})"


@dataclass(frozen=True, slots=True)
class Seat:
    """One occupied seat. ``user_id`` is set for humans, ``level`` for AI players.

    ``timeouts``: the human's turn timeouts in a row; ``away``: an AI (of ``standin``
    level) plays this seat until the player acts again or says they are back.
    """

    kind: SeatKind
    name: str
    user_id: int | None = None
    level: str | None = None
    timeouts: int = 0
    away: bool = False

    @staticmethod
    def human(user_id: int, name: str) -> Seat:
        return Seat("human", name, user_id=user_id)

    @staticmethod
    def ai(level: str, name: str | None = None) -> Seat:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r} (one of {', '.join(LEVELS)})")
        return Seat("ai", name or default_ai_name(level), level=level)

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    @property
    def auto(self) -> bool:
        """Whether the service plays this seat by itself (an AI, or a human away)."""
        return self.kind == "ai" or self.away

    def with_timeout(self) -> Seat:
        count = self.timeouts + 1
        return replace(self, timeouts=count, away=self.away or count >= AWAY_AFTER)

    def returned(self) -> Seat:
        return replace(self, timeouts=0, away=False)

    def to_json(self) -> SeatJSON:
        out: SeatJSON = {"kind": self.kind, "name": self.name}
        if self.user_id is not None:
            out["user_id"] = self.user_id
        if self.level is not None:
            out["level"] = self.level
        if self.timeouts:
            out["timeouts"] = self.timeouts
        if self.away:
            out["away"] = True
        return out

    @staticmethod
    def from_json(obj: Any) -> Seat | None:
        if obj is None:
            return None
        return Seat(
            kind=obj["kind"],
            name=str(obj.get("name", "")),
            user_id=obj.get("user_id"),
            level=obj.get("level"),
            timeouts=int(obj.get("timeouts", 0)),
            away=bool(obj.get("away", False)),
        )


def seats_to_json(seats: Sequence[Seat | None]) -> list[Any]:
    return [None if s is None else s.to_json() for s in seats]


def seats_from_json(raw: Sequence[Any]) -> list[Seat | None]:
    return [Seat.from_json(s) for s in raw]


def seat_of(seats: Sequence[Seat | None], user_id: int) -> int | None:
    """The seat where ``user_id`` sits, if any."""
    for i, s in enumerate(seats):
        if s is not None and s.user_id == user_id:
            return i
    return None
