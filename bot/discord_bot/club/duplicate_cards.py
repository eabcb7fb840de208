"""Every member's score card, also with closed DMs: the **My results** button.

At an event's close each member of an entrant gets its score card by DM
(:mod:`bot.discord_bot.club.duplicate_posts`). The results thread's ranking carries a
**My results** button, and a member whose DMs are closed is named in the thread with the
same button: a click answers with the clicker's own score card, privately (an ephemeral
message only they see; a card too long for one message comes whole as a text file beside
its first page). Anyone who is not a member of an entrant of that event, or a click before
the close, is refused privately.

``custom_id``: ``dup:mr:<event>``.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Self

import discord

from bot.discord_bot.answer import Reply, UserError, answer
from bot.discord_bot.club.club_texts import clip
from bot.discord_bot.ids import CustomIdKind
from bot.discord_bot.languages import Languages
from bot.discord_bot.router import ButtonItem
from bot.i18n import N_, Translator

MESSAGE_CHARS = 1900

CardOf = Callable[[int, int, Translator], Awaitable[list[str] | None]]
"""``card_of(event, user, t)``: the user's score card lines in the event, None when the
user has none (not a member of an entrant, or the event is not closed)."""

_CARDS: weakref.WeakKeyDictionary[discord.Client, tuple[CardOf, Languages]] = (
    weakref.WeakKeyDictionary())


def bind(client: discord.Client, card_of: CardOf, languages: Languages) -> None:
    """Serve the **My results** clicks ``client`` receives with ``card_of``."""
    _CARDS[client] = (card_of, languages)


def my_results_view(event_id: int, t: Translator) -> discord.ui.View:
    """The **My results** button of an event."""
    view = discord.ui.View(timeout=None)
    view.add_item(MyResults(event_id, label=clip(t.gettext("My results"), 80)))
    return view


def card_reply(lines: list[str]) -> Reply:
    """The card privately: whole in the message when it fits, else its first page and the
    whole card as ``score-card.txt``."""
    text = "\n".join(lines)
    if len(text) <= MESSAGE_CHARS:
        return Reply(text, ephemeral=True)
    first: list[str] = []
    for line in lines:
        if len("\n".join([*first, line])) > MESSAGE_CHARS - 2:
            break
        first.append(line)
    return Reply("\n".join([*first, "…"]), files=[("score-card.txt", text.encode())],
                 ephemeral=True)


class MyResults(ButtonItem, template=CustomIdKind.MY_RESULTS.template(r"(?P<event>\d+)")):
    """**My results**: the clicker's score card, privately."""

    def __init__(self, event: int, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=label or None, emoji="📋", style=discord.ButtonStyle.primary,
            custom_id=f"{CustomIdKind.MY_RESULTS}:{event}"))
        self.event = event

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> Self:
        return cls(int(match["event"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bound = _CARDS.get(interaction.client)
        if bound is None:
            raise RuntimeError("no duplicate score cards are bound to this client")
        card_of, languages = bound
        t = await languages.reader(interaction)

        async def run() -> Reply:
            lines = await card_of(self.event, interaction.user.id, t)
            if lines is None:
                raise UserError(N_("you have no score card in this event"))
            return card_reply(lines)

        await answer(interaction, run, t=t, private_wait=True)
