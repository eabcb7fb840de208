"""The card table's link to its table service session: the session's front end
(:class:`bot.terminal.session.Front`) for the Textual app. It keeps the newest model, the
session's notices and the text printed after the app exits, and hands what is to be shown
to the app's :class:`TableDisplay`."""

from __future__ import annotations

from typing import Protocol

from bot.terminal.config import PlayConfig
from bot.terminal.session import Session, TableModel
from bot.words.choices import Choices


class TableDisplay(Protocol):
    """What the app shows for the session."""

    def redraw(self) -> None:
        """Draw the link's model."""

    def say(self, text: str) -> None:
        """Put a line on the message line."""

    def offer(self, choices: Choices) -> None:
        """The human's turn: offer these choices."""

    async def hold(self, lines: list[str]) -> None:
        """A result (title, lines) held on screen, no turn, until a key is pressed."""


class TableLink:
    """One app's session (module docstring); :attr:`final_text` is printed after exit."""

    def __init__(self, cfg: PlayConfig, display: TableDisplay) -> None:
        self.display = display
        self.session = Session(cfg, self)
        self.model: TableModel | None = None
        self.final_text = ""
        self.notices: list[str] = []
        self.status: int | None = None

    async def play(self) -> int:
        """Run the session to its end; its exit status (the notices are the final text
        when it failed, where to continue when it stopped before the match's end)."""
        status = await self.session.run()
        self.status = status
        if status == 0 and self.model is not None and not self.model.over:
            self.final_text = self.session.saved_text()
        elif status != 0:
            self.final_text = "\n".join(self.notices)
        return status

    async def stop(self) -> None:
        """The player stops: the game is saved, the final text says how to continue."""
        self.session.stopped = True
        if self.model is not None and not self.model.over:
            self.final_text = self.session.saved_text()
        await self.session.close()

    # -- the session's front --------------------------------------------------------------
    def changed(self, model: TableModel) -> None:
        self.model = model
        self.display.redraw()

    def notice(self, text: str) -> None:
        self.notices.append(text)
        self.display.say(text)

    async def your_turn(self, model: TableModel, choices: Choices) -> bool:
        self.model = model
        self.display.offer(choices)
        return True

    async def deal_over(self, model: TableModel, lines: list[str]) -> None:
        self.model = model
        await self.display.hold(lines)

    async def match_over(self, model: TableModel, lines: list[str]) -> None:
        self.model = model
        self.final_text = "\n".join(lines)
        await self.display.hold(lines)
