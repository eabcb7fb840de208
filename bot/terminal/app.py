"""The full-screen card table (Textual) of ``tricktable play``.

One fixed screen that fits 80×24 and grows with the window (:mod:`bot.terminal.layout`):
the score line at the top (the match score against its target), the table with the seats
around it (you at the bottom) and the trick, beside it the deal's facts in words (trump,
bids or contract, runs, bella, kort, the running count) and what just happened
(:mod:`bot.terminal.side_panel`), then your hand by suit, the decisions other than cards
as buttons, and a message line (whose turn, refusals with the engine's reason).

The trick in the middle says who led it and the leader's signal; the side log keeps its
newest line in view (older ones scroll). A window smaller than 80×24 gets a warning line
(the table still draws every seat, the side panel narrower).

Keys (:mod:`bot.terminal.hand_keys`): ←/→ move over the legal cards, ↑/↓ to the next
suit; Enter plays (or bids) the card; type a card (``qh``, ``10s``, ``ts``) to pick it,
Enter plays it; ``v`` offers the card's variants (signals, bella) as buttons, ←/→ and
Enter or ``1``–``9`` choose one, Esc goes back; Space marks cards for a multi-card bid,
Enter bids them; ``l`` (or a click on the table) shows every completed trick of the deal;
Tab moves to the buttons; ``?`` help and how to play; Ctrl+Q (or Ctrl+C) stops — the game
is saved. The mouse clicks cards and buttons. Conceding asks for confirmation (after "No"
the focus returns to the hand or the first other decision; :mod:`bot.terminal.turn`). A
deal's result stays on screen, alone, until a key is pressed (:mod:`bot.terminal.dialogs`).

:class:`TableApp` ties the parts together: the screen (:class:`TableLayout`), the turn
(:class:`Turn`, read by :class:`HandKeys`) and the session (:class:`TableLink`).
"""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Button

from bot.terminal.config import PlayConfig
from bot.terminal.dialogs import KEYS_HELP, Confirm, Help, Notice, trick_history
from bot.terminal.hand_keys import HandKeys
from bot.terminal.layout import TABLE_CSS, ActionButton, TableLayout
from bot.terminal.session import TableModel
from bot.terminal.table_link import TableLink
from bot.terminal.turn import Turn
from bot.terminal.widgets import HandView, TableView
from bot.words.choices import Choices
from games.actions import Action
from games.registry import GAMES

__all__ = ["KEYS_HELP", "ActionButton", "Confirm", "Help", "Notice", "TableApp",
           "trick_history"]


class TableApp(App[int]):
    """The card table (module docstring); :attr:`final_text` is printed after exit."""

    CSS = TABLE_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,ctrl+c", "stop", "Stop (saved)", priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("l", "tricks", "Tricks"),
    ]

    def __init__(self, cfg: PlayConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.link = TableLink(cfg, self)
        self.session = self.link.session
        self.t = self.session.t
        self.layout = TableLayout(self, self.t, cfg.game)
        self.turn = Turn(self, self.layout, self.session.act)
        self.keys = HandKeys(self.turn)

    # -- what the tests and ``tricktable play`` read ------------------------------------
    @property
    def model(self) -> TableModel | None:
        return self.link.model

    @property
    def final_text(self) -> str:
        return self.link.final_text

    @property
    def current(self) -> Choices | None:
        return self.turn.current

    @property
    def variants(self) -> list[Action]:
        return self.turn.variants

    @property
    def busy(self) -> bool:
        return self.turn.busy

    # -- the screen ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        return self.layout.compose()

    def on_mount(self) -> None:
        self.title = GAMES[self.cfg.game].title
        self.query_one(HandView).focus()
        self.layout.ready = True
        self.layout.fit()
        self.run_worker(self._play(), exclusive=True, name="session")

    async def _play(self) -> None:
        status = await self.link.play()
        self.exit(status, return_code=status)

    def on_resize(self, event: events.Resize) -> None:
        self.layout.fit()

    # -- the display the session's link shows on ----------------------------------------
    def redraw(self) -> None:
        model = self.link.model
        if model is None or not self.layout.ready:
            return
        self.layout.draw(model, self.turn.legal(model))
        if not model.legal:
            self.turn.end()

    def say(self, text: str) -> None:
        self.layout.say(text)

    def offer(self, choices: Choices) -> None:
        self.turn.start(choices)
        self.redraw()
        self.turn.present()

    async def hold(self, lines: list[str]) -> None:
        self.turn.end()
        self.redraw()
        self.say("")
        await self.push_screen(Notice(lines[0], lines[1:], self.t), wait_for_dismiss=True)

    # -- input --------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        self.keys.key(event)

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        self.keys.picked(message.card)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.keys.pressed(event)

    def on_table_view_clicked(self, message: TableView.Clicked) -> None:
        self.action_tricks()

    def action_tricks(self) -> None:
        """Every completed trick of the deal (with the leaders' signals) in a dialog."""
        model = self.model
        if model is None or len(self.screen_stack) > 1:
            return
        lines = trick_history(model)
        if not lines:
            self.say(self.t.gettext("No trick of this deal is complete yet."))
            return
        title = self.t.gettext("Tricks of deal {number}").format(
            number=self.t.number(model.deal + 1))
        self.push_screen(Notice(title, lines, self.t))

    def action_help(self) -> None:
        self.push_screen(Help(self.cfg.game, self.t))

    async def action_stop(self) -> None:
        await self.link.stop()
        self.exit(0)

    async def on_unmount(self) -> None:
        await self.session.close()

    async def wait_idle(self) -> None:
        """Let the session's pending work run (tests)."""
        await asyncio.sleep(0)
