"""The engine's refusals in players' words, in the reader's language.

The engine refuses a move with :class:`games.errors.IllegalAction`: an English
``str.format`` template (extracted into the catalogs from ``games/*.py``) and its fields as
data — seats, card codes, suit indices, action types, numbers (the field's name tells its
kind; see the class). :func:`refusal_text` is the one place that words a refusal, for every
front end (Discord's private refusals, the terminal table and its line mode, the deal
review): the template in the reader's language (``t.gettext``), each field as players read
it — a seat as the player's name, a card as ``K♣``, a suit as the language's suit word
(Somali: its symbol), an action as a word, numbers as the language writes them, lists
joined as the language joins them::

    refusal_text(exc, seating)          # exc: IllegalAction, or anything with
                                        # .template and .params (the service's refusal)
    refusal_text("it is not your turn (waiting for seat 2)", seating)

A plain reason without a template (an old stored reason, a message of another engine
version) is shown as it always was: translated when the catalog knows it, else as written
with ``seat N`` as names and card codes as symbols. A broken translation falls back to
the English template, worded the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.i18n import Translator, pgettext_noop
from bot.words.cards import card_text, suit_name, symbols_in
from bot.words.seating import Seating, join_names
from games.cards import SUITS
from games.errors import english

ACTION_CONTEXT = "action"
"""The gettext context of the action words (``t.pgettext("action", "call trump")``)."""

ACTION_WORDS: dict[str, str] = {
    "call_trump": pgettext_noop("action", "call trump"),
    "pass": pgettext_noop("action", "pass"),
    "bid": pgettext_noop("action", "bid"),
    "adjust": pgettext_noop("action", "adjust"),
    "declare_runs": pgettext_noop("action", "declare runs"),
    "play": pgettext_noop("action", "play"),
    "ask_partner": pgettext_noop("action", "ask partner"),
    "answer": pgettext_noop("action", "answer"),
    "kort": pgettext_noop("action", "kort"),
    "declare_kort": pgettext_noop("action", "declare kort"),
    "concede": pgettext_noop("action", "concede"),
}
"""Each action type as the engine's refusals name it (``play is not possible now``)."""

_SEAT = re.compile(r"\bseats? (\d+)\b")


class Refused(Protocol):
    """A refusal as data: :class:`games.errors.IllegalAction` or the table service's
    :class:`~bot.service.errors.RuleRefusal` (the same template and fields)."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


def refusal_text(refusal: Refused | str, seating: Seating) -> str:
    """``refusal`` in ``seating``'s language with players' names and card symbols."""
    if isinstance(refusal, str):
        return plain_reason(refusal, seating)
    template, params = refusal.template, refusal.params
    if not params:
        return plain_reason(template, seating)
    return _worded(template, params, seating)


def plain_reason(text: str, seating: Seating) -> str:
    """A reason without fields: its translation when the catalog has one, else the text as
    written with ``seat N`` as the player's name and card codes as symbols."""
    translated = seating.t.gettext(text)
    if translated != text:
        return translated
    named = _SEAT.sub(lambda m: seating.name(int(m.group(1))), text)
    return symbols_in(named)


def _worded(template: str, params: Mapping[str, Any], seating: Seating) -> str:
    try:
        values = {k: field_text(k, v, seating) for k, v in params.items()}
    except (TypeError, ValueError, IndexError, KeyError):
        return plain_reason(english(template, params), seating)
    for text in (seating.t.gettext(template), template):
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            continue
    return plain_reason(template, seating)


def field_text(key: str, value: Any, seating: Seating) -> str:
    """One field of a refusal in players' words (its kind from its name, as in
    :class:`games.errors.IllegalAction`)."""
    t = seating.t
    if value is None:
        return seating.name(None) if key.startswith("seat") else str(value)
    if key.startswith("parts"):
        return "; ".join(_worded(str(part[0]), dict(part[1]), seating) for part in value)
    if isinstance(value, (list, tuple)):
        item_key = key.replace("seats", "seat", 1).replace("cards", "card", 1)
        items = [field_text(item_key, v, seating) for v in value]
        if key.endswith("_plus"):
            return " + ".join(items)
        if key.startswith("seat"):
            return _join(items, t, "or" if key.endswith("_or") else "standard")
        return ", ".join(items)
    if key.startswith("seat"):
        return seating.name(int(value))
    if key.startswith("card"):
        return card_text(str(value))
    if key.startswith("suit"):
        return _suit_word(int(value), t, one=key.startswith("suit_one"))
    if key.startswith("action"):
        word = ACTION_WORDS.get(str(value))
        return t.pgettext(ACTION_CONTEXT, word) if word else str(value).replace("_", " ")
    if isinstance(value, int) and not isinstance(value, bool):
        return t.number(value)
    return str(value)


def _suit_word(index: int, t: Translator, *, one: bool) -> str:
    """The suit's word alone (Somali: its symbol); ``one`` card of it in English reads
    ``heart`` (the other languages' words do not change)."""
    word = suit_name(SUITS[index], t)
    if one and t.language == "en" and word.endswith("s"):
        return word[:-1]
    return word


def _join(names: Sequence[str], t: Translator, style: str) -> str:
    if style == "or":
        return t.join(names, "or") if names else ""
    return join_names(names, t)
