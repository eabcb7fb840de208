"""Numbers from slash-command options, checked again where they are used.

A slash option's ``min_value``/``max_value`` (``app_commands.Range``) is a hint to the
Discord client only: a forged interaction can carry any number, NaN, infinity, ``1e308``
or a negative one. Every number a command keeps or acts on goes through :func:`in_range`
first, which refuses (a private :class:`UserError` naming the option and its range)
anything outside ``low``..``high``.
"""

from __future__ import annotations

import math

from bot.discord_bot.answer import UserError
from bot.i18n import N_
from bot.i18n.commands import Option

WHOLE_OUT_OF_RANGE = N_("{option} must be a whole number from {low} to {high}.")
NUMBER_OUT_OF_RANGE = N_("{option} must be a number from {low} to {high}.")


def in_range(value: float, low: float, high: float, option: str) -> None:
    """Refuse ``value`` of slash option ``option`` unless it is a finite number from
    ``low`` to ``high`` (a whole number when ``low`` is an int)."""
    whole = isinstance(low, int)
    fits = (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and low <= value <= high
            and (not whole or float(value).is_integer()))
    if not fits:
        raise UserError(WHOLE_OUT_OF_RANGE if whole else NUMBER_OUT_OF_RANGE,
                        option=Option(option), low=f"{low:g}", high=f"{high:g}")
