"""The private panel of one seat, drawn from the seat's ``state`` event.

The table service publishes to each seat, after every change, a ``state`` event with the
seat's whole view, its legal actions and the table version (:class:`SeatState` reads it).
A panel is a pure function of that event and the table's fixed facts (:class:`TableFacts`)
— it never asks the service again, so a panel drawn for version N offers exactly the legal
actions of version N, all of them (the Tarabish run declaration included).

Controls: actions naming one card (plays, one-card bids) become select options, one option
per distinct card (identical Arba'a Turub cards once, with their count), one select per
suit past 25; each option is one exact legal action, so picking a card plays it (a leader's
signal is chosen beforehand in its own select, bella is announced for the player:
:mod:`bot.discord_bot.tables.card_select`); ``pick`` still offers a card's variants as
buttons. Truf's multi-card bids are a multi-select. Every other action is a button. The
legal actions are folded once, by the fold every front end uses
(:class:`bot.words.choices.Choices`); an option's value is the action as
:func:`bot.discord_bot.ids.encode_action` writes it.

:func:`panel_key` is what decides whether a shown panel must be redrawn: the controls it
offers (or that it offers none), not the trick in progress — a seat that is not to act
keeps its panel until its turn, so other players' cards cost no edit of every DM.

When the process serves the web table, a panel of a match in play also carries the
player's **Open in browser** link (:func:`bot.discord_bot.tables.web_table.seat_link_button`),
made anew at each drawing. It is not part of :func:`panel_key`: the link rides on the
redraws the controls ask for and never costs an edit of its own.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_bot.drawing.pictures import hand_picture
from bot.discord_bot.drawing.texts import (
    clip,
    display_names,
    seat_name,
    trick_text,
)
from bot.discord_bot.ids import encode_action
from bot.discord_bot.router import (
    ActionButton,
    BackButton,
    CardSelect,
    MultiBidSelect,
    MyHandButton,
)
from bot.discord_bot.tables.card_select import bid_worth, preferred, signal_select, signal_words
from bot.discord_bot.tables.web_table import seat_link_button
from bot.i18n import Translator
from bot.service import Seat, TableEvent
from bot.service.events import data_of
from bot.service.picks import variants
from bot.service.seats import seats_from_json
from bot.words.actions import action_text
from bot.words.cards import card_text, hand_lines, suit_text
from bot.words.choices import Choices
from bot.words.seating import join_names
from games.actions import Action
from games.registry import GAMES
from games.view_types import GameView

MAX_OPTIONS = 25
MAX_ROWS = 5


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What does not change while a match is played."""

    table_id: int
    game: str
    teams: tuple[tuple[int, ...], ...]
    channel_id: int
    client: discord.Client | None = None
    """The client drawing the panels: its web table, when bound, gives the panel's
    **Open in browser** link (none without a client)."""


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat's ``state`` event, typed."""

    version: int
    status: str
    deal: int
    to_act: tuple[int, ...]
    deadline: str | None
    game_view: GameView | None
    """The seat's game view (its hand, the trick …); None in the lobby."""
    legal: tuple[Action, ...]
    seats: tuple[Seat | None, ...]
    legal_json: str

    @staticmethod
    def of(event: TableEvent) -> SeatState:
        """The seat's state from its ``state`` event (a ``lobby`` event: the lobby's seats,
        nothing to show or do)."""
        if event.type == "lobby":
            lobby = data_of(event, "lobby")
            return SeatState(version=event.version, status=lobby["status"], deal=0,
                             to_act=(), deadline=None, game_view=None, legal=(),
                             seats=tuple(seats_from_json(lobby["seats"])), legal_json="[]")
        data = data_of(event, "state")
        legal = data.get("legal") or []
        return SeatState(
            version=data.get("version", event.version),
            status=data.get("status", "playing"),
            deal=data.get("deal", 0),
            to_act=tuple(data.get("to_act") or ()),
            deadline=data.get("deadline"),
            game_view=data.get("view") or None,
            legal=tuple(legal),
            seats=tuple(seats_from_json(data.get("seats") or [])),
            legal_json=json.dumps([a.to_json() for a in legal], sort_keys=True),
        )


def away(state: SeatState, seat: int) -> bool:
    s = state.seats[seat] if seat < len(state.seats) else None
    return s is not None and s.away


def panel_key(state: SeatState, seat: int, language: str) -> str:
    """What a shown panel must match: its controls and its language (see the module
    docstring)."""
    if state.status != "playing":
        return f"closed:{state.status}|{language}"
    hand = ",".join(state.game_view.get("hand") or () if state.game_view else ())  # always current
    if away(state, seat):
        return f"away:{state.deal}:{hand}|{language}"
    if state.legal:
        return f"turn:{state.version}:{state.legal_json}|{language}"
    return f"wait:{state.deal}:{hand}|{language}"


@dataclass
class PanelDrawing:
    """A drawn panel: text, components, the hand picture (when images are on)."""

    content: str
    ui_view: discord.ui.View
    picture: bytes | None
    key: str
    to_act: bool
    language: str
    """The reader's language the panel is written in."""

    def files(self) -> list[discord.File]:
        import io

        return ([] if self.picture is None
                else [discord.File(io.BytesIO(self.picture), filename="hand.png")])

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "view": self.ui_view, "attachments": self.files()}

    def send_kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": self.content, "view": self.ui_view}
        if self.picture is not None:
            out["files"] = self.files()
        return out


async def draw_panel(facts: TableFacts, seat: int, state: SeatState, t: Translator, *,
                     images: bool, note: str = "", pick: Action | None = None,
                     signal: str | None = None) -> PanelDrawing:
    """The panel of ``seat`` for ``state``, in ``t``'s language (the player's). ``pick``: a
    card chosen whose variants are to be offered as buttons; ``signal``: the leader's
    chosen signal, carried by every card of the select
    (:mod:`bot.discord_bot.tables.card_select`)."""
    title = GAMES[facts.game].title
    names = display_names(state.seats, t)
    hand = list(state.game_view.get("hand") or []) if state.game_view else []
    head = t.gettext("**{game}** — table {table}, deal {deal}").format(
        game=title, table=facts.table_id, deal=t.number(state.deal + 1))
    mates = [names[s] for team in facts.teams if seat in team for s in team
             if s != seat and s < len(names)]
    if mates:  # a partnership game: the partner by name, never by seat number
        # Translators: {heading} is the panel's heading (game, table and deal); {partner} a
        # player's name.
        head = t.gettext("{heading} · your partner: {partner}").format(
            heading=head, partner=join_names(mates, t))
    lines = [head]
    if note:
        lines.append(note)
    lines.append(t.ngettext("**Your hand** ({count} card):", "**Your hand** ({count} cards):",
                            len(hand)).format(count=t.number(len(hand))))
    lines.extend(hand_lines(hand) or [t.gettext("(no cards)")])
    if state.game_view and (trump := state.game_view.get("trump")):
        lines.append(t.gettext("Trump: {suit}").format(suit=suit_text(trump, t)))
    lines.append(trick_text(state.game_view, names, t))
    ui = discord.ui.View(timeout=None)
    table = facts.table_id
    legal = state.legal if state.status == "playing" else ()
    if state.status != "playing":
        lines.append(t.gettext("The match is over.") if state.status == "finished" else
                     t.gettext("The table is closed."))
    elif away(state, seat):
        lines.append(t.gettext("An AI plays your seat while you are away: press **I'm back** "
                               "to play again."))
        ui.add_item(BackButton(table, label=clip(t.gettext("I'm back"), 80),
                               style=discord.ButtonStyle.success))
        legal = ()
    elif legal:
        lines.append(t.gettext("**Your turn** — choose below."))
        _controls(ui, table, state.version, legal, hand, pick, signal, t, game=facts.game)
    else:
        waiting = [seat_name(state.seats[s], s, t) for s in state.to_act
                   if s < len(state.seats)]
        lines.append(t.gettext("Waiting for {players}.").format(
            players=join_names(waiting, t) if waiting else t.gettext("nobody")))
        ui.add_item(MyHandButton(table, label=clip(t.gettext("Refresh"), 80)))
    if state.status == "playing":
        _browser_link(ui, facts, seat, state, t)
    picture = None
    if images and hand:
        lit = frozenset(Choices.of(legal).single_cards) if legal else None
        picture = await hand_picture(hand, lit)
    key = panel_key(state, seat, t.language)  # a card's variants: the same turn's controls
    return PanelDrawing(clip("\n".join(lines), 1990), ui, picture, key, bool(legal),
                        t.language)


def _browser_link(ui: discord.ui.View, facts: TableFacts, seat: int, state: SeatState,
                  t: Translator) -> None:
    """Add the seat's **Open in browser** link in the first row with room (after the
    controls); left out when the controls fill the panel."""
    s = state.seats[seat] if seat < len(state.seats) else None
    if s is None or s.user_id is None:
        return
    button = seat_link_button(facts.client, facts.table_id, s.user_id, t)
    if button is not None:
        with contextlib.suppress(ValueError):  # no room: the game's controls come first
            ui.add_item(button)


def _controls(ui: discord.ui.View, table_id: int, version: int, legal: Sequence[Action],
              hand: Sequence[str], pick: Action | None, signal: str | None,
              t: Translator, *, game: str = "") -> None:
    if pick is not None:
        for a in variants(legal, pick)[:20]:
            ui.add_item(ActionButton(table_id, version, a,
                                     label=clip(action_text(a, game, t=t), 80)))
        ui.add_item(MyHandButton(table_id, label=clip(t.gettext("Back"), 80)))
        return
    choices = Choices.of(legal, hand)
    # One option per card: the variant it plays (the leader's signal, bella).
    cards = {c: preferred(choice.actions, signal)
             for c, choice in choices.single_cards.items()}
    row = 0
    counts: dict[str, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    ordered = list(cards)
    if ordered:
        kind = "Bid" if next(iter(cards.values())).type == "bid" else "Play"
        groups: list[tuple[str, list[str]]]
        if len(ordered) <= MAX_OPTIONS:
            groups = [("all", ordered)]
        else:
            by_suit: dict[str, list[str]] = {}
            for c in ordered:
                by_suit.setdefault(c[1], []).append(c)
            groups = [(s, cs[:MAX_OPTIONS]) for s, cs in by_suit.items()]
        for arg, group in groups[:4]:
            options = []
            for c in group:
                n = counts.get(c, 1)
                label = card_text(c) + (f" ×{n}" if n > 1 else "")
                options.append(discord.SelectOption(
                    label=label, value=encode_action(cards[c]),
                    description=bid_worth(c, t) if kind == "Bid" and game == "truf" else None))
            if arg == "all":
                placeholder = (t.gettext("Bid a card") if kind == "Bid"
                               else t.gettext("Play a card"))
            else:
                placeholder = (t.gettext("Bid a card — {suit}") if kind == "Bid"
                               else t.gettext("Play a card — {suit}")).format(
                                   suit=suit_text(arg, t))
            ui.add_item(CardSelect(table_id, version, arg, options=options,
                                   placeholder=clip(placeholder, 150), row=row))
            row += 1
    words = signal_words(legal)
    if words and row < MAX_ROWS:
        ui.add_item(signal_select(table_id, version, words, signal, row, t))
        row += 1
    multi = choices.multi
    if multi and row < MAX_ROWS:
        order = {c: i for i, c in enumerate(hand)}
        bid_cards: list[str] = []
        for a in multi:
            for c in a.cards or ():
                if c not in bid_cards:
                    bid_cards.append(c)
        bid_cards.sort(key=lambda c: order.get(c, 99))
        options = [discord.SelectOption(label=card_text(c), value=c,
                                        description=bid_worth(c, t) if game == "truf" else None)
                   for c in bid_cards[:MAX_OPTIONS]]
        top = max(len(a.cards or ()) for a in multi)
        ui.add_item(MultiBidSelect(table_id, version, options=options,
                                   placeholder=clip(t.ngettext(
                                       "Bid 1 card (secret)", "Bid 1 to {count} cards (secret)",
                                       top).format(count=t.number(top)), 150),
                                   max_values=min(top, len(options)), row=row))
        row += 1
    for i, a in enumerate(choices.others[: (MAX_ROWS - row) * 5]):
        style = (discord.ButtonStyle.danger if a.type == "concede"
                 else discord.ButtonStyle.primary)
        ui.add_item(ActionButton(table_id, version, a, label=clip(action_text(a, game, t=t), 80),
                                 style=style,
                                 row=row + i // 5))
