"""A finished duplicate board on the web table: its reveal as a
:class:`~bot.web.protocol.RevealFrame`, for the viewers entitled to it.

This module is glue at the composition root (:mod:`bot.app` wires it): it joins a feature,
duplicate nights (:mod:`bot.duplicate`), to a front end, the web table, which imports
neither it nor :mod:`bot.duplicate` and meets it only through
:class:`bot.web.reveals.Reveals` (``WebConfig.reveals``).

The rule is the duplicate service's (:meth:`bot.duplicate.reveals.BoardReveals.reveal`,
``docs/duplicate.md``): a board's traveller, hand record, AI result and review reach a
member of an entrant only once that entrant finished the board. The web asks it from the
table (:meth:`~bot.duplicate.reveals.BoardReveals.reveal_at_table`): when a seat's socket
sees its table closed at the board's end, and when a seat's link opens a table that is no
longer held (a reload after the end), and when the Activity finds no open table in its
channel but the user's entrant finished a board at one there lately
(:meth:`WebReveals.finished_table`). Spectators never ask. Every sentence comes from
:mod:`bot.duplicate.text` and :mod:`bot.words.review` in the viewer's language; names
travel as text (the page never reads them as HTML).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, Protocol

from bot.duplicate.context import BOARD_META, BOARD_OVER, directions_of
from bot.duplicate.reveals import Reveal
from bot.duplicate.text import ai_line, hand_record_lines, traveller_lines
from bot.i18n import Translator
from bot.service.seats import seats_from_json
from bot.web.frames import seat_names
from bot.web.protocol import VERSION, Page, RevealFrame
from bot.words.review import review_pages, seating_for
from bot.words.seating import Seating
from storage.base import Store
from storage.duplicate import DuplicateBoard
from storage.models import ChannelLocation


class DuplicateReveals(Protocol):
    """What the web needs of :class:`~bot.duplicate.service.DuplicateService`."""

    store: Store

    async def reveal_at_table(self, table_id: int, user_id: int) -> Reveal | None: ...


class WebReveals:
    """Reveal frames of a duplicate service's boards (module docstring): a
    :class:`bot.web.reveals.Reveals`."""

    ended = BOARD_OVER
    """Why a board's table was closed (the reason its ``abandoned`` event gives)."""

    def __init__(self, duplicate: DuplicateReveals) -> None:
        self.duplicate = duplicate

    def is_board(self, meta: Mapping[str, Any] | None) -> bool:
        """Whether the table whose ``meta`` this is plays a duplicate board."""
        return meta is not None and BOARD_META in meta

    async def frame(self, table: int, user: int, t: Translator) -> RevealFrame | None:
        """The reveal of the board played at ``table`` for ``user`` in ``t``'s words; None
        when ``user`` may see nothing of it (yet)."""
        reveal = await self.duplicate.reveal_at_table(table, user)
        if reveal is None:
            return None
        store = self.duplicate.store
        boards: dict[int, DuplicateBoard] = {
            b.number: b for b in await store.list_duplicate_boards(reveal.event.id)}
        board = boards.get(reveal.board)
        method = reveal.score.method
        traveller = traveller_lines(reveal.traveller, method, t)
        hands = hand_record_lines(directions_of(reveal.event), reveal.hands,
                                  None if board is None else board.dealer, t,
                                  reveal.event.game)
        return {
            "v": VERSION, "type": "reveal", "board": reveal.board, "title": traveller[0],
            "event": reveal.event.name, "traveller": traveller[1:],
            # Translators: A heading above the four hands as dealt.
            "hands_title": t.gettext("The hands as dealt:"), "hands": hands,
            "ai": ai_line(reveal.ai_result, reveal.own, method, t),
            "review": await self._review(reveal, t), "review_label": t.gettext("Review"),
        }

    async def finished_table(self, where: ChannelLocation, user: int,
                             since: dt.datetime) -> int | None:
        """The table at ``where`` of the board an entrant ``user`` belongs to finished last,
        at or after ``since`` (None: none): a database read, so a table another process
        owned counts too. Its reveal still goes through :meth:`frame`."""
        return await self.duplicate.store.last_finished_duplicate_table(
            where.guild_id, where.channel_id, user, since)

    async def _review(self, reveal: Reveal, t: Translator) -> list[Page]:
        """The board as the entrant played it, trick by trick; players named from the
        table's row (the table is closed by now)."""
        record = reveal.play.record
        if record is None:
            return []
        seating: Seating | None = None
        table = reveal.play.table_id
        row = None if table is None else await self.duplicate.store.get_table(table)
        if row is not None:
            seating = Seating.of(row.game, seat_names(seats_from_json(row.seats), t),
                                 row.options, t=t)
        pages = review_pages(record, seating or seating_for(record, t=t),
                             deal=len(record.get("deals", [])) - 1, with_match=False)
        return [{"title": p.title, "lines": list(p.lines)} for p in pages]
