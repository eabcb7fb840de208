"""The full-screen card table (Textual) of ``tricktable play``.

One fixed screen that fits 80×24 and grows with the window: the score line at the top
(the match score against its target), the table with the seats around it (you at the
bottom) and the trick, beside it the deal's facts in words (trump, bids or contract,
runs, bella, kort, the running count) and what just happened, then your hand by suit,
the decisions other than cards as buttons, and a message line (whose turn, refusals with
the engine's reason).

The trick in the middle says who led it and the leader's signal; the side log keeps its
newest line in view (older ones scroll). A window smaller than 80×24 gets a warning line
(the table still draws every seat, the side panel narrower).

Keys: ←/→ move over the legal cards, ↑/↓ to the next suit; Enter plays (or bids) the
card; type a card (``qh``, ``10s``, ``ts``) to pick it, Enter plays it; ``v`` offers the
card's variants (signals, bella) as buttons, ←/→ and Enter or ``1``–``9`` choose one, Esc
goes back; Space marks cards for a multi-card bid, Enter bids them; ``l`` (or a click on
the table) shows every completed trick of the deal; Tab moves to the buttons; ``?`` help
and how to play; Ctrl+Q (or Ctrl+C) stops — the game is saved. The mouse clicks cards
and buttons. Conceding asks for confirmation (after "No" the focus returns to the hand or
the first other decision). A deal's result stays on screen, alone, until a key is
pressed.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, cast

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from bot.i18n import N_, Translator
from bot.terminal.choices import Choices, interpret, needs_confirmation, read_card
from bot.terminal.config import PlayConfig
from bot.terminal.session import Session, TableModel
from bot.terminal.widgets import HandView, TableView
from bot.words.actions import action_text
from bot.words.cards import card_text
from bot.words.events import signal_text, trick_line
from bot.words.seating import join_names
from bot.words.summary import summary_file, tagline
from bot.words.table_state import match_facts, score_line, table_facts
from games.actions import Action
from games.registry import GAMES
from games.view_types import PlainView

KEYS_HELP = N_("""\
**Keys** — ←/→ legal cards · ↑/↓ next suit · Enter play the card · type a card
(`qh`, `10s`, `ts`) to pick it · `v` signals/bella for the card (then ←/→ and Enter, or
1–9; Esc back) · Space mark cards for a multi-card bid, Enter bids them · `l` the deal's
tricks · Tab the buttons · `?` this help · Ctrl+Q stop (the game is saved;
`tricktable play GAME --resume` continues).
Mouse: click a card to play it, a button to decide, the table to see the deal's tricks.
""")

MIN_SIZE = (80, 24)
"""The window the table is laid out for; a smaller one gets a warning line."""
SIDE_WIDTH = 34
"""The side panel's width in a window of at least 80 columns (narrower below)."""

TYPED = set("akqjt1023456789shdc")
LOG_LINES = 40
"""How many of the newest log lines the side log holds (it scrolls; the newest shows)."""


class Confirm(ModalScreen[bool]):
    """A yes/no question (conceding): ``y``/Enter on Yes, ``n``/Esc."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, t: Translator) -> None:
        super().__init__()
        self.question = question
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question)
            with Horizontal():
                yield Button(self.t.gettext("Yes (y)"), id="yes", variant="error",
                             compact=True)
                yield Button(self.t.gettext("No (n)"), id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)


class Notice(ModalScreen[None]):
    """Text held on screen until any key or click (deal results, the match result)."""

    def __init__(self, title: str, lines: list[str], t: Translator) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("[b]{title}[/b]  [dim]{hint}[/dim]".format(
                title=_escape(self.title_text),
                hint=_escape(self.t.gettext("Press any key to continue."))))
            with VerticalScroll(id="result"):
                yield Static("\n".join(_escape(x) for x in self.lines))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class Help(ModalScreen[None]):
    """``?``: the keys and how to play (the game's packaged player summary,
    :func:`bot.words.rules.summary_file`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "close",
                                                     "Close")]

    def __init__(self, game: str, t: Translator) -> None:
        super().__init__()
        self.game = game
        self.t = t

    def compose(self) -> ComposeResult:
        info = GAMES[self.game]
        language = self.t.language
        line = tagline(self.game, language) or info.summary_line
        close = self.t.gettext("Esc closes this help; ↑/↓ or the wheel scroll it.")
        with VerticalScroll(id="help"):
            yield Markdown(f"# {info.title}\n\n{line}\n\n{self.t.gettext(KEYS_HELP)}\n"
                           f"*{close}*\n\n---\n\n" + summary_file(self.game, language))

    def action_close(self) -> None:
        self.dismiss(None)


class TableApp(App[int]):
    """The card table (module docstring); :attr:`final_text` is printed after exit."""

    CSS = """
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

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q,ctrl+c", "stop", "Stop (saved)", priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("l", "tricks", "Tricks"),
    ]

    def __init__(self, cfg: PlayConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.session = Session(cfg, self)
        self.t = self.session.t
        self.model: TableModel | None = None
        self.current: Choices | None = None
        self.typed = ""
        self.variants: list[Action] = []
        self.busy = False
        self.final_text = ""
        self.notices: list[str] = []
        self.status: int | None = None
        self.ready = False
        """Set once the screen is composed (the session may report before)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="score")
        yield Static("", id="small")
        with Horizontal(id="middle"):
            yield TableView(self.t, id="table")
            with Vertical(id="side"):
                # The panels scroll with the wheel but never take the keys from the hand.
                with VerticalScroll(id="facts", can_focus=False):
                    yield Static("", id="factlines")
                with VerticalScroll(id="logbox", can_focus=False):
                    yield Static("", id="log")
        yield HandView(self.t, id="hand")
        yield Horizontal(id="buttons")
        yield Static("", id="message")

    def on_mount(self) -> None:
        self.title = GAMES[self.cfg.game].title
        self.query_one(HandView).focus()
        self.ready = True
        self._fit()
        self.run_worker(self._play(), exclusive=True, name="session")

    async def _play(self) -> None:
        status = await self.session.run()
        self.status = status
        if status == 0 and self.model is not None and not self.model.over:
            self.final_text = self.session.saved_text()
        elif status != 0:
            self.final_text = "\n".join(self.notices)
        self.exit(status, return_code=status)

    # -- Front --------------------------------------------------------------------------
    def changed(self, model: TableModel) -> None:
        self.model = model
        self.redraw()

    def notice(self, text: str) -> None:
        self.notices.append(text)
        self.say(text)

    async def your_turn(self, model: TableModel, choices: Choices) -> bool:
        self.model = model
        self.current = choices
        self.variants = []
        self.typed = ""
        self.redraw()
        self._buttons(choices.others)
        if choices.cards:
            self.query_one(HandView).focus()
            self.say(self._turn_hint())
        elif choices.others:
            self.query_one("#buttons").children[0].focus()
            self.say(self.t.gettext("Your turn: choose with the buttons (Tab, Enter or a "
                                    "click)."))
        return True

    async def deal_over(self, model: TableModel, lines: list[str]) -> None:
        self._held(model)
        await self.push_screen(Notice(lines[0], lines[1:], self.t), wait_for_dismiss=True)

    async def match_over(self, model: TableModel, lines: list[str]) -> None:
        self._held(model)
        self.final_text = "\n".join(lines)
        await self.push_screen(Notice(lines[0], lines[1:], self.t), wait_for_dismiss=True)

    def _held(self, model: TableModel) -> None:
        """A result is about to be shown: no turn, no buttons, no stale message."""
        self.model = model
        self.current = None
        self._buttons(())
        self.redraw()
        self.say("")

    # -- drawing ------------------------------------------------------------------------
    def say(self, text: str) -> None:
        if self.ready:
            self.query_one("#message", Static).update(_escape(text))

    def redraw(self) -> None:
        model = self.model
        if model is None or not self.ready:
            return
        head = self.t.gettext("{title} · deal {number}").format(
            title=model.title, number=self.t.number(model.deal + 1))
        if model.match:
            head += " · " + score_line(model.match, model.seating, model.me)
        self.query_one("#score", Static).update(_escape(head))
        self.query_one(TableView).show(model)
        facts = table_facts(model.view, model.seating, model.me)
        facts += match_facts(model.match, model.seating, model.me)
        last = model.last_trick()
        if last is not None and model.view and (model.view.get("trick") or {}).get("cards"):
            facts.append((self.t.gettext("Last trick"), trick_line(model.seating, last)))
        self.query_one("#factlines", Static).update(
            "\n".join(f"[b]{_escape(k)}:[/b] {_escape(v)}" for k, v in facts))
        lines = [x for kind, x in model.log if kind not in ("play", "trick")]
        self.query_one("#log", Static).update("\n".join(_escape(x) for x in lines[-LOG_LINES:]))
        self.query_one("#logbox", VerticalScroll).anchor()  # the newest line in view
        legal = self.current.pickable if self.current and model.legal else set()
        self.query_one(HandView).show(model.hand, legal)
        if not model.legal:
            self.current = None
            self._buttons(())
            waiting = [model.seating.name(s) for s in model.to_act if s != model.me]
            if waiting and not model.over:
                self.say(self.t.gettext("Waiting for {players}…").format(
                    players=join_names(waiting, self.t)))

    def on_resize(self, event: events.Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        """Below 80×24 a warning line says so and the side panel narrows, so that the
        table keeps room for every seat (yours at the bottom)."""
        if not self.ready:
            return
        width, height = self.size
        small = self.query_one("#small", Static)
        too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        small.display = too_small
        if too_small:
            small.update(_escape(self.t.gettext(
                "The window is {width}×{height}; the table needs {need}: enlarge it to see "
                "everything.").format(width=width, height=height,
                                      need="{}×{}".format(*MIN_SIZE))))
        side = SIDE_WIDTH if width >= MIN_SIZE[0] else max(22, width - 38)
        self.query_one("#side").styles.width = side

    def _buttons(self, actions: tuple[Action, ...] | list[Action]) -> None:
        bar = self.query_one("#buttons", Horizontal)
        bar.remove_children()
        game = self.cfg.game
        bar.mount_all([ActionButton(a, action_text(a, game, t=self.t)) for a in actions])

    def _turn_hint(self) -> str:
        hand = self.query_one(HandView)
        parts = [self.t.gettext("Your turn: ←/→ and Enter, or type a card (e.g. qh)")]
        choice = self.current.cards.get(hand.cursor or "") if self.current else None
        if choice is not None and choice.variants:
            parts.append(self.t.gettext("v: signal/bella with {card}").format(
                card=card_text(choice.card)))
        if self.current and self.current.multi:
            parts.append(self.t.gettext("Space marks up to three cards"))
        return "; ".join(parts) + "."

    # -- input --------------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if self.current is None or self.busy or (not self.current.cards and \
                not self.current.multi):
            return
        hand = self.query_one(HandView)
        key = event.key
        if self.variants:
            if key.isdigit() and 1 <= int(key) <= len(self.variants):
                event.stop()
                self._submit(self.variants[int(key) - 1])
            elif key in ("left", "right"):
                event.stop()
                if key == "right":
                    self.screen.focus_next()
                else:
                    self.screen.focus_previous()
                if not isinstance(self.focused, ActionButton):  # past either end: wrap
                    self._focus_variant(0 if key == "right" else -1)
            elif key == "escape":
                event.stop()
                self.variants = []
                self._buttons(self.current.others)
                hand.focus()
                self.say(self._turn_hint())
            return  # Enter presses the focused variant's button
        if not hand.has_focus:
            return
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
            self._offer_variants()
        elif key == "escape":
            self.typed = ""
            hand.marked = []
            hand.refresh()
            self.say(self._turn_hint())
        elif key == "backspace":
            self.typed = self.typed[:-1]
            self.say(self.t.gettext("Typed: {text}").format(text=self.typed) if self.typed
                     else self._turn_hint())
        elif event.character and event.character.lower() in TYPED:
            self._type(event.character.lower())
        else:
            handled = False
        if handled:
            event.stop()
            if key in ("left", "right", "up", "down"):
                self.typed = ""
                self.say(self._turn_hint())

    def _type(self, char: str) -> None:
        hand = self.query_one(HandView)
        self.typed = (self.typed + char)[-3:]
        for start in range(len(self.typed)):
            code = read_card(self.typed[start:])
            if code is not None and code in hand.hand:
                self.typed = self.typed[start:]
                if code in hand.legal:
                    hand.cursor = code
                    hand.refresh()
                self.say(self.t.gettext("{card}: Enter to play it.").format(
                    card=card_text(code)))
                return
        self.say(self.t.gettext("Typed: {text}").format(text=self.typed))

    def _enter(self) -> None:
        assert self.current is not None
        hand = self.query_one(HandView)
        if hand.marked:
            chosen = interpret(" ".join(hand.marked), self.current, hand.hand, self.t)
        elif self.typed:
            chosen = interpret(self.typed, self.current, hand.hand, self.t)
        elif hand.cursor is not None:
            chosen = interpret(hand.cursor, self.current, hand.hand, self.t)
        else:
            return
        self.typed = ""
        if isinstance(chosen, str):
            if hand.cursor and self.current.cards.get(hand.cursor) and not hand.marked:
                self._offer_variants()
                return
            self.say(chosen)
            return
        self._submit(chosen)

    def _mark(self) -> None:
        hand = self.query_one(HandView)
        if not self.current or not self.current.multi or hand.cursor is None:
            return
        if hand.cursor in hand.marked:
            hand.marked.remove(hand.cursor)
        elif len(hand.marked) < 3:
            hand.marked.append(hand.cursor)
        hand.refresh()
        marked = " ".join(card_text(c) for c in hand.marked)
        self.say(self.t.gettext("Bid: {cards} — Enter to bid them.").format(cards=marked)
                 if marked else self._turn_hint())

    def _offer_variants(self) -> None:
        hand = self.query_one(HandView)
        choice = self.current.cards.get(hand.cursor or "") if self.current else None
        if choice is None or not choice.variants:
            self.say(self.t.gettext("This card has no signal or other variant."))
            return
        self.variants = list(choice.actions)
        self._buttons(self.variants)
        self.call_after_refresh(self._focus_variant, 0)
        words = " · ".join(f"{i}: {action_text(a, self.cfg.game, t=self.t)}"
                           for i, a in enumerate(self.variants, start=1))
        self.say(self.t.gettext("{choices} · Esc back").format(choices=words))

    def _focus_variant(self, index: int) -> None:
        """Focus a variant's button (Enter chooses it)."""
        buttons = list(self.query("#buttons ActionButton").results(ActionButton))
        if self.variants and buttons:
            buttons[index].focus()

    def _refocus(self) -> None:
        """After a "No" to conceding: the hand when cards are chosen, else the first
        decision that is not conceding — never Concede again (Enter would reopen it)."""
        if self.current is not None and (self.current.cards or self.current.multi):
            self.query_one(HandView).focus()
            return
        for button in self.query("#buttons ActionButton").results(ActionButton):
            if not needs_confirmation(button.decision):
                button.focus()
                return
        self.query_one(HandView).focus()

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

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        if self.current is None or self.busy:
            return
        hand = self.query_one(HandView)
        chosen = interpret(message.card, self.current, hand.hand, self.t)
        if isinstance(chosen, str):
            self._offer_variants()
            return
        self._submit(chosen)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton) and self.current is not None:
            event.stop()
            self._submit(event.button.decision)

    def _submit(self, action: Action) -> None:
        if self.busy:
            return
        self.busy = True
        self.run_worker(self._act(action), group="act")

    async def _act(self, action: Action) -> None:
        try:
            if needs_confirmation(action):
                sure = await self.push_screen(
                    Confirm(self.t.gettext("Concede the deal? The opponents score the whole "
                                           "deal."), self.t),
                    wait_for_dismiss=True)
                if not sure:
                    hint = self._turn_hint() if self.current and self.current.cards else ""
                    self.say(" ".join([self.t.gettext("Not conceded."), hint]).strip())
                    self.call_after_refresh(self._refocus)  # after the dialog's own
                    return
            reason = await self.session.act(action)
            if reason is not None:
                self.say(self.t.gettext("Not allowed: {reason}").format(reason=reason))
                return
            self.variants = []
            self.query_one(HandView).marked = []
        finally:
            self.busy = False

    def action_help(self) -> None:
        self.push_screen(Help(self.cfg.game, self.t))

    async def action_stop(self) -> None:
        self.session.stopped = True
        if self.model is not None and not self.model.over:
            self.final_text = self.session.saved_text()
        await self.session.close()
        self.exit(0)

    async def on_unmount(self) -> None:
        await self.session.close()

    async def wait_idle(self) -> None:
        """Let the session's pending work run (tests)."""
        await asyncio.sleep(0)


def trick_history(model: TableModel) -> list[str]:
    """The deal's completed tricks, one line each, the leader's signal after its trick."""
    view = model.view
    t = model.seating.t
    plain = cast(PlainView, view)  # signals: plain games only (others have no key)
    signals = {int(x["trick"]): x for x in plain.get("signals") or []} if plain else {}
    lines = []
    for number, trick in enumerate(view.get("tricks") or [] if view else [], start=1):
        line = trick_line(model.seating, trick, number)
        signal = signals.get(number)
        if signal is not None:
            line += " " + t.gettext("{player} signalled: {signal}.").format(
                player=model.seating.name(signal.get("seat")),
                signal=signal_text(str(signal.get("signal")), t))
        lines.append(line)
    return lines


class ActionButton(Button):
    """A button that carries the action it decides."""

    def __init__(self, action: Action, label: str, **kw: Any) -> None:
        super().__init__(label, compact=True, **kw)
        self.decision = action


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
