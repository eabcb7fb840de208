"""Errors raised by the engine.

Every error carries a message written for the person who caused it: a player (for
``IllegalAction``), a table host (for ``OptionError``) or whoever wrote a record file
(for ``RecordError``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.suits import SUIT_NAMES

Param = int | str | Sequence[Any] | None
"""A value in a refusal: a number, a seat, a card code (``"KH"``), a suit index, a word, or a
list of those (see :class:`IllegalAction`)."""


def N_(template: str) -> str:
    """Mark a refusal template for extraction into the players' catalogs (the bot's
    ``python -m bot.i18n.catalogs`` reads ``games/*.py``); returns it unchanged. Templates
    given straight to :class:`IllegalAction` need no mark."""
    return template


class GameError(Exception):
    """Base class of every error the engine raises on purpose.

    ``GameError(template, **params)``: an English ``str.format`` sentence and its fields as
    data (see :class:`IllegalAction` for the kinds of fields), so a front end can word it
    in the reader's language; ``str(exc)`` is the English sentence. Without params the
    template is the message itself, braces and all (``RecordError(f"…")``)."""

    def __init__(self, template: str = "", /, **params: Param) -> None:
        super().__init__(english(template, params) if params else template)
        self.template = template
        self.params: dict[str, Param] = dict(params)


class IllegalAction(GameError):
    """An action the rules forbid at this moment; the state is left unchanged.

    ``IllegalAction(template, **params)``: ``template`` is an English ``str.format``
    sentence with named fields and ``params`` their values as data, so a front end can word
    the refusal in the reader's language (``bot.words.refusals``). The kind of each value
    is told by its field's name:

    * ``seat…`` a seat number (English ``seat 2``); ``seats…`` a list of them
      (``seat 1, seat 3``);
    * ``card…`` a card code (``KH``); ``cards…`` a list of codes (``9H, KH``);
    * ``suit…`` a suit index 0–3 (``hearts``); ``suit_one…`` the same, one card of it
      (``heart``);
    * ``action…`` an action type (``call_trump`` → ``call trump``);
    * ``parts…`` a list of ``(template, params)`` pairs, each a sentence of its own,
      joined with ``; ``;
    * anything else as written (numbers, a :func:`quote` of someone's input, a list of
      words joined with ``, ``).

    A list field whose name ends in ``_plus`` is joined with `` + `` instead, one ending in
    ``_or`` reads "or" where a language says so. ``reason`` is the English sentence
    (``"you must follow hearts: you hold 9H, KH"``); without params ``reason`` is the
    template itself, braces and all.
    """

    def __init__(self, template: str, /, **params: Param) -> None:
        super().__init__(template, **params)
        self.reason: str = self.args[0]


def english(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled with ``params`` in the engine's English (:class:`IllegalAction`);
    the template itself when its fields do not match."""
    try:
        return template.format(**{k: english_value(k, v) for k, v in params.items()})
    except (KeyError, IndexError, ValueError, TypeError):
        return template


def english_value(key: str, value: Any) -> str:
    """One refusal field in the engine's English (its kind from its name)."""
    joiner = " + " if key.endswith("_plus") else ", "
    if key.startswith("parts"):
        return "; ".join(english(str(t), dict(p)) for t, p in value)
    if isinstance(value, (list, tuple)):
        return joiner.join(english_value(key.replace("seats", "seat", 1)
                                         .replace("cards", "card", 1), v) for v in value)
    if key.startswith("seat"):
        return f"seat {value}"
    if key.startswith("suit_one"):
        return SUIT_NAMES[int(value)][:-1]
    if key.startswith("suit"):
        return SUIT_NAMES[int(value)]
    if key.startswith("action"):
        return str(value).replace("_", " ")
    return str(value)


class OptionError(GameError):
    """An unknown option or a bad option value; the message names the option and what is
    allowed (a template and its fields, like :class:`IllegalAction`: a table's host reads
    it in their language)."""


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
