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


QUOTE_LIMIT = 40
"""At most this many characters of someone's input are quoted back in an error message."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a short quotation for an error message, ``repr`` style, clipped to about
    ``limit`` characters with ``…``. It never fails and never grows with the input: a 2 MB
    string, a 5,000-digit number or a list nested 100,000 deep quote as a few dozen
    characters."""
    text = _short(value, limit + 1, 3)
    return text if len(text) <= limit else text[:limit] + "…"


def _short(value: object, budget: int, depth: int) -> str:
    """A ``repr`` of ``value`` that stops once ``budget`` characters are written."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 4 * budget:
            return f"<a number of about {int(value.bit_length() * 0.30103) + 1} digits>"
        return str(value)
    if isinstance(value, str):
        return repr(value[:budget])[: budget + 2]
    if isinstance(value, (list, tuple, dict)):
        if not value:
            return repr(value)
        open_, close = ("{", "}") if isinstance(value, dict) else ("[", "]")
        if depth == 0:
            return open_ + "…" + close
        items = list(value.items()) if isinstance(value, dict) else list(value[:budget])
        parts: list[str] = []
        used = 1
        for item in items:
            if used >= budget:
                parts.append("…")
                break
            if isinstance(item, tuple) and isinstance(value, dict):
                piece = (_short(item[0], budget - used, depth - 1) + ": "
                         + _short(item[1], budget - used, depth - 1))
            else:
                piece = _short(item, budget - used, depth - 1)
            parts.append(piece)
            used += len(piece) + 2
        return open_ + ", ".join(parts) + close
    return f"<{type(value).__name__}>"
