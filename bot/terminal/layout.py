"""The card table's screen: its widgets and how a :class:`TableModel` is drawn in them.

One fixed screen that fits 80×24 and grows with the window: the score line at the top
(the match score against its target), the table with the seats around it (you at the
bottom) and the trick, beside it the :class:`SidePanel` (the deal's facts and the side
log), then your hand by suit, the decisions other than cards as buttons
(:class:`ActionButton`), and a message line. A window smaller than :data:`MIN_SIZE` gets
a warning line (the table still draws every seat, the side panel narrower).
"""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from bot.i18n import Translator
from bot.terminal.session import TableModel
from bot.terminal.side_panel import SidePanel
from bot.terminal.widgets import HandView, TableView
from bot.words.actions import action_text
from bot.words.seating import join_names
from bot.words.table_state import score_line
from games.actions import Action

MIN_SIZE = (80, 24)
"""The window the table is laid out for; a smaller one gets a warning line."""
SIDE_WIDTH = 34
"""The side panel's width in a window of at least 80 columns (narrower below)."""

TABLE_CSS = """
#score { height: auto; background: $primary-darken-2; color: $text; padding: 0 1; }
#small { height: auto; background: $error; color: $text; padding: 0 1; display: none; }
#middle { height: 1fr; }
#side { width: 34; border-left: solid $primary-darken-2; padding: 0 1; }
#facts { height: auto; max-height: 70%; }
#logbox { height: 1fr; min-height: 2; scrollbar-size-vertical: 1; }
#log { height: auto; color: $text-muted; }
#hand { border-top: solid $primary-darken-2; }
#buttons { height: auto; max-height: 3; }
#buttons Button { margin: 0 1 0 0; min-width: 4; }
#message { height: auto; padding: 0 1; background: $boost; }
#dialog { width: 72; height: auto; max-height: 22; border: thick $primary;
          background: $surface; padding: 0 1; }
#result { height: auto; max-height: 18; }
#help { width: 78; height: 22; border: thick $primary; background: $surface; }
Confirm, Notice, Help { align: center middle; }
Notice { background: $background; }
"""
"""The stylesheet of the table's screen and of its dialogs (:mod:`bot.terminal.dialogs`)."""


class ActionButton(Button):
    """A button that carries the action it decides."""

    def __init__(self, action: Action, label: str, **kw: Any) -> None:
        super().__init__(label, compact=True, **kw)
        self.decision = action


class TableLayout:
    """The widgets of one app's table screen (module docstring), found by their ids;
    nothing is drawn before :attr:`ready` (the session may report before the screen is
    composed)."""

    def __init__(self, app: App[Any], t: Translator, game: str) -> None:
        self.app = app
        self.t = t
        self.game = game
        self.ready = False

    def compose(self) -> ComposeResult:
        yield Static("", id="score")
        yield Static("", id="small")
        with Horizontal(id="middle"):
            yield TableView(self.t, id="table")
            yield SidePanel(self.t, id="side")
        yield HandView(self.t, id="hand")
        yield Horizontal(id="buttons")
        yield Static("", id="message")

    @property
    def hand(self) -> HandView:
        return self.app.query_one(HandView)

    def say(self, text: str) -> None:
        """The message line (whose turn, refusals with the engine's reason)."""
        if self.ready:
            self.app.query_one("#message", Static).update(escape(text))

    def draw(self, model: TableModel, legal: set[str]) -> None:
        """The model on screen, ``legal`` the hand's cards that may be picked; while
        others are to act, the message line says whom the table waits for."""
        head = self.t.gettext("{title} · deal {number}").format(
            title=model.title, number=self.t.number(model.deal + 1))
        if model.match:
            head += " · " + score_line(model.match, model.seating, model.me)
        self.app.query_one("#score", Static).update(escape(head))
        self.app.query_one(TableView).show(model)
        self.app.query_one(SidePanel).show(model)
        self.hand.show(model.hand, legal)
        waiting = [model.seating.name(s) for s in model.to_act if s != model.me]
        if not model.legal and waiting and not model.over:
            self.say(self.t.gettext("Waiting for {players}…").format(
                players=join_names(waiting, self.t)))

    def fit(self) -> None:
        """Below 80×24 a warning line says so and the side panel narrows, so that the
        table keeps room for every seat (yours at the bottom)."""
        if not self.ready:
            return
        width, height = self.app.size
        small = self.app.query_one("#small", Static)
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        small.display = too_small
        if too_small:
            small.update(escape(self.t.gettext(
                "The window is {width}×{height}; the table needs {need}: enlarge it to see "
                "everything.").format(width=width, height=height,
                                      need="{}×{}".format(*MIN_SIZE))))
        side = SIDE_WIDTH if width >= MIN_SIZE[0] else max(22, width - 38)
        self.app.query_one("#side").styles.width = side

    def show_buttons(self, actions: tuple[Action, ...] | list[Action]) -> None:
        """The decisions (or a card's variants) as buttons, in this order."""
        bar = self.app.query_one("#buttons", Horizontal)
        bar.remove_children()
        bar.mount_all([ActionButton(a, action_text(a, self.game, t=self.t))
                       for a in actions])

    def buttons(self) -> list[ActionButton]:
        return list(self.app.query("#buttons ActionButton").results(ActionButton))

    def focus_first_button(self) -> None:
        self.app.query_one("#buttons").children[0].focus()
