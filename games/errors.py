"""Errors raised by the engine.

Every error carries a message written for the person who caused it: a player (for
``IllegalAction``), a table host (for ``OptionError``) or whoever wrote a record file
(for ``RecordError``).
"""

from __future__ import annotations


class GameError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(GameError):
    """An action the rules forbid at this moment; the state is left unchanged.

    ``reason`` is a sentence a player understands, e.g.
    ``"you must follow hearts: you hold 9H, KH"``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OptionError(GameError):
    """An unknown option or a bad option value; the message names the option and what is allowed."""


class RecordError(GameError):
    """A malformed game record; the message names the place (deal, action index, field)."""
