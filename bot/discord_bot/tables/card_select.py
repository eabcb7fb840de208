"""One tap per card: which variant of a card the card select plays, and the leader's
signal control.

A card may have variants: a leader's signal (Turup, Arba'a Turub: ``strong`` / ``weak``
and a group's agreed words) and Tarabish's bella. A player who does not use them must not
pay a tap for them, so the card select's option for a card **is** one exact legal action
(:func:`preferred`), and picking the card plays it:

* **Signals** are chosen *before* the card with the panel's "Signal with my next lead"
  select (none by default). Choosing one redraws the panel so that each card of the select
  carries that signal; the choice lives in the panel itself (it survives a restart) and is
  gone after the lead, because the next panel is drawn afresh (no signal).
* **Bella** is announced for the player whenever the card played may carry it (the
  engine's ``auto_bella`` behaviour, a referee's choice for Discord: announcing bella never
  costs the player anything, and forgetting it loses 20 points; documented in docs/commands.md).

``custom_id`` of the signal select: ``tt:g:<table>:<version>:lead`` (values ``none`` or a
signal word). The card menus' other words live here too: a Truf bid card shows what it is
worth (:func:`bid_worth`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.discord_bot.drawing.texts import clip
from bot.discord_bot.ids import CustomIdKind, custom_id
from bot.discord_bot.router import SelectItem, admitted
from bot.i18n import Translator
from bot.words.events import signal_text, truf_bid_value
from games.actions import Action

NO_SIGNAL = "none"


def preferred(options: Sequence[Action], signal: str | None = None) -> Action:
    """The variant of one card the card select plays: the one with ``signal`` when chosen
    (else without a signal), with bella when it may carry it."""
    def rank(a: Action) -> tuple[int, int]:
        return (0 if a.signal == signal else 1, 0 if a.bella else 1)

    return min(options, key=rank)


def signal_words(legal: Sequence[Action]) -> list[str]:
    """The signals the seat may give with its lead now (in the engine's order)."""
    out: list[str] = []
    for a in legal:
        if a.type == "play" and a.signal and a.signal not in out:
            out.append(a.signal)
    return out


def signal_select(table_id: int, version: int, words: Sequence[str], chosen: str | None,
                  row: int, t: Translator) -> SignalSelect:
    """The "Signal with my next lead" select, ``chosen`` (or none) marked."""
    options = [discord.SelectOption(label=clip(t.gettext("No signal"), 100), value=NO_SIGNAL,
                                    default=chosen is None)]
    for w in words[:24]:
        options.append(discord.SelectOption(
            label=clip(t.gettext("Signal: {signal}").format(signal=signal_text(w, t)), 100),
            value=w, default=chosen == w))
    placeholder = clip(t.gettext("Signal with my next lead: {signal}").format(
        signal=signal_text(chosen, t) if chosen else t.gettext("none")), 150)
    return SignalSelect(table_id, version, options=options, placeholder=placeholder,
                        row=row)


class SignalSelect(SelectItem, template=CustomIdKind.SIGNAL.template(
        r"(?P<table>\d+):(?P<version>\d+):lead")):
    """The leader's signal for the next lead (see the module docstring). Like every table
    component, a click passes the router's server check first
    (:func:`~bot.discord_bot.router.admitted`)."""

    def __init__(self, table: int, version: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=custom_id(CustomIdKind.SIGNAL, table, version, "lead"), options=options or [],
            placeholder=placeholder[:150] or None, row=row))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[discord.Client],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        data = interaction.data
        raw = data.get("values", []) if data is not None else []
        value = str(raw[0]) if isinstance(raw, list) and raw else NO_SIGNAL
        if (got := await admitted(interaction, self.table, self.version)) is not None:
            await got[0].signal(interaction, got[1], None if value == NO_SIGNAL else value)


SIGNAL_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SignalSelect,)


def bid_worth(card: str, t: Translator) -> str:
    """A Truf bid card's value, shown under it in the bid menus: ``worth 10``."""
    # Translators: {value} is the number a Truf bid card is worth.
    return clip(t.gettext("worth {value}").format(value=t.number(truf_bid_value(card))), 100)
