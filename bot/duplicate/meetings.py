"""Two pairs at one table (pairs events of two directions).

One pair asks (an :class:`Invitation`); the other accepts by asking back; then both start
one board neither has started, together (one transaction), from its two directions, and
the one deal is each pair's result from its direction.

An invitation is stored (``storage.duplicate``, ``duplicate_invitations``) before it is
answered, so it survives a restart: the other pair can still accept it afterwards. It is
kept until the pair accepts or the same pair's next invitation replaces it; it has no
expiry of its own and lapses with the event's window (a closed event refuses to meet).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.duplicate.context import DuplicateContext, DuplicateError, directions_of
from bot.duplicate.seating import BoardTables, PlaceOfMeeting, PlayStart
from bot.i18n import N_
from games.registry import GAMES
from storage.duplicate import DuplicateEntrant


@dataclass(frozen=True)
class Invitation:
    """A pair asked another to meet at one table; ``to`` accepts by asking back."""

    by: DuplicateEntrant
    to: DuplicateEntrant
    board: int | None


class Meetings:
    """Asks and accepts meetings of two pairs (see the module docstring)."""

    def __init__(self, context: DuplicateContext, tables: BoardTables) -> None:
        self.context = context
        self.tables = tables

    async def meet(self, event_id: int, guild_id: int, user_id: int, opponent_id: int,
                   names: Mapping[int, str], location: PlaceOfMeeting,
                   board: int | None = None) -> PlayStart | Invitation:
        """Meet the pair of ``opponent_id`` at one table (pairs events). The first call asks
        (an :class:`Invitation`, stored until the pair accepts or another invitation of
        the same pair replaces it, across restarts); the other pair accepts by asking
        back, and then both start the lowest board neither has started, from its two
        directions (the first to ask takes the less-played one); or ``board`` (asked by
        either), refused when either pair has started it. ``location(board, members)``
        gives the table's place for the members of both pairs. A refusal changes
        nothing."""
        context, store = self.context, self.context.store
        event = await context.event(event_id, guild_id)
        context.check_window(event)
        if event.format != "pairs" or len(directions_of(event)) != 2:
            raise DuplicateError(N_("in {game} only two sides can meet at one table"),
                                 game=GAMES[event.game].title)
        mine = await context.ready_entrant(event, user_id)
        theirs = await store.duplicate_entrant_of(event.id, opponent_id)
        if theirs is None or not theirs.ready:
            raise DuplicateError(N_("the pair you want to meet has not entered this event "
                                    "or is not confirmed yet"))
        if theirs.id == mine.id:
            raise DuplicateError(N_("you meet another pair, not your own"))
        invited = await store.get_duplicate_invitation(event.id, theirs.id)
        accepting = invited is not None and invited.invited_id == mine.id
        if accepting and board is None and invited is not None:
            board = invited.board  # the board the asking pair named, if any
        plays = await store.list_duplicate_plays(event.id)
        for entrant in (mine, theirs):
            if any(p.entrant_id == entrant.id and self.tables.under_way(p) for p in plays):
                raise DuplicateError(N_("{name} has a board under way: finish it first"),
                                     name=entrant.name)
        asked = board
        if board is not None and not 1 <= board <= event.boards:
            raise DuplicateError(N_("this event has boards 1 to {last}"), last=event.boards)
        for entrant in (mine, theirs):
            if board is not None and any(p.entrant_id == entrant.id and p.board == board
                                         for p in plays):
                raise DuplicateError(N_("{name} has already played board {board}"),
                                     name=entrant.name, board=board)
        started = {p.board for p in plays if p.entrant_id in (mine.id, theirs.id)}
        board = board or next((b for b in range(1, event.boards + 1) if b not in started),
                              None)
        if board is None:
            raise DuplicateError(N_("there is no board that neither pair has played"))
        if accepting and await store.take_duplicate_invitation(
                event.id, theirs.id, expected=invited) is None:
            # the other pair withdrew or replaced that invitation since it was read: this
            # call is then an invitation of ours, as if it had come first
            accepting = False
        if not accepting:
            await store.put_duplicate_invitation(event.id, mine.id, theirs.id, asked)
            return Invitation(mine, theirs, asked)
        return await self.tables.start_meeting(event, (theirs, mine), board, names, location)
