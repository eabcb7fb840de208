"""Numbers from slash-command options, checked again where they are used.

A slash option's ``min_value``/``max_value`` (``app_commands.Range``) is a hint to the
Discord client only: a forged interaction can carry any number, NaN, infinity, ``1e308``
or a negative one. Every number a command keeps or acts on goes through :func:`in_range`
first, which refuses (a private :class:`UserError` naming the option and its range)
anything outside ``low``..``high`` (the test is :func:`bot.setting_ranges.fits`, which
also holds the ``/settings`` ranges and reads stored settings for new tables).
"""

from __future__ import annotations

from bot.discord_bot.answer import UserError
from bot.i18n import N_
from bot.i18n.commands import Option
from bot.setting_ranges import fits

WHOLE_OUT_OF_RANGE = N_("{option} must be a whole number from {low} to {high}.")
NUMBER_OUT_OF_RANGE = N_("{option} must be a number from {low} to {high}.")


def in_range(value: float, low: float, high: float, option: str) -> None:
    """Refuse ``value`` of slash option ``option`` unless it is a finite number from
    ``low`` to ``high`` (a whole number when ``low`` is an int)."""
    whole = isinstance(low, int)
    if not fits(value, low, high):
        raise UserError(WHOLE_OUT_OF_RANGE if whole else NUMBER_OUT_OF_RANGE,
                        option=Option(option), low=f"{low:g}", high=f"{high:g}")
