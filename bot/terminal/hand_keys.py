"""The keys and clicks that choose on the card table during a turn.

On the hand: ←/→ move over the legal cards, ↑/↓ to the next suit; Enter plays (or bids)
the card; typing a card (``qh``, ``10s``, ``ts``) picks it, Enter plays it (Backspace
takes a letter back); ``v`` offers the card's variants; Space marks cards for a multi-card
bid, Enter bids them; Esc forgets what was typed or marked. While variants are offered:
←/→ move over them (wrapping), Enter or ``1``–``9`` choose one, Esc goes back. A click on
a card plays it (or offers its variants), a click on a decision's button decides.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Button

from bot.terminal.layout import ActionButton
from bot.terminal.turn import Turn
from bot.words.cards import card_text
from bot.words.choices import interpret, read_card

TYPED = set("akqjt1023456789shdc")
"""The characters that type a card."""


class HandKeys:
    """Reads the keys, clicks and buttons of a :class:`Turn` (module docstring)."""

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.layout = turn.layout
        self.t = turn.t

    def key(self, event: events.Key) -> None:
        """A key pressed on the table screen; stopped when it chose or moved."""
        turn = self.turn
        current = turn.current
        if current is None or turn.busy or (not current.cards and not current.multi):
            return
        if turn.variants:
            self._variant_key(event)
            return
        hand = self.layout.hand
        if not hand.has_focus:
            return
        key = event.key
        handled = True
        if key == "left":
            hand.move(-1)
        elif key == "right":
            hand.move(1)
        elif key == "up":
            hand.move_row(-1)
        elif key == "down":
            hand.move_row(1)
        elif key == "enter":
            self._enter()
        elif key == "space":
            self._mark()
        elif key == "v":
            turn.offer_variants()
        elif key == "escape":
            turn.typed = ""
            hand.marked = []
            hand.refresh()
            self.layout.say(turn.hint())
        elif key == "backspace":
            turn.typed = turn.typed[:-1]
            self.layout.say(self.t.gettext("Typed: {text}").format(text=turn.typed)
                            if turn.typed else turn.hint())
        elif event.character and event.character.lower() in TYPED:
            self._type(event.character.lower())
        else:
            handled = False
        if handled:
            event.stop()
            if key in ("left", "right", "up", "down"):
                turn.typed = ""
                self.layout.say(turn.hint())

    def _variant_key(self, event: events.Key) -> None:
        """A key while variants are offered (Enter presses the focused variant's
        button)."""
        turn, key = self.turn, event.key
        if key.isdigit() and 1 <= int(key) <= len(turn.variants):
            event.stop()
            turn.submit(turn.variants[int(key) - 1])
        elif key in ("left", "right"):
            event.stop()
            screen = turn.app.screen
            if key == "right":
                screen.focus_next()
            else:
                screen.focus_previous()
            if not isinstance(turn.app.focused, ActionButton):  # past either end: wrap
                turn.focus_variant(0 if key == "right" else -1)
        elif key == "escape":
            event.stop()
            turn.back_to_hand()

    def _type(self, char: str) -> None:
        turn, hand = self.turn, self.layout.hand
        turn.typed = (turn.typed + char)[-3:]
        for start in range(len(turn.typed)):
            code = read_card(turn.typed[start:])
            if code is not None and code in hand.hand:
                turn.typed = turn.typed[start:]
                if code in hand.legal:
                    hand.cursor = code
                    hand.refresh()
                self.layout.say(self.t.gettext("{card}: Enter to play it.").format(
                    card=card_text(code)))
                return
        self.layout.say(self.t.gettext("Typed: {text}").format(text=turn.typed))

    def _enter(self) -> None:
        turn, hand = self.turn, self.layout.hand
        current = turn.current
        assert current is not None
        if hand.marked:
            chosen = interpret(" ".join(hand.marked), current, hand.hand, self.t)
        elif turn.typed:
            chosen = interpret(turn.typed, current, hand.hand, self.t)
        elif hand.cursor is not None:
            chosen = interpret(hand.cursor, current, hand.hand, self.t)
        else:
            return
        turn.typed = ""
        if isinstance(chosen, str):
            if hand.cursor and current.cards.get(hand.cursor) and not hand.marked:
                turn.offer_variants()
                return
            self.layout.say(chosen)
            return
        turn.submit(chosen)

    def _mark(self) -> None:
        turn, hand = self.turn, self.layout.hand
        if not turn.current or not turn.current.multi or hand.cursor is None:
            return
        if hand.cursor in hand.marked:
            hand.marked.remove(hand.cursor)
        elif len(hand.marked) < 3:
            hand.marked.append(hand.cursor)
        hand.refresh()
        marked = " ".join(card_text(c) for c in hand.marked)
        self.layout.say(self.t.gettext("Bid: {cards} — Enter to bid them.").format(
            cards=marked) if marked else turn.hint())

    def picked(self, card: str) -> None:
        """A click on a card: play it, or offer its variants when it needs one."""
        turn = self.turn
        if turn.current is None or turn.busy:
            return
        chosen = interpret(card, turn.current, self.layout.hand.hand, self.t)
        if isinstance(chosen, str):
            turn.offer_variants()
            return
        turn.submit(chosen)

    def pressed(self, event: Button.Pressed) -> None:
        """A decision's (or a variant's) button pressed: decide it."""
        if isinstance(event.button, ActionButton) and self.turn.current is not None:
            event.stop()
            self.turn.submit(event.button.decision)
