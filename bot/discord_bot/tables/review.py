"""The deal review in Discord: a **Review** button under each deal result, and a private,
paged view of the finished deal (◀ ▶).

The pages are :func:`bot.words.review.review_pages` of the table's match record
(:meth:`TableService.record`: the live match's, or the stored one once the table is
finished), so the review works after a restart and after the match, from the store alone.
Players are named from the table's row in the store (names escaped for Discord).

Who may review: anybody who can click the button, i.e. the players and anyone in the
channel — the button is only posted with the deal's result, and the review tells only
finished deals (a deal still in play is refused: its hands are secret).

``custom_id``: ``tt:r:<table>:<deal>:<page>`` (:mod:`~bot.discord_bot.ids`; the version
slot carries the 0-based deal). The button on the public result opens page 1 as an
ephemeral message; ◀ ▶ on that message turn its pages in place.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any, Self

import discord

from bot.discord_bot.answer import Reply, UserError, answer, update_in_place
from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ids import CustomIdKind, custom_id
from bot.discord_bot.languages import Languages
from bot.discord_bot.router import ButtonItem
from bot.discord_bot.tables.table_words import seating_of
from bot.i18n import N_, Translator
from bot.service import NoSuchTable, TableService
from bot.service.seats import seats_from_json
from bot.words.review import review_pages, seating_for
from bot.words.text import Text
from storage import Store

Interaction = discord.Interaction[discord.Client]


@dataclass(frozen=True)
class ReviewSource:
    """Where reviews are read from: the service (live records) and the store (names)."""

    service: TableService
    store: Store
    languages: Languages

    async def pages(self, table_id: int, deal: int, t: Translator) -> list[Text]:
        """The review pages of deal ``deal`` (0-based) of the table's match, in ``t``'s
        language."""
        try:
            record = await self.service.record(table_id)
        except NoSuchTable:
            raise UserError(N_("There is no record of that table's match.")) from None
        deals = record.get("deals") or []
        if not 0 <= deal < len(deals):
            raise UserError(N_("That deal is not in the table's record."))
        row = await self.store.get_table(table_id)
        seating = None
        if row is not None:
            seats = seats_from_json(row.seats)
            if len(seats) == int(record.get("players", len(seats))):
                seating = seating_of(row.game, seats, row.options, t)
        pages = review_pages(record, seating or seating_for(record, t=t), deal=deal,
                             with_match=False)
        if not pages:
            raise UserError(N_("That deal has nothing to review."))
        return pages


_SOURCES: weakref.WeakKeyDictionary[discord.Client, ReviewSource] = (
    weakref.WeakKeyDictionary())


def bind_reviews(client: discord.Client, source: ReviewSource) -> None:
    """Serve the review clicks ``client`` receives from ``source``."""
    _SOURCES[client] = source


def review_view(table_id: int, deal: int, t: Translator) -> discord.ui.View:
    """The **Review** button of a deal result."""
    v = discord.ui.View(timeout=None)
    v.add_item(ReviewButton(table_id, deal, 0, label=clip(t.gettext("Review"), 80),
                            emoji="🔎"))
    return v


def page_reply(table_id: int, deal: int, pages: list[Text], page: int, t: Translator, *,
               ephemeral: bool) -> Reply:
    """Page ``page`` (clamped) with ◀ ▶ when there are several."""
    page = max(0, min(page, len(pages) - 1))
    shown = pages[page]
    v = discord.ui.View(timeout=None)
    if len(pages) > 1:
        v.add_item(ReviewButton(table_id, deal, page - 1, label="◀", disabled=page == 0,
                                tag="p"))
        v.add_item(discord.ui.Button(label=f"{page + 1} / {len(pages)}", disabled=True,
                                     custom_id=custom_id(CustomIdKind.REVIEW, table_id, deal,
                                                         "count")))
        v.add_item(ReviewButton(table_id, deal, page + 1, label="▶",
                                disabled=page == len(pages) - 1, tag="n"))
    content = t.gettext("**{title}** — table {table}").format(title=shown.title,
                                                               table=table_id)
    return Reply(clip(f"{content}\n{shown.body}"), view=v, ephemeral=ephemeral)


class ReviewButton(ButtonItem,
                   template=CustomIdKind.REVIEW.template(
                       r"(?P<table>\d+):(?P<deal>\d+):(?P<page>-?\d+)(?P<tag>[pn]?)")):
    """**Review** (page 1, a new private message) or ◀ ▶ (turn the page in place)."""

    def __init__(self, table: int, deal: int, page: int, *, label: str = "",
                 emoji: str | None = None, disabled: bool = False, tag: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or None, emoji=emoji, disabled=disabled,
            style=discord.ButtonStyle.secondary,
            custom_id=custom_id(CustomIdKind.REVIEW, table, deal, f"{page}{tag}")))
        self.table, self.deal, self.page, self.tag = table, deal, page, tag

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["table"]), int(match["deal"]), int(match["page"]),
                   tag=match["tag"])

    async def callback(self, interaction: Interaction) -> None:
        source = _SOURCES.get(interaction.client)
        if source is None:
            raise RuntimeError("no review source is bound to this client")
        turning = bool(self.tag)
        t = await source.languages.reader(interaction)

        async def run() -> Reply:
            pages = await source.pages(self.table, self.deal, t)
            return page_reply(self.table, self.deal, pages, self.page, t,
                              ephemeral=not turning)

        if turning:
            await update_in_place(interaction, run, t=t)
        else:
            await answer(interaction, run, t=t, private_wait=True)


REVIEW_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ReviewButton,)
"""The review's component classes (registered with the router's)."""
