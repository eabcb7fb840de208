"""The ranges of a server's number settings, in one place (no discord import: the table
service reads them too).

``/settings`` offers these ranges to the Discord client and checks every number again
against them (:func:`bot.discord_bot.ranges.in_range`, through
:func:`fits`). Older code stored whatever a forged interaction carried (``ai_pace:1e308``,
a turn timeout of 10¹² s or of 3 s), and such a row stays in the database: the settings a
new table takes are read through :func:`in_force`, which replaces every stored number
outside its range by the setting's default, so no table waits forever for an AI or a turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from storage import GuildSettings


def fits(value: object, low: float, high: float) -> bool:
    """``value`` is a number (not a bool) from ``low`` to ``high`` (finite bounds, so NaN
    and infinities never fit), and a whole number when ``low`` is an int."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # compared before any float(): an int of 400 digits is refused, not an OverflowError
    return low <= value <= high and (not isinstance(low, int) or float(value).is_integer())


TURN_TIMEOUT_MIN: Final = 10
TURN_TIMEOUT_MAX: Final = 86400
"""Whole seconds a player has for a turn."""
AI_PACE_MIN: Final = 0.0
AI_PACE_MAX: Final = 30.0
"""Seconds an AI player waits before it plays."""


def in_force(stored: GuildSettings) -> GuildSettings:
    """The server's settings as a new table uses them: each number outside its range
    (stored by older code) is the setting's default instead."""
    default = GuildSettings()
    return replace(
        stored,
        turn_timeout=(stored.turn_timeout
                      if fits(stored.turn_timeout, TURN_TIMEOUT_MIN, TURN_TIMEOUT_MAX)
                      else default.turn_timeout),
        ai_pace=(stored.ai_pace if fits(stored.ai_pace, AI_PACE_MIN, AI_PACE_MAX)
                 else default.ai_pace))
