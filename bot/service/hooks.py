"""The ratings hook: what the service calls when a match has been recorded.

A later feature (ratings, leagues) implements :class:`RatingsHook`. The service calls
``match_finished`` once per match, after the result and the full record are stored and
before the table is marked finished. If the process dies inside that window, recovery
finishes the table again and calls the hook a second time with the same ``match_id``, so
an implementation must be idempotent per match (``Store.record_ratings`` already is).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from storage.models import Location, Participant


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A match that has just been recorded."""

    table_id: int
    match_id: int
    game: str
    location: Location
    guild_id: int | None
    rated: bool
    participants: tuple[Participant, ...]
    summary: dict[str, Any]
    """The match summary (``totals``, ``winner``, … of ``records.md``)."""


class RatingsHook(Protocol):
    async def match_finished(self, match: FinishedMatch) -> None: ...


class NoRatings:
    """The default hook: does nothing."""

    async def match_finished(self, match: FinishedMatch) -> None:
        return None
