"""What the table service calls out to: the ratings hook and the observer.

**Ratings.** A later feature (ratings, leagues) implements :class:`RatingsHook`. The
service calls ``match_finished`` once per match, after the result and the full record are
stored and before the table is marked finished. If the process dies inside that window,
recovery finishes the table again and calls the hook a second time with the same
``match_id``, so an implementation must be idempotent per match (``Store.record_ratings``
already is).

**Observer.** An :class:`Observer` given to the service
(``TableService(store, observer=Observer(on_action=…))``) sees how long its work takes,
for benchmarks and diagnostics; it changes nothing the service does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from games.event_types import MatchSummary
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
    summary: MatchSummary
    """The match summary (``totals``, ``winner``, … of ``records.md``)."""


class RatingsHook(Protocol):
    async def match_finished(self, match: FinishedMatch) -> None: ...


class NoRatings:
    """The default hook: does nothing."""

    async def match_finished(self, match: FinishedMatch) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Observer:
    """Callbacks that see the table service's work (module docstring). Each is called on
    the event loop, synchronously, so it must be quick and must not raise. A callback left
    ``None`` costs nothing: the service then does not even read the time for it."""

    on_action: Callable[[float], None] | None = None
    """Called after every accepted action (human, AI or timeout) with the seconds its
    submission took: waiting for the table's lock, the rules check, the durable append,
    publishing its events and starting the table's next AI turn or timer. Not called for
    a refused action."""
    on_ai_choice: Callable[[float], None] | None = None
    """Called after every AI decision (an AI turn, or the stand-in's move at a timeout)
    with the seconds from when the turn began waiting (for one of the service's AI slots,
    then for the AI pool; a timeout's decision: from when it was asked) to the chosen
    move."""
