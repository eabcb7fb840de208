"""The table cog: ``/table …``, ``/hand``, ``/rules``, the lobby and play components, and
the event pump that turns the table service's events into messages.

How play reaches Discord:

* The **public message** of a table (the lobby, then the table) is redrawn from the public
  view by the coalescing editor (:mod:`bot.discord_bot.table_message`); its message id is
  kept in the table's ``meta`` so that a restarted bot edits the same message.
* Each human gets a **DM** at the start of every deal with the private panel
  (:mod:`bot.discord_bot.panel`); **My hand** on the public message (or ``/hand``) shows
  the same panel ephemerally. When the seat's turn starts the bot edits the panel last shown
  (the DM, or an ephemeral panel younger than 14 minutes) so that the controls appear.
  DMs closed (error 50007): one notice in the channel with a mention; no more DMs.
* **Restarts.** Each seat's DM of the deal in play is recorded in ``meta`` (see
  :func:`_dm_key`), so a restarted bot edits that DM when the seat's turn comes, and at
  once for a seat already to act. The half-time reminder is posted at most once per seat
  and turn deadline: the deadline is recorded in ``meta`` (:func:`_reminder_key`) before the
  reminder is posted, and the one the service publishes again after a restart is dropped.
  On start the recovered seats are subscribed before anything is awaited, so that no event
  (a reminder that fell due while the bot was down) is missed.
* Every component is a dynamic item carrying table, version and choice
  (:mod:`bot.discord_bot.components`): it keeps working after a restart, and a stale or
  foreign click is refused by the service with a clear ephemeral answer.
* The deal's and the match's results are posted as their own messages; a half-time
  reminder mentions the late player; a timeout says that an AI played.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import io
import json
import logging
from collections.abc import Awaitable, Coroutine, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_bot.components import DYNAMIC_ITEMS, TableButton, decode_action
from bot.discord_bot.panel import Panel, build_panel, variants
from bot.discord_bot.table_message import PanelRef, TableUI, drawn_key, monotonic
from bot.discord_bot.texts import (
    lobby_text,
    options_text,
    plain_name,
    rules_text,
    score_line,
    summary_text,
    table_text,
    trick_log_entry,
)
from bot.service import (
    LobbyError,
    NoSuchTable,
    ServiceError,
    StaleAction,
    Subscription,
    TableEvent,
    TableInfo,
)
from bot.service.events import RESYNC
from games.actions import Action
from games.registry import GAMES
from storage import ChannelLocation

log = logging.getLogger(__name__)
T = TypeVar("T")

GAME_CHOICES = [app_commands.Choice(name=info.title, value=name)
                for name, info in GAMES.items()]
PANEL_EDIT_LIFETIME = 14 * 60.0
"""An ephemeral panel is edited through its interaction token, which lives 15 minutes."""


def _can_manage(interaction: discord.Interaction, creator: int | None) -> bool:
    perms = interaction.permissions
    return interaction.user.id == creator or bool(perms and perms.manage_guild)


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


LOBBY_AI_BUTTONS: tuple[tuple[str, str], ...] = (
    ("search", "Add AI: search (strong)"),
    ("rules", "Add AI: rules"),
    ("random", "Add AI: random"),
)
"""The lobby's second row: one button per AI level (custom id arg ``ai:<level>``), each
seating that AI in the first free seat."""


class TablesCog(commands.Cog, name="TablesCog"):
    """Tables in channels: lobby, play, results (see the module docstring)."""

    table = app_commands.Group(name="table", description="Card tables in this channel",
                               guild_only=True)

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.settings = bot.settings
        self.uis: dict[int, TableUI] = {}
        self.last_table: dict[int, int] = {}
        self._dm_channels: dict[int, int] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._watcher: Subscription | None = None
        self._guild_images: dict[int, bool] = {}
        self._dealt: dict[int, int] = {}
        """Per table, the deal whose hands the public pump last sent (on ``deal_started``),
        so that a ``resync`` knows whether it missed one (and a ``deal_started`` queued
        behind the ``resync`` does not send them twice)."""
        self._early_subs: dict[int, dict[int, Subscription]] = {}
        """Seat subscriptions of recovered tables taken in :meth:`start`, waiting for
        :meth:`_subscribe_seats` to give them to the seat pumps."""

    @property
    def service(self) -> Any:
        return self.bot.service

    @property
    def store(self) -> Any:
        return self.bot.store

    # == life ===========================================================================
    async def start(self) -> None:
        """Register the dynamic items, start the event pump, recover the open tables.

        The service's timers run as soon as its ``start`` returns (a reminder that fell due
        while the bot was down fires at once), so every human seat of a recovered table is
        subscribed before the first ``await``; the seat pumps read those subscriptions once
        the table's UI is made, and so miss nothing."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self._watcher = self.service.watch()
        self._spawn(self._pump(self._watcher))
        loaded = [t for t in await self.service.start() if t in self.service.table_ids()]
        for table_id in loaded:
            self._early_subs[table_id] = self._human_subscriptions(table_id)
        for table_id in loaded:
            ui = await self._ensure_ui(table_id)
            for sub in self._early_subs.pop(table_id, {}).values():
                sub.close()  # not taken: the table is not in a channel, or is gone
            if ui is not None:
                self._mark(ui)
        if loaded:
            log.info("recovered %d open tables", len(loaded))

    async def cog_unload(self) -> None:
        if self._watcher is not None:
            self._watcher.close()
        for subs in self._early_subs.values():
            for sub in subs.values():
                sub.close()
        self._early_subs.clear()
        for ui in self.uis.values():
            self._close_ui(ui, cancel_editor=True)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("adapter task failed", exc_info=task.exception())

    # == the per-table state ============================================================
    async def _images(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return False
        if guild_id not in self._guild_images:
            gs = await self.store.get_guild_settings(guild_id)
            self._guild_images[guild_id] = bool(gs.images)
        return self._guild_images[guild_id]

    def forget_guild_settings(self, guild_id: int) -> None:
        self._guild_images.pop(guild_id, None)
        for ui in self.uis.values():
            if ui.guild_id == guild_id:
                ui.images = False
        self._spawn(self._refresh_images(guild_id))

    async def _refresh_images(self, guild_id: int) -> None:
        images = await self._images(guild_id)
        for ui in self.uis.values():
            if ui.guild_id == guild_id:
                ui.images = images

    def _live_meta(self, table_id: int) -> dict[str, Any] | None:
        return self.service.meta(table_id)

    async def _save_meta(self, table_id: int, **changes: Any) -> None:
        """Keep adapter data (message id, creator, closed DMs) in the table's ``meta``."""
        try:
            await self.service.update_meta(table_id, **changes)
        except Exception:
            log.exception("table %s: could not save the adapter's meta", table_id)

    async def _ensure_ui(self, table_id: int) -> TableUI | None:
        """The adapter state of an open table of this process, made on first use from the
        table's ``meta`` (public message, creator, closed DMs, and the DM panels of the deal
        in play: a restarted bot edits those DMs), with its human seats subscribed. None
        when this process does not hold the table or it is not in a channel. Concurrent
        calls get the same :class:`TableUI` (it is made and registered without an
        ``await`` in between)."""
        ui = self.uis.get(table_id)
        if ui is not None:
            return ui
        try:
            location = self.service.info(table_id).location
        except NoSuchTable:
            return None
        if not isinstance(location, ChannelLocation):
            return None
        meta = self._live_meta(table_id)
        if meta is None:
            row = await self.store.get_table(table_id)
            meta = {} if row is None else row.meta
        images = await self._images(location.guild_id)
        ui = self.uis.get(table_id)  # another task may have made it meanwhile
        if ui is not None:
            return ui
        try:
            info = self.service.info(table_id)  # again: it may have changed meanwhile
        except NoSuchTable:
            return None
        ui = TableUI(table_id, location.channel_id, location.guild_id,
                     message_id=meta.get("message_id"), creator=meta.get("creator"),
                     images=images, dm_closed=set(meta.get("dm_closed", [])))
        ui.panels.update(_dm_panels(meta, info))
        self.uis[table_id] = ui
        self.last_table[ui.channel_id] = table_id
        if info.status == "playing":
            self._subscribe_seats(ui, info)
        return ui

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

    def _subscribe_seats(self, ui: TableUI, info: TableInfo) -> None:
        """Start a seat pump for every human seat that has none, on the subscription
        :meth:`start` took for it (a recovered table) or a new one."""
        early = self._early_subs.pop(ui.table_id, {})
        for seat, s in enumerate(info.seats):
            if s is not None and not s.is_ai and seat not in ui.seat_tasks:
                sub = early.pop(seat, None)
                if sub is None:
                    try:
                        sub = self.service.subscribe(ui.table_id, seat)
                    except ServiceError:
                        continue
                ui.seat_tasks[seat] = self._spawn(self._seat_pump(ui, seat, sub))
        for sub in early.values():
            sub.close()

    def _close_ui(self, ui: TableUI, *, cancel_editor: bool = False) -> None:
        ui.closed = True
        for task in ui.seat_tasks.values():
            task.cancel()
        ui.seat_tasks.clear()
        if cancel_editor and ui.editor is not None:
            ui.editor.cancel()

    # == the event pumps ================================================================
    async def _pump(self, watcher: Subscription) -> None:
        """Handle the public events of every table, in order. A ``resync`` (the watcher
        fell behind and dropped events) re-reads every table: :meth:`_resync_public`."""
        async for event in watcher:
            try:
                if event.type == RESYNC:
                    await self._resync_public(watcher)
                else:
                    await self._on_public(event)
            except Exception:
                log.exception("table %s: handling %s failed", event.table_id, event.type)

    async def _resync_public(self, watcher: Subscription) -> None:
        """Catch up after the watcher dropped events: re-read every table of this process
        and redraw its public message from :meth:`TableService.info` and the public view.

        What the dropped events would have done is redone from what the service holds now:
        a table not shown yet gets its UI; a table in play gets a seat pump for each human
        seat (a dropped ``started``) and, when its deal is not the one whose hands were
        sent (a dropped ``deal_started``), the hand DMs its humans have not got for this
        deal (by ``meta``). A shown table that is gone was finished or abandoned: unless
        its ``match_over`` / ``abandoned`` is still queued behind the ``resync``, the result
        (from the store) or a closing note is posted and its UI closed. Dropped trick-log
        entries, deal results and notices are not repeated."""
        for table_id in self.service.table_ids():
            ui = await self._ensure_ui(table_id)
            if ui is None or ui.closed:
                continue
            try:
                info = self.service.info(table_id)
            except NoSuchTable:
                continue
            ui.info = info
            if info.status == "playing":
                self._subscribe_seats(ui, info)
                known = self._dealt.get(table_id)
                if known != info.deal:
                    self._dealt[table_id] = info.deal
                    if known is not None:
                        ui.log.clear()  # the trick log of an earlier deal
                    self._spawn(self._send_missing_hands(ui, info))
            self._mark(ui)
        # A closed table publishes nothing more: its closing event is queued now or lost.
        still_open = set(self.service.table_ids())
        pending = {e.table_id for e in watcher.peek() if e.type in ("match_over", "abandoned")}
        gone = [ui for ui in self.uis.values() if not ui.closed
                and ui.table_id not in still_open and ui.table_id not in pending]
        for ui in gone:
            self._dealt.pop(ui.table_id, None)
            try:
                match = await self.store.get_match_for_table(ui.table_id)
            except Exception:
                log.exception("table %s: could not read its match after a resync", ui.table_id)
                match = None
            if match is not None:
                result = {"summary": match.result.get("summary") or {}, "match_id": match.id}
                self._spawn(self._post(ui, self._match_result(ui, result)))
                ui.closing_note = "**The match is over.**"
            else:
                self._spawn(self._post(ui, f"Table {ui.table_id} was closed."))
                ui.closing_note = "**This table is closed.**"
            self._close_ui(ui)
            self._mark(ui)

    async def _send_missing_hands(self, ui: TableUI, info: TableInfo) -> None:
        """DM the panel of deal ``info.deal`` to each human seat that has no DM of that
        deal recorded in ``meta`` (after a dropped ``deal_started``)."""
        meta = self._live_meta(ui.table_id) or {}
        for seat, s in enumerate(info.seats):
            if s is None or s.is_ai or s.user_id is None or s.user_id in ui.dm_closed:
                continue
            entry = meta.get(_dm_key(seat))
            if isinstance(entry, Mapping) and entry.get("deal") == info.deal:
                continue
            await self._dm_hand(ui, seat, s.user_id)

    async def _on_public(self, event: TableEvent) -> None:
        ui = await self._ensure_ui(event.table_id)
        if ui is None:
            ui = self.uis.get(event.table_id)
            if ui is None:
                return
        kind, data = event.type, event.data
        with contextlib.suppress(NoSuchTable):
            ui.info = self.service.info(ui.table_id)
        if kind == "started":
            with contextlib.suppress(NoSuchTable):
                self._subscribe_seats(ui, self.service.info(ui.table_id))
        elif kind == "deal_started":
            deal = int(data.get("deal", 0))
            if self._dealt.get(ui.table_id) != deal:  # else a resync sent them already
                self._dealt[ui.table_id] = deal
                ui.log.clear()
                self._spawn(self._send_hands(ui))
        elif kind == "trick":
            names = self._names(ui)
            ui.log.append(trick_log_entry(dict(data), names))
            del ui.log[:-5]
        elif kind == "deal_scored":
            self._spawn(self._post(ui, self._deal_result(ui, dict(data))))
        elif kind == "match_over":
            self._dealt.pop(ui.table_id, None)
            self._spawn(self._post(ui, self._match_result(ui, dict(data))))
            ui.closing_note = "**The match is over.**"
            self._close_ui(ui)
        elif kind == "abandoned":
            self._dealt.pop(ui.table_id, None)
            self._spawn(self._post(ui, f"Table {ui.table_id} was closed: {data.get('reason')}."))
            ui.closing_note = "**This table is closed.**"
            self._close_ui(ui)
        elif kind == "timeout":
            who = self._seat_label(ui, int(data.get("seat", -1)))
            self._spawn(self._post(ui, f"⏱ Time ran out for {who}: an AI played for them."))
        elif kind == "away":
            who = self._seat_label(ui, int(data.get("seat", -1)))
            self._spawn(self._post(ui, f"{who} seems to be away: an AI plays their seat "
                                   "until they press **I'm back**."))
        self._mark(ui)

    def _names(self, ui: TableUI) -> list[str]:
        try:
            return [plain_name(s, i) for i, s in enumerate(self.service.info(ui.table_id).seats)]
        except NoSuchTable:
            return []

    def _seat_label(self, ui: TableUI, seat: int) -> str:
        try:
            s = self.service.info(ui.table_id).seats[seat]
        except (NoSuchTable, IndexError):
            return f"seat {seat}"
        if s is None:
            return f"seat {seat}"
        return plain_name(s, seat) if s.is_ai else f"<@{s.user_id}>"

    def _deal_result(self, ui: TableUI, data: dict[str, Any]) -> str:
        deal = int(data.get("deal", 0)) + 1
        summary = data.get("summary") or {}
        match = data.get("match") or {}
        lines = [f"**Deal {deal} of table {ui.table_id} is over.**"]
        text = summary_text(summary, limit=6)
        if text:
            lines.append(text)
        if match.get("totals") is not None:
            lines.append(f"Match totals: {_totals(match['totals'], ui)}")
        return "\n".join(lines)[:1990]

    def _match_result(self, ui: TableUI, data: dict[str, Any]) -> str:
        summary = data.get("summary") or {}
        lines = [f"🏁 **The match at table {ui.table_id} is over.**"]
        winner = summary.get("winners") or summary.get("winner")
        info = ui.info  # the table is unloaded once its match is over
        teams, seats = (info.teams, info.seats) if info is not None else ([], ())
        if winner is not None and teams:
            sides = winner if isinstance(winner, list) else [winner]
            names: list[str] = []
            for side in sides:
                if isinstance(side, int) and 0 <= side < len(teams):
                    names.extend(plain_name(seats[s], s) for s in teams[side])
            if names:
                lines.append("Winner: " + ", ".join(names))
        if summary.get("totals") is not None:
            lines.append(f"Totals: {_totals(summary['totals'], ui)}")
        lines.append(f"Match id: {data.get('match_id')}. `/table export` gives the record.")
        return "\n".join(lines)[:1990]

    async def _post(self, ui: TableUI, content: str) -> None:
        """A message of its own in the table's channel (results, notices), in order."""
        async with ui.post_lock:
            try:
                await self.bot.get_partial_messageable(ui.channel_id).send(
                    content, allowed_mentions=discord.AllowedMentions(users=True))
            except discord.HTTPException:
                log.warning("table %s: could not post to channel %s", ui.table_id,
                            ui.channel_id)

    async def _seat_pump(self, ui: TableUI, seat: int, sub: Subscription) -> None:
        """Follow one human seat: post its reminders and bring its live panel up to date
        with the newest ``state`` of each batch of queued events. A ``resync`` (the seat's
        subscription fell behind and dropped events) re-reads the seat's state from the
        service (:meth:`TableService.state`), which is then the newest: the panel is
        refreshed from it as from a ``state`` event, and the half-time reminder of the
        seat's turn, which may have been among the dropped events, is posted when it is
        due (:meth:`_remind_if_due`; still at most once per turn)."""
        try:
            async for event in sub:
                latest: TableEvent | None = None
                resync = False
                for ev in [event, *sub.drain()]:
                    if ev.type == RESYNC:
                        resync = True
                    elif ev.type == "reminder":
                        await self._remind(ui, seat, ev)
                    elif ev.type == "state":
                        latest = ev
                if resync:
                    try:
                        latest = self.service.state(ui.table_id, seat)
                    except NoSuchTable:
                        pass  # the table closed; the public pump tells the channel
                    else:
                        await self._remind_if_due(ui, seat, latest)
                if latest is not None:
                    await self._refresh_panel(ui, seat, latest)
        finally:
            sub.close()

    async def _remind_if_due(self, ui: TableUI, seat: int, state: TableEvent) -> None:
        """After a ``resync``: post the half-time reminder of the seat's turn when ``state``
        (read just now) says the seat is to act and half of its turn time has passed (the
        service's ``reminder`` may have been dropped). :meth:`_remind` posts it at most once
        per deadline, so a reminder that was not dropped is not repeated."""
        deadline = state.data.get("deadline")
        if state.type != "state" or seat not in (state.data.get("to_act") or []) \
                or not isinstance(deadline, str):
            return
        try:
            info = self.service.info(ui.table_id)
        except NoSuchTable:
            return
        s = info.seats[seat]
        if s is None or s.is_ai or s.away or info.settings.turn_timeout <= 0:
            return
        half = dt.timedelta(seconds=info.settings.turn_timeout / 2)
        if self.service.clock.now() < dt.datetime.fromisoformat(deadline) - half:
            return
        await self._remind(ui, seat, TableEvent(ui.table_id, "reminder", {
            "seat": seat, "deadline": deadline}, frozenset({seat}), state.version))

    async def _remind(self, ui: TableUI, seat: int, event: TableEvent) -> None:
        """Post the half-time reminder ``event`` of ``seat`` in the channel, at most once
        per seat and turn deadline, across restarts: the deadline is recorded in ``meta``
        before the reminder is posted, and a reminder of a deadline already recorded (the
        service publishes it again after a restart) is dropped. A crash between the two
        loses that reminder rather than repeating it."""
        try:
            info = self.service.info(ui.table_id)
        except NoSuchTable:
            return
        s = info.seats[seat]
        if s is None or s.is_ai:
            return
        deadline = event.data.get("deadline")
        if isinstance(deadline, str):
            key = _reminder_key(seat)
            if _same_instant((self._live_meta(ui.table_id) or {}).get(key), deadline):
                return
            await self._save_meta(ui.table_id, **{key: deadline})
        half = int(info.settings.turn_timeout / 2)
        await self._post(ui, f"⏰ <@{s.user_id}>, it is your turn at table {ui.table_id}: "
                             f"about {half} seconds left before an AI plays for you. "
                             f"Use **My hand** on the table message.")

    async def _refresh_panel(self, ui: TableUI, seat: int, state: TableEvent) -> None:
        """Show the controls in the seat's last panel when its turn has started."""
        ref = ui.panels.get(seat)
        if ref is None or ui.closed:
            return
        legal = state.data.get("legal") or []
        if not legal or state.version < ref.version:
            return  # not to act, or a state older than the panel shown
        if ref.to_act and ref.legal_key == json.dumps(legal, sort_keys=True):
            return
        await self._show_panel(ui, seat, ref)

    async def _show_panel(self, ui: TableUI, seat: int, ref: PanelRef) -> None:
        try:
            panel = build_panel(self.service, ui.table_id, seat, images=ui.images)
        except (NoSuchTable, ServiceError):
            return
        try:
            if ref.kind == "dm":
                msg = self.bot.get_partial_messageable(
                    ref.channel_id, type=discord.ChannelType.private
                ).get_partial_message(ref.message_id)
                await msg.edit(**panel.edit_kwargs())
            elif ref.interaction is not None and (
                    monotonic() - ref.shown_at < PANEL_EDIT_LIFETIME):
                await ref.interaction.edit_original_response(**panel.edit_kwargs())
            else:
                return
        except discord.HTTPException as exc:
            log.info("table %s: could not refresh the panel of seat %s (%s)",
                     ui.table_id, seat, exc)
            return
        ref.to_act, ref.legal_key, ref.version = panel.to_act, panel.legal_key, panel.version

    # == DMs ============================================================================
    async def _send_hands(self, ui: TableUI) -> None:
        try:
            info = self.service.info(ui.table_id)
        except NoSuchTable:
            return
        for seat, s in enumerate(info.seats):
            if s is None or s.is_ai or s.user_id is None or s.user_id in ui.dm_closed:
                continue
            await self._dm_hand(ui, seat, s.user_id)

    async def _dm_channel(self, user_id: int) -> int:
        cid = self._dm_channels.get(user_id)
        if cid is None:
            data = await self.bot.http.start_private_message(user_id)
            cid = int(data["id"])
            self._dm_channels[user_id] = cid
        return cid

    async def _dm_hand(self, ui: TableUI, seat: int, user_id: int) -> None:
        """DM ``seat`` its panel of the deal in play and make that DM the seat's live panel,
        in memory and in ``meta`` (one write per DM), so that it is edited when the seat's
        turn comes, also after a restart."""
        try:
            deal = self.service.info(ui.table_id).deal
            panel = build_panel(self.service, ui.table_id, seat, images=ui.images,
                                note=f"A new deal has started in <#{ui.channel_id}>.")
        except (NoSuchTable, ServiceError):
            return
        try:
            cid = await self._dm_channel(user_id)
            channel = self.bot.get_partial_messageable(cid, type=discord.ChannelType.private)
            msg = await channel.send(**panel.send_kwargs())
        except discord.Forbidden as exc:
            if exc.code == 50007:
                await self._dms_closed(ui, user_id)
            else:
                log.info("table %s: DM to %s refused (%s)", ui.table_id, user_id, exc)
            return
        except discord.HTTPException as exc:
            log.info("table %s: DM to %s failed (%s)", ui.table_id, user_id, exc)
            return
        ref = PanelRef("dm", channel_id=cid, message_id=msg.id, shown_at=monotonic())
        ui.panels[seat] = ref
        ref.to_act, ref.legal_key, ref.version = panel.to_act, panel.legal_key, panel.version
        await self._save_meta(ui.table_id, **{_dm_key(seat): {
            "deal": deal, "channel_id": cid, "message_id": msg.id}})
        # The turn may have come while the DM was on its way.
        try:
            state = self.service.state(ui.table_id, seat)
        except NoSuchTable:
            return
        await self._refresh_panel(ui, seat, state)

    async def _dms_closed(self, ui: TableUI, user_id: int) -> None:
        if user_id in ui.dm_closed:
            return
        ui.dm_closed.add(user_id)
        await self._save_meta(ui.table_id, dm_closed=sorted(ui.dm_closed))
        await self._post(ui, f"<@{user_id}>, I cannot send you direct messages: use the "
                             f"**My hand** button on the table ({ui.link()}) to see your "
                             "hand and play.")

    # == the public message =============================================================
    def _mark(self, ui: TableUI) -> None:
        ui.dirty = True
        if ui.editor is None or ui.editor.done():
            ui.editor = self._spawn(self._edit_loop(ui))

    async def _edit_loop(self, ui: TableUI) -> None:
        await asyncio.sleep(self.settings.edit_delay)
        while ui.dirty:
            wait = ui.last_edit + self._interval(ui) - monotonic()
            if wait > 0:
                # re-checked often: a human's turn shortens the wait
                await asyncio.sleep(min(wait, 0.25))
                continue
            ui.dirty = False
            drew = await self._draw(ui)
            if drew:
                ui.last_edit = monotonic()
        if ui.closed and self.uis.get(ui.table_id) is ui:
            del self.uis[ui.table_id]  # drawn for the last time: forget it

    def _interval(self, ui: TableUI) -> float:
        """Least time between two edits: ``edit_interval`` while a human is to act (or
        in the lobby), ``ai_edit_interval`` while only AI players are playing."""
        try:
            info = self.service.info(ui.table_id)
        except NoSuchTable:
            return self.settings.edit_interval
        if info.status != "playing" or any(
                (s := info.seats[i]) is not None and not s.auto for i in info.to_act):
            return self.settings.edit_interval
        return max(self.settings.edit_interval, self.settings.ai_edit_interval)

    def _public(self, ui: TableUI) -> tuple[str, discord.ui.View | None, bytes | None]:
        """The public message now: text, components, picture."""
        info = self.service.info(ui.table_id)
        if info.status == "lobby":
            return lobby_text(info, ui.creator), self._lobby_view(info), None
        view = self.service.view(ui.table_id, None)
        text = table_text(info, view, ui.log)
        components = discord.ui.View(timeout=None)
        if info.status == "playing":
            components.add_item(TableButton("h", ui.table_id, 0, label="My hand",
                                            style=discord.ButtonStyle.primary))
            if any(s is not None and s.away for s in info.seats):
                components.add_item(TableButton("b", ui.table_id, 0, label="I'm back",
                                                style=discord.ButtonStyle.success))
        image = None
        if ui.images:
            from bot.render import render_table

            names = [plain_name(s, i) for i, s in enumerate(info.seats)]
            image = render_table(view, names, score_line(info, view))
        return text, components if components.children else None, image

    def _lobby_view(self, info: TableInfo) -> discord.ui.View | None:
        if info.status != "lobby":
            return None
        v = discord.ui.View(timeout=None)
        t = info.id
        v.add_item(TableButton("l", t, 0, "join", label="Join",
                               style=discord.ButtonStyle.success, row=0))
        v.add_item(TableButton("l", t, 0, "leave", label="Leave", row=0))
        v.add_item(TableButton("l", t, 0, "start", label="Start",
                               style=discord.ButtonStyle.primary, row=0))
        for level, label in LOBBY_AI_BUTTONS:
            v.add_item(TableButton("l", t, 0, f"ai:{level}", label=label, row=1))
        return v

    def render_public(self, ui: TableUI) -> dict[str, Any] | None:
        """Keyword arguments of the public message now, or None when the table is gone.
        Remembers what was drawn, so that the editor skips an unchanged message."""
        try:
            text, view, image = self._public(ui)
        except (NoSuchTable, ServiceError):
            return None
        key = drawn_key(text, [c.to_component_dict() for c in view.children] if view else None,
                        image)
        out: dict[str, Any] = {"content": text, "view": view, "_key": key}
        if image is not None:
            out["attachments"] = [discord.File(io.BytesIO(image), filename="table.png")]
        elif ui.images:
            out["attachments"] = []
        return out

    async def _draw(self, ui: TableUI) -> bool:
        """Edit (or post) the public message; True when a request was made."""
        if ui.message_id is None and (ui.closed or self._is_lobby(ui)):
            return False  # a lobby's first message is the /table new answer
        kwargs = self.render_public(ui)
        if kwargs is None:
            if ui.closed and ui.message_id is not None:
                if ui.last_drawn == "closed":
                    return False
                with contextlib.suppress(discord.HTTPException):
                    await self._message(ui).edit(
                        content=(ui.last_text + "\n" + ui.closing_note)[:2000],
                        view=None)
                ui.last_drawn = "closed"
                return True
            return False
        key = kwargs.pop("_key")
        if key == ui.last_drawn:
            return False
        ui.last_text = kwargs["content"]
        if ui.message_id is not None and ui.message_age() > self.settings.message_max_age:
            await self._replace_message(ui, kwargs)
        elif ui.message_id is None:
            await self._new_message(ui, kwargs)
        else:
            try:
                await self._message(ui).edit(**kwargs)
            except discord.NotFound:
                await self._new_message(ui, kwargs)
            except discord.HTTPException as exc:
                log.warning("table %s: edit failed (%s)", ui.table_id, exc)
                return True
        ui.last_drawn = key
        return True

    def _is_lobby(self, ui: TableUI) -> bool:
        try:
            return bool(self.service.info(ui.table_id).status == "lobby")
        except NoSuchTable:
            return False

    def _message(self, ui: TableUI) -> discord.PartialMessage:
        assert ui.message_id is not None
        return self.bot.get_partial_messageable(ui.channel_id).get_partial_message(
            ui.message_id)

    async def _new_message(self, ui: TableUI, kwargs: dict[str, Any]) -> None:
        send = dict(kwargs)
        files = send.pop("attachments", None)
        if files:
            send["files"] = files
        if send.get("view") is None:
            send.pop("view", None)
        msg = await self.bot.get_partial_messageable(ui.channel_id).send(**send)
        ui.message_id = msg.id
        await self._save_meta(ui.table_id, message_id=msg.id, channel_id=ui.channel_id)

    async def _replace_message(self, ui: TableUI, kwargs: dict[str, Any]) -> None:
        old = self._message(ui)
        await self._new_message(ui, kwargs)
        with contextlib.suppress(discord.HTTPException):
            await old.delete()

    # == components =====================================================================
    async def on_component(self, interaction: discord.Interaction, kind: str, table_id: int,
                           version: int, arg: str, values: list[str]) -> None:
        try:
            if kind == "l":
                await self._lobby_click(interaction, table_id, arg)
            elif kind == "h":
                await self._my_hand(interaction, table_id, update=self._is_panel(interaction))
            elif kind == "b":
                await self._back(interaction, table_id)
            elif kind == "x":
                await self._abandon_confirmed(interaction, table_id)
            elif kind in ("a", "s", "m"):
                await self._choice(interaction, kind, table_id, version, arg, values)
            else:
                await self._say(interaction, "That button is not known.")
        except NoSuchTable:
            await self._say(interaction, await self._elsewhere(table_id))
        except ServiceError as exc:
            await self._say(interaction, _sentence(str(exc)))

    async def _elsewhere(self, table_id: int) -> str:
        """Why a table is not here: closed, or (several bot processes, a DM click that
        Discord sent to shard 0) run by another process: then point to its channel."""
        try:
            row = await self.store.get_table(table_id)
        except Exception:
            row = None
        if row is None or row.status not in ("lobby", "playing"):
            return "That table is closed."
        where = row.location
        link = f"<#{where.channel_id}>" if isinstance(where, ChannelLocation) else "its channel"
        return (f"That table is played in {link}: use **My hand** on its table message "
                "there.")

    @staticmethod
    def _is_panel(interaction: discord.Interaction) -> bool:
        msg = interaction.message
        return msg is not None and (msg.flags.ephemeral or msg.guild is None)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        """An ephemeral answer (or follow-up when the interaction was answered)."""
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _within(self, interaction: discord.Interaction, work: Awaitable[T], *,
                      ephemeral: bool = True, thinking: bool = False) -> T:
        """Await ``work``; if it takes longer than ``settings.defer_after`` seconds, defer
        the interaction meanwhile (the answer then edits the deferred response): a refusal
        (found before any store write) is answered at once, in one request; slow work
        never risks Discord's 3 seconds, and the click is acknowledged quickly."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=self.settings.defer_after)
        if not done and not interaction.response.is_done():
            if interaction.type == discord.InteractionType.component and not thinking:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        return await task

    async def _lobby_click(self, interaction: discord.Interaction, table_id: int,
                           arg: str) -> None:
        ui = await self._ensure_ui(table_id)
        if ui is None:
            raise NoSuchTable("that table is closed")
        user = interaction.user
        if arg == "join":
            await self._within(interaction, self.service.join(table_id, user.id, _name(user)))
        elif arg == "leave":
            await self._within(interaction, self.service.leave(table_id, user.id))
        elif arg == "ai" or arg.startswith("ai:"):  # plain "ai": a lobby drawn before levels
            level = arg[3:] or "rules"
            await self._within(interaction, self.service.add_ai(table_id, level))
        elif arg == "start":
            if not _can_manage(interaction, ui.creator):
                await self._say(interaction, "Only the player who opened the table or a "
                                             "member with Manage Server can start it.")
                return
            await self._within(interaction, self.service.start_match(table_id))
        else:
            await self._say(interaction, "That button is not known.")
            return
        await self._answer_public(interaction, ui)

    async def _answer_public(self, interaction: discord.Interaction, ui: TableUI) -> None:
        """Answer a click on the public message by updating it in the same request."""
        kwargs = self.render_public(ui)
        if kwargs is None:
            if not interaction.response.is_done():
                await interaction.response.defer()
            return
        key = kwargs.pop("_key")
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        ui.last_drawn = key
        ui.last_text = kwargs["content"]
        ui.last_edit = monotonic()
        if interaction.message is not None and ui.message_id is None:
            ui.message_id = interaction.message.id

    async def _my_hand(self, interaction: discord.Interaction, table_id: int, *,
                       update: bool = False) -> None:
        ui = await self._ensure_ui(table_id)
        if ui is None:
            raise NoSuchTable("that table is closed")
        seat = self.service.seat_of(table_id, interaction.user.id)
        if seat is None:
            await self._say(interaction, "You have no seat at this table.")
            return
        if self.service.info(table_id).status != "playing":
            await self._say(interaction, "The match has not started yet.")
            return
        panel = build_panel(self.service, table_id, seat, images=ui.images)
        await self._show(interaction, ui, seat, panel, update=update)

    async def _show(self, interaction: discord.Interaction, ui: TableUI, seat: int,
                    panel: Panel, *, update: bool) -> None:
        """Answer with ``panel``: as an update of the panel clicked on, or as a new
        ephemeral panel; remember it as the seat's live panel."""
        if update:
            if interaction.response.is_done():
                await interaction.edit_original_response(**panel.edit_kwargs())
            else:
                await interaction.response.edit_message(**panel.edit_kwargs())
        elif interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **panel.send_kwargs())
        else:
            await interaction.response.send_message(ephemeral=True, **panel.send_kwargs())
        msg = interaction.message
        if update and msg is not None and msg.guild is None and not msg.flags.ephemeral:
            ref = PanelRef("dm", channel_id=msg.channel.id, message_id=msg.id)
        else:
            ref = PanelRef("eph", interaction=interaction)
        ref.shown_at = monotonic()
        ref.to_act, ref.legal_key, ref.version = panel.to_act, panel.legal_key, panel.version
        ui.panels[seat] = ref

    async def _choice(self, interaction: discord.Interaction, kind: str, table_id: int,
                      version: int, arg: str, values: list[str]) -> None:
        ui = await self._ensure_ui(table_id)
        if ui is None:
            raise NoSuchTable("that table is closed")
        seat = self.service.seat_of(table_id, interaction.user.id)
        if seat is None:
            await self._say(interaction, "You have no seat at this table: only its players "
                                         "can choose here.")
            return
        try:
            if kind == "m":
                if not values:
                    raise ValueError("choose at least one card")
                action = Action.bid_cards(tuple(values))
            else:
                action = decode_action(values[0] if kind == "s" else arg)
        except (ValueError, IndexError) as exc:
            await self._say(interaction, _sentence(str(exc)))
            return
        if kind == "s":
            legal = self.service.legal(table_id, seat)
            options = variants(legal, action)
            if len(options) > 1:
                if version != self.service.info(table_id).version:
                    raise StaleAction()
                panel = build_panel(self.service, table_id, seat, images=ui.images,
                                    pick=action)
                await self._show(interaction, ui, seat, panel, update=True)
                return
            if len(options) == 1:
                action = options[0]
        await self._within(interaction, self.service.act(table_id, interaction.user.id,
                                                         action, version))
        try:
            panel = build_panel(self.service, table_id, seat, images=ui.images)
        except NoSuchTable:  # that action ended the match: the table is closed
            final: dict[str, Any] = {
                "content": "Done: the match is over — the result is in the channel.",
                "view": None, "attachments": []}
            if interaction.response.is_done():
                await interaction.edit_original_response(**final)
            else:
                await interaction.response.edit_message(**final)
            return
        await self._show(interaction, ui, seat, panel, update=True)

    async def _back(self, interaction: discord.Interaction, table_id: int) -> None:
        if self.service.seat_of(table_id, interaction.user.id) is None:
            await self._say(interaction, "You have no seat at this table.")
            return
        await self._within(interaction, self.service.rejoin(table_id, interaction.user.id))
        await self._say(interaction, "Welcome back: your seat is yours again.")

    async def _abandon_confirmed(self, interaction: discord.Interaction,
                                 table_id: int) -> None:
        ui = await self._ensure_ui(table_id)
        if ui is None:
            raise NoSuchTable("that table is closed")
        if not _can_manage(interaction, ui.creator):
            await self._say(interaction, "Only the player who opened the table or a member "
                                         "with Manage Server can close it.")
            return
        await self._within(interaction, self.service.abandon(
            table_id, f"closed by {_name(interaction.user)}"))
        await interaction.response.edit_message(content="The table is closed.", view=None)

    # == slash commands =================================================================
    def _here(self, interaction: discord.Interaction) -> ChannelLocation:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        return ChannelLocation(interaction.guild_id, interaction.channel_id)

    async def _table_here(self, interaction: discord.Interaction) -> TableUI | None:
        table_id = self.service.find(self._here(interaction))
        if table_id is None:
            await self._say(interaction, "There is no open table in this channel: "
                                         "`/table new` opens one.")
            return None
        return await self._ensure_ui(table_id)

    @table.command(name="new", description="Open a table (a lobby) in this channel")
    @app_commands.describe(game="the game", options='rule options as JSON, e.g. {"target": 1}',
                           players="number of players, where the game allows several")
    @app_commands.choices(game=GAME_CHOICES)
    async def table_new(self, interaction: discord.Interaction, game: str,
                        options: str | None = None,
                        players: app_commands.Range[int, 2, 6] | None = None) -> None:
        info = GAMES.get(game)
        if info is None:
            await self._say(interaction, f"Unknown game {game!r}.")
            return
        existing = self.service.find(self._here(interaction))
        if existing is not None:
            ui = await self._ensure_ui(existing)
            where = ui.link() if ui is not None else "this channel"
            await self._say(interaction, f"There is already a table in this channel: {where}")
            return
        try:
            opts = json.loads(options) if options else {}
            if not isinstance(opts, dict):
                raise ValueError("options must be a JSON object, e.g. {\"target\": 1}")
        except (ValueError, json.JSONDecodeError) as exc:
            await self._say(interaction, f"Those options are not valid JSON: {exc}")
            return
        if players is not None and players not in info.player_counts:
            counts = ", ".join(map(str, info.player_counts))
            await self._say(interaction, f"{info.title} is played by {counts} players.")
            return
        try:
            info.match_type(opts, players, 0, seed="check")
        except Exception as exc:
            await self._say(interaction, f"Those options do not work: {exc}")
            return
        await interaction.response.defer(thinking=True)
        user = interaction.user
        try:
            table_id = await self.service.create_table(self._here(interaction), game,
                                                       options=opts, players=players)
        except LobbyError as exc:
            await interaction.followup.send(_sentence(str(exc)), ephemeral=True)
            return
        await self._save_meta(table_id, creator=user.id, channel_id=interaction.channel_id)
        ui = await self._ensure_ui(table_id)
        assert ui is not None
        ui.creator = user.id
        with contextlib.suppress(LobbyError):
            await self.service.join(table_id, user.id, _name(user))
        kwargs = self.render_public(ui)
        assert kwargs is not None
        ui.last_drawn = kwargs.pop("_key")
        ui.last_text = kwargs["content"]
        files = kwargs.pop("attachments", None)
        if files:
            kwargs["files"] = files
        msg = await interaction.followup.send(wait=True, **kwargs)
        ui.message_id = msg.id
        ui.last_edit = monotonic()
        await self._save_meta(table_id, message_id=msg.id)
        self._mark(ui)

    @table.command(name="join", description="Take a seat at the table in this channel")
    async def table_join(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        seat = await self._within(interaction, self.service.join(
            ui.table_id, interaction.user.id, _name(interaction.user)))
        await self._say(interaction, f"You sit at seat {seat}.")

    @table.command(name="leave", description="Leave the lobby in this channel")
    async def table_leave(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        await self._within(interaction, self.service.leave(ui.table_id, interaction.user.id))
        await self._say(interaction, "You left the table.")

    @table.command(name="start", description="Start the match (host or Manage Server)")
    async def table_start(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        if not _can_manage(interaction, ui.creator):
            await self._say(interaction, "Only the player who opened the table or a member "
                                         "with Manage Server can start it.")
            return
        await self._within(interaction, self.service.start_match(ui.table_id))
        await self._say(interaction, f"The match has started: {ui.link()}")

    @table.command(name="ai", description="Seat an AI player of a level, at a chosen seat")
    @app_commands.describe(level="random, rules (sound habits) or search (the strongest)",
                           seat="the seat (default: the first free one)")
    @app_commands.choices(level=[app_commands.Choice(name=n, value=n)
                                 for n in ("search", "rules", "random")])
    async def table_ai(self, interaction: discord.Interaction, level: str = "rules",
                       seat: app_commands.Range[int, 0, 5] | None = None) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        taken = await self._within(interaction, self.service.add_ai(ui.table_id, level,
                                                                    seat))
        await self._say(interaction, f"A {level} AI sits at seat {taken}.")
        self._mark(ui)

    @table.command(name="remove", description="Empty a seat of the lobby (host or Manage "
                                              "Server)")
    @app_commands.describe(seat="the seat number shown in the lobby")
    async def table_remove(self, interaction: discord.Interaction,
                           seat: app_commands.Range[int, 0, 5]) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        if not _can_manage(interaction, ui.creator):
            await self._say(interaction, "Only the host or a member with Manage Server can "
                                         "remove a player.")
            return
        await self._within(interaction, self.service.clear_seat(ui.table_id, seat))
        await self._say(interaction, f"Seat {seat} is free.")

    @table.command(name="arrange", description="Rearrange the seats (and so the teams)")
    @app_commands.describe(order="who sits where: e.g. '0 2 1 3' swaps seats 1 and 2")
    async def table_arrange(self, interaction: discord.Interaction, order: str) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        if not _can_manage(interaction, ui.creator):
            await self._say(interaction, "Only the host or a member with Manage Server can "
                                         "arrange the seats.")
            return
        try:
            seats = [int(x) for x in order.replace(",", " ").split()]
        except ValueError:
            await self._say(interaction, "Write the order as seat numbers, e.g. `0 2 1 3`.")
            return
        await self._within(interaction, self.service.arrange(ui.table_id, seats))
        await self._say(interaction, "The seats are rearranged.")

    @table.command(name="status", description="Where the table in this channel stands")
    async def table_status(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        kwargs = self.render_public(ui)
        text = kwargs["content"] if kwargs else "The table is closed."
        await self._say(interaction, f"{text}\n{ui.link()}"[:2000])

    @table.command(name="abandon", description="Close the table without a result")
    async def table_abandon(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        if not _can_manage(interaction, ui.creator):
            await self._say(interaction, "Only the player who opened the table or a member "
                                         "with Manage Server can close it.")
            return
        view = discord.ui.View(timeout=None)
        view.add_item(TableButton("x", ui.table_id, 0, label="Yes, close the table",
                                  style=discord.ButtonStyle.danger))
        await interaction.response.send_message(
            "Close this table without a result? Nothing of the match will count.",
            view=view, ephemeral=True)

    @table.command(name="export", description="The match record as a JSON file")
    async def table_export(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        table_id = self.service.find(self._here(interaction))
        if table_id is None:
            table_id = self.last_table.get(interaction.channel_id)
        if table_id is None:
            await self._say(interaction, "There is no table to export in this channel.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self.service.record(table_id)
        except ServiceError as exc:
            await interaction.followup.send(_sentence(str(exc)), ephemeral=True)
            return
        try:
            info = self.service.info(table_id)
        except NoSuchTable:
            info = None
        if info is not None and info.status == "playing":
            # The deal in progress stays secret: only the completed deals are exported.
            record = {**record, "deals": list(record.get("deals", []))[:info.deal]}
        data = json.dumps(record, indent=1, ensure_ascii=False).encode()
        await interaction.followup.send(
            f"The record of table {table_id} ({len(record.get('deals', []))} deals).",
            file=discord.File(io.BytesIO(data), filename=f"table-{table_id}.json"),
            ephemeral=True)

    @table.command(name="options", description="The rule options in force at this table")
    async def table_options(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        info = self.service.info(ui.table_id)
        await self._say(interaction, options_text(info.game, info.options))

    @app_commands.command(name="hand", description="Your hand and your choices (private)")
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        ui = await self._table_here(interaction)
        if ui is None:
            return
        try:
            await self._my_hand(interaction, ui.table_id)
        except ServiceError as exc:
            await self._say(interaction, _sentence(str(exc)))

    @app_commands.command(name="rules", description="A game's rules in brief, with its "
                                                    "options")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        if game not in GAMES:
            await self._say(interaction, f"Unknown game {game!r}.")
            return
        await self._say(interaction, rules_text(game))

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, (ServiceError,)):
            await self._say(interaction, _sentence(str(original)))
            return
        log.error("command failed", exc_info=original)
        with contextlib.suppress(discord.HTTPException):
            await self._say(interaction, "Something went wrong; nothing was changed.")


def _dm_key(seat: int) -> str:
    """The ``meta`` key of the DM panel last sent to ``seat``:
    ``{"deal": <0-based deal>, "channel_id": <DM channel>, "message_id": <message>}``."""
    return f"dm_panel_{seat}"


def _dm_panels(meta: Mapping[str, Any], info: TableInfo) -> dict[int, PanelRef]:
    """The seats' DM panels recorded in ``meta`` for the deal in play (a DM of an earlier
    deal is not a live panel any more). Nothing for a table that is not in play."""
    panels: dict[int, PanelRef] = {}
    if info.status != "playing":
        return panels
    for seat in range(len(info.seats)):
        entry = meta.get(_dm_key(seat))
        if isinstance(entry, Mapping) and entry.get("deal") == info.deal:
            panels[seat] = PanelRef("dm", channel_id=int(entry["channel_id"]),
                                    message_id=int(entry["message_id"]))
    return panels


def _reminder_key(seat: int) -> str:
    """The ``meta`` key of the turn deadline (ISO 8601) ``seat`` was last reminded of."""
    return f"reminded_{seat}"


def _same_instant(recorded: Any, deadline: str) -> bool:
    """Whether ``recorded`` (a value from ``meta``) names the instant ``deadline`` does."""
    if not isinstance(recorded, str):
        return False
    try:
        return dt.datetime.fromisoformat(recorded) == dt.datetime.fromisoformat(deadline)
    except ValueError:
        return recorded == deadline


def _totals(totals: Any, ui: TableUI) -> str:
    """Match totals by side: ``A 3 · B 5`` for teams, by seat name otherwise."""
    info = ui.info
    if not isinstance(totals, list) or info is None or len(totals) != len(info.teams):
        return str(totals)
    if all(len(t) == 1 for t in info.teams):
        names = [plain_name(info.seats[t[0]], t[0]) for t in info.teams]
    else:
        names = [f"team {'ABCDEF'[i]}" for i in range(len(info.teams))]
    return " · ".join(f"{n} {v}" for n, v in zip(names, totals, strict=True))


def _sentence(text: str) -> str:
    text = text.strip() or "That is not possible now."
    if text == StaleAction.MESSAGE:
        text = ("That choice is no longer current (a double click, or a panel from an "
                "earlier turn): nothing changed. Use **My hand** for the current panel")
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


__all__ = ["TablesCog"]
