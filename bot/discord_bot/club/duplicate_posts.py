"""What the ``/duplicate`` cog posts without being asked: after each board, each member's
reveal by DM (or in the board's private thread when their DMs are closed); at the close,
the results thread (the ranking, each board's traveller and hand record, with a picture of
the four hands when the server's pictures are on, the records as one zip file) and every
member's score card by DM. Each piece of the close is claimed in the store first
(``claim_duplicate_post``), so nothing is posted twice, even across a restart. Every REST
call waits for its slot (:data:`POST_INTERVAL`).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import zipfile
from collections.abc import Callable
from typing import Any, Final

import discord
from discord.ext import commands

from bot.discord_bot.club.club_texts import clip, pages_of
from bot.discord_bot.club.duplicate_cards import my_results_view
from bot.discord_bot.club.duplicate_review import review_view
from bot.discord_bot.drawing.duplicate_pictures import hand_record_png
from bot.discord_bot.drawing.safe import NO_PINGS, pings, safe_name
from bot.discord_bot.languages import Languages
from bot.discord_bot.tables.web_table import link_button
from bot.duplicate.hands import board_hands
from bot.duplicate.service import DuplicateService, EventResults, directions_of
from bot.duplicate.text import (
    ai_text,
    card_lines,
    hand_record_lines,
    header_line,
    ranking_lines,
    reveal_lines,
    rules_line,
    traveller_lines,
)
from bot.i18n import Translator
from bot.setting_ranges import in_force
from storage import ChannelLocation
from storage.base import Store
from storage.duplicate import DuplicateEntrant, DuplicateEvent

log = logging.getLogger(__name__)

PUBLIC: Final = 0
"""The reader of the results thread's event page link: anyone (:mod:`bot.web_events`)."""
EventLink = Callable[[int, int, str], str]
"""``link(event, user, language)``: an event page's address (:mod:`bot.web_events`)."""

Picture = tuple[str, bytes]
"""A picture to attach: its file name and PNG bytes."""

MESSAGE_CHARS: Final = 1900
POST_INTERVAL: Final = 0.05
"""Seconds between two REST calls of the close's posting (at most 20 a second, under
Discord's global 50 with room for the tables)."""


class DuplicatePosts:
    """Posts the reveals and the close's results of the duplicate ``service``'s events (see
    the module docstring); one posting of a close at a time."""

    def __init__(self, bot: commands.Bot, store: Store, languages: Languages,
                 service: DuplicateService, event_link: EventLink | None = None) -> None:
        self.bot, self.store, self.languages, self.service = bot, store, languages, service
        self._posting: asyncio.Lock = asyncio.Lock()
        self._next_post = 0.0
        self.event_link = event_link
        """The event pages' link maker, when the web serves them (:mod:`bot.web_events`;
        given by :mod:`bot.app`): reveals and the ranking then link the event's page."""

    def with_page(self, view: discord.ui.View, event: DuplicateEvent, user: int,
                  t: Translator) -> discord.ui.View:
        """``view`` with an **Event page** link for ``user`` (``0``: the public link) when
        the web serves event pages."""
        if self.event_link is not None:
            button = link_button(self.event_link(event.id, user, t.language),
                                 t.gettext("Event page"))
            if button is not None:
                view.add_item(button)
        return view

    async def tell_board(self, event: DuplicateEvent, entrant: DuplicateEntrant,
                         board: int) -> None:
        """DM each member of the entrant what it may now see of the board; a member whose
        DMs are closed finds it in the board's private thread instead (the same readers)."""
        for member in entrant.members:
            reveal = await self.service.reveal(event.id, event.guild_id, member, board)
            t = await self.languages.player(member, event.guild_id)
            travel = reveal.score.travellers[board - 1]
            own = next((r.result for r in travel.rows if r.result.entrant == entrant.name),
                       None)
            boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
            lines = reveal_lines(event.game, directions_of(event), travel,
                                 reveal.score.method, reveal.hands, boards[board].dealer,
                                 reveal.ai_result, own, t, safe_name)
            title = t.gettext("{event}: board {board}").format(event=safe_name(event.name),
                                                               board=board)
            text = [f"**{title}**", *lines]
            view = self.with_page(review_view(event.id, board, entrant.id, t), event,
                                  member, t)
            picture = await self._diagram(event, reveal.hands, boards[board].dealer, board, t)
            if not await self.dm(member, text, view, picture):
                await self._to_thread(entrant.id, board, member, text, view, picture)

    async def _diagram(self, event: DuplicateEvent, hands: list[list[str]],
                       dealer: int | None, board: int, t: Translator) -> Picture | None:
        """The board's hand diagram (``board-N.png``) when the server's pictures are on."""
        if not hands or not in_force(await self.store.get_guild_settings(
                event.guild_id)).images:
            return None
        drawn = board_hands(directions_of(event), hands, dealer, t, event.game)
        title = t.gettext("Board {number}").format(number=t.number(board))
        png = await asyncio.to_thread(hand_record_png, drawn, len(hands), title)
        return f"board-{board}.png", png

    async def _paced(self) -> None:
        """Wait for the close's next message slot (:data:`POST_INTERVAL`)."""
        loop = asyncio.get_running_loop()
        wait = self._next_post - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._next_post = max(loop.time(), self._next_post) + POST_INTERVAL

    async def dm(self, user_id: int, lines: list[str],
                 view: discord.ui.View | None = None, picture: Picture | None = None
                 ) -> bool:
        """DM ``lines`` (paged, each REST call in its slot), ``view`` and ``picture`` with
        the last page; false when the member's DMs cannot be reached."""
        try:
            await self._paced()
            channel = await self.bot.create_dm(discord.Object(user_id))
            await self._send_pages(channel, lines, view, picture)
            return True
        except discord.HTTPException:
            log.info("could not DM user %s a duplicate message", user_id)
            return False

    async def _to_thread(self, entrant_id: int, board: int, member: int, lines: list[str],
                         view: discord.ui.View, picture: Picture | None = None) -> None:
        play = await self.store.get_duplicate_play(entrant_id, board)
        row = None if play is None or play.table_id is None else await self.store.get_table(
            play.table_id)
        if row is None or not isinstance(row.location, ChannelLocation):
            return
        channel = self.bot.get_channel(row.location.channel_id)
        if not isinstance(channel, discord.Thread):
            return
        await self._send_pages(channel, [f"<@{member}>", *lines], view, picture)

    async def _send_pages(self, channel: discord.abc.Messageable, lines: list[str],
                          view: discord.ui.View | None, picture: Picture | None) -> None:
        """``lines`` in pages (each in its slot), ``view`` and ``picture`` with the last."""
        pages = pages_of(lines, MESSAGE_CHARS)
        for n, page in enumerate(pages):
            await self._paced()
            extra: dict[str, Any] = {}
            if n == len(pages) - 1:
                if view is not None:
                    extra["view"] = view
                if picture is not None:
                    extra["file"] = discord.File(io.BytesIO(picture[1]), filename=picture[0])
            await channel.send("\n".join(page), allowed_mentions=NO_PINGS, **extra)

    async def post_results(self, event: DuplicateEvent) -> None:
        """The results thread and the score cards, each piece once (claimed first)."""
        async with self._posting:
            results = await self.service.results(event)
            t = await self.languages.server(event.guild_id)
            thread = await self._results_thread(event, t)
            if thread is not None:
                await self._post_thread(event, results, thread, t)
            await self._post_cards(event, results, thread)

    async def _results_thread(self, event: DuplicateEvent,
                              t: Translator) -> discord.abc.Messageable | None:
        if await self.store.claim_duplicate_post(event.id, "thread"):
            channel = self.bot.get_channel(event.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return None
            made = await channel.create_thread(
                name=clip(t.gettext("Results: {event}").format(event=event.name), 100),
                type=discord.ChannelType.public_thread)
            await self.store.set_duplicate_post_value(event.id, "thread", str(made.id))
            return made
        value = await self.store.duplicate_post_value(event.id, "thread")
        if value is None:
            return None
        found = self.bot.get_channel(int(value))
        return found if isinstance(found, discord.Thread) else None

    async def _post_thread(self, event: DuplicateEvent, results: EventResults,
                           thread: discord.abc.Messageable, t: Translator) -> None:
        score = results.score
        if await self.store.claim_duplicate_post(event.id, "ranking"):
            lines = [f"**{safe_name(event.name)}** — {header_line(event.game, score, t)}",
                     rules_line(event.game, event.options, t),
                     *ranking_lines(score, t, safe_name)]
            # every member's card, privately, on request; the event's page on the web
            await self._send_pages(thread, lines, self.with_page(
                my_results_view(event.id, t), event, PUBLIC, t), None)
        sides = directions_of(event)
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        for travel in score.travellers:
            if not await self.store.claim_duplicate_post(event.id, f"board:{travel.board}"):
                continue
            lines = traveller_lines(travel, score.method, t, safe_name)
            hands = results.hands.get(travel.board)
            picture: Picture | None = None
            if hands:
                dealer = boards[travel.board].dealer
                lines += ["", t.gettext("The hands as dealt:"),
                          *hand_record_lines(sides, hands, dealer, t, event.game)]
                picture = await self._diagram(event, hands, dealer, travel.board, t)
            await self._send_pages(thread, lines, None, picture)
        if results.records and await self.store.claim_duplicate_post(event.id, "records"):
            await self._paced()
            await thread.send(t.gettext("Every board's record (tricktable duplicate score "
                                        "reads the folder):"),
                              file=discord.File(io.BytesIO(records_zip(results)),
                                                filename=f"duplicate-{event.id}.zip"),
                              allowed_mentions=NO_PINGS)

    async def _post_cards(self, event: DuplicateEvent, results: EventResults,
                          thread: discord.abc.Messageable | None) -> None:
        """Each member's score card by DM; a member whose DMs are closed is named in the
        results thread, with the **My results** button that shows it privately."""
        for row in results.score.ranking:
            entrant = results.entrants[row.entrant]
            for member in entrant.members:
                if not await self.store.claim_duplicate_post(event.id, f"card:{member}"):
                    continue
                t = await self.languages.player(member, event.guild_id)
                card = await self.card_lines(event, results, row.entrant, t)
                if await self.dm(member, card) or thread is None:
                    continue
                server = await self.languages.server(event.guild_id)
                await self._paced()
                await thread.send(server.gettext(
                    "<@{member}>, I cannot send you direct messages: press **My results** "
                    "to see your score card here, privately.").format(member=member),
                    allowed_mentions=pings((member,)), view=my_results_view(event.id, server))

    async def card_lines(self, event: DuplicateEvent, results: EventResults, entrant: str,
                         t: Translator) -> list[str]:
        """An entrant's score card in ``t``'s language: its title and every board."""
        row = results.score.card(entrant)
        assert row is not None
        boards = {b.number: b for b in await self.store.list_duplicate_boards(event.id)}
        ai: dict[int, str] = {}
        for card in row.boards:
            if card.scored is not None:
                _, result = await self.service.ai_result(
                    event, boards[card.board], card.scored.result.direction)
                ai[card.board] = ai_text(result, results.score.method, t)
        rank = "–" if row.rank is None else t.number(row.rank)
        title = t.gettext("{event}: your score card (place {rank})").format(
            event=safe_name(event.name), rank=rank)
        return [f"**{title}**", *card_lines(row, results.score, ai, t)]

    async def card_of(self, event_id: int, user_id: int, t: Translator) -> list[str] | None:
        """The **My results** answer: ``user_id``'s score card in a closed event, None when
        they have none (:mod:`bot.discord_bot.club.duplicate_cards`)."""
        event = await self.store.get_duplicate_event(event_id)
        if event is None or event.status != "closed":
            return None
        entrant = await self.store.duplicate_entrant_of(event.id, user_id)
        if entrant is None:
            return None
        results = await self.service.results(event)
        if results.score.card(entrant.name) is None:
            return None
        return await self.card_lines(event, results, entrant.name, t)


def records_zip(results: EventResults) -> bytes:
    """Every board's tagged record as ``board-NN/<entrant>.json`` in one zip (a folder
    ``tricktable duplicate score`` reads once unpacked: flattened, one file per record)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, ((_, board), record) in enumerate(sorted(results.records.items())):
            archive.writestr(f"board{board:02d}-{n:04d}.json",
                             json.dumps(record, ensure_ascii=False))
    return out.getvalue()
