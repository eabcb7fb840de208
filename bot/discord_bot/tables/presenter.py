"""One :class:`TablePresenter` per open table: its public message, the trick log, the
table picture and the messages of their own (results, notices) in its channel.

The presenter keeps what it wants shown (the trick log, the closing note) and draws the
public message from **one snapshot** of the table per redraw (:meth:`TableService.info` and
the public view, read together without an ``await`` in between). Edits are coalesced by
its :class:`~bot.discord_bot.tables.delivery.LiveMessage`: a change waits ``edit_delay`` (a burst
of AI plays lands in one edit) and two edits are at least ``edit_interval`` seconds apart
(``ai_edit_interval`` while only AI players are to act); as the bot nears its REST budget
the message is edited once per trick, then once per deal (:mod:`bot.discord_bot.
rest_budget`); an unchanged drawing costs
nothing; a failed edit is retried until it lands or a newer drawing replaces it; a deleted
message is posted anew; a message older than ``message_max_age`` is replaced by a fresh one
(its old buttons keep working anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_bot.answer import Reply
from bot.discord_bot.drawing.pictures import table_picture
from bot.discord_bot.drawing.safe import NO_PINGS, pings, safe_name
from bot.discord_bot.drawing.texts import (
    clip,
    display_names,
    lobby_text,
    plain_name,
    score_line,
    table_text,
    trick_log_entry,
)
from bot.discord_bot.languages import Languages
from bot.discord_bot.rest_budget import LIVE, PER_DEAL, TABLE, process_budget
from bot.discord_bot.router import (
    AddAIButton,
    BackButton,
    JoinButton,
    LeaveButton,
    MyHandButton,
    StartButton,
)
from bot.discord_bot.tables.board_end import FinalBoard, board_number, ends_board, final_key
from bot.discord_bot.tables.delivery import Drawn, LiveMessage
from bot.discord_bot.tables.options_panel import OptionsButton
from bot.discord_bot.tables.review import review_view
from bot.discord_bot.tables.table_words import (
    deal_result_text,
    match_result_text,
    signal_note,
    worded_view,
)
from bot.discord_bot.tables.web_play import WebPlay, web_table_text
from bot.discord_bot.tables.web_table import TableOpener, opener_of, web_users
from bot.i18n import N_, Translator
from bot.service import NoSuchTable, TableEvent, TableInfo, TableService
from bot.service.errors import abandon_reason
from bot.service.events import DealScoredData, MatchOverData, data_of, game_data
from bot.settings import Settings
from games.event_types import PlayData, TrickData
from games.view_types import GameView
from storage import Store

log = logging.getLogger(__name__)

LOBBY_AI_BUTTONS: tuple[tuple[str, str], ...] = (
    ("search", N_("Add AI: search (strong)")),
    ("rules", N_("Add AI: rules")),
    ("random", N_("Add AI: random")),
)
"""The lobby's second row: one button per AI level, each seating that AI in the first free
seat."""


@dataclass
class PublicDrawing:
    content: str
    ui_view: discord.ui.View | None
    picture: bytes | None
    key: str

    def reply(self, images: bool) -> Reply:
        return Reply(content=self.content, view=self.ui_view,
                     files=[("table.png", self.picture)] if self.picture else [],
                     clear_files=images)


MATCH_OVER = N_("**The match is over.**")
TABLE_CLOSED = N_("**This table is closed.**")

Worded = Callable[[Translator], str]
"""A message worded when it is posted, in the server's language of that moment."""


def lobby_view(info: TableInfo, t: Translator, opener: TableOpener | None = None
               ) -> discord.ui.View:
    """The lobby's buttons (**Open table** too when the web table is served)."""
    v = discord.ui.View(timeout=None)
    table = info.id
    v.add_item(JoinButton(table, label=t.gettext("Join"), style=discord.ButtonStyle.success,
                          row=0))
    v.add_item(LeaveButton(table, label=t.gettext("Leave"), row=0))
    v.add_item(StartButton(table, label=t.gettext("Start"), style=discord.ButtonStyle.primary,
                           row=0))
    v.add_item(OptionsButton(table, t, row=0))
    for level, label in LOBBY_AI_BUTTONS:
        v.add_item(AddAIButton(table, level, label=clip(t.gettext(label), 80), row=1))
    if opener is not None:
        v.add_item(opener.button(table, t, row=1))
    return v


class TablePresenter:
    """The public side of one table (see the module docstring)."""

    def __init__(self, client: discord.Client, service: TableService, store: Store,
                 settings: Settings, languages: Languages, *, table_id: int, channel_id: int,
                 guild_id: int | None, message_id: int | None, creator: int | None,
                 images: bool) -> None:
        self.client, self.service, self.store, self.settings = client, service, store, settings
        self.languages = languages
        """The server's language is looked up at every drawing and post (it may change)."""
        self.table_id, self.channel_id, self.guild_id = table_id, channel_id, guild_id
        self.creator = creator
        self.images = images
        self.log: list[TrickData] = []
        """The deal's last tricks (``trick`` event data), worded when drawn."""
        self.notes: list[PlayData] = []
        """The deal's last three signalled leads (``play`` event data), worded when drawn."""
        self.info: TableInfo | None = None
        """The newest snapshot seen (the results of a closed table are worded from it)."""
        self.to_act: tuple[int, ...] = ()
        """Who is to act, from the newest ``turn`` event (it paces the edits)."""
        self.closed = False
        self.closing_note = TABLE_CLOSED
        """A message id (``N_``), worded when the last drawing is made."""
        self.last_text = ""
        self.last_edit = 0.0
        self.meta: dict[str, Any] = {}
        """The table's ``meta`` as last read (a board's table is known by it)."""
        self.final: FinalBoard | None = None
        """A duplicate board's end, once its deal is scored: the last drawing of every
        display of the table (:mod:`bot.discord_bot.tables.board_end`)."""
        self._post_lock = asyncio.Lock()
        self._picture_failed = False
        """Whether a table picture failed to draw (logged once)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.web = WebPlay(client, table_id)
        """Who plays on the web (:mod:`bot.discord_bot.tables.web_play`)."""
        self._tricks = self._deals = 0
        """Tricks and deal ends seen (the budget may hold the edits until the next)."""
        self._drawn_at = (0, 0)
        """``(_tricks, _deals)`` when the message was last drawn."""
        self.last_result: DealScoredData | None = None
        """The last deal's result: the table message of a table played on the web shows
        it (with the match's score)."""
        self.live = LiveMessage(f"table {table_id} public message", self._draw,
                                message_id=message_id, wait_before=self._pace,
                                on_sent=self._sent)
        with contextlib.suppress(NoSuchTable):
            self.info = service.info(table_id)
        self._read_meta()

    def _read_meta(self) -> dict[str, Any]:
        """The table's ``meta`` now, or the last read when the table is gone."""
        with contextlib.suppress(NoSuchTable):
            self.meta = dict(self.service.meta(self.table_id) or {})
        return self.meta

    @property
    def message_id(self) -> int | None:
        return self.live.message_id

    def link(self) -> str:
        if self.live.message_id is None:
            return f"<#{self.channel_id}>"
        return (f"https://discord.com/channels/{self.guild_id or '@me'}/{self.channel_id}/"
                f"{self.live.message_id}")

    # -- events -------------------------------------------------------------------------
    def on_event(self, event: TableEvent) -> None:
        """Take one public event of the table (in order) and redraw soon."""
        kind = event.type
        if self.info is None or kind in ("started", "lobby"):
            with contextlib.suppress(NoSuchTable):
                self.info = self.service.info(self.table_id)
            self._read_meta()
        if kind == "turn":
            self.to_act = tuple(data_of(event, "turn")["to_act"])
        elif kind == "deal_started":
            self.log.clear()
            self.notes.clear()
            self._deals += 1
        elif kind == "play" and game_data(event, "play").get("signal"):
            self.notes = [*self.notes, game_data(event, "play").copy()][-3:]
        elif kind == "trick":
            self._tricks += 1
            self.log.append(game_data(event, "trick").copy())
            del self.log[:-5]
        elif kind == "deal_scored":
            scored = data_of(event, "deal_scored")
            deal = scored["deal"]
            meta = self._read_meta()
            board = board_number(meta)
            if board is not None and ends_board(meta, scored.get("summary") or {}):
                self.final = FinalBoard.of(board, scored)  # the table message shows it
                self.live.mark()
                return
            self.last_result = scored
            if not self.played_on_web():  # else the table message's next edit shows it
                self.post(lambda t: self._deal_result(scored, t),
                          ui_view=lambda t: review_view(self.table_id, deal, t))
        elif kind == "match_over":
            self.post_match_result(data_of(event, "match_over"))
            self.close(MATCH_OVER)
        elif kind == "abandoned" and self.final is not None:
            self.close(TABLE_CLOSED)  # the final drawing says it all
        elif kind == "abandoned":
            closed = data_of(event, "abandoned")
            self.post(lambda t: t.gettext("Table {table} was closed: {reason}.").format(
                table=self.table_id, reason=safe_name(abandon_reason(closed, t))))
            self.close(TABLE_CLOSED)
        elif kind == "timeout":
            seat = data_of(event, "timeout")["seat"]
            self.post(lambda t: t.gettext("⏱ Time ran out for {player}: an AI played for "
                                          "them.").format(player=self._seat_label(seat, t)),
                      ping=self._user_of(seat))
        elif kind == "away":
            seat = data_of(event, "away")["seat"]
            self.post(lambda t: t.gettext(
                "{player} seems to be away: an AI plays their seat until they press "
                "**I'm back**.").format(player=self._seat_label(seat, t)))
        self.live.mark()

    def played_on_web(self) -> bool:
        """Whether every human of the table plays on the web now
        (:mod:`bot.discord_bot.tables.web_play`)."""
        try:
            return self.web.all_on_web(self.service.info(self.table_id))
        except NoSuchTable:
            return False

    def post_closed(self) -> None:
        """Post that the table was closed (found gone after a resync)."""
        self.post(lambda t: t.gettext("Table {table} was closed.").format(table=self.table_id))

    def post_match_result(self, data: MatchOverData) -> None:
        """Post the match result (from a ``match_over`` event or the stored match)."""
        self.post(lambda t: self._match_result(data, t))

    def close(self, note: str) -> None:
        self.closed = True
        self.closing_note = note
        self.live.mark()

    def stop(self) -> None:
        self.live.close()
        for task in self._tasks:
            task.cancel()

    # -- drawing ------------------------------------------------------------------------
    async def drawing(self) -> PublicDrawing | None:
        """The public message now (one snapshot), or None when the table is gone."""
        try:
            info = self.service.info(self.table_id)
            game_view = (self.service.view(self.table_id, None)
                         if info.status == "playing" else None)
        except NoSuchTable:
            return None
        t = await self.languages.server(self.guild_id)
        if game_view is not None:
            game_view = worded_view(info, game_view, t)
        self.info = info
        self.to_act = info.to_act
        if game_view is not None and self.web.all_on_web(info):
            return self._web_drawing(info, t)
        if game_view is None:
            text = lobby_text(info, self.creator, t)
            components: discord.ui.View | None = (
                lobby_view(info, t, opener_of(self.client)) if info.status == "lobby"
                else None)
            picture = None
        else:
            names = display_names(info.seats, t)
            log = [trick_log_entry(entry, names) for entry in self.log]
            notes = [signal_note(info, note, t) for note in self.notes]
            text = table_text(info, game_view, log, notes, t)
            components = discord.ui.View(timeout=None)
            components.add_item(MyHandButton(self.table_id, label=clip(t.gettext("My hand"), 80),
                                             style=discord.ButtonStyle.primary))
            if any(s is not None and s.away for s in info.seats):
                components.add_item(BackButton(self.table_id,
                                               label=clip(t.gettext("I'm back"), 80),
                                               style=discord.ButtonStyle.success))
            if (opener := opener_of(self.client)) is not None:
                components.add_item(opener.button(self.table_id, t))
            picture = await self._picture(info, game_view, t) if self.images else None
        text = clip(text + self._on_the_web(t))
        key = "\x00".join([text, repr([c.to_component_dict() for c in components.children])
                           if components else "", str(hash(picture)) if picture else ""])
        return PublicDrawing(text, components, picture, key)

    def _web_drawing(self, info: TableInfo, t: Translator) -> PublicDrawing:
        """The table message while every human plays on the web: who plays, the score,
        the links; the same drawing all deal long (:mod:`bot.discord_bot.tables.web_play`)."""
        result = self.last_result
        text = web_table_text(info, None if result is None else self._deal_result(result, t),
                              t)
        components = discord.ui.View(timeout=None)
        components.add_item(MyHandButton(self.table_id, label=clip(t.gettext("My hand"), 80),
                                         style=discord.ButtonStyle.secondary))
        if (opener := opener_of(self.client)) is not None:
            components.add_item(opener.button(self.table_id, t))
        if result is not None:
            for item in review_view(self.table_id, int(result.get("deal", 0)), t).children:
                components.add_item(item)
        text = clip(text + self._on_the_web(t))
        key = "\x00".join(["web", text, repr([c.to_component_dict()
                                               for c in components.children])])
        return PublicDrawing(text, components, None, key)

    def _on_the_web(self, t: Translator) -> str:
        """The line naming who has the table open on the web (a page or the Activity;
        :func:`~bot.discord_bot.tables.web_table.web_users`), as mentions: no user text, and the
        public message never pings (``NO_PINGS``); empty when nobody has."""
        users = web_users(self.client, self.table_id)
        if not users:
            return ""
        return "\n" + t.gettext("🌐 On the web: {players}").format(
            players=", ".join(f"<@{user}>" for user in users))

    async def _picture(self, info: TableInfo, game_view: GameView, t: Translator
                       ) -> bytes | None:
        """The table picture of the public ``game_view``, or None when it cannot be drawn: a
        picture never blocks the text, the message goes without it. The first failure of
        the table is logged, as a warning naming the error (the picture is drawn from the
        public view only: no hidden card can be in it)."""
        names = [plain_name(s, i, t) for i, s in enumerate(info.seats)]
        try:
            return await table_picture(game_view, names, score_line(info, game_view, t))
        except Exception as exc:
            if not self._picture_failed:
                self._picture_failed = True
                log.warning("table %s: the table picture could not be drawn (%s: %s); the "
                            "public message goes without it", self.table_id,
                            type(exc).__name__, exc)
            return None

    def shown(self, drawing: PublicDrawing, message_id: int | None = None) -> None:
        """The drawing was shown by an interaction's answer (a lobby click)."""
        self.live.shown_as(drawing.key, message_id)
        self.last_text = drawing.content
        self.last_edit = time.monotonic()

    async def _draw(self) -> Drawn | None:
        if self.live.message_id is None and (self.closed or self._is_lobby()):
            return None  # a lobby's first message is the /table new answer
        if self.final is not None and self.info is not None:
            t = await self.languages.server(self.guild_id)
            text = self.final.table_text(self.info, t)
            self.last_text = text
            return Drawn(final_key(self.final, t.language), self._sender(text, None, None),
                         self._editor(text, None, None, clear=True))
        self._drawn_at = (self._tricks, self._deals)
        drawing = await self.drawing()
        if drawing is None:
            if not self.closed or self.live.message_id is None:
                return None
            t = await self.languages.server(self.guild_id)
            text = clip(self.last_text + "\n" + t.gettext(self.closing_note))
            return Drawn("closed", self._sender(text, None, None),
                         self._editor(text, None, None, clear=True))
        self.last_text = drawing.content
        if self.live.message_id is not None and self._age() > self.settings.message_max_age:
            old = self.live.message_id
            self.live.message_id, self.live.shown = None, None
            self._spawn(self._delete(old))
        return Drawn(drawing.key, self._sender(drawing.content, drawing.ui_view, drawing.picture),
                     self._editor(drawing.content, drawing.ui_view, drawing.picture,
                                  clear=self.images))

    def _sender(self, text: str, ui_view: discord.ui.View | None, picture: bytes | None
                ) -> Callable[[], Awaitable[int]]:
        async def send() -> int:
            kwargs: dict[str, Any] = {"content": text, "allowed_mentions": NO_PINGS}
            if ui_view is not None:
                kwargs["view"] = ui_view
            if picture is not None:
                kwargs["file"] = discord.File(io.BytesIO(picture), filename="table.png")
            msg = await self.client.get_partial_messageable(self.channel_id).send(**kwargs)
            self.last_edit = time.monotonic()
            return msg.id
        return send

    def _editor(self, text: str, ui_view: discord.ui.View | None, picture: bytes | None, *,
                clear: bool) -> Callable[[int], Awaitable[None]]:
        async def edit(message_id: int) -> None:
            kwargs: dict[str, Any] = {"content": text, "view": ui_view}
            if picture is not None:
                kwargs["attachments"] = [discord.File(io.BytesIO(picture),
                                                      filename="table.png")]
            elif clear:
                kwargs["attachments"] = []
            await self._message(message_id).edit(**kwargs)
            self.last_edit = time.monotonic()
        return edit

    async def _sent(self, message_id: int) -> None:
        await self.save(message_id=message_id)

    async def save(self, *, message_id: int | None = None, creator: int | None = None
                   ) -> None:
        """Record the public message (and host) in the store."""
        try:
            if creator is not None:
                await self.store.save_table_message(self.table_id, channel_id=self.channel_id,
                                                    creator=creator)
            if message_id is not None:
                await self.store.save_table_message(self.table_id, channel_id=self.channel_id,
                                                    message_id=message_id)
        except Exception:
            log.exception("table %s: could not record its public message", self.table_id)

    async def _pace(self) -> None:
        await asyncio.sleep(self.settings.edit_delay)
        while True:
            wait = self.last_edit + self._interval() - time.monotonic()
            if wait <= 0 and not self._slowed():
                return
            # re-checked: a human's turn shortens it, the budget's level may fall
            await asyncio.sleep(min(max(wait, 0.05), 0.25))

    def _slowed(self) -> bool:
        """Whether the bot's REST budget holds this edit (:mod:`bot.discord_bot.
        rest_budget`): at ``PER_TRICK`` until a trick ended since the last drawing, at
        ``PER_DEAL`` and above until the deal ended. Never a lobby, a closing or a
        first message."""
        level = process_budget().level
        info = self.info
        if (level == LIVE or self.closed or info is None or info.status != "playing"
                or self.live.message_id is None):
            return False
        tricks, deals = self._drawn_at
        if deals != self._deals:
            return False
        return level >= PER_DEAL or tricks == self._tricks

    def _interval(self) -> float:
        """``edit_interval`` while a human is to act (or in the lobby),
        ``ai_edit_interval`` while only AI players are playing."""
        info = self.info
        if info is None or info.status != "playing" or any(
                (s := info.seats[i]) is not None and not s.auto for i in self.to_act
                if i < len(info.seats)):
            return self.settings.edit_interval
        return max(self.settings.edit_interval, self.settings.ai_edit_interval)

    def _is_lobby(self) -> bool:
        return self.info is not None and self.info.status == "lobby"

    def _age(self) -> float:
        if self.live.message_id is None:
            return 0.0
        made = discord.utils.snowflake_time(self.live.message_id)
        return (dt.datetime.now(dt.UTC) - made).total_seconds()

    def _message(self, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(self.channel_id).get_partial_message(
            message_id)

    async def _delete(self, message_id: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self._message(message_id).delete()

    # -- messages of their own ------------------------------------------------------------
    def post(self, content: Worded, *, ping: tuple[int, ...] = (),
             ui_view: Callable[[Translator], discord.ui.View] | None = None) -> None:
        """A message of its own in the table's channel (results, notices), in order,
        worded in the server's language when it is sent; only the users in ``ping`` are
        notified (:func:`~bot.discord_bot.drawing.safe.pings`)."""
        self._spawn(self._post(content, ping, ui_view))

    async def _post(self, content: Worded, ping: tuple[int, ...] = (),
                    ui_view: Callable[[Translator], discord.ui.View] | None = None) -> None:
        async with self._post_lock:
            t = await self.languages.server(self.guild_id)
            text = clip(content(t))
            extra: dict[str, Any] = {} if ui_view is None else {"view": ui_view(t)}
            for attempt in range(4):
                await process_budget().take(_table_urgency)  # counted ahead, as an edit
                try:
                    await self.client.get_partial_messageable(self.channel_id).send(
                        text, allowed_mentions=pings(ping), **extra)
                    return
                except discord.HTTPException as exc:
                    if (exc.status < 500 and exc.status != 429) or attempt == 3:
                        log.warning("table %s: could not post to channel %s (%s)",
                                    self.table_id, self.channel_id, exc.status)
                        return
                await asyncio.sleep(0.5 * 2 ** attempt)

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the posts under way (for an orderly close)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _user_of(self, seat: int) -> tuple[int, ...]:
        """The user of a human seat (to ping), none for an AI or a free seat."""
        info = self.info
        s = info.seats[seat] if info is not None and 0 <= seat < len(info.seats) else None
        return () if s is None or s.is_ai or s.user_id is None else (s.user_id,)

    def _seat_label(self, seat: int, t: Translator) -> str:
        info = self.info
        if info is None or not 0 <= seat < len(info.seats) or info.seats[seat] is None:
            return t.gettext("a player")
        s = info.seats[seat]
        assert s is not None
        return plain_name(s, seat, t) if s.is_ai else f"<@{s.user_id}>"

    def _deal_result(self, data: DealScoredData, t: Translator) -> str:
        """The deal result in players' words (:mod:`bot.discord_bot.tables.table_words`)."""
        info = self.info
        if info is None:
            return t.gettext("**Deal {deal} of table {table} is over.**").format(
                deal=t.number(int(data.get("deal", 0)) + 1), table=self.table_id)
        return deal_result_text(info, data, t)

    def _match_result(self, data: MatchOverData, t: Translator) -> str:
        """The match result in players' words (:mod:`bot.discord_bot.tables.table_words`)."""
        info = self.info
        if info is None:
            return t.gettext("🏁 **The match at table {table} is over.**").format(
                table=self.table_id)
        return match_result_text(info, data, t)


def _table_urgency() -> int:
    """A message of its own waits at the REST budget as the table message does."""
    return TABLE
