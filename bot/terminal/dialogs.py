"""The card table's dialogs, each held over the table until answered: :class:`Confirm`
(a yes/no question: conceding), :class:`Notice` (text held until a key or click: a deal's
result, the match result, the deal's tricks) and :class:`Help` (``?``: the keys and how
to play). :func:`trick_history` words the deal's tricks for the tricks dialog."""

from __future__ import annotations

from typing import ClassVar, cast

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from bot.i18n import N_, Translator
from bot.terminal.session import TableModel
from bot.words.events import signal_text, trick_line
from bot.words.summary import summary_file, tagline
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
                title=escape(self.title_text),
                hint=escape(self.t.gettext("Press any key to continue."))))
            with VerticalScroll(id="result"):
                yield Static("\n".join(escape(x) for x in self.lines))

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
