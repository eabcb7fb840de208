"""The human's turn on the card table: the choices offered, the card being typed, a
card's variants offered as buttons (signals, bella), and the one action on its way to the
table service (conceding asks first; a refusal is said with the engine's reason)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App

from bot.terminal.dialogs import Confirm
from bot.terminal.layout import TableLayout
from bot.terminal.session import TableModel
from bot.words.actions import action_text
from bot.words.cards import card_text
from bot.words.choices import Choices, needs_confirmation
from games.actions import Action

Act = Callable[[Action], Awaitable[str | None]]
"""Submits an action to the table: ``None`` when accepted, else the refusal in words."""


class Turn:
    """What the human is choosing now (:attr:`current` is ``None`` between turns) and
    :attr:`busy` while a chosen action is on its way."""

    def __init__(self, app: App[Any], layout: TableLayout, act: Act) -> None:
        self.app = app
        self.layout = layout
        self.t = layout.t
        self.act = act
        self.current: Choices | None = None
        self.typed = ""
        self.variants: list[Action] = []
        self.busy = False

    def start(self, choices: Choices) -> None:
        """A new turn: these choices, nothing typed, no variants offered."""
        self.current = choices
        self.variants = []
        self.typed = ""

    def present(self) -> None:
        """Offer the started turn: its decisions as buttons, the focus on the hand when
        cards are chosen (else the first button), a hint on the message line."""
        choices = self.current
        assert choices is not None
        self.layout.show_buttons(choices.others)
        if choices.cards:
            self.layout.hand.focus()
            self.layout.say(self.hint())
        elif choices.others:
            self.layout.focus_first_button()
            self.layout.say(self.t.gettext("Your turn: choose with the buttons (Tab, Enter "
                                           "or a click)."))

    def end(self) -> None:
        """No turn now: no choices, no buttons."""
        self.current = None
        self.layout.show_buttons(())

    def legal(self, model: TableModel) -> set[str]:
        """The hand's cards that may be picked now."""
        return self.current.pickable if self.current and model.legal else set()

    def hint(self) -> str:
        """How to play a card now (and the highlighted card's variants, multi-card bids)."""
        parts = [self.t.gettext("Your turn: ←/→ and Enter, or type a card (e.g. qh)")]
        choice = self.current.cards.get(self.layout.hand.cursor or "") if self.current \
            else None
        if choice is not None and choice.variants:
            parts.append(self.t.gettext("v: signal/bella with {card}").format(
                card=card_text(choice.card)))
        if self.current and self.current.multi:
            parts.append(self.t.gettext("Space marks up to three cards"))
        return "; ".join(parts) + "."

    # -- a card's variants --------------------------------------------------------------
    def offer_variants(self) -> None:
        """The highlighted card's variants as buttons (``1``–``9`` or Enter choose)."""
        choice = self.current.cards.get(self.layout.hand.cursor or "") if self.current \
            else None
        if choice is None or not choice.variants:
            self.layout.say(self.t.gettext("This card has no signal or other variant."))
            return
        self.variants = list(choice.actions)
        self.layout.show_buttons(self.variants)
        self.app.call_after_refresh(self.focus_variant, 0)
        words = " · ".join(f"{i}: {action_text(a, self.layout.game, t=self.t)}"
                           for i, a in enumerate(self.variants, start=1))
        self.layout.say(self.t.gettext("{choices} · Esc back").format(choices=words))

    def focus_variant(self, index: int) -> None:
        """Focus a variant's button (Enter chooses it)."""
        buttons = self.layout.buttons()
        if self.variants and buttons:
            buttons[index].focus()

    def back_to_hand(self) -> None:
        """Esc from the variants: the turn's decisions again, the focus on the hand."""
        assert self.current is not None
        self.variants = []
        self.layout.show_buttons(self.current.others)
        self.layout.hand.focus()
        self.layout.say(self.hint())

    # -- submitting ---------------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """Send the action (one at a time; conceding asks first)."""
        if self.busy:
            return
        self.busy = True
        self.app.run_worker(self._act(action), group="act")

    async def _act(self, action: Action) -> None:
        try:
            if needs_confirmation(action):
                sure = await self.app.push_screen(
                    Confirm(self.t.gettext("Concede the deal? The opponents score the whole "
                                           "deal."), self.t),
                    wait_for_dismiss=True)
                if not sure:
                    hint = self.hint() if self.current and self.current.cards else ""
                    self.layout.say(" ".join([self.t.gettext("Not conceded."), hint]).strip())
                    self.app.call_after_refresh(self._refocus)  # after the dialog's own
                    return
            reason = await self.act(action)
            if reason is not None:
                self.layout.say(self.t.gettext("Not allowed: {reason}").format(reason=reason))
                return
            self.variants = []
            self.layout.hand.marked = []
        finally:
            self.busy = False

    def _refocus(self) -> None:
        """After a "No" to conceding: the hand when cards are chosen, else the first
        decision that is not conceding — never Concede again (Enter would reopen it)."""
        if self.current is not None and (self.current.cards or self.current.multi):
            self.layout.hand.focus()
            return
        for button in self.layout.buttons():
            if not needs_confirmation(button.decision):
                button.focus()
                return
        self.layout.hand.focus()
