"""The **Review** of a duplicate board: a button under the board's reveal DM, and a
private, paged view (◀ ▶) of the board as the entrant played it.

A board's table is closed without a match (``docs/duplicate.md``), so its review reads the
entrant's stored play (``duplicate_plays.record``) instead of the table's match, through
the same :func:`bot.words.review.review_pages` as a table's review; players are named from
the table's row. Who may review: a member of the entrant that finished the board — or
anyone once the event is closed (then the records are public in the results thread).

``custom_id``: ``dup:rv:<event>:<board>:<entrant>:<page>[p|n]``.
"""

from __future__ import annotations

import re
import weakref
from typing import Any, Self

import discord

from bot.discord_bot.answer import Reply, UserError, answer, update_in_place
from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ids import CustomIdKind
from bot.discord_bot.languages import Languages
from bot.discord_bot.router import ButtonItem
from bot.discord_bot.tables.table_words import seating_of
from bot.i18n import N_, Translator
from bot.service.seats import seats_from_json
from bot.words.review import review_pages, seating_for
from bot.words.text import Text
from storage.base import Store


class ReviewSource:
    """Where the board reviews are read from (bound to the client by the cog)."""

    def __init__(self, store: Store, languages: Languages) -> None:
        self.store, self.languages = store, languages

    async def pages(self, event_id: int, board: int, entrant_id: int, user_id: int,
                    t: Translator) -> list[Text]:
        event = await self.store.get_duplicate_event(event_id)
        play = await self.store.get_duplicate_play(entrant_id, board)
        mine = None if event is None else await self.store.duplicate_entrant_of(event.id,
                                                                                user_id)
        allowed = event is not None and (event.status == "closed" or (
            mine is not None and mine.id == entrant_id))
        if not allowed or play is None or play.record is None or play.event_id != event_id:
            raise UserError(N_("you see a board's results once you have finished it"))
        seating = None
        row = None if play.table_id is None else await self.store.get_table(play.table_id)
        if row is not None:
            seating = seating_of(row.game, seats_from_json(row.seats), row.options, t)
        pages = review_pages(play.record, seating or seating_for(play.record, t=t), deal=len(
            play.record.get("deals", [])) - 1, with_match=False)
        if not pages:
            raise UserError(N_("That deal has nothing to review."))
        return pages


_SOURCES: weakref.WeakKeyDictionary[discord.Client, ReviewSource] = (
    weakref.WeakKeyDictionary())


def bind(client: discord.Client, source: ReviewSource) -> None:
    """Serve the board-review clicks ``client`` receives from ``source``."""
    _SOURCES[client] = source


def review_view(event_id: int, board: int, entrant_id: int, t: Translator) -> discord.ui.View:
    """The **Review** button under a board's reveal."""
    view = discord.ui.View(timeout=None)
    view.add_item(BoardReview(event_id, board, entrant_id, 0,
                              label=clip(t.gettext("Review"), 80), emoji="🔎"))
    return view


def page_reply(event_id: int, board: int, entrant_id: int, pages: list[Text], page: int,
               *, ephemeral: bool) -> Reply:
    """Page ``page`` (clamped) with ◀ ▶ when there are several."""
    page = max(0, min(page, len(pages) - 1))
    shown = pages[page]
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        view.add_item(BoardReview(event_id, board, entrant_id, page - 1, label="◀",
                                  disabled=page == 0, tag="p"))
        view.add_item(discord.ui.Button(label=f"{page + 1} / {len(pages)}", disabled=True,
                                        custom_id=f"{CustomIdKind.BOARD_REVIEW}:{event_id}:{board}:count"))
        view.add_item(BoardReview(event_id, board, entrant_id, page + 1, label="▶",
                                  disabled=page == len(pages) - 1, tag="n"))
    return Reply(clip(f"**{shown.title}**\n{shown.body}", 2000), view=view,
                 ephemeral=ephemeral)


class BoardReview(ButtonItem, template=CustomIdKind.BOARD_REVIEW.template(
        r"(?P<event>\d+):(?P<board>\d+):(?P<entrant>\d+):(?P<page>-?\d+)(?P<tag>[pn]?)")):
    """**Review** (page 1, a new private message) or ◀ ▶ (turn the page in place)."""

    def __init__(self, event: int, board: int, entrant: int, page: int, *, label: str = "",
                 emoji: str | None = None, disabled: bool = False, tag: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or None, emoji=emoji, disabled=disabled,
            style=discord.ButtonStyle.secondary,
            custom_id=f"{CustomIdKind.BOARD_REVIEW}:{event}:{board}:{entrant}:{page}{tag}"))
        self.event, self.board, self.entrant, self.page, self.tag = (
            event, board, entrant, page, tag)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["event"]), int(match["board"]), int(match["entrant"]),
                   int(match["page"]), tag=match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        source = _SOURCES.get(interaction.client)
        if source is None:
            raise RuntimeError("no duplicate review source is bound to this client")
        turning = bool(self.tag)
        t = await source.languages.reader(interaction)

        async def run() -> Reply:
            pages = await source.pages(self.event, self.board, self.entrant,
                                       interaction.user.id, t)
            return page_reply(self.event, self.board, self.entrant, pages, self.page,
                              ephemeral=not turning)

        if turning:
            await update_in_place(interaction, run, t=t)
        else:
            await answer(interaction, run, t=t, private_wait=True)
