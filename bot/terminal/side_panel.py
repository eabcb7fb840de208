"""The panel beside the card table: the deal's facts in words (trump, bids or contract,
runs, bella, kort, the running count, the match, the last trick while a new one is on the
table) above the side log of what just happened (its newest :data:`LOG_LINES` lines, the
newest in view; older ones scroll). Both scroll with the wheel but never take the keys
from the hand."""

from __future__ import annotations

from typing import Any

from rich.markup import escape
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from bot.i18n import Translator
from bot.terminal.session import TableModel
from bot.words.events import trick_line
from bot.words.table_state import match_facts, table_facts

LOG_LINES = 40
"""How many of the newest log lines the side log holds (it scrolls; the newest shows)."""


class SidePanel(Vertical):
    """The deal's facts (``#facts``) and the side log (``#logbox``) of one table."""

    def __init__(self, t: Translator, **kw: Any) -> None:
        super().__init__(**kw)
        self.t = t

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="facts", can_focus=False):
            yield Static("", id="factlines")
        with VerticalScroll(id="logbox", can_focus=False):
            yield Static("", id="log")

    def show(self, model: TableModel) -> None:
        """Draw the model's facts and its log (plays and tricks are on the table)."""
        facts = table_facts(model.view, model.seating, model.me)
        facts += match_facts(model.match, model.seating, model.me)
        last = model.last_trick()
        if last is not None and model.view and (model.view.get("trick") or {}).get("cards"):
            facts.append((self.t.gettext("Last trick"), trick_line(model.seating, last)))
        self.query_one("#factlines", Static).update(
            "\n".join(f"[b]{escape(k)}:[/b] {escape(v)}" for k, v in facts))
        lines = [x for kind, x in model.log if kind not in ("play", "trick")]
        self.query_one("#log", Static).update("\n".join(escape(x) for x in lines[-LOG_LINES:]))
        self.query_one("#logbox", VerticalScroll).anchor()  # the newest line in view
