"""Numbers and texts from slash-command options, checked again where they are used.

A slash option's ``min_value``/``max_value`` and ``min_length``/``max_length``
(``app_commands.Range``) are hints to the Discord client only: a forged interaction can
carry any number, NaN, infinity, ``1e308`` or a negative one, and a text of any length.
Every number a command keeps or acts on goes through :func:`in_range` first, which refuses
(a private :class:`UserError` naming the option and its range) anything outside
``low``..``high`` (the test is :func:`bot.setting_ranges.fits`, which also holds the
``/settings`` ranges and reads stored settings for new tables). A name a command keeps
goes through :func:`name_in_range`: cleaned to one line of visible characters
(:func:`bot.text_safety.clean_text`), it must keep 1 to ``high`` of them.
"""

from __future__ import annotations

from bot.discord_bot.answer import UserError
from bot.i18n import N_
from bot.i18n.commands import Option
from bot.setting_ranges import fits
from bot.text_safety import clean_text

WHOLE_OUT_OF_RANGE = N_("{option} must be a whole number from {low} to {high}.")
NUMBER_OUT_OF_RANGE = N_("{option} must be a number from {low} to {high}.")
# Translators: {option} is the name of a command's option (name); {high} a number. Line
# breaks and invisible characters are not counted (they are removed).
NAME_OUT_OF_RANGE = N_("{option} must be 1 to {high} visible characters long.")


def in_range(value: float, low: float, high: float, option: str) -> None:
    """Refuse ``value`` of slash option ``option`` unless it is a finite number from
    ``low`` to ``high`` (a whole number when ``low`` is an int)."""
    whole = isinstance(low, int)
    if not fits(value, low, high):
        raise UserError(WHOLE_OUT_OF_RANGE if whole else NUMBER_OUT_OF_RANGE,
                        option=Option(option), low=f"{low:g}", high=f"{high:g}")


def name_in_range(value: str, high: int, option: str) -> str:
    """``value`` of slash option ``option`` cleaned to one line of visible characters, as
    it is to be stored; refused unless 1 to ``high`` characters are left."""
    name = clean_text(value)
    if not 1 <= len(name) <= high:
        raise UserError(NAME_OUT_OF_RANGE, option=Option(option), high=str(high))
    return name
