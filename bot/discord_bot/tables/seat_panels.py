"""One :class:`SeatPanels` per table in play: each human seat's private panels and its
reminders.

A seat's panels are drawn from the ``state`` events its subscription receives
(:mod:`bot.discord_bot.tables.hand_panel`); the newest one is kept and is what every redraw shows.

* **The DM** of each deal: sent when the deal starts (and recorded in the store, so a
  restarted bot edits that same message), redrawn when the seat's controls change. A
  deal whose hands are dealt after an AI's first choice (Turup: eldest names trump from
  his first three cards) sends it with the seat's hand, not empty a moment before it
  (:func:`dealt_yet`).
* **An ephemeral panel** (**My hand**) is the seat's live panel while it is the one last
  shown and younger than :data:`PANEL_EDIT_LIFETIME` (its interaction token lives 15
  minutes); otherwise the DM is.
* Each redraw goes through a :class:`~bot.discord_bot.tables.delivery.LiveMessage`: retried until
  it lands or a newer state replaces it, so no lost edit leaves a player without controls.
  When Discord holds the bot back, the live panel of a seat to act goes first
  (:meth:`SeatPanel.urgency`, :mod:`bot.discord_bot.tables.gate`).
* **A click being answered** on a seat's panel (:meth:`SeatPanels.answering`) holds that
  seat's redraws until its answer has landed: the answer (the interaction's update of the
  clicked panel) shows the state the click made, so the redraw that state's event asks for
  finds it shown and costs no request — one request per click, not the answer and an edit
  with the same content. A held redraw waits at most :data:`ANSWER_WAIT` seconds. After
  every answer the live panel is checked against the seat's newest state (a state that
  came meanwhile is drawn; no request otherwise). A click on the ephemeral panel keeps
  its live message (edited through the newest click's token), so an edit of it under way
  is known to it (:meth:`~bot.discord_bot.tables.delivery.LiveMessage.shown_as`).
* DMs closed (50007): one notice in the channel, recorded; no more DMs to that seat.
* With the web table served, every panel carries the player's **Open in browser** link
  (:mod:`bot.discord_bot.tables.hand_panel`), made anew at each redraw: no request of its own.
* The half-time **reminder** is posted at most once per seat and turn deadline, across
  restarts: the deadline is claimed in the store before the reminder is posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

import discord

from bot.discord_bot.tables.board_end import FinalBoard, final_key, no_controls
from bot.discord_bot.tables.delivery import Drawn, LiveMessage
from bot.discord_bot.tables.gate import LATER, TO_ACT
from bot.discord_bot.tables.hand_panel import (
    PanelDrawing,
    SeatState,
    TableFacts,
    draw_panel,
    panel_key,
)
from bot.discord_bot.tables.preferences import forced_plays
from bot.discord_bot.tables.presenter import TablePresenter
from bot.discord_bot.tables.single_panel import PanelSlot
from bot.discord_bot.tables.token_route import TokenRoute, token_refused
from bot.discord_bot.tables.web_play import web_note, web_note_key
from bot.i18n import Translator
from bot.service import NoSuchTable, Subscription, TableEvent, TableService
from bot.service.events import RESYNC, data_of
from storage import UNSET, SeatPanelRecord

log = logging.getLogger(__name__)

PANEL_EDIT_LIFETIME = 14 * 60.0
"""An ephemeral panel is edited through its interaction token, which lives 15 minutes."""

ANSWER_WAIT = 5.0
"""Seconds a seat's redraw waits at most for a click's answer under way (Discord wants an
answer within 3 seconds; a deferred answer's edit may take a little longer)."""

DmChannels = Callable[[int], Awaitable[int]]


@dataclass
class SeatPanel:
    """One human seat: its newest state and where its panels are."""

    seat: int
    user_id: int
    state: SeatState | None = None
    dm: LiveMessage | None = None
    dm_deal: int | None = None
    eph: LiveMessage | None = None
    eph_via: discord.Interaction[discord.Client] | None = None
    """The newest interaction answered with the ephemeral panel: its token edits it."""
    eph_since: float = 0.0
    live: str = "dm"
    dm_closed: bool = False
    dm_token: TokenRoute | None = None
    """The newest click on the DM: its token edits the DM while valid
    (:mod:`bot.discord_bot.tables.token_route`)."""
    pump: asyncio.Task[None] | None = None
    slot: PanelSlot = field(default_factory=PanelSlot)
    """The seat's one ephemeral panel: a new one retires the previous one."""
    answers: int = 0
    """Clicks on the seat's panels being answered (:meth:`SeatPanels.answering`)."""
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    """Set while no click is being answered."""

    def __post_init__(self) -> None:
        self.answered.set()

    async def until_answered(self) -> None:
        """Wait (at most :data:`ANSWER_WAIT`) until no click on the seat's panels is being
        answered: the answer shows the newest state, the redraw then finds it shown."""
        if not self.answered.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.answered.wait(), ANSWER_WAIT)

    def live_message(self) -> LiveMessage | None:
        if self.live == "eph" and self.eph is not None and (
                time.monotonic() - self.eph_since < PANEL_EDIT_LIFETIME):
            return self.eph
        return self.dm

    def urgency(self, live: LiveMessage) -> int:
        """Where ``live`` waits when Discord holds the bot back (:mod:`bot.discord_bot.
        gate`): first when it is the seat's live panel and the seat is to act."""
        state = self.state
        if state is not None and self.seat in state.to_act and self.live_message() is live:
            return TO_ACT
        return LATER


def is_dm_panel(message: discord.Message | None) -> bool:
    """Whether ``message`` is a DM panel (a deal's own message), not an ephemeral panel,
    which carries on from deal to deal."""
    return message is not None and message.guild is None and not message.flags.ephemeral


def dealt_yet(state: SeatState) -> bool:
    """Whether a deal's first DM has something to show: the seat holds cards or is to act,
    the deal is over, or a human is to act (then no hand may come for a long while: the
    DM says now that a deal began). False while the seat's hand is still empty and only
    automatic seats (AI players) are to act, e.g. while Turup's eldest names trump from
    his first three cards: the rest of the deal follows one AI move later."""
    if (state.status != "playing" or (state.game_view and state.game_view.get("hand"))
            or state.legal):
        return True
    return any(s >= len(state.seats) or (who := state.seats[s]) is None or not who.auto
               for s in state.to_act)


class SeatPanels:
    """The private side of one table (see the module docstring)."""

    def __init__(self, client: discord.Client, service: TableService,
                 presenter: TablePresenter, facts: TableFacts, turn_timeout: float,
                 dm_channel: DmChannels) -> None:
        self.client, self.service, self.presenter = client, service, presenter
        self.store = presenter.store
        self.facts = dataclasses.replace(facts, client=client)
        """The table's facts with this client: its panels carry the web table's link."""
        self.turn_timeout = turn_timeout
        self.dm_channel = dm_channel
        self.seats: dict[int, SeatPanel] = {}
        self.closed = False
        self.final: FinalBoard | None = None
        """A duplicate board's end: every panel's last drawing (:meth:`finish_board`)."""
        self._finished = asyncio.Event()

    @property
    def table_id(self) -> int:
        return self.facts.table_id

    # -- seats --------------------------------------------------------------------------
    def follow(self, seat: int, user_id: int, sub: Subscription,
               record: SeatPanelRecord | None = None, deal: int | None = None) -> None:
        """Start following a human seat on ``sub``; ``record``: what the store holds of
        its panels (after a restart), ``deal`` the deal in play."""
        if seat in self.seats:
            sub.close()
            return
        panel = SeatPanel(seat, user_id)
        if record is not None:
            panel.dm_closed = record.dm_closed
            if (record.deal is not None and record.deal == deal
                    and record.channel_id is not None and record.message_id is not None):
                panel.dm = self._dm_live(panel, record.channel_id, record.message_id)
                panel.dm_deal = record.deal
                panel.dm.shown = f"wait:{record.deal}"  # edited when its turn comes
        self.seats[seat] = panel
        panel.pump = asyncio.get_running_loop().create_task(
            self._pump(panel, sub), name=f"table {self.table_id} seat {seat}")

    def stop(self) -> None:
        self.closed = True
        for panel in self.seats.values():
            if panel.pump is not None:
                panel.pump.cancel()
            for live in (panel.dm, panel.eph):
                if live is not None:
                    live.close()

    def finish_board(self, final: FinalBoard) -> None:
        """The table's board is over: every seat's hand DM and live **My hand** panel is
        redrawn once more, to the board's final panel with no control
        (:mod:`bot.discord_bot.tables.board_end`); no later state is drawn."""
        self.final = final
        self._finished.set()
        for panel in self.seats.values():
            self._redraw(panel)

    async def final_for(self, seat: int, t: Translator) -> PanelDrawing | None:
        """The seat's final panel once the board's end has been seen here (waiting at most
        :data:`ANSWER_WAIT` for it: a click that ended the board is answered with it)."""
        panel = self.seats.get(seat)
        if panel is None:
            return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._finished.wait(), ANSWER_WAIT)
        return await self.final_panel(panel, t)

    def retire(self) -> None:
        """The board's table closed: follow no seat any more, but let the final drawings
        under way land (:meth:`stop` ends them)."""
        self.closed = True
        for panel in self.seats.values():
            if panel.pump is not None:
                panel.pump.cancel()

    @property
    def busy(self) -> bool:
        """A panel's drawing is waiting or being delivered."""
        return any(live is not None and live.busy for panel in self.seats.values()
                   for live in (panel.dm, panel.eph))

    async def final_panel(self, panel: SeatPanel, t: Translator) -> PanelDrawing | None:
        """The seat's final panel of a finished board (None: the board is not over)."""
        final, info = self.final, self.presenter.info
        if final is None or info is None:
            return None
        text = final.panel_text(info, t, dm_closed=panel.dm_closed,
                                channel_id=self.facts.channel_id)
        return PanelDrawing(text, no_controls(), None,
                            final_key(final, t.language, dm_closed=panel.dm_closed), False,
                            t.language)

    async def _pump(self, panel: SeatPanel, sub: Subscription) -> None:
        """Follow one seat: post its reminders, keep its newest state and redraw its live
        panel. A ``resync`` (the subscription fell behind) re-reads the seat's state once;
        the reminder of its turn, which may have been dropped, is posted if due."""
        try:
            async for event in sub:
                latest: TableEvent | None = None
                resync = False
                for ev in [event, *sub.drain()]:
                    if ev.type == RESYNC:
                        resync = True
                    elif ev.type == "reminder":
                        await self.remind(panel, data_of(ev, "reminder")["deadline"])
                    elif ev.type == "state":
                        latest = ev
                if resync:
                    with contextlib.suppress(NoSuchTable):
                        latest = self.service.state(self.table_id, panel.seat)
                        if latest.type == "state":
                            await self._remind_if_due(panel, SeatState.of(latest))
                if latest is not None and latest.type == "state":
                    await self.refresh(panel.seat, SeatState.of(latest))
        except Exception:
            log.exception("table %s seat %s: following the seat failed", self.table_id,
                          panel.seat)
        finally:
            sub.close()

    async def refresh(self, seat: int, state: SeatState) -> None:
        """Keep ``state`` (if newer) and bring the seat's live panel up to it."""
        panel = self.seats.get(seat)
        if panel is None or self.closed or self.final is not None:
            return
        if panel.state is not None and state.version < panel.state.version:
            return
        panel.state = state
        restored = f"wait:{state.deal}"  # a DM recorded before a restart (see follow)
        if panel.dm is not None and panel.dm.shown == restored:
            key = panel_key(state, seat, (await self._reader(panel)).language)
            if key.startswith(restored + ":"):
                panel.dm.shown = key  # it shows this hand: no edit needed
        live = panel.live_message()
        if live is not None:
            live.mark()
        if panel.dm is not None and panel.dm is not live:
            panel.dm.mark()  # the DM's hand stays current (drawn only when it changed)
        forced_plays(self.store).consider(self.service, self.table_id, panel.user_id, seat,
                                          state)

    async def _reader(self, panel: SeatPanel) -> Translator:
        """The seat's player's language (their choice, else the server's: looked up at
        every drawing, so a change shows at the next redraw)."""
        return await self.presenter.languages.player(panel.user_id, self.presenter.guild_id)

    def redraw_user(self, user_id: int) -> None:
        """A player's language changed: redraw their panels at once."""
        for panel in self.seats.values():
            if panel.user_id == user_id:
                self._redraw(panel)

    def redraw_all(self) -> None:
        """The server's language changed: redraw every seat's panels (a player without a
        choice of their own follows the server)."""
        for panel in self.seats.values():
            self._redraw(panel)

    @staticmethod
    def _redraw(panel: SeatPanel) -> None:
        for live in (panel.live_message(), panel.dm):
            if live is not None:
                live.mark()

    @contextlib.contextmanager
    def answering(self, seat: int) -> Iterator[None]:
        """A click on ``seat``'s panel is being answered with the panel it makes (an update
        of the clicked message): the seat's redraws wait until the answer has landed and
        :meth:`shown_on` has recorded what it shows (see the module docstring)."""
        panel = self.seats.get(seat)
        if panel is None:
            yield
            return
        panel.answers += 1
        panel.answered.clear()
        try:
            yield
        finally:
            panel.answers -= 1
            if panel.answers <= 0:
                panel.answers = 0
                panel.answered.set()

    def state_of(self, seat: int) -> SeatState | None:
        panel = self.seats.get(seat)
        return None if panel is None else panel.state

    # -- the DM of a deal ---------------------------------------------------------------
    def send_hands(self, deal: int) -> None:
        """DM every human seat (DMs open) its panel of ``deal``, unless it has it."""
        for panel in self.seats.values():
            if panel.dm_closed or panel.dm_deal == deal:
                continue
            if panel.dm is not None:
                panel.dm.close()
            panel.dm = self._dm_live(panel, None, None, deal=deal)
            panel.dm_deal = deal
            panel.live = "dm"
            panel.dm.mark()

    def _dm_live(self, panel: SeatPanel, channel_id: int | None, message_id: int | None, *,
                 deal: int | None = None) -> LiveMessage:
        channel: list[int] = [] if channel_id is None else [channel_id]
        first = deal is not None
        name = f"table {self.table_id} seat {panel.seat} DM"
        made: list[LiveMessage] = []

        async def draw() -> Drawn | None:
            if self.final is not None:
                return await final_drawn()
            state = panel.state
            if state is None or (deal is not None and state.deal != deal):
                return None  # the seat's state of this deal is not here yet
            if first and made and made[0].message_id is None and not dealt_yet(state):
                return None  # sent with the hand, an AI's moment later (module docstring)
            t = await self._reader(panel)
            on_web = state.status == "playing" and self.presenter.web.on_web(panel.user_id)
            if on_web and made[0].message_id is None:
                return None  # the page is their hand: no DM while they play on the web
            key = (web_note_key(state, t.language) if on_web
                   else panel_key(state, panel.seat, t.language))

            async def drawing() -> PanelDrawing:
                if on_web:  # not redrawn turn by turn (bot/discord_bot/tables/web_play.py)
                    return web_note(self.facts, state, t)
                note = (t.gettext("A new deal has started in {channel}.").format(
                    channel=f"<#{self.facts.channel_id}>") if first else "")
                return await draw_panel(self.facts, panel.seat, state, t,
                                        images=self.presenter.images, note=note)

            async def send() -> int:
                if not channel:
                    channel.append(await self.dm_channel(panel.user_id))
                d = await drawing()
                msg = await self.client.get_partial_messageable(
                    channel[0], type=discord.ChannelType.private).send(**d.send_kwargs())
                return msg.id

            async def edit(message_id: int) -> None:
                d = await drawing()
                route = panel.dm_token
                if route is not None and route.fits(message_id):
                    try:
                        await route.edit(self.client, **d.edit_kwargs())
                        return
                    except discord.HTTPException as exc:
                        if not token_refused(exc):
                            raise
                        if panel.dm_token is route:
                            panel.dm_token = None  # the edit goes with the bot's token
                await self.client.get_partial_messageable(
                    channel[0], type=discord.ChannelType.private
                ).get_partial_message(message_id).edit(**d.edit_kwargs())

            route = panel.dm_token  # an edit through a click's token is not counted
            free = route is not None and made[0].message_id is not None and route.fits(
                made[0].message_id)
            return Drawn(key, send, edit, free_edit=free,
                         send_requests=1 if channel else 2)  # the DM channel first

        async def final_drawn() -> Drawn | None:
            if not channel or made[0].message_id is None:
                return None  # no DM of the board was sent: none to finish
            final = await self.final_panel(panel, await self._reader(panel))
            if final is None:
                return None

            async def no_send() -> int:
                raise RuntimeError("a board's final panel edits the DM sent")

            async def edit(message_id: int) -> None:
                await self.client.get_partial_messageable(
                    channel[0], type=discord.ChannelType.private
                ).get_partial_message(message_id).edit(**final.edit_kwargs())

            return Drawn(final.key, no_send, edit)

        async def sent(message_id: int) -> None:
            try:  # shielded: the table closing (stop) must not cut a write in two
                await asyncio.shield(self.store.save_seat_panel(
                    self.table_id, panel.seat,
                    deal=UNSET if panel.dm_deal is None else panel.dm_deal,
                    channel_id=channel[0], message_id=message_id))
            except Exception:
                log.exception("table %s: could not record a DM panel", self.table_id)

        async def closed() -> None:
            await self._dms_closed(panel)

        live = LiveMessage(name, draw, message_id=message_id, on_sent=sent, on_closed=closed,
                           wait_before=panel.until_answered,
                           urgency=lambda: panel.urgency(made[0]))
        made.append(live)
        return live

    async def _dms_closed(self, panel: SeatPanel) -> None:
        if panel.dm_closed:
            return
        panel.dm_closed = True
        try:
            await self.store.save_seat_panel(self.table_id, panel.seat, dm_closed=True)
        except Exception:
            log.exception("table %s: could not record closed DMs", self.table_id)
        user, link = f"<@{panel.user_id}>", self.presenter.link()
        self.presenter.post(lambda t: t.gettext(
            "{player}, I cannot send you direct messages: use the **My hand** button on the "
            "table ({link}) to see your hand and play.").format(player=user, link=link),
            ping=(panel.user_id,))

    # -- panels shown by an interaction -------------------------------------------------
    def shown_on(self, seat: int, interaction: discord.Interaction[discord.Client],
                 drawing: PanelDrawing) -> None:
        """``drawing`` was shown by answering ``interaction`` (an update of a DM panel, or
        an ephemeral panel): that panel becomes the seat's live panel."""
        panel = self.seats.get(seat)
        if panel is None:
            return
        self._from_discord(panel)
        msg = interaction.message
        if msg is not None and is_dm_panel(msg):
            self.shown_in_dm(seat, msg.channel.id, msg.id, drawing.key,
                             via=TokenRoute.of_interaction(interaction))
            return
        panel.slot.shown(interaction, drawing.language)
        panel.eph_via = interaction
        on_panel = msg is not None and msg.flags.ephemeral
        if panel.eph is None or panel.eph.closed or not on_panel:
            if panel.eph is not None:
                panel.eph.close()  # a new panel (My hand): the old one is retired
            panel.eph = self._eph_live(panel)
        # a click on the panel itself keeps its live message: an edit of it under way is
        # known to it, so what the answer showed is checked after that edit
        panel.eph.shown_as(drawing.key, 0)
        panel.eph_since = time.monotonic()
        panel.live = "eph"
        panel.eph.mark()  # a newer state may have come meanwhile (costs nothing if not)

    def shown_in_dm(self, seat: int, channel_id: int, message_id: int, key: str, *,
                    via: TokenRoute | None = None) -> None:
        """The DM message ``message_id`` shows the drawing ``key`` (answered to a click on
        it, here or by another process; ``via``: that click's token, which edits the DM
        from now on while valid): it becomes the seat's live panel — unless the
        seat has the DM of the deal in play and this is another (older) message: a click
        on the last panel of a deal is answered after the next deal's DM was sent, and
        that DM stays the live panel (the clicked one showed the answer once)."""
        panel = self.seats.get(seat)
        if panel is None:
            return
        self._from_discord(panel)
        if (panel.dm is not None and panel.dm_deal is not None and not panel.dm.closed
                and panel.dm.message_id != message_id):
            panel.live = "dm"
            return
        if panel.dm is None or panel.dm.message_id != message_id:
            if panel.dm is not None:
                panel.dm.close()
            panel.dm = self._dm_live(panel, channel_id, message_id)
        if via is not None:
            panel.dm_token = via
        panel.dm.shown_as(key)
        panel.live = "dm"
        panel.dm.mark()  # a newer state may have come meanwhile (costs nothing if not)

    def clicked_dm(self, seat: int, via: TokenRoute) -> None:
        """A click on the seat's DM ``via.message_id`` is answered by its editor's next
        redraw: its token edits the DM from now on while valid (the click costs no
        request of the bot's budget)."""
        panel = self.seats.get(seat)
        if panel is None:
            return
        self._from_discord(panel)
        if panel.dm is not None and panel.dm.message_id == via.message_id:
            panel.dm_token = via

    def _from_discord(self, panel: SeatPanel) -> None:
        """The seat's player clicked a panel of the table in Discord: if they were
        playing on the web, the table message and their panels are drawn live again
        (:mod:`bot.discord_bot.tables.web_play`)."""
        if self.presenter.web.played_from_discord(panel.user_id):
            self.presenter.live.mark()
            self._redraw(panel)

    def live_dm(self, seat: int) -> int | None:
        """The id of the seat's live DM panel (None: none, or an ephemeral panel is)."""
        panel = self.seats.get(seat)
        if panel is None or panel.live != "dm" or panel.dm is None:
            return None
        return panel.dm.message_id

    def _eph_live(self, panel: SeatPanel) -> LiveMessage:
        """The seat's ephemeral panel, edited through ``panel.eph_via``."""
        async def draw() -> Drawn | None:
            state, interaction = panel.state, panel.eph_via
            if state is None or interaction is None:
                return None
            t = await self._reader(panel)
            final = await self.final_panel(panel, t)
            if final is not None:
                async def no_send() -> int:
                    raise RuntimeError("an ephemeral panel is never sent anew")

                async def edit_final(_: int) -> None:
                    await interaction.edit_original_response(**final.edit_kwargs())

                return Drawn(final.key, no_send, edit_final)

            async def send() -> int:
                raise RuntimeError("an ephemeral panel is never sent anew")

            async def edit(_: int) -> None:
                d = await draw_panel(self.facts, panel.seat, state, t,
                                     images=self.presenter.images)
                await interaction.edit_original_response(**d.edit_kwargs())

            return Drawn(panel_key(state, panel.seat, t.language), send, edit,
                         free_edit=True)  # through the interaction's token

        made: list[LiveMessage] = []
        live = LiveMessage(f"table {self.table_id} seat {panel.seat} private panel", draw,
                           message_id=0, can_send=False, wait_before=panel.until_answered,
                           urgency=lambda: panel.urgency(made[0]))
        made.append(live)
        return live

    # -- reminders ----------------------------------------------------------------------
    async def _remind_if_due(self, panel: SeatPanel, state: SeatState) -> None:
        """After a ``resync``: post the reminder of the seat's turn if half of its time has
        passed (the service's ``reminder`` may have been dropped)."""
        if panel.seat not in state.to_act or state.deadline is None or self.turn_timeout <= 0:
            return
        s = state.seats[panel.seat] if panel.seat < len(state.seats) else None
        if s is None or s.is_ai or s.away:
            return
        half = dt.timedelta(seconds=self.turn_timeout / 2)
        if self.service.clock.now() >= dt.datetime.fromisoformat(state.deadline) - half:
            await self.remind(panel, state.deadline)

    async def remind(self, panel: SeatPanel, deadline: object) -> None:
        """Post the half-time reminder of ``panel``'s seat, at most once per deadline (the
        deadline is claimed in the store first: a crash in between loses that reminder
        rather than repeating it)."""
        if isinstance(deadline, str):
            try:
                claimed = await self.store.mark_seat_reminded(
                    self.table_id, panel.seat, dt.datetime.fromisoformat(deadline))
            except Exception:
                log.exception("table %s: could not record a reminder", self.table_id)
                claimed = True
            if not claimed:
                return
        half = int(self.turn_timeout / 2)
        user, table = f"<@{panel.user_id}>", self.table_id
        self.presenter.post(lambda t: t.ngettext(
            "⏰ {player}, it is your turn at table {table}: about {count} second left before "
            "an AI plays for you. Use **My hand** on the table message.",
            "⏰ {player}, it is your turn at table {table}: about {count} seconds left before "
            "an AI plays for you. Use **My hand** on the table message.", half).format(
                player=user, table=table, count=t.number(half)), ping=(panel.user_id,))
