"""The end of a duplicate board at its table, on every display at once.

A board's table (its ``meta`` has :data:`~bot.duplicate.context.BOARD_META`) deals one
board and is closed when that deal is scored: no next deal comes. From the moment the
board's ``deal_scored`` is seen (:func:`ends_board`), the table's public message, every
seat's hand DM and **My hand** panel show one final drawing each, with no control: the
board's number, its result in words and where the reveal comes (a new direct message, or
the board's thread for a player whose DMs are closed). A final drawing depends on nothing
that changes later, so its key is fixed: no later redraw of an older state can replace it
(:class:`~bot.discord_bot.tables.delivery.LiveMessage` draws the newest wanted state, and
the final one is the last).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.tables.table_words import table_seating
from bot.duplicate.context import BOARD_META
from bot.i18n import Translator
from bot.service import NoSuchTable, TableInfo, TableService
from bot.service.events import DealScoredData
from bot.words.results import deal_result
from games.event_types import DealSummary
from games.records import replay
from games.registry import GAMES


def board_number(meta: Mapping[str, Any] | None) -> int | None:
    """The board a table deals (1-based), or None when it is not a board's table."""
    board = (meta or {}).get(BOARD_META)
    if not isinstance(board, Mapping):
        return None
    number = board.get("board")
    return number if isinstance(number, int) else None


def ends_board(meta: Mapping[str, Any] | None, summary: Mapping[str, Any]) -> bool:
    """Whether a scored deal with ``summary`` ends the board of a table with ``meta``: a
    board's table deals one board; a redeal (a Truf misdeal) is not it."""
    return board_number(meta) is not None and not summary.get("redeal")


@dataclass(frozen=True, slots=True)
class FinalBoard:
    """A board's end as its table saw it: the board's number and its scored deal."""

    board: int
    deal: int
    summary: DealSummary

    @staticmethod
    def of(board: int, data: DealScoredData) -> FinalBoard:
        return FinalBoard(board, int(data.get("deal", 0)), data.get("summary") or {})

    def result_lines(self, info: TableInfo, t: Translator) -> tuple[str, ...]:
        """The board's result in words (no running score: a board is one deal)."""
        return deal_result(table_seating(info, t), self.summary, number=self.deal).lines

    def heading(self, info: TableInfo, t: Translator) -> str:
        # Translators: The head of a duplicate board's table once its deal is over: {game} a
        # game's name, {table} the table's number, {board} the board's number.
        return t.gettext("**{game}** — table {table}: **board {board} is over.**").format(
            game=GAMES[info.game].title, table=info.id, board=t.number(self.board))

    def table_text(self, info: TableInfo, t: Translator) -> str:
        """The table's public message, final."""
        lines = [self.heading(info, t), *self.result_lines(info, t)]
        # Translators: The last line of a duplicate board's table message: where each
        # player's reveal of the board comes.
        lines.append(t.gettext("Each player's results of the board (the traveller, the hands "
                               "as dealt and the AI's result) come by direct message, or in "
                               "this thread to a player whose direct messages are closed."))
        return clip("\n".join(lines))

    def panel_text(self, info: TableInfo, t: Translator, *, dm_closed: bool,
                   channel_id: int) -> str:
        """A seat's hand DM or **My hand** panel, final."""
        lines = [self.heading(info, t), *self.result_lines(info, t)]
        if dm_closed:
            # Translators: A duplicate player's panel once the board is over, when their
            # direct messages are closed: {channel} the board's thread.
            lines.append(t.gettext("Your results of the board come in {channel}.").format(
                channel=f"<#{channel_id}>"))
        else:
            # Translators: A duplicate player's panel once the board is over.
            lines.append(t.gettext("Your results of the board come in a new direct "
                                   "message."))
        return clip("\n".join(lines), 1990)


async def final_at(service: TableService, table_id: int) -> FinalBoard | None:
    """The end of a board whose deal was scored before this process took its table (a
    restart between the deal's end and the table's close): the table is a board's, in
    play, with no deal in progress; its last deal's summary comes from replaying the
    match's record. None for any other table."""
    try:
        board = board_number(service.meta(table_id))
        info = service.info(table_id)
    except NoSuchTable:
        return None
    if board is None or info.status != "playing" or info.deal == 0:
        return None
    try:
        service.view(table_id, None)
        return None  # a deal in play (the board's, or a redeal's)
    except NoSuchTable:
        pass
    record = await service.record(table_id)
    out, status = await asyncio.to_thread(replay, {**record, "options": info.options})
    deals = out.get("deals") or []
    if status != 0 or not deals:
        return None
    return FinalBoard(board, len(deals) - 1, deals[-1])


def final_key(board: FinalBoard, language: str, *, dm_closed: bool = False) -> str:
    """The key of a final drawing: fixed for the board, the reader's language and where
    the reveal goes."""
    return f"board-over:{board.board}:{int(dm_closed)}|{language}"


def no_controls() -> discord.ui.View:
    """An empty view: editing a panel to it removes every control."""
    return discord.ui.View(timeout=None)
