"""``tricktable play --plain``: the line-mode front end (pipes, screen readers, scripts).

Everything is a sentence on its own line: what happened (the shared event words), and at
each turn the table (trump, contract, running count, score, trick, hand by suit) and the
choices, numbered: each legal card once, then the other decisions. Input is the number,
the card (``qh``, ``10s``, ``Q♥``; add ``strong``/``weak`` to signal, ``bella`` to
announce bella), several cards for a multi-card bid, or a decision word (``pass``,
``spades``, ``runs``, ``up 2``, ``continue``, ``stop``). A refusal prints the engine's
reason and asks again. ``h`` or ``?`` shows the table and choices again, ``q`` (or end of
input) stops — the game is saved. Conceding asks ``yes`` to confirm. Piped input is
echoed after the prompt, so a transcript reads as played.
"""

from __future__ import annotations

import asyncio
import threading
from typing import IO

from bot.i18n import Translator
from bot.terminal.session import Session, TableModel
from bot.words.actions import action_text
from bot.words.cards import card_text, hand_lines
from bot.words.choices import Choices, interpret, needs_confirmation
from bot.words.events import trick_line
from bot.words.table_state import (
    match_facts,
    score_line,
    table_facts,
    trick_cards,
)
from bot.words.text import or_english
from games.actions import Action

QUIT = ("q", "quit", "exit")
HELP = ("h", "help", "?")


class PlainFront:
    """The line-mode :class:`~bot.terminal.session.Front`."""

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.out = stdout
        self.session: Session | None = None
        self.printed = 0

    @property
    def t(self) -> Translator:
        """The session's language (English before a session is attached)."""
        return or_english(self.session.t if self.session is not None else None)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # -- Front --------------------------------------------------------------------------
    def changed(self, model: TableModel) -> None:
        new = model.logged - self.printed
        if new > 0:
            for _, line in list(model.log)[-min(new, len(model.log)):]:
                self.say("  " + line)
            self.printed = model.logged

    def notice(self, text: str) -> None:
        self.say(text)

    async def deal_over(self, model: TableModel, lines: list[str]) -> None:
        self.changed(model)
        self.say("")
        self.say(f"--- {lines[0]} ---")
        for line in lines[1:]:
            self.say("  " + line)
        self.say("  " + score_line(model.match, model.seating, model.me) + ".")

    async def match_over(self, model: TableModel, lines: list[str]) -> None:
        self.changed(model)
        self.say("")
        self.say(f"=== {lines[0]} ===")
        for line in lines[1:]:
            self.say("  " + line)

    async def your_turn(self, model: TableModel, choices: Choices) -> bool:
        assert self.session is not None
        numbered = choices.numbered()
        self.say("")
        self.table(model)
        self.menu(model, choices, numbered)
        while True:
            t = self.t
            line = await self.prompt(t.gettext("Choose 1-{last} or type a card: ").format(
                last=len(numbered)))
            if line is None:
                self.say("")
                self.say(self.session.saved_text())
                return False
            text = line.strip()
            if text.lower() in QUIT:
                self.say(self.session.saved_text())
                return False
            if text.lower() in HELP:
                self.table(model)
                self.menu(model, choices, numbered)
                continue
            chosen = self.read(text, choices, numbered, model.hand)
            if isinstance(chosen, str):
                self.say("  " + chosen + " " + t.gettext(
                    "Type a number from 1 to {last}, a card such as qh or 10s, h to see the "
                    "choices again, q to stop.").format(last=len(numbered)))
                continue
            if needs_confirmation(chosen):
                answer = await self.prompt("  " + t.gettext(
                    "Concede: the opponents score the whole deal. Type yes to confirm: "))
                yes = t.gettext("yes").lower()
                if (answer or "").strip().lower() not in ("y", "yes", yes):
                    self.say("  " + t.gettext("Not conceded."))
                    continue
            reason = await self.session.act(chosen)
            if reason is None:
                return True
            self.say("  " + t.gettext("Not allowed: {reason}").format(reason=reason))

    # -- drawing ------------------------------------------------------------------------
    def table(self, model: TableModel) -> None:
        t = self.t
        view = model.view
        for label, text in table_facts(view, model.seating, model.me):
            self.say(f"  {label}: {text}")
        if model.match:
            self.say("  " + score_line(model.match, model.seating, model.me))
            for label, text in match_facts(model.match, model.seating, model.me):
                self.say(f"  {label}: {text}")
        cards = (view.get("trick") or {}).get("cards") or [] if view else []
        if cards:
            self.say("  " + t.gettext("On the table: {cards}").format(
                cards=trick_cards(cards, model.seating, model.me)))
        else:
            last = model.last_trick()
            if last:
                self.say("  " + t.gettext("Last trick: {trick}").format(
                    trick=trick_line(model.seating, last)))
        hand = " | ".join(hand_lines(model.hand)) or t.gettext("no cards")
        self.say("  " + t.gettext("In your hand: {cards}").format(cards=hand))

    def menu(self, model: TableModel, choices: Choices, numbered: list[Action]) -> None:
        t = self.t
        items = []
        for i, action in enumerate(numbered, start=1):
            if action.type in ("play", "bid") and action.card:
                items.append(f"{i} {card_text(action.card)}")
            else:
                items.append(f"{i} {action_text(action, model.game, t=t)}")
        self.say("  " + t.gettext("Choices: {choices}").format(choices="   ".join(items)))
        signals = sorted({a.signal for c in choices.cards.values() for a in c.variants
                          if a.signal})
        if signals:
            self.say("  " + t.gettext("(add {signals} after a card to signal, e.g. "
                                      "“{example}”)").format(
                signals=" / ".join(signals),
                example=f"{next(iter(choices.cards)).lower()} {signals[0]}"))
        if any(a.bella for c in choices.cards.values() for a in c.variants):
            self.say("  " + t.gettext("(add bella after the card to announce bella)"))
        if choices.multi:
            self.say("  " + t.gettext("(bid one card, or up to three: type them, e.g. "
                                      "“{example}”)").format(example="as kh 2c"))

    def read(self, text: str, choices: Choices, numbered: list[Action],
             hand: list[str]) -> Action | str:
        """The numbered choice or the typed action, else why not (in the session's
        language)."""
        if text.isdigit() and len(text) <= 3:
            n = int(text)
            if 1 <= n <= len(numbered):
                return numbered[n - 1]
            return self.t.gettext("There is no choice {n}.").format(n=n)
        return interpret(text, choices, hand, self.t)

    async def prompt(self, text: str) -> str | None:
        """Print ``text`` and read one line (``None`` at end of input)."""
        self.out.write("  " + text)
        self.out.flush()
        line = await self._readline()
        if not line:
            return None
        if not self.stdin.isatty():
            self.say(line.strip())  # echo piped input, so the transcript reads well
        return line

    async def _readline(self) -> str:
        """One line of input, read in a daemon thread: the event loop keeps running (AI
        players bid meanwhile in Truf), and Ctrl-C never waits for a pending read."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str] = loop.create_future()

        def read() -> None:
            try:
                line = self.stdin.readline()
            except Exception:  # a closed or broken input stream: end of input
                line = ""
            loop.call_soon_threadsafe(_settle, future, line)

        threading.Thread(target=read, name="terminal-input", daemon=True).start()
        return await future


def _settle(future: asyncio.Future[str], line: str) -> None:
    if not future.done():
        future.set_result(line)
