"""The card table's widgets: the seats around the table with the trick, and the hand.

:class:`TableView` places every seat around the table relative to the reader (you at the
bottom; seats follow in seat order clockwise: left, top, right for four players), each
with its name, partner, dealer and turn marks and its card in the current trick; the
middle says who led the trick and the leader's signal (strong/weak suit), else the trump.
A face-down card (Truf's trump during the trick) is drawn as a card back. When no card of
a new trick is down yet, the last completed trick stays on the table, dimmed, with its
winner — every card face up. It draws in the room it has (lines are cut, never wrapped,
so your seat stays at the bottom of a small window; at five or six players, or when
narrow, the labels leave out the AI level) and posts :class:`TableView.Clicked` when
clicked (the app shows the deal's tricks).

:class:`HandView` draws the hand one suit a line (black and red alternating, as the view
sorts it), identical cards once with a count (``Q♥×2``), cards on a light face with red
hearts and diamonds; legal cards bright, the others dimmed, the cursor card highlighted,
cards picked for a multi-card bid underlined. It maps clicks back to cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from bot.i18n import Translator
from bot.terminal.session import TableModel
from bot.words.cards import card_text, count_text, grouped
from bot.words.events import signal_text
from bot.words.text import or_english
from games.base import HIDDEN
from games.view_types import GameView, PlainView

RED = frozenset("HD")
CARD_BACK = "▒▒▒"
_PLACES = {
    1: ["bottom"], 2: ["bottom", "top"], 3: ["bottom", "left", "right"],
    4: ["bottom", "left", "top", "right"],
    5: ["bottom", "left", "topleft", "topright", "right"],
    6: ["bottom", "left", "topleft", "top", "topright", "right"],
}


def card_style(card: str, *, legal: bool = True, cursor: bool = False,
               dim: bool = False) -> str:
    """A card's face: dark or red ink on a light card; the cursor on yellow."""
    ink = "#c00000" if card[-1:] in RED else "#000000"
    face = "#ffd75f" if cursor else ("#8a8a8a" if not legal or dim else "#f2f2f2")
    return f"bold {ink} on {face}" if legal and not dim else f"{ink} on {face}"


def card_piece(card: str, **kw: Any) -> Text:
    if card == HIDDEN:
        return Text(CARD_BACK, style="#5f87af on #303060")
    return Text(f"{card_text(card):>3}", style=card_style(card, **kw))


class TableView(Widget):
    """The seats and the trick (module docstring)."""

    DEFAULT_CSS = """TableView { width: 1fr; height: 1fr; min-height: 7;
                               text-wrap: nowrap; text-overflow: clip; }"""

    class Clicked(Message):
        """The table was clicked."""

    def __init__(self, t: Translator | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.model: TableModel | None = None
        self.t = or_english(t)

    def show(self, model: TableModel) -> None:
        self.model = model
        self.refresh()

    def render(self) -> Text:
        model = self.model
        if model is None or model.view is None:
            return Text(self.t.gettext("Dealing…"))
        width = max(20, self.size.width)
        height = max(7, self.size.height)
        rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
        view = model.view
        n = model.seating.players
        cards = {int(s): str(c) for s, c in (view.get("trick") or {}).get("cards") or []}
        last = None
        if not cards:
            last = model.last_trick()
            if last:
                cards = {int(s): str(c) for s, c in last.get("cards") or []}
        places = _PLACES[n]
        mid = height // 2
        spots = {"bottom": (height - 2, width // 2), "top": (0, width // 2),
                 "left": (mid - 1, 9), "right": (mid - 1, width - 10),
                 "topleft": (1, width // 4), "topright": (1, 3 * width // 4)}
        crowded = n >= 5 or width < 40  # two labels and a card share a row
        for seat in range(n):
            place = places[(seat - model.me) % n]
            row, col = spots[place]
            label = self._label(model, seat, level=not crowded)
            rows[row].append((max(0, col - label.cell_len // 2), label))
            card = cards.get(seat)
            if card is not None:
                dim = last is not None
                piece = card_piece(card, dim=dim)
                crow = row + 1 if place != "bottom" else row - 1
                rows[crow].append((col - 1, piece))
        t = model.seating.t
        centre, below = Text(), Text()
        trump = view.get("trump")
        leader = (view.get("trick") or {}).get("leader")
        if last is not None:
            who = model.seating.name(last.get("winner"))
            centre.append(t.gettext("last trick: {player} won").format(player=who),
                          style="italic")
        elif cards and leader is not None:
            centre.append(t.gettext("{player} led").format(
                player=model.seating.name(leader)), style="italic")
            signal = _signal(view, int(leader))
            if signal:
                below.append(t.gettext("signalling: {signal}").format(
                    signal=signal_text(signal, t)), style="bold yellow")
        if trump and not below.cell_len:
            target = centre if not centre.cell_len else below
            target.append(t.gettext("trump") + " ")
            target.append(card_text("A" + trump)[1:], style="#c00000" if trump in RED else "")
        for row, text in ((mid, centre), (mid + 1, below)):
            if text.cell_len:
                rows[row].append((max(0, width // 2 - text.cell_len // 2), text))
        direction = view.get("direction")
        if direction:
            arrow = (t.gettext("↻ clockwise") if direction == "clockwise"
                     else t.gettext("↺ counter-clockwise"))
            rows[height - 1].append((0, Text(arrow, style="dim")))
        return _compose(rows)

    def on_click(self, event: Click) -> None:
        self.post_message(self.Clicked())

    @staticmethod
    def _label(model: TableModel, seat: int, *, level: bool = True) -> Text:
        """The seat's name and marks; ``level``: with an AI player's level (left out at a
        crowded table, where it would push the next label off its place)."""
        dealer = model.view.get("dealer") if model.view else None
        t = model.seating.t
        text = Text()
        if seat in model.to_act:
            text.append("▶ ", style="bold yellow")
        name = model.seating.name(seat)
        text.append(name, style="bold" if seat == model.me else "")
        if seat == model.me:
            text.append(" " + t.gettext("(you)"))
        elif model.seating.partnerships and model.seating.side_of(seat) == \
                model.seating.side_of(model.me):
            text.append(" " + t.gettext("(partner)"), style="green")
        ai = model.levels[seat] if seat < len(model.levels) else None
        if ai and level and seat != model.me:
            text.append(" " + t.gettext("{level} AI").format(level=ai), style="dim")
        if dealer == seat:
            text.append(" [" + t.gettext("dealer") + "]", style="cyan")
        return text


def _signal(view: GameView, leader: int) -> str | None:
    """The signal the leader gave with the current trick's lead, if any (plain games:
    the other games' views have no ``signals``)."""
    view = cast(PlainView, view)
    number = len(view.get("tricks") or []) + 1
    for entry in view.get("signals") or []:
        if entry.get("trick", 0) == number and entry.get("seat") == leader:
            return str(entry.get("signal"))
    return None


def _compose(rows: list[list[tuple[int, Text]]]) -> Text:
    out = Text()
    for i, items in enumerate(rows):
        line = Text()
        for col, piece in sorted(items, key=lambda x: x[0]):
            if col > line.cell_len:
                line.append(" " * (col - line.cell_len))
            elif col < line.cell_len:
                line.append(" ")
            line.append_text(piece)
        out.append_text(line)
        if i < len(rows) - 1:
            out.append("\n")
    return out


@dataclass(frozen=True)
class Spot:
    row: int
    start: int
    end: int
    card: str


class HandView(Widget, can_focus=True):
    """The hand (module docstring). Posts :class:`HandView.Picked` on a click."""

    DEFAULT_CSS = "HandView { height: auto; min-height: 2; padding: 0 1; }"

    class Picked(Message):
        """A card was clicked."""

        def __init__(self, card: str) -> None:
            super().__init__()
            self.card = card

    def __init__(self, t: Translator | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.t = or_english(t)
        self.hand: list[str] = []
        self.legal: set[str] = set()
        self.cursor: str | None = None
        self.marked: list[str] = []
        self.spots: list[Spot] = []

    def show(self, hand: list[str], legal: set[str]) -> None:
        self.hand = hand
        self.legal = legal
        if self.cursor not in legal:
            self.cursor = self.order()[0] if self.order() else None
        self.marked = [c for c in self.marked if c in hand]
        self.refresh(layout=True)

    def order(self) -> list[str]:
        """The legal cards in hand order (the cursor moves over them)."""
        return [c for c, _ in grouped(self.hand) if c in self.legal and c != HIDDEN]

    def rows(self) -> list[list[tuple[str, int]]]:
        out: list[list[tuple[str, int]]] = []
        for card, n in grouped(self.hand):
            if card == HIDDEN:
                continue
            if not out or out[-1][0][0][1] != card[1]:
                out.append([])
            out[-1].append((card, n))
        return out

    def move(self, step: int) -> None:
        order = self.order()
        if not order:
            return
        i = order.index(self.cursor) if self.cursor in order else -1
        self.cursor = order[(i + step) % len(order)]
        self.refresh()

    def move_row(self, step: int) -> None:
        """To the first legal card of the next (previous) suit that has one."""
        rows = [[c for c, _ in r if c in self.legal] for r in self.rows()]
        rows = [r for r in rows if r]
        if not rows:
            return
        here = next((i for i, r in enumerate(rows) if self.cursor in r), 0)
        self.cursor = rows[(here + step) % len(rows)][0]
        self.refresh()

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, len(self.rows()))

    def render(self) -> Text:
        out = Text()
        self.spots = []
        rows = self.rows()
        if not rows:
            return Text(self.t.gettext("No cards in hand."), style="dim")
        for r, row in enumerate(rows):
            line = Text()
            for card, n in row:
                legal = card in self.legal
                style = card_style(card, legal=legal or not self.legal,
                                   cursor=card == self.cursor)
                if card in self.marked:
                    style += " underline"
                start = line.cell_len
                line.append(f" {count_text(card, n)} ", style=style)
                self.spots.append(Spot(r, start, line.cell_len, card))
                line.append(" ")
            out.append_text(line)
            if r < len(rows) - 1:
                out.append("\n")
        return out

    def card_at(self, x: int, y: int) -> str | None:
        for spot in self.spots:
            if spot.row == y and spot.start <= x < spot.end:
                return spot.card
        return None

    def on_click(self, event: Click) -> None:
        """A click's offset counts the widget's whole box: the top border row (the line
        above the hand) and the left padding come before the first card, so cards are
        found by the offset in the content area (a click on the border picks none)."""
        offset = event.get_content_offset(self)
        card = None if offset is None else self.card_at(offset.x, offset.y)
        if card is not None:
            self.cursor = card if card in self.legal else self.cursor
            self.refresh()
            self.post_message(self.Picked(card))
