"""Playing a duplicate board: an entrant's next board (or the one under way), a named
board, and the board's table.

A ready entrant (every member confirmed) plays its boards in order, one at a time, at a
table the front end gives (a place of its own): the board's seed, dealer and options, its
members in the seats of the direction the store assigns (the least-played one), the
event's AI players in every other seat. The table is limited to the board's one deal
(``meta["deal_limit"]``), so it never deals a second hand. A table survives a restart like
any other (the table service rebuilds it); ``play`` while a board is under way answers with
that board's table. A board is started once by an entrant: a second start is refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.duplicate.boards import Board
from bot.duplicate.context import BOARD_META, DuplicateContext, DuplicateError, board_of
from bot.i18n import N_
from bot.service.live import DEAL_LIMIT
from bot.service.seats import Seat
from storage.duplicate import AlreadyPlayed, DuplicateEntrant, DuplicateEvent, DuplicatePlay
from storage.models import Location

PlaceOfBoard = Callable[[int], Awaitable[Location]]
"""``location(board)``: the place of an entrant's own table for that board."""
PlaceOfMeeting = Callable[[int, Sequence[int]], Awaitable[Location]]
"""``location(board, members)``: the place of a meeting's table for the members of both
pairs."""


@dataclass(frozen=True)
class PlayStart:
    """Where an entrant plays a board: the table, the board and its direction, and
    whether the board was already under way (``resumed``)."""

    table_id: int
    board: int
    direction: int
    resumed: bool


class BoardTables:
    """Starts entrants' boards at their tables (see the module docstring)."""

    def __init__(self, context: DuplicateContext) -> None:
        self.context = context

    async def play(self, event_id: int, guild_id: int, user_id: int,
                   names: Mapping[int, str], location: PlaceOfBoard) -> PlayStart:
        """Play the entrant's next board (or get back to the one under way).
        ``location(board)`` gives the place of the entrant's own table; ``names`` the
        members' display names."""
        context = self.context
        event = await context.event(event_id, guild_id)
        context.check_window(event)
        entrant = await context.ready_entrant(event, user_id)
        plays = {p.board: p for p in await context.store.list_duplicate_plays(event.id)
                 if p.entrant_id == entrant.id}
        for p in plays.values():
            if self.under_way(p):
                assert p.table_id is not None
                return PlayStart(p.table_id, p.board, p.direction, True)
        board_no = next((b for b in range(1, event.boards + 1) if b not in plays), None)
        if board_no is None:
            raise DuplicateError(N_("you have played every board of this event"))
        return await self._start(event, entrant, board_no, names, location)

    async def play_board(self, event_id: int, guild_id: int, user_id: int, board: int,
                         names: Mapping[int, str], location: PlaceOfBoard) -> PlayStart:
        """Start a given board (a second start of a board is refused)."""
        context = self.context
        event = await context.event(event_id, guild_id)
        context.check_window(event)
        entrant = await context.store.duplicate_entrant_of(event.id, user_id)
        if entrant is None or not entrant.ready:
            raise DuplicateError(N_("you have not entered this event"))
        if not 1 <= board <= event.boards:
            raise DuplicateError(N_("this event has boards 1 to {last}"), last=event.boards)
        return await self._start(event, entrant, board, names, location)

    def under_way(self, play: DuplicatePlay) -> bool:
        """The play is being played at a table this process holds."""
        return (play.status == "playing" and play.table_id is not None
                and self.context.tables.holds(play.table_id))

    async def start_meeting(self, event: DuplicateEvent,
                            pair: tuple[DuplicateEntrant, DuplicateEntrant], number: int,
                            names: Mapping[int, str], location: PlaceOfMeeting) -> PlayStart:
        """Start board ``number`` for two pairs at one table, in one transaction: the first
        pair from the less-played direction, the second from the other (DuplicateError,
        nothing started, when either has started it). The start is the second pair's."""
        board = board_of(event, (await self.context.boards(event.id))[number])
        try:
            plays = await self.context.store.start_duplicate_meeting(
                event.id, (pair[0].id, pair[1].id), number)
        except AlreadyPlayed:  # the other pair started it a moment ago
            raise DuplicateError(N_("one of the pairs has already played board {board}"),
                                 board=number) from None
        members = [m for entrant in pair for m in entrant.members]
        table_id = await self._open_table(event, board, list(zip(pair, plays, strict=True)),
                                          names, await location(number, members))
        return PlayStart(table_id, number, plays[1].direction, False)

    async def _start(self, event: DuplicateEvent, entrant: DuplicateEntrant, number: int,
                     names: Mapping[int, str], location: PlaceOfBoard) -> PlayStart:
        board = board_of(event, (await self.context.boards(event.id))[number])
        sides = board.sides()
        try:
            play = await self.context.store.start_duplicate_play(event.id, entrant.id, number,
                                                                 len(sides))
        except AlreadyPlayed:
            raise DuplicateError(N_("you have already played board {board}"),
                                 board=number) from None
        table_id = await self._open_table(event, board, [(entrant, play)], names,
                                          await location(number))
        return PlayStart(table_id, number, play.direction, False)

    async def _open_table(self, event: DuplicateEvent, board: Board,
                          entrants: Sequence[tuple[DuplicateEntrant, DuplicatePlay]],
                          names: Mapping[int, str], place: Location) -> int:
        """Open and start the board's table: each entrant's members in the seats of its
        play's direction, the event's AI players in every other seat."""
        context = self.context
        sides = board.sides()
        seats: list[Seat | None] = [Seat.ai(context.ai_level) for _ in range(board.players)]
        for entrant, play in entrants:
            for seat, member in zip(sides[play.direction], entrant.members, strict=False):
                seats[seat] = Seat.human(member, names.get(member, "?"))
        table_id = await context.tables.create_table(
            place, event.game, options=event.options, players=event.players,
            seed=board.seed, first_dealer=board.dealer, seats=seats, standin=context.ai_level,
            ai_pace=context.ai_pace)
        for entrant, play in entrants:
            await context.store.set_duplicate_play_table(entrant.id, play.board, table_id)
        await context.tables.update_meta(table_id, **{DEAL_LIMIT: 1, BOARD_META: {
            "event": event.id, "board": board.number}})
        await context.tables.start_match(table_id)
        return table_id
