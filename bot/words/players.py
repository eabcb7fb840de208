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
