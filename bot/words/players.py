"""A seat's player as every front end names it (Discord, the web; the same rule for both).

A human is their stored name. An AI added without a name (a Discord lobby's **Add AI**, a
duplicate board's seats; stored as ``AI (rules)``) is worded ``AI n (level)`` after its seat
number, translated, so the AIs of one table are told apart; an AI given its own name (the
terminal's ``Bilal``) keeps it. Front ends clean or escape the name for their medium.
"""

from __future__ import annotations

from bot.i18n import Translator
from bot.service.seats import Seat, default_ai_name


def level_name(level: str, t: Translator) -> str:
    """An AI level as players read it (``search``, ``rules``, ``random`` in English)."""
    names = {
        "search": t.pgettext("AI level", "search"),
        "rules": t.pgettext("AI level", "rules"),
        "random": t.pgettext("AI level", "random"),
    }
    return names.get(level, level)


def says_level(seat: Seat, index: int | None) -> bool:
    """Whether :func:`player_name` of the seat already says its AI level (a front end then
    does not add it again)."""
    return (seat.is_ai and index is not None
            and seat.name == default_ai_name(seat.level or ""))


def player_name(seat: Seat, index: int | None, t: Translator) -> str:
    """The seat's player by name: ``AI 2 (rules)`` for an AI without its own name at seat
    ``index`` (``index`` None: its stored name), else the stored name as it is."""
    if says_level(seat, index):
        return t.gettext("AI {number} ({level})").format(
            number=index, level=level_name(seat.level or "", t))
    return seat.name


def level_words(level: str, t: Translator) -> str:
    """An AI level in players' words (``strong``, ``easy``, ``random``), never the engine's
    name of its method (``search``, ``rules``): what the web page shows."""
    names = {
        "search": t.pgettext("AI strength", "strong"),
        "rules": t.pgettext("AI strength", "easy"),
        "random": t.pgettext("AI strength", "random"),
    }
    return names.get(level, level)


def seat_player(seat: Seat, index: int, t: Translator) -> str:
    """Who sits at a seat, for the web page's seats: a human's name; an AI with its level
    in players' words — ``Bilal, AI (strong)`` when it has its own name, ``AI 2 (strong)``
    (after its seat) when not."""
    if not seat.is_ai:
        return seat.name
    level = level_words(seat.level or "", t)
    if says_level(seat, index):
        return t.gettext("AI {number} ({level})").format(number=index, level=level)
    return t.gettext("{name}, AI ({level})").format(name=seat.name, level=level)


def web_name(seat: Seat, index: int, t: Translator) -> str:
    """A seat's name in the web page's sentences: a human's or a named AI's own name
    (``Bilal``), an AI without a name ``AI 2 (strong)`` (:func:`seat_player`)."""
    return seat_player(seat, index, t) if says_level(seat, index) else seat.name
