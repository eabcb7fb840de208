"""One :class:`TablePresenter` per open table: its public message, the trick log, the
table picture and the messages of their own (results, notices) in its channel.

The presenter keeps what it wants shown (the trick log, the closing note) and draws the
public message from **one snapshot** of the table per redraw (:meth:`TableService.info` and
the public view, read together without an ``await`` in between). Edits are coalesced by
its :class:`~bot.discord_bot.delivery.LiveMessage`: a change waits ``edit_delay`` (a burst
of AI plays lands in one edit) and two edits are at least ``edit_interval`` seconds apart
(``ai_edit_interval`` while only AI players are to act); an unchanged drawing costs
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
from bot.discord_bot.delivery import Drawn, LiveMessage
from bot.discord_bot.options_panel import OptionsButton
from bot.discord_bot.pictures import table_picture
from bot.discord_bot.review import review_view
from bot.discord_bot.router import (
    AddAIButton,
    BackButton,
    JoinButton,
    LeaveButton,
    MyHandButton,
    StartButton,
)
from bot.discord_bot.safe import pings, safe_name
from bot.discord_bot.table_words import (
    deal_result_text,
    match_result_text,
    signal_note,
    worded_view,
)
from bot.discord_bot.texts import (
    display_names,
    lobby_text,
    plain_name,
    score_line,
    table_text,
    trick_log_entry,
)
from bot.service import NoSuchTable, TableEvent, TableInfo, TableService
from bot.settings import Settings
from storage import Store

log = logging.getLogger(__name__)

LOBBY_AI_BUTTONS: tuple[tuple[str, str], ...] = (
    ("search", "Add AI: search (strong)"),
    ("rules", "Add AI: rules"),
    ("random", "Add AI: random"),
)
"""The lobby's second row: one button per AI level, each seating that AI in the first free
seat."""


@dataclass
class PublicDrawing:
    content: str
    view: discord.ui.View | None
    picture: bytes | None
    key: str

    def reply(self, images: bool) -> Reply:
        return Reply(content=self.content, view=self.view,
                     files=[("table.png", self.picture)] if self.picture else [],
                     clear_files=images)


def lobby_view(info: TableInfo) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    t = info.id
    v.add_item(JoinButton(t, label="Join", style=discord.ButtonStyle.success, row=0))
    v.add_item(LeaveButton(t, label="Leave", row=0))
    v.add_item(StartButton(t, label="Start", style=discord.ButtonStyle.primary, row=0))
    v.add_item(OptionsButton(t, row=0))
    for level, label in LOBBY_AI_BUTTONS:
        v.add_item(AddAIButton(t, level, label=label, row=1))
    return v


class TablePresenter:
    """The public side of one table (see the module docstring)."""

    def __init__(self, client: discord.Client, service: TableService, store: Store,
                 settings: Settings, *, table_id: int, channel_id: int,
                 guild_id: int | None, message_id: int | None, creator: int | None,
                 images: bool) -> None:
        self.client, self.service, self.store, self.settings = client, service, store, settings
        self.table_id, self.channel_id, self.guild_id = table_id, channel_id, guild_id
        self.creator = creator
        self.images = images
        self.log: list[str] = []
        self.notes: list[str] = []
        """Lines under the trick log: the deal's last three signals, in words."""
        self.info: TableInfo | None = None
        """The newest snapshot seen (the results of a closed table are worded from it)."""
        self.to_act: tuple[int, ...] = ()
        """Who is to act, from the newest ``turn`` event (it paces the edits)."""
        self.closed = False
        self.closing_note = "**This table is closed.**"
        self.last_text = ""
        self.last_edit = 0.0
        self._post_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self.live = LiveMessage(f"table {table_id} public message", self._draw,
                                message_id=message_id, wait_before=self._pace,
                                on_sent=self._sent)
        with contextlib.suppress(NoSuchTable):
            self.info = service.info(table_id)

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
        kind, data = event.type, event.data
        if self.info is None or kind in ("started", "lobby"):
            with contextlib.suppress(NoSuchTable):
                self.info = self.service.info(self.table_id)
        if kind == "turn":
            self.to_act = tuple(int(x) for x in data.get("to_act") or ())
        elif kind == "deal_started":
            self.log.clear()
            self.notes.clear()
        elif kind == "play" and data.get("signal") and self.info is not None:
            self.notes = [*self.notes, signal_note(self.info, dict(data))][-3:]
        elif kind == "trick":
            self.log.append(trick_log_entry(dict(data), self._names()))
            del self.log[:-5]
        elif kind == "deal_scored":
            self.post(self._deal_result(dict(data)),
                      view=review_view(self.table_id, int(data.get("deal", 0))))
        elif kind == "match_over":
            self.post(self._match_result(dict(data)))
            self.close("**The match is over.**")
        elif kind == "abandoned":
            self.post(f"Table {self.table_id} was closed: "
                      f"{safe_name(str(data.get('reason')))}.")
            self.close("**This table is closed.**")
        elif kind == "timeout":
            who = self._seat_label(int(data.get("seat", -1)))
            self.post(f"⏱ Time ran out for {who}: an AI played for them.",
                      ping=self._user_of(int(data.get("seat", -1))))
        elif kind == "away":
            who = self._seat_label(int(data.get("seat", -1)))
            self.post(f"{who} seems to be away: an AI plays their seat until they press "
                      "**I'm back**.")
        self.live.mark()

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
            view = (self.service.view(self.table_id, None)
                    if info.status == "playing" else None)
        except NoSuchTable:
            return None
        if view is not None:
            view = worded_view(info, view)
        self.info = info
        self.to_act = info.to_act
        if view is None:
            text = lobby_text(info, self.creator)
            components: discord.ui.View | None = (lobby_view(info) if info.status == "lobby"
                                                  else None)
            picture = None
        else:
            text = table_text(info, view, self.log, self.notes)
            components = discord.ui.View(timeout=None)
            components.add_item(MyHandButton(self.table_id, label="My hand",
                                             style=discord.ButtonStyle.primary))
            if any(s is not None and s.away for s in info.seats):
                components.add_item(BackButton(self.table_id, label="I'm back",
                                               style=discord.ButtonStyle.success))
            picture = None
            if self.images:
                names = [plain_name(s, i) for i, s in enumerate(info.seats)]
                picture = await table_picture(view, names, score_line(info, view))
        key = "\x00".join([text, repr([c.to_component_dict() for c in components.children])
                           if components else "", str(hash(picture)) if picture else ""])
        return PublicDrawing(text, components, picture, key)

    def shown(self, drawing: PublicDrawing, message_id: int | None = None) -> None:
        """The drawing was shown by an interaction's answer (a lobby click)."""
        self.live.shown_as(drawing.key, message_id)
        self.last_text = drawing.content
        self.last_edit = time.monotonic()

    async def _draw(self) -> Drawn | None:
        if self.live.message_id is None and (self.closed or self._is_lobby()):
            return None  # a lobby's first message is the /table new answer
        drawing = await self.drawing()
        if drawing is None:
            if not self.closed or self.live.message_id is None:
                return None
            text = (self.last_text + "\n" + self.closing_note)[:2000]
            return Drawn("closed", self._sender(text, None, None),
                         self._editor(text, None, None, clear=True))
        self.last_text = drawing.content
        if self.live.message_id is not None and self._age() > self.settings.message_max_age:
            old = self.live.message_id
            self.live.message_id, self.live.shown = None, None
            self._spawn(self._delete(old))
        return Drawn(drawing.key, self._sender(drawing.content, drawing.view, drawing.picture),
                     self._editor(drawing.content, drawing.view, drawing.picture,
                                  clear=self.images))

    def _sender(self, text: str, view: discord.ui.View | None, picture: bytes | None
                ) -> Callable[[], Awaitable[int]]:
        async def send() -> int:
            kwargs: dict[str, Any] = {"content": text}
            if view is not None:
                kwargs["view"] = view
            if picture is not None:
                kwargs["file"] = discord.File(io.BytesIO(picture), filename="table.png")
            msg = await self.client.get_partial_messageable(self.channel_id).send(**kwargs)
            self.last_edit = time.monotonic()
            return msg.id
        return send

    def _editor(self, text: str, view: discord.ui.View | None, picture: bytes | None, *,
                clear: bool) -> Callable[[int], Awaitable[None]]:
        async def edit(message_id: int) -> None:
            kwargs: dict[str, Any] = {"content": text, "view": view}
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
            if wait <= 0:
                return
            await asyncio.sleep(min(wait, 0.25))  # re-checked: a human's turn shortens it

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
    def post(self, content: str, *, ping: tuple[int, ...] = (),
             view: discord.ui.View | None = None) -> None:
        """A message of its own in the table's channel (results, notices), in order;
        only the users in ``ping`` are notified (:func:`~bot.discord_bot.safe.pings`)."""
        self._spawn(self._post(content, ping, view))

    async def _post(self, content: str, ping: tuple[int, ...] = (),
                    view: discord.ui.View | None = None) -> None:
        async with self._post_lock:
            for attempt in range(4):
                try:
                    extra: dict[str, Any] = {} if view is None else {"view": view}
                    await self.client.get_partial_messageable(self.channel_id).send(
                        content, allowed_mentions=pings(ping), **extra)
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

    def _names(self) -> list[str]:
        info = self.info
        return [] if info is None else display_names(info.seats)

    def _user_of(self, seat: int) -> tuple[int, ...]:
        """The user of a human seat (to ping), none for an AI or a free seat."""
        info = self.info
        s = info.seats[seat] if info is not None and 0 <= seat < len(info.seats) else None
        return () if s is None or s.is_ai or s.user_id is None else (s.user_id,)

    def _seat_label(self, seat: int) -> str:
        info = self.info
        if info is None or not 0 <= seat < len(info.seats) or info.seats[seat] is None:
            return "a player"
        s = info.seats[seat]
        assert s is not None
        return plain_name(s, seat) if s.is_ai else f"<@{s.user_id}>"

    def _deal_result(self, data: dict[str, Any]) -> str:
        """The deal result in players' words (:mod:`bot.discord_bot.table_words`)."""
        info = self.info
        if info is None:
            return f"**Deal {int(data.get('deal', 0)) + 1} of table {self.table_id} is over.**"
        return deal_result_text(info, data)

    def match_result(self, data: dict[str, Any]) -> str:
        return self._match_result(data)

    def _match_result(self, data: dict[str, Any]) -> str:
        """The match result in players' words (:mod:`bot.discord_bot.table_words`)."""
        info = self.info
        if info is None:
            return f"🏁 **The match at table {self.table_id} is over.**"
        return match_result_text(info, data)
