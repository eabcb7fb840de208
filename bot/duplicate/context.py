"""What every part of the duplicate service shares (``docs/duplicate.md``): the store, the
table service, the clock and the AI settings (:class:`DuplicateContext`), the refusal
(:class:`DuplicateError`) and the lookups each part makes the same way: the guild's event,
its window, a ready entrant, an entrant's unique name, a board's deal, a play's tag.

Nothing here imports ``discord``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from bot.duplicate.boards import Board
from bot.duplicate.records import Tag
from bot.duplicate.scoring import Method
from bot.i18n import N_
from bot.i18n.said import SaidError
from bot.service.clock import Clock
from bot.service.tables import TableService
from games.ai import Budget
from storage.base import Store
from storage.duplicate import DuplicateBoard, DuplicateEntrant, DuplicateEvent, DuplicatePlay

MAX_BOARDS = 36
AI_LEVEL = "search"
# Translators: Why a duplicate board's table was closed, after "The table was closed: " (the
# board's results are shown above it on the web, sent in a private message on Discord).
BOARD_OVER = N_("the board is over, and its results are shown to you")
BOARD_META = "duplicate"
"""The key of a board's table's ``meta`` naming its event and board: a table that has it
deals a duplicate board, whose cards reach only those who finished it."""


class DuplicateError(SaidError):
    """A duplicate request refused, with a message for the user; nothing changed."""


@dataclass(frozen=True)
class DuplicateContext:
    """The dependencies of the duplicate service's parts, and the lookups they share.

    ``ai_level`` is the AI in the empty seats and of the reference play (``search``; tests
    may choose a faster one); ``ai_pace`` the AI players' pace at the boards' tables;
    ``budget`` the reference play's thinking budget."""

    store: Store
    tables: TableService
    clock: Clock
    budget: Budget
    ai_level: str
    ai_pace: float | None

    async def event(self, event_id: int, guild_id: int) -> DuplicateEvent:
        """The guild's event (DuplicateError when it is not one of the guild's)."""
        event = await self.store.get_duplicate_event(event_id)
        if event is None or event.guild_id != guild_id:
            raise DuplicateError(N_("there is no duplicate event {event} here"), event=event_id)
        return event

    def check_window(self, event: DuplicateEvent) -> None:
        """Refuse (DuplicateError) unless the event is open and its window is now, by the
        service's clock."""
        now = self.clock.now()
        if event.status != "open" or now >= event.closes_at:
            raise DuplicateError(N_("the event {name} is closed"), name=event.name)
        if now < event.opens_at:
            local = event.opens_at.astimezone(ZoneInfo(event.time_zone))
            raise DuplicateError(N_("the event {name} opens at {time}"), name=event.name,
                                 time=f"{local:%Y-%m-%d %H:%M} ({event.time_zone})")

    async def ready_entrant(self, event: DuplicateEvent, user_id: int) -> DuplicateEntrant:
        """The entrant ``user_id`` belongs to, every member confirmed (DuplicateError
        otherwise)."""
        entrant = await self.store.duplicate_entrant_of(event.id, user_id)
        if entrant is None:
            raise DuplicateError(N_("you have not entered this event"))
        if not entrant.ready:
            raise DuplicateError(N_("your partner has not confirmed the entry yet"))
        return entrant

    async def unique_name(self, event_id: int, base: str) -> str:
        """``base``, numbered when an entrant of the event has it (names are the records'
        tags)."""
        taken = {e.name for e in await self.store.list_duplicate_entrants(event_id)}
        title, number = base, 2
        while title in taken:
            title = f"{base} ({number})"
            number += 1
        return title

    async def boards(self, event_id: int) -> dict[int, DuplicateBoard]:
        """The event's boards by number."""
        return {b.number: b for b in await self.store.list_duplicate_boards(event_id)}


def method_of(event: DuplicateEvent) -> Method:
    """How the event is scored: IMPs or matchpoints."""
    return "imps" if event.scoring == "imps" else "matchpoints"


def directions_of(event: DuplicateEvent) -> list[tuple[int, ...]]:
    """The event's directions: the game's sides (tuples of seats)."""
    return board_of(event, DuplicateBoard(event.id, 1, "x", 0)).sides()


def board_of(event: DuplicateEvent, board: DuplicateBoard) -> Board:
    """The stored board as the deal every entrant of the event plays."""
    return Board(event.game, board.number, board.seed, board.dealer, event.players,
                 dict(event.options))


def tag_of(event: DuplicateEvent, entrant: DuplicateEntrant, play: DuplicatePlay) -> Tag:
    """The tag of an entrant's play of a board in its record (what the scoring reads)."""
    return Tag(str(event.id), play.board, event.boards, entrant.name, play.direction,
               method_of(event))


def hands_of(record: Mapping[str, Any]) -> list[list[str]]:
    """The hands as dealt of the board's played deal (the last deal of its record)."""
    deals = record.get("deals") or []
    return [list(h) for h in (deals[-1].get("hands") or [])] if deals else []
