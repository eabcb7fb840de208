"""What a click on a table component does: :class:`TableClicks`, the router's handler.

A click travels: Discord → the router's dynamic item (:mod:`bot.discord_bot.router`),
which parses the ``custom_id`` into a :class:`~bot.discord_bot.router.Click` → one method
here, which runs the request on the table service inside
:func:`~bot.discord_bot.answer.update_in_place` (one answer: an update of the clicked
message when quick, a deferral then an edit when slow; every refusal private) → the answer
shows the new panel or public message, and the panel or presenter records what it shows,
so its own redraw of the same state costs no request. A seat's redraws are held while a
click on its panel is answered (:meth:`~bot.discord_bot.tables.seat_panels.SeatPanels.answering`):
the ``state`` event the click's action publishes would otherwise edit the DM with that
same state while the answer is under way.

Reads per click: a play reads the seat (``seat_of``) and, after the action, the seat's new
``state`` once; the legal actions offered are the seat's newest published state, kept by
its :class:`~bot.discord_bot.tables.seat_panels.SeatPanels`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

import discord

from bot.discord_bot.answer import Reply, UserError, answer, refuse, update_in_place
from bot.discord_bot.router import ANOTHER_SERVER, Click, from_another_server
from bot.discord_bot.table_hub import TableHub
from bot.discord_bot.tables.board_end import board_number
from bot.discord_bot.tables.hand_panel import (
    PanelDrawing,
    SeatState,
    TableFacts,
    draw_panel,
)
from bot.discord_bot.tables.presenter import PublicDrawing, TablePresenter
from bot.discord_bot.tables.seat_panels import SeatPanels, is_dm_panel
from bot.discord_bot.tables.table_words import refusal_sentence
from bot.i18n import N_, Translator
from bot.i18n.said import Said
from bot.service import NoSuchTable, RuleRefusal, ServiceError, StaleAction
from bot.service.errors import CLOSED_BY
from bot.service.events import data_of
from bot.service.picks import resolve_pick
from games.actions import Action
from storage import ChannelLocation

Interaction = discord.Interaction[discord.Client]

NOT_HOST_START = N_("Only the player who opened the table or a member with Manage Server "
                    "can start it.")
NOT_HOST_CLOSE = N_("Only the player who opened the table or a member with Manage Server "
                    "can close it.")
NO_SEAT = N_("You have no seat at this table.")

MATCH_OVER_HERE = N_("Done: the match is over — the result is in the channel.")
"""What the clicked panel says once its player's click ended the match."""

DEAL_OVER_HERE = N_("Deal {deal} is over: the result is in {channel}. Your next hand comes "
                    "in a new message below.")
"""What a deal's DM says once its player's click ended the deal: the next deal has a DM
of its own (:mod:`bot.discord_bot.tables.seat_panels`), so this one keeps no controls."""


def deal_over_here(t: Translator, deal: int, channel_id: int) -> str:
    """:data:`DEAL_OVER_HERE` for deal ``deal`` (0-based) of the table in ``channel_id``."""
    return t.gettext(DEAL_OVER_HERE).format(deal=t.number(deal + 1),
                                            channel=f"<#{channel_id}>")


class TableClicks:
    """The router's :class:`~bot.discord_bot.router.ClickHandler` for tables."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self.service = hub.service

    async def admit(self, interaction: Interaction, click: Click) -> bool:
        """Refuse privately (False) a click made in a server on a table of another server:
        a forged component (:mod:`bot.discord_bot.router`). A DM click, or one whose table
        cannot be looked up now (closed, or the store away), goes on to its own path,
        which answers it."""
        if click.guild_id is None:
            return True
        try:
            table_guild = await self._guild_of(click.table_id)
        except Exception:  # the store is away: the click's own path says so
            return True
        if not from_another_server(click.guild_id, table_guild):
            return True
        t = await self.hub.languages.reader(interaction)
        await refuse(interaction, t.gettext(ANOTHER_SERVER))
        return False

    async def presenter(self, table_id: int) -> TablePresenter:
        """The table's presenter, or a :class:`UserError` saying where the table is."""
        presenter = await self.hub.ensure(table_id)
        if presenter is None:
            said = await self._elsewhere(table_id)
            raise UserError(said.message, **said.fields)
        return presenter

    async def _elsewhere(self, table_id: int) -> Said:
        """Why a table is not here: closed, or run by another bot process."""
        try:
            row = await self.hub.store.get_table(table_id)
        except Exception:
            row = None
        if row is None or row.status not in ("lobby", "playing"):
            return Said.of(N_("That table is closed."))
        where = row.location
        if isinstance(where, ChannelLocation):
            return Said.of(N_("That table is played in {channel}: use **My hand** on its "
                              "table message there."), channel=f"<#{where.channel_id}>")
        return Said.of(N_("That table is played in its channel: use **My hand** on its "
                          "table message there."))

    # -- the lobby: the public message is updated in the answer ---------------------------
    async def _public(self, interaction: Interaction, click: Click,
                      work: Callable[[TablePresenter], Awaitable[None]]) -> None:
        shown: list[tuple[TablePresenter, PublicDrawing]] = []

        async def run() -> Reply | None:
            presenter = await self.presenter(click.table_id)
            await work(presenter)
            drawing = await presenter.drawing()
            if drawing is None:
                return None
            shown.append((presenter, drawing))
            return drawing.reply(presenter.images)

        await update_in_place(interaction, run, t=await self.reader(interaction, click.table_id),
                              defer_after=self.hub.settings.defer_after)
        if shown:
            presenter, drawing = shown[0]
            msg = interaction.message
            if msg is not None and (presenter.message_id is None
                                    or presenter.message_id == msg.id):
                presenter.shown(drawing, msg.id)

    async def join(self, interaction: Interaction, click: Click) -> None:
        async def work(p: TablePresenter) -> None:
            await self.service.join(p.table_id, click.user_id, click.user_name)
        await self._public(interaction, click, work)

    async def leave(self, interaction: Interaction, click: Click) -> None:
        async def work(p: TablePresenter) -> None:
            await self.service.leave(p.table_id, click.user_id)
        await self._public(interaction, click, work)

    async def add_ai(self, interaction: Interaction, click: Click, level: str) -> None:
        async def work(p: TablePresenter) -> None:
            await self.service.add_ai(p.table_id, level)
        await self._public(interaction, click, work)

    async def start(self, interaction: Interaction, click: Click) -> None:
        async def work(p: TablePresenter) -> None:
            self.check_host(p, click.user_id, click.can_manage, NOT_HOST_START)
            await self.service.start_match(p.table_id)
        await self._public(interaction, click, work)

    @staticmethod
    def check_host(presenter: TablePresenter, user_id: int, can_manage: bool, refusal: str
                   ) -> None:
        """Refuse (``refusal``: ``NOT_HOST_START`` or ``NOT_HOST_CLOSE``) unless the user
        opened the table or has Manage Server."""
        if user_id != presenter.creator and not can_manage:
            raise UserError(refusal)

    async def reader(self, interaction: Interaction, table_id: int) -> Translator:
        """The clicking user's language. A click in a DM has no server: the table's
        server decides the fallback (a Somali club's player reads Somali in their DMs)."""
        languages = self.hub.languages
        if interaction.guild_id is not None:
            return await languages.reader(interaction)
        languages.seen(interaction)
        return await languages.player(interaction.user.id, await self._guild_of(table_id))

    async def _guild_of(self, table_id: int) -> int | None:
        presenter = self.hub.presenters.get(table_id)
        if presenter is not None:
            return presenter.guild_id
        row = await self.hub.store.get_table(table_id)
        where = None if row is None else row.location
        return where.guild_id if isinstance(where, ChannelLocation) else None

    # -- play: the panel is updated in the answer -----------------------------------------
    async def act(self, interaction: Interaction, click: Click, action: Action | None, *,
                  picked: bool = False) -> None:
        await self._play(interaction, click, Chose(action, picked))

    async def signal(self, interaction: Interaction, click: Click, signal: str | None
                     ) -> None:
        """The leader's signal for the next lead: the panel is redrawn in place with each
        card of its select carrying ``signal`` (:mod:`bot.discord_bot.tables.card_select`)."""
        await self._play(interaction, click, Signalled(signal))

    async def bid_cards(self, interaction: Interaction, click: Click,
                        cards: tuple[str, ...]) -> None:
        await self._play(interaction, click, BidCards(cards))

    async def _play(self, interaction: Interaction, click: Click, choice: Choice) -> None:
        """Answer a click on a seat's panel by updating the panel: the seat's state →
        :func:`resolve` → play the action or redraw → the reply (:meth:`_panel_reply`);
        then record what the answer shows."""
        t = await self.reader(interaction, click.table_id)
        with _Holds() as holds:
            reply = await update_in_place(
                interaction, partial(self._panel_reply, interaction, click, choice, t, holds),
                t=t, defer_after=self.hub.settings.defer_after)
            if isinstance(reply, PanelReply) and reply.shown is not None:
                await self._shown(interaction, click.table_id, reply.shown)

    async def _panel_reply(self, interaction: Interaction, click: Click, choice: Choice,
                           t: Translator, holds: _Holds) -> Reply:
        """The work of :meth:`_play`, run inside the answer's deferral policy."""
        presenter = await self.presenter(click.table_id)
        seat = self.service.seat_of(click.table_id, click.user_id)
        if seat is None:
            raise UserError(N_("You have no seat at this table: only its players can "
                               "choose here."))
        panels = self.hub.panels.get(click.table_id)
        if panels is not None:  # the answer shows the panel: no redraw meanwhile
            holds.hold(panels, seat)
        state = panels.state_of(seat) if panels is not None else None
        if state is None or state.version < click.version:
            # the seat's pump has not taken the newest state yet (a busy loop)
            state = SeatState.of(self.service.state(click.table_id, seat))
        facts = self._facts(presenter, panels)
        step = resolve(state, click.version, choice)
        if isinstance(step, Refusal):
            raise step.error
        if isinstance(step, Redraw):
            drawing = await draw_panel(facts, seat, state, t, images=presenter.images,
                                       pick=step.pick, signal=step.signal)
            return _panel_reply(ShownPanel(seat, drawing, state))
        board = board_number(presenter.meta)
        try:
            await self.service.act(click.table_id, click.user_id, step.action, click.version)
        except RuleRefusal as exc:  # the rules' reason, with the table's names
            raise UserError(refusal_sentence(exc, presenter.info, t)) from None
        try:
            after: SeatState | None = SeatState.of(self.service.state(click.table_id, seat))
        except NoSuchTable:  # that action ended the match (or the board)
            after = None
        if board is not None and panels is not None and (
                after is None or (after.deal != state.deal and after.game_view is None)):
            final = await panels.final_for(seat, t)  # the board is over (not a redeal)
            if final is not None:
                return _panel_reply(ShownPanel(seat, final, state))
        if after is None:
            return Reply(t.gettext(MATCH_OVER_HERE), clear_files=True)
        if (after.deal != state.deal and after.status == "playing"
                and is_dm_panel(interaction.message)):
            return Reply(deal_over_here(t, state.deal, facts.channel_id), clear_files=True)
        drawing = await draw_panel(facts, seat, after, t, images=presenter.images)
        return _panel_reply(ShownPanel(seat, drawing, after))

    async def _shown(self, interaction: Interaction, table_id: int,
                     shown: ShownPanel) -> None:
        """The answer showed ``shown``: the seat's panels record it (their own redraw of
        that state then costs no request)."""
        panels = self.hub.panels.get(table_id)
        if panels is None:
            return
        await panels.refresh(shown.seat, shown.state)
        panels.shown_on(shown.seat, interaction, shown.drawing)

    def _facts(self, presenter: TablePresenter, panels: SeatPanels | None) -> TableFacts:
        if panels is not None:
            return panels.facts
        info = presenter.info
        if info is None:
            raise NoSuchTable(N_("that table is closed"))
        return TableFacts(info.id, info.game, tuple(tuple(t) for t in info.teams),
                          presenter.channel_id)

    async def my_hand(self, interaction: Interaction, click: Click) -> None:
        await self.show_hand(interaction, click.table_id, click.user_id,
                             update=click.on_panel)

    async def show_hand(self, interaction: Interaction, table_id: int, user_id: int, *,
                        update: bool) -> None:
        """The seat's panel, privately: an update of the panel clicked on, or a new
        ephemeral panel (**My hand**, ``/hand``)."""
        shown: list[ShownPanel] = []
        t = await self.reader(interaction, table_id)
        holds = _Holds()

        async def run() -> Reply | None:
            presenter = await self.presenter(table_id)
            seat = self.service.seat_of(table_id, user_id)
            if seat is None:
                raise UserError(NO_SEAT)
            event = self.service.state(table_id, seat)
            if event.type != "state" or data_of(event, "state")["status"] != "playing":
                raise UserError(N_("The match has not started yet."))
            state = SeatState.of(event)
            panels = self.hub.panels.get(table_id)
            if update and panels is not None:  # the clicked panel is updated by the answer
                holds.hold(panels, seat)
            final = None if panels is None or panels.final is None else (
                await panels.final_for(seat, t))  # a board over: its final panel
            drawing = final or await draw_panel(self._facts(presenter, panels), seat, state,
                                                t, images=presenter.images)
            shown.append(ShownPanel(seat, drawing, state))
            return Reply(drawing.content, view=drawing.ui_view, files=_files(drawing),
                         clear_files=update, ephemeral=not update)

        with holds:
            if update:
                await update_in_place(interaction, run, t=t,
                                      defer_after=self.hub.settings.defer_after)
            else:
                await answer(interaction, run, t=t, private_wait=True,
                             defer_after=self.hub.settings.defer_after)
            if shown:
                await self._shown(interaction, table_id, shown[0])

    async def back(self, interaction: Interaction, click: Click) -> None:
        t = await self.reader(interaction, click.table_id)

        async def run() -> Reply:
            if self.service.seat_of(click.table_id, click.user_id) is None:
                raise UserError(NO_SEAT)
            await self.service.rejoin(click.table_id, click.user_id)
            return Reply(t.gettext("Welcome back: your seat is yours again."), ephemeral=True)
        await answer(interaction, run, t=t, private_wait=True,
                     defer_after=self.hub.settings.defer_after)

    async def abandon(self, interaction: Interaction, click: Click) -> None:
        t = await self.reader(interaction, click.table_id)

        async def run() -> Reply:
            presenter = await self.presenter(click.table_id)
            self.check_host(presenter, click.user_id, click.can_manage, NOT_HOST_CLOSE)
            await self.service.abandon(click.table_id, CLOSED_BY, by=click.user_name)
            return Reply(t.gettext("The table is closed."))
        await update_in_place(interaction, run, t=t, defer_after=self.hub.settings.defer_after)


@dataclass(frozen=True, slots=True)
class Chose:
    """A click naming an action: a button's, or a card picked in the card select
    (``picked``: the card stands for every variant of it); None: not understood."""

    action: Action | None
    picked: bool = False


@dataclass(frozen=True, slots=True)
class Signalled:
    """The leader chose the signal their next lead carries (None: no signal)."""

    signal: str | None


@dataclass(frozen=True, slots=True)
class BidCards:
    """The cards marked in Truf's multi-card bid select."""

    cards: tuple[str, ...]


Choice = Chose | Signalled | BidCards
"""What a click on a seat's panel asks for, as the router decoded it."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``action`` for the seat (the service checks it under the table's lock)."""

    action: Action


@dataclass(frozen=True, slots=True)
class Redraw:
    """Redraw the panel, changing nothing: offering ``pick``'s variants as buttons, or
    with every card of the select carrying the leader's ``signal``."""

    pick: Action | None = None
    signal: str | None = None


@dataclass(frozen=True, slots=True)
class Refusal:
    """Refuse the click privately with ``error``; nothing changes."""

    error: UserError | ServiceError


Step = Play | Redraw | Refusal


def resolve(state: SeatState, version: int, choice: Choice) -> Step:
    """What a click chosen on the panel of table ``version`` does, given the seat's newest
    ``state``: a pure function. A picked card plays its one action (:func:`resolve_pick`)
    or, with several variants, redraws the panel offering them — unless the panel was of
    an earlier version (a stale click: refused); a signal redraws; an empty multi-card bid
    or a choice not understood is refused; any other action is played."""
    if isinstance(choice, Signalled):
        return Redraw(signal=choice.signal)
    if isinstance(choice, BidCards):
        if not choice.cards:
            return Refusal(UserError(N_("Choose at least one card.")))
        return Play(Action.bid_cards(choice.cards))
    if choice.action is None:
        return Refusal(UserError(N_("That choice is not understood.")))
    if not choice.picked:
        return Play(choice.action)
    played = resolve_pick(state.legal, choice.action)
    if played is not None:
        return Play(played)
    if version != state.version:
        return Refusal(StaleAction())
    return Redraw(pick=choice.action)


@dataclass(frozen=True, slots=True)
class ShownPanel:
    """A seat's panel that an answer shows: the drawing and the state it was drawn from."""

    seat: int
    drawing: PanelDrawing
    state: SeatState


@dataclass
class PanelReply(Reply):
    """An answer showing a seat's panel (``shown``), recorded once it was sent."""

    shown: ShownPanel | None = None


def _panel_reply(shown: ShownPanel) -> PanelReply:
    drawing = shown.drawing
    return PanelReply(drawing.content, view=drawing.ui_view, files=_files(drawing),
                      clear_files=True, shown=shown)


class _Holds:
    """The seat hold of one click being answered (:meth:`SeatPanels.answering`): taken by
    its work once the seat is known, released when the click was answered and what it
    shows recorded; a hold asked after that (the work outliving a cancelled answer) is not
    taken."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._open = True

    def hold(self, panels: SeatPanels, seat: int) -> None:
        if self._open:
            self._stack.enter_context(panels.answering(seat))

    def __enter__(self) -> _Holds:
        return self

    def __exit__(self, *exc: object) -> None:
        self._open = False
        self._stack.close()


def _files(drawing: PanelDrawing) -> list[tuple[str, bytes]]:
    return [] if drawing.picture is None else [("hand.png", drawing.picture)]
