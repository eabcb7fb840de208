"""The process-wide part of the Discord adapter: :class:`TableHub`.

It owns, per open table of this process, one
:class:`~bot.discord_bot.tables.presenter.TablePresenter` (the public message) and, once the
match has started, one :class:`~bot.discord_bot.tables.seat_panels.SeatPanels` (the players' private
panels). It reads the service's watcher (public events of every table, in order) and hands
each event to its table's presenter; ``started`` makes the seat panels, ``deal_started``
sends the hand DMs.

**Restarts.** On start the service recovers every unfinished table; each human seat of a
table in play is subscribed before the hub's first ``await`` (the service's timers run as
soon as its ``start`` returns: a reminder that fell due while the bot was down must not be
missed). Where each table is shown (public message, host, the DM of the deal in play,
closed DMs, reminders) comes from the store (:mod:`storage.adapter_state`).

**Resync.** When the watcher overflows, the hub re-reads every table: a table not shown
yet gets its presenter; a table in play its seat panels and (a dropped ``deal_started``)
the hand DMs of the deal in play; a shown table that is gone was finished or abandoned
meanwhile: its result (from the store) or a closing note is posted, unless its closing
event is still queued.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_bot.languages import LanguageChange, Languages
from bot.discord_bot.tables.board_end import final_at
from bot.discord_bot.tables.hand_panel import TableFacts
from bot.discord_bot.tables.presenter import MATCH_OVER, TABLE_CLOSED, TablePresenter
from bot.discord_bot.tables.seat_panels import SeatPanels
from bot.service import NoSuchTable, ServiceError, Subscription, TableEvent, TableService
from bot.service.events import RESYNC, data_of
from bot.settings import Settings
from games.event_types import stored_match_summary
from storage import ChannelLocation, Location, Store, TableMessages

log = logging.getLogger(__name__)


class TableHub:
    """Presenters and seat panels of every open table of this process."""

    def __init__(self, client: discord.Client, service: TableService, store: Store,
                 settings: Settings, languages: Languages) -> None:
        self.client, self.service, self.store, self.settings = client, service, store, settings
        self.languages = languages
        """Who reads which language; a change redraws what it concerns at once."""
        languages.on_change(self._language_changed)
        self.presenters: dict[int, TablePresenter] = {}
        self.panels: dict[int, SeatPanels] = {}
        self.last_table: dict[int, int] = {}
        """Per channel, the table last shown there (``/table export`` after the end)."""
        self._records: dict[int, TableMessages | None] = {}
        self._dm_channels: dict[int, int] = {}
        self._guild_images: dict[int, bool] = {}
        self._dealt: dict[int, int] = {}
        self._early: dict[int, dict[int, Subscription]] = {}
        self._watcher: Subscription | None = None
        self._pump_task: asyncio.Task[None] | None = None
        self._closing: set[TablePresenter] = set()
        """Presenters of closed tables still drawing their last message."""
        self._retired: set[SeatPanels] = set()
        """Seat panels of finished boards still drawing their final panels."""

    # -- life ---------------------------------------------------------------------------
    async def start(self, owns: Callable[[Location], bool] | None = None) -> None:
        """Follow the service's events and recover the open tables (module docstring);
        ``owns``: only those of this process's shards (``TableService.start``)."""
        self._watcher = self.service.watch()
        self._pump_task = asyncio.get_running_loop().create_task(
            self._pump(self._watcher), name="table hub")
        loaded = [t for t in await self.service.start(owns=owns)
                  if t in self.service.table_ids()]
        for table_id in loaded:
            self._early[table_id] = self._human_subscriptions(table_id)
        for table_id in loaded:
            presenter = await self.ensure(table_id)
            for sub in self._early.pop(table_id, {}).values():
                sub.close()  # not taken: the table is not in a channel, or is gone
            if presenter is not None:
                presenter.live.mark()
        if loaded:
            log.info("recovered %d open tables", len(loaded))

    async def stop(self) -> None:
        if self._watcher is not None:
            self._watcher.close()
        for subs in self._early.values():
            for sub in subs.values():
                sub.close()
        self._early.clear()
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump_task
        for panels in [*self.panels.values(), *self._retired]:
            panels.stop()
        for presenter in [*self.presenters.values(), *self._closing]:
            presenter.stop()

    # -- per table ----------------------------------------------------------------------
    async def images(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return False
        if guild_id not in self._guild_images:
            gs = await self.store.get_guild_settings(guild_id)
            self._guild_images[guild_id] = bool(gs.images)
        return self._guild_images[guild_id]

    def forget_guild_settings(self, guild_id: int) -> None:
        """The guild's settings changed: read them again (pictures on or off)."""
        self._guild_images.pop(guild_id, None)

        async def refresh() -> None:
            images = await self.images(guild_id)
            for p in self.presenters.values():
                if p.guild_id == guild_id:
                    p.images = images

        asyncio.get_running_loop().create_task(refresh())

    def _language_changed(self, change: LanguageChange) -> None:
        """Redraw in the new language: a server's tables, or one player's panels (and,
        their own language deciding nothing public, nothing else)."""
        if change.guild_id is not None:
            for presenter in self.presenters.values():
                if presenter.guild_id == change.guild_id:
                    presenter.live.mark()
            for panels in self.panels.values():  # players without a choice follow the server
                if panels.presenter.guild_id == change.guild_id:
                    panels.redraw_all()
        if change.user_id is not None:
            for panels in self.panels.values():
                panels.redraw_user(change.user_id)

    async def dm_channel(self, user_id: int) -> int:
        cid = self._dm_channels.get(user_id)
        if cid is None:
            data = await self.client.http.start_private_message(user_id)
            cid = int(data["id"])
            self._dm_channels[user_id] = cid
        return cid

    async def ensure(self, table_id: int) -> TablePresenter | None:
        """The presenter of an open table of this process in a channel (made on first
        use, with its seat panels when in play); None otherwise. Concurrent calls get the
        same presenter."""
        presenter = self.presenters.get(table_id)
        if presenter is not None:
            return presenter
        try:
            location = self.service.info(table_id).location
        except NoSuchTable:
            return None
        if not isinstance(location, ChannelLocation):
            return None
        if table_id not in self._records:
            record = await self.store.get_table_messages(table_id)
            self._records[table_id] = record
        images = await self.images(location.guild_id)
        final = await final_at(self.service, table_id)  # a board over before a restart
        presenter = self.presenters.get(table_id)  # made by another task meanwhile?
        if presenter is not None:
            return presenter
        try:
            info = self.service.info(table_id)
        except NoSuchTable:
            return None
        record = self._records.pop(table_id, None)
        message_id = None if record is None else record.message_id
        creator = None if record is None else record.creator
        if record is None:  # a table shown by an older version kept these in its meta
            meta: dict[str, Any] = self.service.meta(table_id) or {}
            message_id = _int(meta.get("message_id"))
            creator = _int(meta.get("creator"))
        presenter = TablePresenter(self.client, self.service, self.store, self.settings,
                                   self.languages, table_id=table_id,
                                   channel_id=location.channel_id,
                                   guild_id=location.guild_id, message_id=message_id,
                                   creator=creator, images=images)
        self.presenters[table_id] = presenter
        self.last_table[location.channel_id] = table_id
        if final is not None:
            presenter.final = final
            presenter.live.mark()
        if info.status == "playing":
            self._follow(table_id, record, None if final is None else final.deal)
            panels = self.panels.get(table_id)
            if final is not None and panels is not None:
                panels.finish_board(final)  # each seat's DM of the board shows its end
        return presenter

    def _human_subscriptions(self, table_id: int) -> dict[int, Subscription]:
        """A subscription per human seat of a table in play (none for a lobby)."""
        try:
            info = self.service.info(table_id)
        except NoSuchTable:
            return {}
        subs: dict[int, Subscription] = {}
        if info.status == "playing":
            for seat, s in enumerate(info.seats):
                if s is not None and not s.is_ai:
                    with contextlib.suppress(ServiceError):
                        subs[seat] = self.service.subscribe(table_id, seat)
        return subs

    def _follow(self, table_id: int, record: TableMessages | None = None,
                deal: int | None = None) -> None:
        """Make the table's seat panels (once) and follow each human seat; ``deal``: the
        deal whose DMs the store's ``record`` may hold (default: the deal in play)."""
        presenter = self.presenters.get(table_id)
        early = self._early.pop(table_id, {})
        try:
            info = self.service.info(table_id)
        except NoSuchTable:
            info = None
        if presenter is None or info is None or info.status != "playing":
            for unused in early.values():
                unused.close()
            return
        panels = self.panels.get(table_id)
        if panels is None:
            facts = TableFacts(table_id, info.game, tuple(tuple(t) for t in info.teams),
                               presenter.channel_id)
            panels = SeatPanels(self.client, self.service, presenter, facts,
                                info.settings.turn_timeout, self.dm_channel)
            self.panels[table_id] = panels
        for seat, s in enumerate(info.seats):
            if s is None or s.is_ai or s.user_id is None or seat in panels.seats:
                continue
            sub: Subscription | None = early.pop(seat, None)
            if sub is None:
                try:
                    sub = self.service.subscribe(table_id, seat)
                except ServiceError:
                    continue
            rec = None if record is None else record.seats.get(seat)
            panels.follow(seat, s.user_id, sub, rec, info.deal if deal is None else deal)
        for unused in early.values():
            unused.close()

    def _forget(self, table_id: int) -> None:
        """The table closed: stop its panels; its presenter finishes its last edit."""
        self._dealt.pop(table_id, None)
        panels = self.panels.pop(table_id, None)
        if panels is not None and panels.final is not None:
            panels.retire()  # their final drawings still land
            self._retired.add(panels)
            self._retired = {p for p in self._retired if p.busy or p is panels}
        elif panels is not None:
            panels.stop()
        presenter = self.presenters.pop(table_id, None)
        if presenter is not None:
            presenter.closed = True
            self._closing.add(presenter)
            self._closing = {p for p in self._closing if p.live.busy or p is presenter}

    # -- the event pump -----------------------------------------------------------------
    async def _pump(self, watcher: Subscription) -> None:
        async for event in watcher:
            try:
                if event.type == RESYNC:
                    await self._resync(watcher)
                else:
                    await self.on_public(event)
            except Exception:
                log.exception("table %s: handling %s failed", event.table_id, event.type)

    async def on_public(self, event: TableEvent) -> None:
        """One public event of one table, in order."""
        log.debug("table %s: %s at version %s", event.table_id, event.type, event.version)
        presenter = await self.ensure(event.table_id)
        if presenter is None:
            presenter = self.presenters.get(event.table_id)
            if presenter is None:
                return
        kind = event.type
        if kind == "started":
            self._follow(event.table_id)
        elif kind == "deal_started":
            deal = data_of(event, "deal_started")["deal"]
            if self._dealt.get(event.table_id) != deal:  # else a resync sent them already
                self._dealt[event.table_id] = deal
                panels = self.panels.get(event.table_id)
                if panels is not None:
                    panels.send_hands(deal)
        presenter.on_event(event)
        if kind == "deal_scored" and presenter.final is not None:
            panels = self.panels.get(event.table_id)
            if panels is not None:  # a board's end: every panel shows it, no controls
                panels.finish_board(presenter.final)
        if kind in ("match_over", "abandoned"):
            self._forget(event.table_id)

    async def _resync(self, watcher: Subscription) -> None:
        """Catch up after the watcher dropped events (module docstring)."""
        for table_id in self.service.table_ids():
            presenter = await self.ensure(table_id)
            if presenter is None:
                continue
            try:
                info = self.service.info(table_id)
            except NoSuchTable:
                continue
            presenter.info = info
            if info.status == "playing":
                self._follow(table_id)
                known = self._dealt.get(table_id)
                if known != info.deal:
                    self._dealt[table_id] = info.deal
                    if known is not None:
                        presenter.log.clear()  # the trick log of an earlier deal
                    panels = self.panels.get(table_id)
                    if panels is not None:
                        panels.send_hands(info.deal)
            presenter.live.mark()
        still_open = set(self.service.table_ids())
        pending = {e.table_id for e in watcher.peek() if e.type in ("match_over", "abandoned")}
        gone = [p for p in list(self.presenters.values())
                if p.table_id not in still_open and p.table_id not in pending]
        for presenter in gone:
            try:
                match = await self.store.get_match_for_table(presenter.table_id)
            except Exception:
                log.exception("table %s: could not read its match after a resync",
                              presenter.table_id)
                match = None
            if match is not None:
                presenter.post_match_result({
                    "summary": stored_match_summary(match.result.get("summary")),
                    "match_id": match.id})
                presenter.close(MATCH_OVER)
            else:
                presenter.post_closed()
                presenter.close(TABLE_CLOSED)
            self._forget(presenter.table_id)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
